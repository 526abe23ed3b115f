-- docs_gap_key: the grouping key of a question: its distinct stemmed words without stop words,
-- sorted ("How do I Reset my password?" and "reset password" are one gap). A question of stop
-- words or symbols only keys on its lower-cased, whitespace-collapsed text.
create or replace function public.docs_gap_key(question text) returns text
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

-- record_docs_chat_gap: counts one occurrence of a question (clipped to 500 characters) with what
-- became of it (`outcome`: refused_offtopic, refused_indomain, partly or answered; null when the
-- caller does not say), then deletes gaps not seen for retention_days. Returns the gap's count.
--   select public.record_docs_chat_gap('Does the Batch API stream?', 'batch.md', 0.61, true, 90, 'refused_indomain');
create or replace function public.record_docs_chat_gap(
  question text,
  best_page text,
  confidence real,
  refused boolean,
  retention_days integer default 90,
  outcome text default null
) returns integer
language sql
set search_path = ''
as $$
  delete from public.docs_chat_gap
  where last_seen < now() - pg_catalog.make_interval(days => retention_days);
  insert into public.docs_chat_gap as g (question_key, question, best_page, confidence, refused, outcome)
  values (public.docs_gap_key(question), pg_catalog.left(question, 500), best_page, confidence, refused, outcome)
  on conflict (question_key) do update
    set count = g.count + 1, last_seen = now(), question = excluded.question,
        best_page = excluded.best_page, confidence = excluded.confidence, refused = excluded.refused,
        outcome = excluded.outcome
  returning count;
$$;
