-- docs_lease_release(name, owner): lets the lease go, if `owner` holds it. Returns whether it did.
--   select public.docs_lease_release('sync', '00000000-0000-0000-0000-000000000000');
-- plpgsql, not sql: the baseline revision applies every function file before 0017 creates
-- docs_lease, and a `language sql` body is checked against the tables when it is created.
create or replace function public.docs_lease_release(lease_name text, lease_owner uuid)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
begin
  delete from public.docs_lease where name = lease_name and owner = lease_owner;
  return found;
end
$$;
