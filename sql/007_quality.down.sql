drop function if exists public.docs_search_text(text, integer);
drop function if exists public.docs_one_edit_apart(text, text);
drop index if exists public.docs_lexeme_stats_tail_idx;
drop index if exists public.docs_lexeme_stats_head_idx;
