-- Undo 021_page_key.sql (the function docs_page_key_switch goes with its function file).
drop table if exists public.docs_page_key_stage, public.docs_page_key;
