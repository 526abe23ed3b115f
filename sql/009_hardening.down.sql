-- Undo 009_hardening.sql.
drop function if exists public.docs_app_secret_get_or_create(text, text);
drop table if exists public.docs_app_secret;
