-- docs_page_shown(audiences): the pages `audiences` may see, as a reader sees them: one row per
-- page (title, source, href without its anchor), the href filled as in docs_section_shown.sql (a
-- code link's `{commit}`, the commit row joined in this query). Each page is taken once as
-- stored, then filled: filling every row's href before the pages are made distinct sorts every
-- row instead (the page list over 33k code rows). audiences has no default; null gives no page.
-- Inlined into the caller's query as docs_section_shown is (no SET clause; schema-qualified
-- objects and pg_catalog's operators only).
--   select distinct p.title, p.href from public.docs_page_shown('{public}') p order by p.title;
create or replace function public.docs_page_shown(audiences text[])
returns table (title text, source text, href text)
language sql
stable
parallel safe
as $$
  select p.title, p.source, public.docs_section_href(p.href, c.commit, c.fill_hrefs)
  from (select distinct d.title, d.source, pg_catalog.split_part(d.href, '#', 1) as href
        from public.docs_section d
        where d.audiences operator(pg_catalog.&&) docs_page_shown.audiences) p
  left join public.docs_source_commit c on c.source operator(pg_catalog.=) p.source
$$;
