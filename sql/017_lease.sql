-- Leases: a named lock that lives in a row, not in a database session, so it holds through a
-- pooler in transaction mode (PgBouncer, Supavisor), where a session advisory lock would stay
-- with whichever server connection took it. `owner` is the holder's id; the holder renews
-- `expires_at` (a heartbeat) while it works, and a holder that died lets it lapse.
create table public.docs_lease (
  name text primary key,
  owner uuid not null,
  taken_at timestamptz not null default clock_timestamp(),
  expires_at timestamptz not null
);

alter table public.docs_lease enable row level security;
revoke all on table public.docs_lease from public, anon, authenticated;
