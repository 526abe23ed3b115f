alter table public.docs_chat_session drop column audiences;
