-- docs_index_state(): a text naming the index's state. It changes whenever a statement writes
-- docs_section (docs_index_version, bumped by a statement trigger: a sync's switch, `index clear`,
-- a revision, an update typed in psql) or the statistics are refreshed. The search box's result
-- cache and /llms.txt key on it: an answer computed before a page was made internal is never
-- served after.
--   select public.docs_index_state();
create or replace function public.docs_index_state() returns text
language sql
stable
set search_path = ''
as $$
  select v.version::text || '/' || coalesce((select max(s.refreshed_at)::text from public.docs_search_stats s), '')
  from public.docs_index_version v
$$;
