-- docs_lease_take(name, owner, seconds): takes the lease `name` for `owner` for `seconds` when no
-- one holds it (or its holder let it lapse: a process that died). Returns true when `owner` now
-- holds it (taking it again while holding it renews it), false when another owner does. One
-- statement, so it needs no session: safe behind a pooler in transaction mode. Two takers at once:
-- the second waits for the first's row, then finds it held.
--   select public.docs_lease_take('sync', gen_random_uuid(), 30);
create or replace function public.docs_lease_take(lease_name text, lease_owner uuid, seconds double precision default 30)
returns boolean
language sql
volatile
set search_path = ''
as $$
  with taken as (
    insert into public.docs_lease as l (name, owner, taken_at, expires_at)
    values (lease_name, lease_owner, pg_catalog.clock_timestamp(),
            pg_catalog.clock_timestamp() + pg_catalog.make_interval(secs => seconds))
    on conflict (name) do update
      set owner = excluded.owner,
          taken_at = case when l.owner = excluded.owner then l.taken_at else excluded.taken_at end,
          expires_at = excluded.expires_at
      where l.owner = excluded.owner or l.expires_at <= pg_catalog.clock_timestamp()
    returning 1
  )
  select exists (select 1 from taken);
$$;
