-- docschat's tables, indexes and privileges as revisions 0001 to 0014 left them, in one file: the
-- baseline revision migrations/versions/2026_12_02_0014_baseline.py. Functions and their triggers
-- are not here: they live once each in sql/functions/ and are applied after this file (and after
-- every upgrade whose files changed); see design/sql-layout.md.

create extension if not exists vector;

-- Supabase ships these roles; elsewhere we create them so that revoking from them means the same.
do $$
begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'anon') then
    create role anon nologin;
  end if;
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticated') then
    create role authenticated nologin;
  end if;
end
$$;

-- One row per chunk of a source's page or file: the overview or one section.
create table public.docs_section (
  id text primary key,                      -- stable chunk id: source + page path + anchor (+ part)
  page text not null,                       -- page path inside the source, e.g. guides/widget.mdx
  title text not null,                      -- page title (front matter)
  heading text not null default '',         -- section heading; '' for the overview chunk
  breadcrumb text not null default '',      -- Page › Section › Subsection
  href text not null,                       -- /docs/<route>#<anchor>
  content text not null,                    -- the chunk text as shown to the model
  content_hash text not null,               -- sha256(chunker version + embedded text)
  embedding public.vector(768),             -- null when synced without an embedding provider
  embedding_model text,                     -- the model that made `embedding`; never compare across models
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  source text not null,
  audiences text[] not null default '{internal}' check (pg_catalog.cardinality(audiences) > 0),
  -- public.docs_section_search_vector(title, heading, breadcrumb, content), set by the trigger
  -- docs_section_search_vector_fill (sql/functions/docs_section_search_vector.sql)
  search_vector tsvector not null default ''::tsvector
);
comment on column public.docs_section.source is 'name of the source (docschat.toml [[sources]]) the section comes from';
comment on column public.docs_section.audiences is 'who may see the section; undeclared pages get their source''s default (internal unless configured)';
create index docs_section_embedding_idx on public.docs_section using hnsw (embedding public.vector_cosine_ops);
create index docs_section_page_idx on public.docs_section (page);
create index docs_section_search_vector_idx on public.docs_section using gin (search_vector);
create index docs_section_source_idx on public.docs_section (source, page);

-- Question embeddings, keyed by a hash of model + normalized question; the question is not stored.
-- The trigger docs_query_embedding_keep_newest keeps the newest 200.
create table public.docs_query_embedding (
  id text primary key,
  model text not null,
  embedding public.vector(768) not null,
  created_at timestamptz not null default clock_timestamp()
);
create index docs_query_embedding_created_at_idx on public.docs_query_embedding (created_at desc);

-- One conversation of one browser (the docs_chat_id cookie), or of `docschat ask`. A turn or a read
-- continues a session only for the audiences it was opened for; null: every audience (the CLI).
create table public.docs_chat_session (
  id uuid primary key,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  audiences text[]
);

-- message_key: an assistant message's name to the browser (the stream's messageId).
create table public.docs_chat_message (
  id bigint generated always as identity primary key,
  session_id uuid not null references public.docs_chat_session (id) on delete cascade,
  role text not null check (role in ('user', 'assistant')),
  content text not null,
  sources jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default clock_timestamp(),
  message_key text check (message_key is null or pg_catalog.char_length(message_key) <= 64)
);
create index docs_chat_message_session_idx on public.docs_chat_message (session_id, id);
create unique index docs_chat_message_key on public.docs_chat_message (message_key) where message_key is not null;

-- Fixed rate-limit windows: key = limit + hashed client IP.
create table public.docs_chat_limits (
  key text primary key,
  points integer not null,
  expire timestamptz not null
);

