-- docs_section_fts: what the chat's full-text leg reads of each section (its id, audiences and
-- search_vector), narrow and dense: a docs_section row also carries the content, the metadata and
-- a pointer to its 768-dimension vector, so a leg's ~500-2,000 candidates each cost a heap page
-- there (design/fulltext-leg.md). Kept equal to docs_section by the statement triggers of
-- sql/functions/docs_section_fts_sync.sql, in the writing transaction: a sync's switch, a clear, a
-- metadata update all move it with docs_section, and a sync killed before its commit leaves both
-- as they were. Filled here from the rows there are; the index is built after the fill.
create table public.docs_section_fts (
  id text primary key,
  audiences text[] not null,
  search_vector tsvector not null
);
comment on table public.docs_section_fts is 'id, audiences, search_vector of every docs_section row, kept by the docs_section_fts_* triggers (the full-text leg reads it)';

insert into public.docs_section_fts (id, audiences, search_vector)
select d.id, d.audiences, d.search_vector from public.docs_section d;

create index docs_section_fts_search_vector_idx on public.docs_section_fts using gin (search_vector);

alter table public.docs_section_fts enable row level security;
revoke all on table public.docs_section_fts from public;
do $$
begin
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'anon') then
    revoke all on table public.docs_section_fts from anon;
  end if;
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticated') then
    revoke all on table public.docs_section_fts from authenticated;
  end if;
end
$$;
