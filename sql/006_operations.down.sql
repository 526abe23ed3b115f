drop function if exists public.docs_index_counts();
drop function if exists public.docs_last_sync_runs();
drop table if exists public.docs_sync_schedule;
drop table if exists public.docs_sync_run;
drop function if exists public.trim_docs_sync_run();
