-- Where each section reads (issue 46): its page's position in its site's navigation, and its own
-- position in its page, as compose made them (app/corpus/chunker.py Chunk.page_order,
-- section_order). Readers order by them (/docs/<page>, MCP get_page, /llms.txt, /llms-full.txt, the
-- chat's passages of one page) instead of reading the page's file and the site's configuration
-- from git at request time. Null page_order: a page the navigation does not list (it goes by its
-- path, after the listed ones). Null section_order: a row synced before this revision (its page's
-- rows read in id order until the next sync writes it).
alter table public.docs_section
  add column if not exists page_order integer,
  add column if not exists section_order integer;
comment on column public.docs_section.page_order is
  'its page''s position in the site''s navigation, 0 first; null: not listed there (by path, after the listed pages)';
comment on column public.docs_section.section_order is
  'its position in its page, 0 first (a long section''s parts right after it); null: synced before 2026_12_06_0028';
alter table public.docs_section_stage
  add column if not exists page_order integer,
  add column if not exists section_order integer;

-- Rows written before this revision have no position, and the page keys of their pages would keep
-- a sync from composing them again (their files did not change): forget the keys, so the next sync
-- composes every page once and writes each row's positions (a metadata update: its text, and so
-- its embedding, is unchanged).
delete from public.docs_page_key;
