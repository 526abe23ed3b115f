-- Insights (issue 48): the writes and reads of the daily rollup tables of sql/026_insights.sql.
-- Days are UTC dates. Writers add to one row per day (and door, page, query or question); readers
-- read a window of days, `days` long and ending today, never every question of it (the top
-- questions come from the largest group totals down).
--   select * from public.docs_insight_days(30);
--   select * from public.docs_insight_top_questions(30, 30);
-- Nothing here stores an IP, a session or any other identifier of a reader.

-- docs_insight_today: the day an event is counted on, today's date in UTC (not the session's
-- TimeZone: every connection, pooled or not, counts on the same day).
create or replace function public.docs_insight_today() returns date
language sql
stable
set search_path = ''
as $$
  select (pg_catalog.now() at time zone 'UTC')::date
$$;

-- docs_insight_query_key: how no-result queries are counted together: lower-cased, whitespace
-- collapsed and trimmed, at most 500 characters ("  Kubernetes  HELM" and "kubernetes helm").
create or replace function public.docs_insight_query_key(query_text text) returns text
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.left(pg_catalog.btrim(pg_catalog.regexp_replace(
    pg_catalog.lower(coalesce(query_text, '')), '\s+', ' ', 'g')), 500)
$$;

-- record_docs_insight_turn: counts one chat question: its day's question and outcome (answered,
-- partly, refused; null: the turn failed before it was judged), a request at the chat door, each
-- page it cited (once), the question among the day's no-result queries when refused, and the
-- question in its group of near-duplicates: the group of an earlier question of the same
-- docs_gap_key, else the nearest group of the same model within near_cosine (cosine similarity
-- of the embeddings), else a new group, whose total it adds one to. Returns the group's id.
--   select public.record_docs_insight_turn('How do I reset my password?', 'answered',
--     '{https://docs.example.com/account}', '{Account}', null, null);
create or replace function public.record_docs_insight_turn(
  question_text text,
  turn_outcome text,                       -- answered, partly, refused, or null
  cited_pages text[],                      -- URLs without anchors, in the answer's order
  cited_titles text[],                     -- their titles, in the same order
  question_embedding public.vector(768),   -- null: no embedding model (grouped by key alone)
  embedding_model text,
  near_cosine real default 0.9
) returns bigint
language sql
volatile
set search_path = ''
as $$
  insert into public.docs_insight_day as d (day, questions, answered, partly, refused)
  values (public.docs_insight_today(), 1, coalesce((turn_outcome = 'answered')::integer, 0),
          coalesce((turn_outcome = 'partly')::integer, 0), coalesce((turn_outcome = 'refused')::integer, 0))
  on conflict (day) do update set
    questions = d.questions + 1, answered = d.answered + excluded.answered,
    partly = d.partly + excluded.partly, refused = d.refused + excluded.refused;

  insert into public.docs_insight_door as r (day, door, requests)
  values (public.docs_insight_today(), 'chat', 1)
  on conflict (day, door) do update set requests = r.requests + 1;

  insert into public.docs_insight_page as p (day, page, title, citations)
  select distinct on (c.page) public.docs_insight_today(), pg_catalog.left(c.page, 2000),
         pg_catalog.left(coalesce(c.title, c.page), 500), 1
  from rows from (pg_catalog.unnest(cited_pages), pg_catalog.unnest(cited_titles)) with ordinality as c (page, title, n)
  where c.page is not null and c.page <> ''
  order by c.page, c.n
  on conflict (day, page) do update set citations = p.citations + 1, title = excluded.title;

  insert into public.docs_insight_no_result as m (day, door, query_key, query, count)
  select public.docs_insight_today(), 'chat', public.docs_insight_query_key(question_text),
         pg_catalog.left(question_text, 500), 1
  where turn_outcome = 'refused' and public.docs_insight_query_key(question_text) <> ''
  on conflict (day, door, query_key) do update set count = m.count + 1, query = excluded.query;

  with known as (
    select q.topic_id from public.docs_insight_question q
    where q.question_key = public.docs_gap_key(question_text)
    limit 1
  ),
  near as (
    select n.id from (
      select t.id, t.embedding operator(public.<=>) question_embedding as distance
      from public.docs_insight_topic t
      where question_embedding is not null and t.model = embedding_model
      order by t.embedding operator(public.<=>) question_embedding
      limit 1
    ) n
    where n.distance <= 1 - near_cosine and not exists (select 1 from known)
  ),
  created as (
    insert into public.docs_insight_topic (model, embedding)
    select embedding_model, question_embedding
    where not exists (select 1 from known) and not exists (select 1 from near)
    returning id
  )
  insert into public.docs_insight_question as q (day, question_key, topic_id, question, count, answered, partly, refused)
  select public.docs_insight_today(), public.docs_gap_key(question_text),
         coalesce((select topic_id from known), (select id from near), (select id from created)),
         pg_catalog.left(question_text, 500), 1, coalesce((turn_outcome = 'answered')::integer, 0),
         coalesce((turn_outcome = 'partly')::integer, 0), coalesce((turn_outcome = 'refused')::integer, 0)
  where pg_catalog.btrim(coalesce(question_text, '')) <> ''
  on conflict (day, question_key) do update set
    count = q.count + 1, answered = q.answered + excluded.answered, partly = q.partly + excluded.partly,
    refused = q.refused + excluded.refused, question = excluded.question;

  insert into public.docs_insight_topic_total as t (topic_id, total)
  select q.topic_id, 1 from public.docs_insight_question q
  where q.day = public.docs_insight_today() and q.question_key = public.docs_gap_key(question_text)
  on conflict (topic_id) do update set total = t.total + 1
  returning t.topic_id
