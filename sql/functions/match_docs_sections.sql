-- match_docs_sections: the match_count (null: 10) sections `audiences` may see nearest to a query
-- vector by cosine distance, among rows embedded by the same model. match_count and audiences
-- have no default (null audiences, said explicitly: every section). Iterative HNSW scans keep going past
-- filtered-out rows, so a restricted search still returns match_count rows when that many exist.
-- The index is on embedding::halfvec(768) (migration 2026_12_02_0023, design/vector-index.md): the
-- candidates are ordered by that expression, exactly as the index has it, or the planner cannot
-- use it; `distance` is still the float32 cosine distance, so scores keep their precision. Each
-- section comes with its page's place in the site (docs_section.place).
-- The planner prices distance computations low: at ef_search = 100 it picks an exact scan of
-- 10k rows (~25 ms) over the index (~0.5 ms). enable_seqscan = off keeps it on the index; with
-- no index it still scans the table exactly.
--   select id, distance from public.match_docs_sections(
--     (select embedding from public.docs_section where embedding is not null limit 1),
--     (select embedding_model from public.docs_section where embedding is not null limit 1), 5, '{public}');
create or replace function public.match_docs_sections(
  query_embedding public.vector(768),
  model_name text,
  match_count integer,                 -- null: 10
  audiences text[]                     -- who asks; null = every section
) returns table (
  id text, source text, page text, title text, heading text, breadcrumb text, href text, content text,
  audiences text[], distance float8,
  place text[]                         -- the page's place in its site's navigation (tab, group); {}: none
)
language sql stable
set search_path = ''
set hnsw.iterative_scan = 'relaxed_order'
set hnsw.ef_search = 100
set enable_seqscan = off
as $$
  with nearest as materialized (
    select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb, d.href, d.content, d.audiences, d.place,
           d.embedding operator(public.<=>) query_embedding as distance
    from public.docs_section d
    where d.embedding_model = model_name
      and (match_docs_sections.audiences is null
           or d.audiences operator(pg_catalog.&&) match_docs_sections.audiences)
    order by d.embedding::public.halfvec(768) operator(public.<=>) query_embedding::public.halfvec(768)
    limit coalesce(match_count, 10)
  )
  -- relaxed_order may return near-ties out of order: sort the few rows found. The href as a
  -- reader sees it: a code link's `{commit}` filled (public.docs_section_href).
  select n.id, n.source, n.page, n.title, n.heading, n.breadcrumb,
         public.docs_section_href(n.href, c.commit, c.fill_hrefs), n.content, n.audiences, n.distance, n.place
  from nearest n
  left join public.docs_source_commit c on c.source = n.source
  order by n.distance, n.id
$$;
