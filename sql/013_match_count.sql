-- A null match_count is the default, 10, in both search functions; it was no limit. Called by
-- hand in psql, search_docs_sections('...', null) returned every section matching the question
-- (Postgres reads `limit null` as no limit), and match_docs_sections(..., null) every row of the
-- model, walking the whole HNSW index with its iterative scan. The app always passes a count
-- (leg_match_count), so its results do not change. A negative count still fails with Postgres'
-- own error, "LIMIT must not be negative". Signatures, columns and everything else are unchanged:
-- only `limit match_count` became `limit coalesce(match_count, 10)`. Applied by
-- migrations/versions/2026_12_01_0013_match_count.py.
--   select id, rank from public.search_docs_sections('how do I embed the widget', null);  -- 10 rows at most

-- search_docs_sections: as in sql/010_retrieval.sql, but a null match_count returns 10 rows.
create or replace function public.search_docs_sections(
  query_text text,
  match_count integer default 10,
  audiences text[] default null,
  max_term_share float8 default 0.25,  /* #15: was 0.5 */
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

-- match_docs_sections: as in sql/004_sources.sql, but a null match_count returns 10 rows.
--   select id, distance from public.match_docs_sections(
--     (select embedding from public.docs_section where embedding is not null limit 1),
--     (select embedding_model from public.docs_section where embedding is not null limit 1), null);
create or replace function public.match_docs_sections(
  query_embedding public.vector(768),
  model_name text,
  match_count integer default 10,
  audiences text[] default null
) returns table (
  id text, source text, page text, title text, heading text, breadcrumb text, href text, content text,
  audiences text[], distance float8
)
language sql stable
set search_path = ''
set hnsw.iterative_scan = 'relaxed_order'
set hnsw.ef_search = 100
set enable_seqscan = off
as $$
  with nearest as materialized (
    select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb, d.href, d.content, d.audiences,
           d.embedding operator(public.<=>) query_embedding as distance
    from public.docs_section d
    where d.embedding_model = model_name
      and (match_docs_sections.audiences is null
           or d.audiences operator(pg_catalog.&&) match_docs_sections.audiences)
    order by d.embedding operator(public.<=>) query_embedding
    limit coalesce(match_count, 10)
  )
  -- relaxed_order may return near-ties out of order: sort the few rows found.
  select * from nearest order by distance, id
$$;
