-- docs_search_box takes the question's everyday words (issues 45/46), as docs_search_text does
-- since 029: the sixteen-argument function is dropped, since beside the new one every call that
-- names no everyday words would be ambiguous; the repeatable step at head creates the new one
-- (sql/functions/docs_search_box.sql).
drop function if exists public.docs_search_box(text, text[], integer, integer, boolean, public.vector, text,
                                               integer, integer, integer, integer, integer, integer, float4[],
                                               integer, integer);
