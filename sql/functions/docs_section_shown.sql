-- docs_section_shown(audiences): the sections `audiences` may see, as a reader sees them:
-- docs_section's reader columns (the page's place in its site, and where the row reads: page_order,
-- section_order, included), `href` as public.docs_section_href gives it (a code link's
-- `{commit}` filled with the commit the source's rows were synced at). The commit row is joined
-- in this query, so a statement that reads from it reads the commit and the rows from one
-- snapshot. audiences has no default: a call says for whom; null gives no section (fail closed;
-- `$1 is null or …` would also change the generic plans). Runs with the caller's rights, row-level
-- security included. Postgres inlines it into the caller's query (a stable SQL function returning
-- a set, one SELECT, not strict, no SET clause): the plan is the one of the join written out in
-- the caller's statement. Hence no `set search_path` (docs_section_href.sql says what a SET
-- clause costs); the body names schema-qualified objects and pg_catalog's operators only. The
-- page list reads docs_page_shown instead (each page's href filled once, not every row's).
--   select s.id, s.href from public.docs_section_shown('{public}') s order by s.id;
create or replace function public.docs_section_shown(audiences text[])
returns table (
  id text, source text, page text, title text, heading text, breadcrumb text, href text, content text,
  audiences text[], place text[], page_order integer, section_order integer
)
language sql
stable
parallel safe
as $$
  select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb,
         public.docs_section_href(d.href, c.commit, c.fill_hrefs), d.content, d.audiences, d.place,
         d.page_order, d.section_order
  from public.docs_section d
  left join public.docs_source_commit c on c.source operator(pg_catalog.=) d.source
  where d.audiences operator(pg_catalog.&&) docs_section_shown.audiences
$$;
