-- docs_app_secret_get_or_create: the secret called secret_name, storing candidate first when there is none yet.
-- One statement: concurrent first calls all return the one value that was stored (the
-- do-update form locks and returns the existing row instead of returning nothing).
create or replace function public.docs_app_secret_get_or_create(secret_name text, candidate text)
returns text
language sql
volatile
set search_path = ''
as $$
  insert into public.docs_app_secret as s (name, value)
  values (secret_name, candidate)
  on conflict (name) do update set value = s.value
  returning s.value;
$$;

revoke all on function public.docs_app_secret_get_or_create(text, text) from public;
