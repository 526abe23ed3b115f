-- docs_lease_renew(name, owner, seconds): the holder's heartbeat: moves the expiry `seconds` ahead.
-- Returns false when `owner` no longer holds the lease (it lapsed and another owner took it).
--   select public.docs_lease_renew('sync', '00000000-0000-0000-0000-000000000000', 30);
create or replace function public.docs_lease_renew(lease_name text, lease_owner uuid, seconds double precision default 30)
returns boolean
language sql
volatile
set search_path = ''
as $$
  with renewed as (
    update public.docs_lease
    set expires_at = pg_catalog.clock_timestamp() + pg_catalog.make_interval(secs => seconds)
    where name = lease_name and owner = lease_owner
    returning 1
  )
  select exists (select 1 from renewed);
$$;
