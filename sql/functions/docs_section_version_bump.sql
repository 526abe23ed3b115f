-- docs_section_version_bump: a statement trigger on docs_section that adds one to
-- docs_index_version.version for every statement that inserts, updates or deletes sections, so a
-- sync can tell whether the index changed since it planned (design/scale-sync.md). plpgsql: a
-- trigger function cannot be written in sql.
--   select version from public.docs_index_version;
create or replace function public.docs_section_version_bump() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  update public.docs_index_version set version = version + 1 where id;
  return null;
end
$$;

create or replace trigger docs_section_version_bump
after insert or update or delete or truncate on public.docs_section
for each statement execute function public.docs_section_version_bump();
