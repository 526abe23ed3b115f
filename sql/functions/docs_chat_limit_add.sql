-- docs_chat_limit_add(key, window_seconds, added, lazy): adds `added` points to a client's count in
-- its current window (a new window of `window_seconds` when the last one has ended) and returns the
-- count and when the window ends (seconds since the epoch). One statement: safe behind a pooler in
-- transaction mode, and two workers adding at once are serialised on the row. `lazy`: the commit
-- does not wait for its WAL flush (synchronous_commit off for this transaction only): a crash may
-- lose the last increments, which lets a client a few requests more, never refuses one.
-- The chat's limiter adds 1 a request; the search box's adds a block a process then spends.
--   select * from public.docs_chat_limit_add('search:9f2c', 60, 10);
create or replace function public.docs_chat_limit_add(
  limit_key text, window_seconds double precision, added integer, lazy boolean default false
)
returns table (points integer, expire double precision)
language sql
volatile
set search_path = ''
as $$
  insert into public.docs_chat_limits as l (key, points, expire)
  select limit_key, added, now() + make_interval(secs => window_seconds)
  from (select case when lazy then pg_catalog.set_config('synchronous_commit', 'off', true) end) as commit_mode
  on conflict (key) do update set
    points = case when l.expire <= now() then excluded.points else l.points + excluded.points end,
    expire = case when l.expire <= now() then excluded.expire else l.expire end
  returning l.points, extract(epoch from l.expire)::double precision
$$;
