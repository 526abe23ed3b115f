-- docs_section_href: a section's href as a reader sees it. A code source whose link names the
-- commit stores its hrefs with `{commit}` left in them (docs_source_commit.fill_hrefs): it is
-- filled here with the commit the source's rows were synced at, so that a new commit rewrites no
-- unchanged row (design/commit-in-hrefs.md). Any other href (a docs page's, a literal
-- `{commit}` in it included) is returned as stored. Every reader joins the source's commit row
-- in the statement that reads the section: one snapshot, so the commit and the rows it reads
-- are those of one sync (its readers: docs_section_shown, docs_page_shown, both search legs and
-- the search box). A single expression, which Postgres inlines into the caller's query:
-- hence no `set search_path` (a function with a SET clause is never inlined, and costs a call per
-- row: get_page over 33k code rows took 70 ms instead of 20); its body names pg_catalog only.
--   select public.docs_section_href(d.href, c.commit, c.fill_hrefs)
--   from public.docs_section d left join public.docs_source_commit c on c.source = d.source;
create or replace function public.docs_section_href(href text, commit text, fill_hrefs boolean)
returns text
language sql
immutable
parallel safe
as $$
  select case when fill_hrefs then pg_catalog.replace(href, '{commit}', commit) else href end
$$;
