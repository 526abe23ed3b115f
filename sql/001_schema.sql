-- docschat schema: the indexed documentation, cached question embeddings, chat sessions and
-- rate-limit windows. Applied by migrations/versions/2026_11_29_0001_schema.py.

create extension if not exists vector;

-- Supabase ships these roles; elsewhere we create them so the row-level security below means the same.
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

-- One row per chunk of a docs page: the overview or one section.
create table public.docs_section (
  id text primary key,                      -- stable chunk id: page path + anchor (+ part)
  page text not null,                       -- page path inside the docs folder, e.g. guides/widget.mdx
  title text not null,                      -- page title (front matter)
  heading text not null default '',         -- section heading; '' for the overview chunk
  breadcrumb text not null default '',      -- Page › Section › Subsection
  href text not null,                       -- /docs/<route>#<anchor>
  content text not null,                    -- the chunk text as shown to the model
  public boolean not null default false,    -- front matter `public`; absent means private
  content_hash text not null,               -- sha256(chunker version + embedded text)
  embedding public.vector(768),             -- null when synced without an embedding provider
  embedding_model text,                     -- the model that made `embedding`; never compare across models
  search_vector tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, title), 'A')
    || setweight(to_tsvector('english'::regconfig, heading), 'B')
    || setweight(to_tsvector('english'::regconfig, content), 'C')
  ) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index docs_section_search_vector_idx on public.docs_section using gin (search_vector);
create index docs_section_embedding_idx on public.docs_section using hnsw (embedding public.vector_cosine_ops);
create index docs_section_page_idx on public.docs_section (page);

-- Question embeddings, keyed by a hash of model + normalized question; the question is not stored.
create table public.docs_query_embedding (
  id text primary key,
  model text not null,
  embedding public.vector(768) not null,
  created_at timestamptz not null default clock_timestamp()
);

create index docs_query_embedding_created_at_idx on public.docs_query_embedding (created_at desc);

create function public.trim_docs_query_embedding() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- Keep the newest 200 rows: the cache is for repeated questions, not an archive.
  delete from public.docs_query_embedding
  where id in (
    select id from public.docs_query_embedding
    order by created_at desc, id desc
    offset 200
  );
  return null;
end
$$;

create trigger docs_query_embedding_keep_newest
after insert on public.docs_query_embedding
for each statement execute function public.trim_docs_query_embedding();

-- One conversation of one browser (the docs_chat_id cookie).
create table public.docs_chat_session (
  id uuid primary key,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.docs_chat_message (
  id bigint generated always as identity primary key,
  session_id uuid not null references public.docs_chat_session (id) on delete cascade,
  role text not null check (role in ('user', 'assistant')),
  content text not null,
  sources jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default clock_timestamp()
);

create index docs_chat_message_session_idx on public.docs_chat_message (session_id, id);

-- Fixed rate-limit windows: key = limit + hashed client IP.
create table public.docs_chat_limits (
  key text primary key,
  points integer not null,
  expire timestamptz not null
);

-- Row-level security with no policy: anon and authenticated read and write nothing.
-- The service connects as the owner, which RLS does not restrict.
alter table public.docs_section enable row level security;
alter table public.docs_query_embedding enable row level security;
alter table public.docs_chat_session enable row level security;
alter table public.docs_chat_message enable row level security;
alter table public.docs_chat_limits enable row level security;

grant select, insert, update, delete on
  public.docs_section, public.docs_query_embedding, public.docs_chat_session,
  public.docs_chat_message, public.docs_chat_limits
to anon, authenticated;
