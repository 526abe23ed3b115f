-- Undo 025_source_commit_href.sql. Rows synced since hold `{commit}` in their hrefs: sync every
-- code source with a `{commit}` link again, with `--full`, after the downgrade.
alter table public.docs_source_commit drop column if exists fill_hrefs;
