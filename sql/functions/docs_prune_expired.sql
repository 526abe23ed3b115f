-- docs_prune_expired: deletes what docschat keeps only for a while, and returns how many rows of
-- each kind it deleted (one row per kind, zero included). Run by the server every hour
-- (app/chat/retention.py, with CHAT_RETENTION_DAYS and GAP_RETENTION_DAYS); from psql:
--   select * from public.docs_prune_expired(30, 90);
--   sessions: conversations not used for retention_days (their messages and feedback cascade);
--   messages: messages older than retention_days in a conversation still in use;
--   limits: rate-limit windows that have expired (docs_chat_limits.expire <= now());
--   query embeddings: cached question vectors older than retention_days (the trigger
--   docs_query_embedding_keep_newest already keeps at most the newest 200);
--   gaps: unanswered questions not asked for gap_retention_days;
--   insights: the rollup rows docs_insight_prune deletes (sql/functions/docs_insights.sql).
-- Its one-argument form (before gaps) is dropped: a call `docs_prune_expired(30)` would otherwise
-- name two functions.
drop function if exists public.docs_prune_expired(integer);
create or replace function public.docs_prune_expired(retention_days integer default 30,
                                                     gap_retention_days integer default 90)
returns table (kind text, deleted bigint)
language sql
set search_path = ''
as $$
  with cutoff as (
    select pg_catalog.now() - pg_catalog.make_interval(days => greatest(retention_days, 1)) as at
  ),
  sessions as (
    delete from public.docs_chat_session s using cutoff
    where s.updated_at < cutoff.at
    returning s.id
  ),
  messages as (
    delete from public.docs_chat_message m using cutoff
    where m.created_at < cutoff.at and m.session_id not in (select id from sessions)
    returning m.id
  ),
  limits as (
    delete from public.docs_chat_limits l
    where l.expire <= pg_catalog.now()
    returning l.key
  ),
  embeddings as (
    delete from public.docs_query_embedding e using cutoff
    where e.created_at < cutoff.at
    returning e.id
  ),
  gaps as (
    delete from public.docs_chat_gap g
    where g.last_seen < pg_catalog.now() - pg_catalog.make_interval(days => greatest(gap_retention_days, 1))
    returning g.question_key
  ),
  insights as (
    select pg_catalog.sum(i.deleted)::bigint as deleted
    from public.docs_insight_prune(retention_days, gap_retention_days) i
  )
  select 'sessions', (select count(*) from sessions)
  union all select 'messages', (select count(*) from messages)
  union all select 'limits', (select count(*) from limits)
  union all select 'query_embeddings', (select count(*) from embeddings)
  union all select 'gaps', (select count(*) from gaps)
  union all select 'insights', (select deleted from insights)
$$;
