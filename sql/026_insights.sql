-- Insights (issue 48): daily rollup rows, written as events happen, so that reading a window of
-- days costs a few thousand rows whatever the traffic (never a scan of the messages). Days are
-- UTC dates. No IP, no session, no new identifier: counts, page URLs, and the wording of
-- questions and no-result queries, each kept only as long as its retention keeps the raw
-- material (sql/functions/docs_insights.sql, docs_insight_prune).

-- Chat per day: questions and what became of them; 👍/👎 given that day (a trigger on
-- docs_chat_feedback counts them, a changed rating moves from one column to the other).
create table public.docs_insight_day (
  day date primary key,
  questions integer not null default 0,
  answered integer not null default 0,
  partly integer not null default 0,
  refused integer not null default 0,
  helpful integer not null default 0,
  not_helpful integer not null default 0
);

-- Requests per day per door: chat (questions), search (the search box), mcp, llms_txt.
create table public.docs_insight_door (
  day date not null,
  door text not null check (door in ('chat', 'search', 'mcp', 'llms_txt')),
  requests bigint not null default 0,
  primary key (day, door)
);

-- Pages cited by answers per day (once per answer), by URL without its anchor.
create table public.docs_insight_page (
  day date not null,
  page text not null check (pg_catalog.char_length(page) <= 2000),
  title text not null check (pg_catalog.char_length(title) <= 500),  -- the latest title cited
  citations integer not null default 0,
  primary key (day, page)
);
create index docs_insight_page_page_idx on public.docs_insight_page (page, day);  -- a page's latest title

-- Queries that found nothing, per day and door (search: the search box's submitted queries;
-- chat: refused questions), as counts per normalized query (docs_insight_query_key).
create table public.docs_insight_no_result (
  day date not null,
  door text not null check (door in ('chat', 'search')),
  query_key text not null check (pg_catalog.char_length(query_key) <= 500),
  query text not null check (pg_catalog.char_length(query) <= 500),  -- the latest wording
  count integer not null default 0,
  primary key (day, door, query_key)
);
create index docs_insight_no_result_query_idx on public.docs_insight_no_result (query_key, door, day);  -- its latest wording

-- Groups of near-duplicate questions: the first question's embedding is the group's; a question
-- joins the nearest group within the near-duplicate cosine of its model, else starts one. A group
-- of a question asked without an embedding model has none (it groups by its key alone).
create table public.docs_insight_topic (
  id bigint generated always as identity primary key,
  model text,
  embedding public.vector(768)
);
create index docs_insight_topic_embedding_idx on public.docs_insight_topic
  using hnsw (embedding public.vector_cosine_ops);

-- Each group's questions still kept (an upper bound of its count in any window): the top questions
-- are read from the largest totals down, and the reading stops where no group left can reach the
-- list (docs_insight_top_questions). A table of its own: a change of a total must not rewrite the
-- group's row, whose embedding the HNSW index would take in again.
create table public.docs_insight_topic_total (
  topic_id bigint primary key references public.docs_insight_topic (id) on delete cascade,
  total bigint not null default 0
);
create index docs_insight_topic_total_idx on public.docs_insight_topic_total (total desc, topic_id desc);

-- Questions per day by docs_gap_key, in their group, with the latest wording and their outcomes.
create table public.docs_insight_question (
  day date not null,
  question_key text not null,
  topic_id bigint not null references public.docs_insight_topic (id) on delete cascade,
  question text not null check (pg_catalog.char_length(question) <= 500),
  count integer not null default 0,
  answered integer not null default 0,
  partly integer not null default 0,
  refused integer not null default 0,
  primary key (day, question_key)
);
create index docs_insight_question_key_idx on public.docs_insight_question (question_key);
create index docs_insight_question_topic_idx on public.docs_insight_question (topic_id, day);

do $$
declare
  table_name text;
begin
  foreach table_name in array array['docs_insight_day', 'docs_insight_door', 'docs_insight_page',
                                    'docs_insight_no_result', 'docs_insight_topic', 'docs_insight_topic_total',
                                    'docs_insight_question']
  loop
    execute format('alter table public.%I enable row level security', table_name);
    execute format('revoke all on table public.%I from public, anon, authenticated', table_name);
  end loop;
end
$$;
