-- refresh_docs_search_stats: recomputes the per-audience-set statistics; returns the section count.
create or replace function public.refresh_docs_search_stats() returns integer
language sql
set search_path = ''
as $$
  delete from public.docs_lexeme_stats;
  delete from public.docs_search_stats;
  insert into public.docs_lexeme_stats (audiences, lexeme, ndoc)
    select d.audiences, t.lexeme, count(*)::integer
    from public.docs_section d
    cross join lateral pg_catalog.unnest(d.search_vector) as t(lexeme, positions, weights)
    group by d.audiences, t.lexeme;
  insert into public.docs_search_stats (audiences, section_count)
    select d.audiences, count(*)::integer from public.docs_section d group by d.audiences;
  select coalesce(sum(section_count), 0)::integer from public.docs_search_stats;
$$;
