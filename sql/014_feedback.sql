-- Feedback on answers (issue 30): a visitor's 👍/👎 on one assistant message, with an optional
-- comment. It is stored against the message, so it goes when the session goes (Clear Chat, or the
-- session's deletion): no IP, no session of its own, nothing about the visitor beyond what they
-- typed. An assistant message is named to the browser by the stream's messageId (message_key).

alter table public.docs_chat_message add column message_key text
  check (message_key is null or pg_catalog.char_length(message_key) <= 64);
create unique index docs_chat_message_key on public.docs_chat_message (message_key) where message_key is not null;

create table public.docs_chat_feedback (
  message_id bigint primary key references public.docs_chat_message (id) on delete cascade,
  rating smallint not null check (rating in (-1, 1)),            -- 1: helpful, -1: not helpful
  comment text check (comment is null or pg_catalog.char_length(comment) <= 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index docs_chat_feedback_updated on public.docs_chat_feedback (updated_at);
-- Row-level security on and no grants, as docs_chat_gap (003): the owner, or an app role given its
-- policy by public.docs_grant_app_role (005), reads it.
alter table public.docs_chat_feedback enable row level security;
revoke all on public.docs_chat_feedback from public;
do $$
begin
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'anon') then
    revoke all on public.docs_chat_feedback from anon;
  end if;
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticated') then
    revoke all on public.docs_chat_feedback from authenticated;
  end if;
end
$$;

-- record_docs_chat_feedback: the rating (and comment, when given; a rating alone keeps an earlier
-- comment) of the assistant message `key` of session `session`, when that session was opened for
-- `audiences` (null: every audience, the CLI's). Returns the message's id, or null when there is
-- no such message in that session: a visitor rates only their own answers.
create function public.record_docs_chat_feedback(
  session uuid,
  key text,
  rating smallint,
  comment text default null,
  audiences text[] default null
) returns bigint
language sql
volatile
set search_path = ''
as $$
  insert into public.docs_chat_feedback as f (message_id, rating, comment)
  select m.id, rating, nullif(pg_catalog.btrim(comment), '')
  from public.docs_chat_message m
  join public.docs_chat_session s on s.id = m.session_id
  where m.message_key = key and m.session_id = session and m.role = 'assistant'
    and s.audiences is not distinct from audiences
  on conflict (message_id) do update set
    rating = excluded.rating,
    comment = coalesce(excluded.comment, f.comment),
    updated_at = now()
  returning f.message_id
$$;

-- docs_chat_feedback_list: feedback updated within `since` (all when null), newest first, each with
-- the question it answered (the session's last user message before the answer) and the answer.
create function public.docs_chat_feedback_list(
  since interval default null,
  max_rows integer default 500
) returns table (
  message_id bigint, rating smallint, comment text, question text, answer text, sources jsonb,
  updated_at timestamptz
)
language sql
stable
set search_path = ''
as $$
  select f.message_id, f.rating, f.comment,
         (select q.content from public.docs_chat_message q
          where q.session_id = m.session_id and q.role = 'user' and q.id < m.id
          order by q.id desc limit 1),
         m.content, m.sources, f.updated_at
  from public.docs_chat_feedback f
  join public.docs_chat_message m on m.id = f.message_id
  where since is null or f.updated_at >= pg_catalog.now() - since
  order by f.updated_at desc, f.message_id desc
  limit max_rows
$$;
