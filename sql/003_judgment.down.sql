-- Undo 003_judgment.sql.
drop function if exists public.record_docs_chat_gap(text, text, real, boolean, integer);
drop function if exists public.docs_gap_key(text);
drop table if exists public.docs_chat_gap;
drop function if exists public.docs_term_coverage(text, text[], text[], integer);
