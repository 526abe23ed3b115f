-- Back to 014: no search box function.
drop function if exists public.docs_search_box(
  text, text[], integer, integer, boolean, public.vector, text, integer, integer, integer, integer, integer,
  integer, float4[], integer, integer);
