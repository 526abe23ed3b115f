-- Each section's place in its site (issue 46): the labels the site's navigation shows its page
-- under, outermost first (Mintlify tab › group, Docusaurus sidebar categories, MkDocs nav
-- sections; app/corpus/site.py), empty for a site without such navigation. Readers show it with
-- the title, so that the many pages titled "Overview" are told apart. An array, not the labels
-- joined: a label is the site's own text and may hold any separator; readers join it to show it.
alter table public.docs_section
  add column if not exists place text[] not null default '{}';
comment on column public.docs_section.place is
  'the labels its page stands under in the site''s navigation, outermost first (tab, group); empty: none';
alter table public.docs_section_stage add column if not exists place text[];

-- Rows written before this revision have no place, and the page keys of their pages would keep a
-- sync from composing them again (their files did not change): forget the keys, so the next sync
-- composes every page once and writes each row's place (a metadata update: its text, and so its
-- embedding, is unchanged).
delete from public.docs_page_key;
