-- Batched sync (design/scale-sync.md): a sync writes its rows batch by batch into a generation of
-- docs_section_stage, outside any long transaction, and applies the whole generation to
-- docs_section in one short transaction (public.docs_sync_switch): a reader sees a source before
-- or after a sync, never half of it. Unlogged: staged rows are the sync's scratch (a crash empties
-- them, and a sync that was interrupted starts again); a replica never reads them.

-- One row per sync in progress; touched by each batch. A sync killed before its switch leaves its
-- generation behind: the next sync deletes generations untouched for an hour (their rows cascade).
create unlogged table public.docs_sync_generation (
  gen uuid primary key,
  started_at timestamptz not null default clock_timestamp(),
  touched_at timestamptz not null default clock_timestamp()
);

-- A staged row: 'upsert' (a new or re-embedded chunk, every column), 'meta' (metadata only:
-- content, content_hash and the embedding are null and stay as they are), 'delete' (the id only).
create unlogged table public.docs_section_stage (
  gen uuid not null references public.docs_sync_generation (gen) on delete cascade,
  id text not null,
  kind text not null check (kind in ('upsert', 'meta', 'delete')),
  source text,
  page text,
  title text,
  heading text,
  breadcrumb text,
  href text,
  content text,
  audiences text[],
  content_hash text,
  embedding public.vector(768),
  embedding_model text,
  primary key (gen, id)
);

-- Bumped by every statement that writes docs_section (trigger docs_section_version_bump): a sync
-- reads it before it plans its first batch, and its switch applies only if it is unchanged (else
-- another writer changed rows the plan relied on: the sync plans again).
create table public.docs_index_version (
  id boolean primary key default true check (id),
  version bigint not null default 0
);
insert into public.docs_index_version (id, version) values (true, 0);

do $$
declare
  table_name text;
begin
  foreach table_name in array array['docs_sync_generation', 'docs_section_stage', 'docs_index_version'] loop
    execute format('alter table public.%I enable row level security', table_name);
    execute format('revoke all on table public.%I from public, anon, authenticated', table_name);
  end loop;
end
$$;
