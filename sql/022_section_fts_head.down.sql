-- Undo 022_section_fts_head.sql: the index, and search_docs_sections as 2026_12_02_0021 had it
-- (it does not read the index); its checksum is forgotten so the docschat that runs next applies its own.
drop index if exists public.docs_section_fts_head_idx;
delete from public.docschat_sql_file where name = 'search_docs_sections.sql';

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
  ranked as (
    -- Candidates from the narrow docs_section_fts (id, audiences, search_vector: few, dense pages;
    -- design/fulltext-leg.md), each ranked where it is read: no materialised copy of the
    -- candidates' vectors, no grouping. The terms are summed in the same order as before.
    select d.id,
           (select sum(t.idf * pg_catalog.ts_rank(rank_weights, d.search_vector, t.query, normalization))
            from terms t) as rank
    from candidate_query c
    join public.docs_section_fts d on d.search_vector operator(pg_catalog.@@) c.query
    where search_docs_sections.audiences is null
       or d.audiences operator(pg_catalog.&&) search_docs_sections.audiences
    order by rank desc, d.id
    limit coalesce(match_count, 10)
  )
  select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb, d.href, d.content, d.audiences, r.rank
  from ranked r
  join public.docs_section d on d.id = r.id
  order by r.rank desc, d.id
$$;
