-- 009: secrets shared by every docschat process on one database.
-- The IP-hash key lives here (unless IP_HASH_SECRET is set) so that replicas with different
-- DOCSCHAT_HOME folders hash one client to one rate-limit key.

create table if not exists public.docs_app_secret (
  name text primary key,
  value text not null check (length(value) >= 32),
  created_at timestamptz not null default now()
);

-- Row-level security with no policy and no grants: only the owner (the service) reads it.
alter table public.docs_app_secret enable row level security;
revoke all on public.docs_app_secret from public;

-- Returns the secret called secret_name, storing candidate first when there is none yet.
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
