-- Undo 001_schema.sql. The roles anon and authenticated are cluster-wide and may serve others: kept.
drop table if exists public.docs_chat_limits;
drop table if exists public.docs_chat_message;
drop table if exists public.docs_chat_session;
drop trigger if exists docs_query_embedding_keep_newest on public.docs_query_embedding;
drop table if exists public.docs_query_embedding;
drop function if exists public.trim_docs_query_embedding();
drop table if exists public.docs_section;
