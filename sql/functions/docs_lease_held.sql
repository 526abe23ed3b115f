-- docs_lease_held(name): whether some owner holds the lease `name` now (taken and not lapsed).
--   select public.docs_lease_held('sync');
-- plpgsql, not sql: the baseline revision applies every function file before 0017 creates
-- docs_lease, and a `language sql` body is checked against the tables when it is created.
create or replace function public.docs_lease_held(lease_name text)
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.docs_lease where name = lease_name and expires_at > pg_catalog.clock_timestamp()
  );
end
$$;
