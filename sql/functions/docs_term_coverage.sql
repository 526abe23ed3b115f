-- docs_term_coverage: for each given section, the share of the question's IDF weight that the
-- section matches (0..1), with the matched and total weight and term counts, and unseen_idf, the
-- IDF of a word no section contains (the highest; it grows with the corpus, as ln N). Term
-- statistics are those of the sections `audiences` may see, as in search_docs_sections, and only
-- those sections are returned. `audiences` has no default (null, said explicitly: every section).
-- A question made of words the docs never use covers nothing. Unlike a ts_rank, the share is
-- comparable across questions and corpora.
--   select * from public.docs_term_coverage('how do I rotate an API key', array['docs:keys.mdx#rotate'], '{public}');
create or replace function public.docs_term_coverage(
  query_text text,
  section_ids text[],
  audiences text[],                     -- who asks (no default); null = every section
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
  from public.docs_section_fts d  -- id, audiences, search_vector (sql/020_section_fts.sql)
  cross join totals tot
  cross join corpus c
  left join lateral (
    select sum(t.idf) as matched_idf, count(*)::integer as matched_terms
    from terms t
    where d.search_vector operator(pg_catalog.@@) t.query
  ) m on true
  where d.id = any(section_ids)
    and (docs_term_coverage.audiences is null
         or d.audiences operator(pg_catalog.&&) docs_term_coverage.audiences)
  order by 2 desc, d.id
$$;
