-- docs_source_commit_record: records the commit each synced source was read at, and whether its
-- hrefs hold `{commit}` to fill with it (public.docs_section_href). Called by the sync's switch in
-- the transaction that writes the source's rows: a reader sees the new commit with the new rows,
-- or the old with the old. When a commit (or fill_hrefs) changes, docs_index_version goes up as
-- for a write to docs_section (trigger docs_source_commit_version_bump, which sees writes typed in
-- psql too): caches keyed on public.docs_index_state() (the search box, /llms.txt) then drop hrefs
-- filled with the old commit, even when no row was written. Returns the number of sources whose
-- commit or fill_hrefs changed.
--   select public.docs_source_commit_record('{server}', '{6f1c2a…}', '{true}');
create or replace function public.docs_source_commit_record(
  sources text[], commits text[], fills boolean[]
) returns integer
language sql
set search_path = ''
as $$
  with previous as (
    select c.source, c.commit, c.fill_hrefs from public.docs_source_commit c
  ),
  written as (
    insert into public.docs_source_commit as c (source, commit, fill_hrefs)
    select u.source, u.commit, u.fill
    from rows from (pg_catalog.unnest(sources), pg_catalog.unnest(commits), pg_catalog.unnest(fills))
      as u(source, commit, fill)
    on conflict (source) do update
      set commit = excluded.commit, fill_hrefs = excluded.fill_hrefs, synced_at = pg_catalog.now()
    returning c.source, c.commit, c.fill_hrefs
  ),
  changed as (
    select w.source from written w left join previous p on p.source = w.source
    where (p.commit, p.fill_hrefs) is distinct from (w.commit, w.fill_hrefs)
  )
  select count(*)::integer from changed
$$;