$$;

-- record_docs_insight_counts: adds what a server process counted in memory since its last call
-- (app/insights/record.py): requests per day and door (door_days, doors and door_requests in
-- step), and search-box queries that found nothing per day (miss_days, miss_queries and
-- miss_counts in step; each query counted under its docs_insight_query_key). Returns the rows
-- written.
--   select public.record_docs_insight_counts('{2026-12-06}', '{search}', '{3}', '{}', '{}', '{}');
create or replace function public.record_docs_insight_counts(
  door_days date[],
  doors text[],
  door_requests bigint[],
  miss_days date[],
  miss_queries text[],
  miss_counts integer[]
) returns integer
language sql
volatile
set search_path = ''
as $$
  with requests as (
    insert into public.docs_insight_door as r (day, door, requests)
    select c.day, c.door, pg_catalog.sum(c.requests)
    from rows from (pg_catalog.unnest(door_days), pg_catalog.unnest(doors), pg_catalog.unnest(door_requests))
      as c (day, door, requests)
    where c.requests > 0
    group by c.day, c.door
    on conflict (day, door) do update set requests = r.requests + excluded.requests
    returning 1
  ),
  misses as (
    insert into public.docs_insight_no_result as m (day, door, query_key, query, count)
    select c.day, 'search', public.docs_insight_query_key(c.query),
           pg_catalog.left((pg_catalog.array_agg(c.query order by c.n desc))[1], 500), pg_catalog.sum(c.count)::integer
    from rows from (pg_catalog.unnest(miss_days), pg_catalog.unnest(miss_queries), pg_catalog.unnest(miss_counts))
      with ordinality as c (day, query, count, n)
    where c.count > 0 and public.docs_insight_query_key(c.query) <> ''
    group by c.day, public.docs_insight_query_key(c.query)
    on conflict (day, door, query_key) do update set count = m.count + excluded.count, query = excluded.query
    returning 1
  )
  select ((select count(*) from requests) + (select count(*) from misses))::integer
$$;

