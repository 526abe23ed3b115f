-- docs_lease_held(name): whether some owner holds the lease `name` now (taken and not lapsed).
--   select public.docs_lease_held('sync');
create or replace function public.docs_lease_held(lease_name text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select 1 from public.docs_lease where name = lease_name and expires_at > pg_catalog.clock_timestamp()
  );
$$;
