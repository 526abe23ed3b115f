-- trim_docs_sync_run: the trigger that keeps the newest 1000 sync runs.
create or replace function public.trim_docs_sync_run() returns trigger
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

create or replace trigger docs_sync_run_keep_newest
after insert on public.docs_sync_run
for each statement execute function public.trim_docs_sync_run();

-- docs_last_sync_runs: the newest finished run (ok or error) and the newest ok run of each source.
create or replace function public.docs_last_sync_runs()
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
