-- Judgment: how much of a question the best sections cover (for the retrieval's confidence), and
-- the questions the docs did not answer well (docs_chat_gap).
-- Applied by migrations/versions/2026_11_30_0003_judgment.py.

-- docs_term_coverage: for each given section, the share of the question's IDF weight that the
-- section matches (0..1), with the matched and total weight and term counts, and unseen_idf, the
-- IDF of a word no section contains (the highest; it grows with the corpus, as ln N). Term
-- statistics are those of the sections `audiences` may see (null: all), as in search_docs_sections.
-- A question made of words the docs never use covers nothing. Unlike a ts_rank, the share is
-- comparable across questions and corpora.
--   select * from public.docs_term_coverage('how do I rotate an API key', array['docs:keys.mdx#rotate']);
create function public.docs_term_coverage(
  query_text text,
  section_ids text[],
  audiences text[] default null,
  max_terms integer default 32          -- the rarest terms of a long question carry its meaning
) returns table (
  id text, coverage float8, matched_idf float8, total_idf float8, matched_terms integer, total_terms integer,
  unseen_idf float8
)
language sql stable
set search_path = ''
as $$
  with terms as (
    -- Every term, common ones included (max_term_share 1): they weigh little through their IDF.
    select q.lexeme, q.idf, pg_catalog.quote_literal(q.lexeme)::pg_catalog.tsquery as query
    from public.docs_query_lexemes(query_text, audiences, 1.0, max_terms, 0) as q
  ),
  totals as (
    select coalesce(sum(t.idf), 0) as total_idf, count(*)::integer as total_terms from terms t
  ),
  corpus as (  -- as in docs_query_lexemes: BM25's IDF of a term found in no visible section
    select pg_catalog.ln(1 + (greatest(coalesce(sum(s.section_count), 0), 1) + 0.5) / 0.5) as unseen_idf
    from public.docs_search_stats s
    where docs_term_coverage.audiences is null
       or s.audiences operator(pg_catalog.&&) docs_term_coverage.audiences
  )
  select d.id,
         case when tot.total_idf > 0 then coalesce(m.matched_idf, 0) / tot.total_idf else 0 end,
         coalesce(m.matched_idf, 0),
         tot.total_idf,
         coalesce(m.matched_terms, 0),
         tot.total_terms,
         c.unseen_idf
  from public.docs_section d
  cross join totals tot
  cross join corpus c
  left join lateral (
    select sum(t.idf) as matched_idf, count(*)::integer as matched_terms
    from terms t
    where d.search_vector operator(pg_catalog.@@) t.query
  ) m on true
  where d.id = any(section_ids)
  order by 2 desc, d.id
$$;

-- docs_chat_gap: questions the docs did not answer (refused) or answered with low confidence,
-- grouped by a normalised key. Holds no IP and no session: only what was asked, how often, when.
create table public.docs_chat_gap (
  question_key text primary key,               -- docs_gap_key(question)
  question text not null check (pg_catalog.char_length(question) <= 500),  -- the latest wording
  count integer not null default 1 check (count > 0),
  first_seen timestamptz not null default now(),
  last_seen timestamptz not null default now(),
  best_page text,                              -- the best page found, if any
  confidence real not null,                    -- of the latest occurrence
  refused boolean not null                     -- the latest occurrence was refused
);
create index docs_chat_gap_last_seen on public.docs_chat_gap (last_seen);
-- Row-level security on and no grants: only the owner, or an app role given its policy by
-- public.docs_grant_app_role (005), reads it. Supabase's default privileges would grant a new
-- table to its API roles: take that back.
alter table public.docs_chat_gap enable row level security;
revoke all on public.docs_chat_gap from public;
do $$
begin
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'anon') then
    revoke all on public.docs_chat_gap from anon;
  end if;
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticated') then
    revoke all on public.docs_chat_gap from authenticated;
  end if;
end
$$;

-- docs_gap_key: the grouping key of a question: its distinct stemmed words without stop words,
-- sorted ("How do I Reset my password?" and "reset password" are one gap). A question of stop
-- words or symbols only keys on its lower-cased, whitespace-collapsed text.
create function public.docs_gap_key(question text) returns text
language sql immutable
set search_path = ''
as $$
  select coalesce(
    (select pg_catalog.string_agg(l.lexeme, ' ' order by l.lexeme)
     from pg_catalog.unnest(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig,
            pg_catalog.left(coalesce(question, ''), 500))) as l),
    pg_catalog.btrim(pg_catalog.regexp_replace(pg_catalog.lower(pg_catalog.left(coalesce(question, ''), 500)),
                                               '\s+', ' ', 'g'))
  )
$$;

-- record_docs_chat_gap: counts one occurrence of a question (clipped to 500 characters), then
-- deletes gaps not seen for retention_days. Returns the gap's count.
create function public.record_docs_chat_gap(
  question text,
  best_page text,
  confidence real,
  refused boolean,
  retention_days integer default 90
) returns integer
language sql
set search_path = ''
as $$
  delete from public.docs_chat_gap
  where last_seen < now() - pg_catalog.make_interval(days => retention_days);
  insert into public.docs_chat_gap as g (question_key, question, best_page, confidence, refused)
  values (public.docs_gap_key(question), pg_catalog.left(question, 500), best_page, confidence, refused)
  on conflict (question_key) do update
    set count = g.count + 1, last_seen = now(), question = excluded.question,
        best_page = excluded.best_page, confidence = excluded.confidence, refused = excluded.refused
  returning count;
$$;
