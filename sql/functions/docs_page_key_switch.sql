-- docs_page_key_switch: applies the page keys a sync staged under `generation`
-- (docs_page_key_stage) to docs_page_key, in the switch's transaction (app/indexing/sync_apply.py), so
-- that a key is never there without the rows it describes. For each source in `synced`, the keys
-- left are those staged now and those of the pages the sync skipped (`kept_sources[i]`,
-- `kept_pages[i]`: unchanged keys); the keys of a page gone, composed without a key, or unreadable
-- go. With `configured` (not null), keys of other sources go too. Each key written records its
-- page's rows as they are now, written: their number and the sum of their xmin (a later write to
-- any of them changes it). Returns the number of keys written.
--   select public.docs_page_key_switch('6f1c…'::uuid, array['docs'], array['docs'], array['a.md'], null);
create or replace function public.docs_page_key_switch(
  generation uuid, synced text[], kept_sources text[], kept_pages text[], configured text[] default null
) returns bigint
language sql
volatile
set search_path = ''
as $$
  delete from public.docs_page_key k
  where k.source = any(synced)
    and not exists (
      select 1 from rows from (pg_catalog.unnest(kept_sources), pg_catalog.unnest(kept_pages)) as kept(source, page)
      where kept.source = k.source and kept.page = k.page
    );

  delete from public.docs_page_key k
  where configured is not null and not (k.source = any(configured));

  with written as (
    insert into public.docs_page_key as k (source, page, key, deps, chunks, rows_xmin, declared, warnings)
    select s.source, s.page, s.key, s.deps, r.n, r.x, s.declared, s.warnings
    from public.docs_page_key_stage s
    cross join lateral (
      select count(*)::integer as n, coalesce(sum(d.xmin::text::bigint), 0)::bigint as x
      from public.docs_section d
      where d.source = s.source and d.page = s.page
    ) r
    where s.gen = generation and s.source = any(synced)
    on conflict (source, page) do update set
      key = excluded.key, deps = excluded.deps, chunks = excluded.chunks, rows_xmin = excluded.rows_xmin,
      declared = excluded.declared, warnings = excluded.warnings
    returning 1
  )
  select count(*) from written;
$$;
