-- record_docs_chat_feedback: the rating (and comment, when given; a rating alone keeps an earlier
-- comment) of the assistant message `key` of session `session`, when that session was opened for
-- `audiences` (null: a session opened for every audience, the CLI's). Returns the message's id, or
-- null when there is no such message in that session: a visitor rates only their own answers.
-- comment and audiences have no default: a call that forgets the audiences fails.
create or replace function public.record_docs_chat_feedback(
  session uuid,
  key text,
  rating smallint,
  comment text,                        -- null: keep the earlier comment
  audiences text[]                     -- the session's audiences; null only for an every-audience session
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
create or replace function public.docs_chat_feedback_list(
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
