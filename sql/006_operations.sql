-- Operations: a record of every sync run (for `docschat status` and the admin console) and the
-- scheduler's last re-check. Applied by migrations/versions/2026_11_30_0006_operations.py.

-- One row per source per sync job. A job (one reindex request, one scheduler pick-up, one CLI sync)
-- shares its job_id across the sources it syncs.
create table public.docs_sync_run (
  id bigint generated always as identity primary key,
  job_id uuid not null,
  source text not null,
  trigger text not null check (trigger in ('cli', 'admin', 'scheduler')),
  state text not null check (state in ('queued', 'running', 'ok', 'error', 'interrupted')),
  commit text,                                   -- the branch head that was synced (git rev-parse)
  config_hash text,                              -- what else decides the chunks (globs, dir, sizes)
  started_at timestamptz,
  finished_at timestamptz,
  error text,                                    -- one line, for a person
  report jsonb not null default '{}'::jsonb,     -- the sync report (counts, model, seconds)
  created_at timestamptz not null default clock_timestamp()
);

create index docs_sync_run_job_idx on public.docs_sync_run (job_id);
create index docs_sync_run_source_idx on public.docs_sync_run (source, id desc);

create function public.trim_docs_sync_run() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- Keep the newest 1000 rows: enough history for an operator, never an archive.
  delete from public.docs_sync_run
  where id in (select id from public.docs_sync_run order by id desc offset 1000);
  return null;
end
$$;

create trigger docs_sync_run_keep_newest
after insert on public.docs_sync_run
for each statement execute function public.trim_docs_sync_run();

-- The scheduler's last re-check, whichever server process made it (one row).
create table public.docs_sync_schedule (
  id boolean primary key default true check (id),
  checked_at timestamptz not null,
  next_check_at timestamptz,
  checks bigint not null default 0
);

-- Returns the newest finished run (ok or error) and the newest ok run of each source.
create function public.docs_last_sync_runs()
returns table (
  source text, last_state text, last_commit text, last_started_at timestamptz,
  last_finished_at timestamptz, last_error text, last_report jsonb, last_trigger text,
  ok_commit text, ok_config_hash text, ok_finished_at timestamptz
)
language sql
stable
set search_path = ''
as $$
  select last.source, last.state, last.commit, last.started_at, last.finished_at, last.error, last.report,
         last.trigger, ok.commit, ok.config_hash, ok.finished_at
  from (
    select distinct on (r.source) r.*
    from public.docs_sync_run r
    where r.state in ('ok', 'error')
    order by r.source, r.id desc
  ) last
  left join lateral (
    select o.commit, o.config_hash, o.finished_at
    from public.docs_sync_run o
    where o.source = last.source and o.state = 'ok'
    order by o.id desc
    limit 1
  ) ok on true
$$;

-- Returns per source: pages, chunks, chunks per embedding model and chunks per audience.
create function public.docs_index_counts()
returns table (source text, pages bigint, chunks bigint, chunks_by_model jsonb, chunks_by_audience jsonb)
language sql
stable
set search_path = ''
as $$
  select s.source, count(distinct s.page), count(*),
         (select pg_catalog.jsonb_object_agg(m.model, m.n)
          from (select coalesce(d.embedding_model, 'none') as model, count(*) as n
                from public.docs_section d where d.source = s.source group by 1) m),
         (select pg_catalog.jsonb_object_agg(a.audience, a.n)
          from (select u.audience, count(*) as n
                from public.docs_section d, pg_catalog.unnest(d.audiences) as u(audience)
                where d.source = s.source group by 1) a)
  from public.docs_section s
  group by s.source
  order by s.source
$$;

alter table public.docs_sync_run enable row level security;
alter table public.docs_sync_schedule enable row level security;
revoke all on public.docs_sync_run, public.docs_sync_schedule from anon, authenticated;
-- The functions keep Postgres' default (executable by PUBLIC) and run with the caller's rights: the
-- tables' grants and row-level security decide what they can read.
