-- docs_search_text takes the question's everyday words as a fourth argument (issues 45/46): the
-- three-argument function is dropped, since beside the new one every call with two or three
-- arguments would be ambiguous; the repeatable step at head creates the new one
-- (sql/functions/docs_search_text.sql).
drop function if exists public.docs_search_text(text, text[], integer);
