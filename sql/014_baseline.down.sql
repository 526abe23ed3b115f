-- Undo 014_baseline.sql: every docschat table (their triggers go with them). The functions of
-- sql/functions/ are dropped by the revision before this file runs. The extension and the roles
-- anon and authenticated are cluster-wide or may serve others: kept.
drop table if exists
  public.docs_chat_feedback, public.docs_app_secret, public.docs_source_commit, public.docs_sync_schedule,
  public.docs_sync_run, public.docs_chat_gap, public.docs_search_stats, public.docs_lexeme_stats,
  public.docs_chat_limits, public.docs_chat_message, public.docs_chat_session, public.docs_query_embedding,
  public.docs_section;
