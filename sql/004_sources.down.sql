-- Undo 004_sources.sql: back to one public flag and global term statistics (the index is emptied;
-- the next sync re-fills it).
truncate public.docs_section;

drop function public.match_docs_sections(public.vector, text, integer, text[]);
drop function public.search_docs_sections(text, integer, text[], float8, integer, integer, integer, float4[], integer);
drop function public.docs_query_lexemes(text, text[], float8, integer, integer);
drop function public.refresh_docs_search_stats();
drop table public.docs_lexeme_stats;
drop table public.docs_search_stats;
drop trigger docs_section_search_vector_fill on public.docs_section;
drop function public.fill_docs_section_search_vector();
alter table public.docs_section drop column search_vector;
drop function public.docs_section_search_vector(text, text, text, text);
drop index if exists public.docs_section_source_idx;

alter table public.docs_section
  drop column source,
  drop column audiences,
  add column public boolean not null default false,
  add column search_vector tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, title), 'A')
    || setweight(to_tsvector('english'::regconfig, heading), 'B')
    || setweight(to_tsvector('english'::regconfig, content), 'C')
  ) stored;
create index docs_section_search_vector_idx on public.docs_section using gin (search_vector);
-- The revision then re-applies 002_search.sql: global statistics and the public_only functions.