-- docs_insight_feedback_count: the trigger that counts 👍/👎 on the day they are given; a changed
-- rating is taken off the day it was given before and counted today. A comment alone counts nothing.
create or replace function public.docs_insight_feedback_count() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    if new.rating = old.rating then
      return null;
    end if;
    update public.docs_insight_day d
    set helpful = greatest(0, d.helpful - (old.rating = 1)::integer),
        not_helpful = greatest(0, d.not_helpful - (old.rating = -1)::integer)
    where d.day = (old.updated_at at time zone 'UTC')::date;
  end if;
  insert into public.docs_insight_day as d (day, helpful, not_helpful)
  values (public.docs_insight_today(), (new.rating = 1)::integer, (new.rating = -1)::integer)
  on conflict (day) do update set
    helpful = d.helpful + excluded.helpful, not_helpful = d.not_helpful + excluded.not_helpful;
  return null;
end
$$;

create or replace trigger docs_insight_feedback_count
after insert or update of rating on public.docs_chat_feedback
for each row execute function public.docs_insight_feedback_count();

-- docs_insight_prune: deletes what insights keep only for a while (run hourly by the server's
-- insights recorder, and by docs_prune_expired): questions past chat_retention_days (as the
-- conversations they come from; their groups' totals lowered, a group left empty deleted),
-- no-result queries past gap_retention_days (as gaps), and the plain counts (days, doors, pages)
-- past the longer of the two. Returns how many rows of each kind.
--   select * from public.docs_insight_prune(30, 90);
create or replace function public.docs_insight_prune(
  chat_retention_days integer,
  gap_retention_days integer default 90
) returns table (kind text, deleted bigint)
language sql
volatile
set search_path = ''
as $$
  with bounds as (
    select public.docs_insight_today() - greatest(chat_retention_days, 1) as chat,
           public.docs_insight_today() - greatest(gap_retention_days, 1) as gap,
           public.docs_insight_today() - greatest(chat_retention_days, gap_retention_days, 1) as counts
  ),
  questions as (
    delete from public.docs_insight_question q using bounds where q.day < bounds.chat
    returning q.topic_id, q.count
  ),
  totals as (
    update public.docs_insight_topic_total t set total = greatest(0, t.total - gone.count)
    from (select topic_id, pg_catalog.sum(count) as count from questions group by topic_id) gone
    where t.topic_id = gone.topic_id
      and exists (select 1 from public.docs_insight_question q
                  where q.topic_id = t.topic_id and q.day >= (select chat from bounds))
    returning t.topic_id
  ),
  topics as (  -- the groups left without a question (never one the CTE above updates)
    delete from public.docs_insight_topic t
    where not exists (select 1 from public.docs_insight_question q
                      where q.topic_id = t.id and q.day >= (select chat from bounds))
    returning t.id
  ),
  misses as (
    delete from public.docs_insight_no_result m using bounds where m.day < bounds.gap returning 1
  ),
  days as (
    delete from public.docs_insight_day d using bounds where d.day < bounds.counts returning 1
  ),
  doors as (
    delete from public.docs_insight_door r using bounds where r.day < bounds.counts returning 1
  ),
  pages as (
    delete from public.docs_insight_page p using bounds where p.day < bounds.counts returning 1
  )
  select 'insight_questions', (select count(*) from questions)
  union all select 'insight_topics', (select count(*) from topics)
  union all select 'insight_no_results', (select count(*) from misses)
  union all select 'insight_counts', (select count(*) from days) + (select count(*) from doors) + (select count(*) from pages)
$$;

-- docs_insight_days: one row a day of the window (the `days` days ending today, at most 366),
-- zeros included: questions, answered, partly, refused, helpful, not_helpful.
create or replace function public.docs_insight_days(days integer)
returns table (day date, questions integer, answered integer, partly integer, refused integer,
               helpful integer, not_helpful integer)
language sql
stable
set search_path = ''
as $$
  select g.day::date, coalesce(d.questions, 0), coalesce(d.answered, 0), coalesce(d.partly, 0),
         coalesce(d.refused, 0), coalesce(d.helpful, 0), coalesce(d.not_helpful, 0)
  from pg_catalog.generate_series(
         public.docs_insight_today() - (least(greatest(days, 1), 366) - 1), public.docs_insight_today(),
         '1 day'::interval) as g (day)
  left join public.docs_insight_day d on d.day = g.day::date
  order by 1
$$;

-- docs_insight_doors: requests per day of the window per door (chat, search, mcp, llms_txt),
-- zeros included, by day then door.
create or replace function public.docs_insight_doors(days integer)
returns table (day date, door text, requests bigint)
language sql
stable
set search_path = ''
as $$
  select g.day::date, k.door, coalesce(r.requests, 0)
  from pg_catalog.generate_series(
         public.docs_insight_today() - (least(greatest(days, 1), 366) - 1), public.docs_insight_today(),
         '1 day'::interval) as g (day)
  cross join (values (1, 'chat'), (2, 'search'), (3, 'mcp'), (4, 'llms_txt')) as k (n, door)
  left join public.docs_insight_door r on r.day = g.day::date and r.door = k.door
  order by 1, k.n
$$;

-- docs_insight_top_pages: the pages answers cited most in the window (each answer counts a page
-- once), with their latest title; at most max_rows.
create or replace function public.docs_insight_top_pages(days integer, max_rows integer default 20)
returns table (page text, title text, citations bigint)
language sql
stable
set search_path = ''
as $$
  with top as (
    select p.page, pg_catalog.sum(p.citations) as citations
    from public.docs_insight_page p
    where p.day > public.docs_insight_today() - least(greatest(days, 1), 366)
    group by p.page
    order by 2 desc, 1
    limit max_rows
  )
  select top.page,
         (select p.title from public.docs_insight_page p
          where p.page = top.page and p.day > public.docs_insight_today() - least(greatest(days, 1), 366)
          order by p.day desc limit 1),
         top.citations
  from top
  order by top.citations desc, top.page
$$;

-- docs_insight_no_results: the queries that found nothing in the window, read no further back
-- than gap_retention_days: per door (search: the search box, chat: refused questions) and
-- normalized query, with the latest wording, how often, and the last day; at most max_rows.
create or replace function public.docs_insight_no_results(
  days integer,
  gap_retention_days integer,
  max_rows integer default 20
) returns table (door text, query text, count bigint, last_day date)
language sql
stable
set search_path = ''
as $$
  with top as (
    select m.door, m.query_key, pg_catalog.sum(m.count) as count, pg_catalog.max(m.day) as last_day
    from public.docs_insight_no_result m
    where m.day > public.docs_insight_today() - least(greatest(days, 1), 366, greatest(gap_retention_days, 1))
    group by m.door, m.query_key
    order by 3 desc, 4 desc, 2, 1
    limit max_rows
  )
  select top.door,
         (select m.query from public.docs_insight_no_result m
          where m.query_key = top.query_key and m.door = top.door and m.day = top.last_day),
         top.count, top.last_day
  from top
  order by top.count desc, top.last_day desc, top.query_key, top.door
$$;

-- docs_insight_top_questions: the questions asked most in the window, read no further back than
-- chat_retention_days, near-duplicates together: per group, the wording asked most (its latest
-- form), the group's count and outcomes, how many distinct wordings it holds, and its last day;
-- at most max_rows. Groups are read from the largest totals down (docs_insight_topic_total, the
-- questions a group holds in any window) in growing batches, and the reading stops once no group
-- left could reach the list: at a million questions it reads the rows of a few hundred groups,
-- not of every one (design/insights.md). Past max_groups groups read that way (counts too even
-- for totals to tell: a long tail of questions asked once), it groups the window's rows instead.
create or replace function public.docs_insight_top_questions(
  days integer,
  chat_retention_days integer,
  max_rows integer default 20,
  max_groups integer default 5000
) returns table (question text, count bigint, answered bigint, partly bigint, refused bigint,
                 wordings bigint, last_day date)
language plpgsql
stable
set search_path = ''
as $$
declare
  after date := public.docs_insight_today() - least(greatest(days, 1), 366, greatest(chat_retention_days, 1));
  wanted integer := greatest(coalesce(max_rows, 20), 1);
  batch integer := greatest(coalesce(max_rows, 20), 1) * 5;
  best jsonb := '[]';
  cutoff bigint := 0;    -- the wanted-th largest count so far
  ids bigint[];
  totals bigint[];
  last_total bigint := null;
  last_id bigint := null;
  read_groups integer := 0;
begin
  loop
    select pg_catalog.array_agg(t.topic_id order by t.total desc, t.topic_id desc),
           pg_catalog.array_agg(t.total order by t.total desc, t.topic_id desc)
    into ids, totals
    from (
      select t.topic_id, t.total from public.docs_insight_topic_total t
      where last_id is null or (t.total, t.topic_id) < (last_total, last_id)
      order by t.total desc, t.topic_id desc
      limit batch
    ) t;
    exit when ids is null;
    if read_groups >= max_groups then
      -- Totals this even bound nothing: every row of the window, grouped, costs less.
      select coalesce(pg_catalog.jsonb_agg(g order by g.count desc, g.last_day desc, g.topic_id), '[]')
      into best
      from (
        select q.topic_id, pg_catalog.sum(q.count) as count, pg_catalog.sum(q.answered) as answered,
               pg_catalog.sum(q.partly) as partly, pg_catalog.sum(q.refused) as refused, pg_catalog.max(q.day) as last_day
        from public.docs_insight_question q
        where q.day > after
        group by q.topic_id
        order by 2 desc, 6 desc, 1
        limit wanted
      ) g;
      exit;
    end if;
    read_groups := read_groups + pg_catalog.array_length(ids, 1);
    last_id := ids[pg_catalog.array_length(ids, 1)];
    last_total := totals[pg_catalog.array_length(totals, 1)];
    select coalesce(pg_catalog.jsonb_agg(g order by g.count desc, g.last_day desc, g.topic_id), '[]')
    into best
    from (
      select * from (
        -- (fields read by name: this function's output columns are variables here, and would
        -- replace the names of a column definition list)
        select (e ->> 'topic_id')::bigint as topic_id, (e ->> 'count')::bigint as count,
               (e ->> 'answered')::bigint as answered, (e ->> 'partly')::bigint as partly,
               (e ->> 'refused')::bigint as refused, (e ->> 'last_day')::date as last_day
        from pg_catalog.jsonb_array_elements(best) as e
        union all
        select q.topic_id, pg_catalog.sum(q.count), pg_catalog.sum(q.answered), pg_catalog.sum(q.partly),
               pg_catalog.sum(q.refused), pg_catalog.max(q.day)
        from public.docs_insight_question q
        where q.topic_id = any(ids) and q.day > after
        group by q.topic_id
      ) u
      order by u.count desc, u.last_day desc, u.topic_id
      limit wanted
    ) g;
    if pg_catalog.jsonb_array_length(best) >= wanted then
      cutoff := (best -> (wanted - 1) ->> 'count')::bigint;
    end if;
    -- Every group left holds at most last_total questions: none can pass the list's last.
    exit when pg_catalog.jsonb_array_length(best) >= wanted and last_total < cutoff;
    batch := least(batch * 2, 20000);
  end loop;
  return query
  select w.question, (e ->> 'count')::bigint, (e ->> 'answered')::bigint, (e ->> 'partly')::bigint,
         (e ->> 'refused')::bigint, w.wordings, (e ->> 'last_day')::date
  from pg_catalog.jsonb_array_elements(best) with ordinality as b (e, n)
  cross join lateral (
    select (pg_catalog.array_agg(k.question order by k.count desc, k.question_key))[1] as question,
           pg_catalog.count(*) as wordings
    from (
      select q.question_key, pg_catalog.sum(q.count) as count,
             (pg_catalog.array_agg(q.question order by q.day desc))[1] as question
      from public.docs_insight_question q
      where q.topic_id = (b.e ->> 'topic_id')::bigint and q.day > after
      group by q.question_key
    ) k
  ) w
  order by b.n;
end
$$;
