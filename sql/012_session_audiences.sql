-- A chat session belongs to the audiences it was opened for. The anonymous chat and `docschat ask`
-- (every audience, unless --audience) share this table: a session id printed by the CLI, pasted
-- as the widget's cookie, showed the internal answers of its history. A turn or a read continues a
-- session only for the same audiences (app/chat/sessions.py); null is every audience (the CLI),
-- which sessions opened before this revision also get: the widget starts them afresh.
alter table public.docs_chat_session add column audiences text[];
