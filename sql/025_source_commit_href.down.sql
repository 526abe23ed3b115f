-- Undo 025_source_commit_href.sql. Below it no reader fills `{commit}`, and without fill_hrefs
-- nothing says which rows hold it: the hrefs of a source whose hrefs hold it are filled here with
-- the commit they were synced at, as the docschat before 0025 stored them (a docs source's
-- literal `{commit}` stays). Their rows change, so the next sync composes those pages again.
update public.docs_section d
set href = pg_catalog.replace(d.href, '{commit}', c.commit)
from public.docs_source_commit c
where c.source = d.source and c.fill_hrefs and pg_catalog.strpos(d.href, '{commit}') > 0;
alter table public.docs_source_commit drop column if exists fill_hrefs;
