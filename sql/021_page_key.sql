-- Page-level skip (design/page-keys.md): per page of a docs source, the key of
-- what composing it read (its own blob id, the blob ids of the snippets it pasted or looked for,
-- the settings that change composition, CHUNKER_VERSION). A sync that finds a page's key unchanged
-- does not read or compose it: its rows stay as they are, counted "unchanged". Written only by a
-- sync's switch, in the transaction that writes the rows (public.docs_page_key_switch): a crash
-- never leaves a key for rows that were not written.
create table public.docs_page_key (
  source text not null,
  page text not null,
  key bytea not null,           -- sha256 of the fingerprint and each dependency's blob id
  deps text[] not null,         -- the paths composing the page read (relative to the source's dir)
  chunks integer not null,      -- its rows when the key was written,
  rows_xmin bigint not null,    -- and the sum of their xmin: a page whose rows were written since
                                -- (by hand, by any writer: a new xmin) or deleted is composed again
  declared boolean not null,    -- declares its audience (the undeclared-pages warning)
  warnings text[] not null default '{}',  -- its compose warnings, repeated when it is skipped
  primary key (source, page)
);

-- The keys of one sync's generation, applied by its switch (unlogged scratch, as docs_section_stage).
create unlogged table public.docs_page_key_stage (
  gen uuid not null references public.docs_sync_generation (gen) on delete cascade,
  source text not null,
  page text not null,
  key bytea not null,
  deps text[] not null,
  declared boolean not null,
  warnings text[] not null default '{}',
  primary key (gen, source, page)
);

do $$
declare
  table_name text;
begin
  foreach table_name in array array['docs_page_key', 'docs_page_key_stage'] loop
    execute format('alter table public.%I enable row level security', table_name);
    execute format('revoke all on table public.%I from public, anon, authenticated', table_name);
  end loop;
end
$$;
