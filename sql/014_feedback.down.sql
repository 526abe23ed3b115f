-- Back to 013: no feedback, no message keys.
drop function if exists public.docs_chat_feedback_list(interval, integer);
drop function if exists public.record_docs_chat_feedback(uuid, text, smallint, text, text[]);
drop table if exists public.docs_chat_feedback;
drop index if exists public.docs_chat_message_key;
alter table public.docs_chat_message drop column if exists message_key;
