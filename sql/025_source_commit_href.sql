-- Code hrefs filled when read (design/commit-in-hrefs.md): a code source whose link
-- names the commit (`{commit}`) stores its sections' hrefs with `{commit}` left in them, and
-- readers fill it with the commit its rows were synced at (public.docs_section_href). Then a
-- new commit rewrites no unchanged row. Written with the commit, in the sync's switch.
alter table public.docs_source_commit
  add column if not exists fill_hrefs boolean not null default false;
comment on column public.docs_source_commit.fill_hrefs is
  'the source''s section hrefs hold {commit}, filled with `commit` when read (a code source whose link names the commit)';
