-- Undo 002_search.sql.
drop function if exists public.match_docs_sections(public.vector, text, integer, boolean);
drop function if exists public.search_docs_sections(text, integer, boolean, float8, integer, integer, integer, float4[], integer);
drop function if exists public.docs_query_lexemes(text, float8, integer, integer);
drop function if exists public.refresh_docs_search_stats();
drop table if exists public.docs_search_stats;
drop table if exists public.docs_lexeme_stats;