-- Term statistics per audience set (the exact `audiences` array of the sections counted), for IDF
-- weighting: sections fall into disjoint audience sets, so the sections visible to any request are
-- a union of whole sets. Refreshed by every sync (refresh_docs_search_stats).
create table public.docs_lexeme_stats (
  audiences text[] not null,
  lexeme text not null,
  ndoc integer not null,
  primary key (lexeme, audiences)
);
-- Typo candidates (docs_search_text) are found through the first and the last two letters.
create index docs_lexeme_stats_head_idx on public.docs_lexeme_stats (pg_catalog.left(lexeme, 2), pg_catalog.length(lexeme));
create index docs_lexeme_stats_tail_idx on public.docs_lexeme_stats (pg_catalog.right(lexeme, 2), pg_catalog.length(lexeme));

create table public.docs_search_stats (
  audiences text[] primary key,
  section_count integer not null,
  refreshed_at timestamptz not null default now()
);

-- Questions the docs did not answer (refused) or answered with low confidence, grouped by
-- docs_gap_key. Holds no IP and no session: only what was asked, how often, when.
create table public.docs_chat_gap (
  question_key text primary key,               -- docs_gap_key(question)
  question text not null check (pg_catalog.char_length(question) <= 500),  -- the latest wording
  count integer not null default 1 check (count > 0),
  first_seen timestamptz not null default now(),
  last_seen timestamptz not null default now(),
  best_page text,                              -- the best page found, if any
  confidence real not null,                    -- of the latest occurrence
  refused boolean not null                     -- the latest occurrence was refused
);
create index docs_chat_gap_last_seen on public.docs_chat_gap (last_seen);

-- One row per source per sync job (cli, admin or scheduler); the trigger docs_sync_run_keep_newest
-- keeps the newest 1000.
create table public.docs_sync_run (
  id bigint generated always as identity primary key,
  job_id uuid not null,
  source text not null,
  trigger text not null check (trigger in ('cli', 'admin', 'scheduler')),
  state text not null check (state in ('queued', 'running', 'ok', 'error', 'interrupted')),
  commit text,                                   -- the branch head that was synced (git rev-parse)
  config_hash text,                              -- what else decides the chunks (globs, dir, sizes)
  started_at timestamptz,
  finished_at timestamptz,
  error text,                                    -- one line, for a person
  report jsonb not null default '{}'::jsonb,     -- the sync report (counts, model, seconds)
  created_at timestamptz not null default clock_timestamp()
);
create index docs_sync_run_job_idx on public.docs_sync_run (job_id);
create index docs_sync_run_source_idx on public.docs_sync_run (source, id desc);

-- The scheduler's last re-check, whichever server process made it (one row).
create table public.docs_sync_schedule (
  id boolean primary key default true check (id),
  checked_at timestamptz not null,
  next_check_at timestamptz,
  checks bigint not null default 0
);

-- The commit each source was last synced at: code hrefs link to it, read_file reads it.
create table public.docs_source_commit (
  source text primary key,
  commit text not null,
  synced_at timestamptz not null default now()
);

-- Secrets shared by every docschat process on one database (the IP-hash key).
create table public.docs_app_secret (
  name text primary key,
  value text not null check (length(value) >= 32),
  created_at timestamptz not null default now()
);

-- A visitor's 👍/👎 on one assistant message, with an optional comment; it goes with the message.
create table public.docs_chat_feedback (
  message_id bigint primary key references public.docs_chat_message (id) on delete cascade,
  rating smallint not null check (rating in (-1, 1)),            -- 1: helpful, -1: not helpful
  comment text check (comment is null or pg_catalog.char_length(comment) <= 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index docs_chat_feedback_updated on public.docs_chat_feedback (updated_at);

-- Row-level security on every table, no policy, and no privilege for PUBLIC or Supabase's API
-- roles (whose default privileges would grant them new tables): only the owner, or an app role
-- given its policy by public.docs_grant_app_role, reads or writes.
do $$
declare
  table_name text;
begin
  for table_name in
    select c.relname from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and c.relname like 'docs\_%'
  loop
    execute format('alter table public.%I enable row level security', table_name);
    execute format('revoke all on table public.%I from public, anon, authenticated', table_name);
  end loop;
end
$$;
