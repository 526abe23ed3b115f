create or replace function public.docs_section_search_vector(title text, heading text, breadcrumb text, content text)
returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, coalesce(title, '')), 'A')
      || pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, coalesce(heading, '')), 'B')
      || pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, coalesce(content, '')), 'C')
$$;
update public.docs_section
set search_vector = public.docs_section_search_vector(title, heading, breadcrumb, content);
select public.refresh_docs_search_stats();
drop function if exists public.docs_search_text(text, text[], integer);
drop function if exists public.docs_one_edit_apart(text, text);
drop index if exists public.docs_lexeme_stats_tail_idx;
drop index if exists public.docs_lexeme_stats_head_idx;
