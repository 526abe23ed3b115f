-- docs_source_commit_version_bump: triggers on docs_source_commit that add one to
-- docs_index_version.version when a source's commit row is added, removed or changed (its
-- synced_at aside). Readers fill a code link's `{commit}` from that row (docs_section_href), so the
-- caches keyed on public.docs_index_state() (the search box, /llms.txt) must drop what they filled
-- with the old one, whoever wrote it: a sync's switch, a source removed, an update typed in psql.
-- A sync recording an unchanged commit leaves the version as it is. The row is compared as a whole
-- (jsonb), not column by column: the function then works with the table of any revision.
-- plpgsql: a trigger function cannot be written in sql.
--   update public.docs_source_commit set commit = '6f1c2a…' where source = 'server';
create or replace function public.docs_source_commit_version_bump() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_level = 'ROW' and tg_op = 'UPDATE'
     and pg_catalog.to_jsonb(old) operator(pg_catalog.-) 'synced_at'::text
         is not distinct from pg_catalog.to_jsonb(new) operator(pg_catalog.-) 'synced_at'::text then
    return null;
  end if;
  update public.docs_index_version set version = version + 1 where id;
  return null;
end
$$;

create or replace trigger docs_source_commit_version_bump
after insert or update or delete on public.docs_source_commit
for each row execute function public.docs_source_commit_version_bump();

create or replace trigger docs_source_commit_version_bump_truncate
after truncate on public.docs_source_commit
for each statement execute function public.docs_source_commit_version_bump();
