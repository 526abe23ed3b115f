-- docs_lease_release(name, owner): lets the lease go, if `owner` holds it. Returns whether it did.
--   select public.docs_lease_release('sync', '00000000-0000-0000-0000-000000000000');
create or replace function public.docs_lease_release(lease_name text, lease_owner uuid)
returns boolean
language sql
volatile
set search_path = ''
as $$
  with released as (
    delete from public.docs_lease where name = lease_name and owner = lease_owner
    returning 1
  )
  select exists (select 1 from released);
$$;
