-- The title and heading terms of docs_section_fts (weights A and B of search_vector), indexed:
-- search_docs_sections reads a common term's candidates that hold it there first, and the rest
-- only when those cannot make the list (design/fulltext-leg.md).
create index docs_section_fts_head_idx on public.docs_section_fts
  using gin (pg_catalog.ts_filter(search_vector, '{a,b}'));
