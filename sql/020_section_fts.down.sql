-- Undo 020_section_fts.sql: the table, its triggers and their functions.
drop trigger if exists docs_section_fts_insert on public.docs_section;
drop trigger if exists docs_section_fts_update on public.docs_section;
drop trigger if exists docs_section_fts_delete on public.docs_section;
drop trigger if exists docs_section_fts_truncate on public.docs_section;
drop table if exists public.docs_section_fts;

-- The functions of sql/functions/ as 2026_12_02_0018 had them (they read docs_section), and the
-- trigger functions gone; their checksums are forgotten so the docschat that runs next applies its own.
drop function if exists public.docs_section_fts_insert(), public.docs_section_fts_update(),
  public.docs_section_fts_delete(), public.docs_section_fts_truncate();
delete from public.docschat_sql_file where name in ('docs_section_fts_sync.sql', 'search_docs_sections.sql', 'docs_term_coverage.sql');

-- search_docs_sections: the sections `audiences` may see that match the question's terms, best
-- first: at most match_count of them (null: 10). The rank is a sum over terms of IDF × ts_rank of that term alone (title >
-- heading > body weights), so a section matching more, and rarer, terms ranks higher.
-- Cost follows the rows touched, so candidates come from the rarest terms only (as in MaxScore):
-- terms are taken rarest first while their rows add up to at most candidate_rows; every term
-- then adds to the rank of those candidates. When even the rarest term is that common, the
-- candidates are the sections holding both of the two rarest terms. A term in more than
-- max_term_share of the visible sections is left out (design/retrieval-defaults.md), unless it is
-- the question's rarest or in fewer than cheap_ndoc sections. match_count and audiences have no
-- default: a call says how many and for whom (null audiences, said explicitly: every section).
--   select id, title, rank from public.search_docs_sections('how do I embed the widget', 5, '{public}');
create or replace function public.search_docs_sections(
  query_text text,
  match_count integer,                 -- null: 10
  audiences text[],                    -- who asks; null = every section
  max_term_share float8 default 0.25,
  max_terms integer default 12,
  cheap_ndoc integer default 100,
  candidate_rows integer default 2000,
  rank_weights float4[] default '{0.1, 0.4, 0.8, 1.0}',   -- {D, C body, B heading, A title}
  normalization integer default 0                         -- ts_rank flags; 0: chunks are already
                                                          -- bounded by MAX_CHUNK_CHARS, so no length norm
) returns table (
  id text, source text, page text, title text, heading text, breadcrumb text, href text, content text,
  audiences text[], rank float8
)
language sql stable
set search_path = ''
as $$
  with terms as (
    select q.lexeme, q.ndoc, q.idf,
           pg_catalog.quote_literal(q.lexeme)::pg_catalog.tsquery as query,
           pg_catalog.row_number() over (order by q.ndoc, q.lexeme) as rarity,
           sum(q.ndoc) over (order by q.ndoc, q.lexeme) as rows_so_far
    from public.docs_query_lexemes(query_text, search_docs_sections.audiences, max_term_share, max_terms, cheap_ndoc) as q
  ),
  candidate_query as (
    -- Lexemes are letters and digits only (docs_query_lexemes), quoted: the cast cannot fail.
    select case
      when min(t.ndoc) <= candidate_rows then
        pg_catalog.string_agg(pg_catalog.quote_literal(t.lexeme), ' | ')
          filter (where t.rows_so_far <= candidate_rows or t.rarity = 1)
      else
        pg_catalog.string_agg(pg_catalog.quote_literal(t.lexeme), ' & ') filter (where t.rarity <= 2)
    end::pg_catalog.tsquery as query
    from terms t
  ),
  candidates as materialized (
    select d.id, d.search_vector
    from candidate_query c
    join public.docs_section d on d.search_vector operator(pg_catalog.@@) c.query
    where search_docs_sections.audiences is null
       or d.audiences operator(pg_catalog.&&) search_docs_sections.audiences
  ),
  ranked as (
    select c.id, sum(t.idf * pg_catalog.ts_rank(rank_weights, c.search_vector, t.query, normalization)) as rank
    from candidates c
    cross join terms t
    group by c.id
    order by rank desc, c.id
    limit coalesce(match_count, 10)
  )
  select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb, d.href, d.content, d.audiences, r.rank
  from ranked r
  join public.docs_section d on d.id = r.id
  order by r.rank desc, d.id
$$;

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
  from public.docs_section d
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
