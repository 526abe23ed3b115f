-- Undo 005_production.sql: drop the app-role policies and functions, restore 001's grants.
do $$
declare
  policy record;
begin
  for policy in
    select tablename, policyname from pg_catalog.pg_policies
    where schemaname = 'public' and policyname like 'docschat\_app\_%'
  loop
    execute format('drop policy %I on public.%I', policy.policyname, policy.tablename);
  end loop;
end
$$;

drop function if exists public.docs_grant_app_role(text);
drop function if exists public.docs_revoke_api_roles();
drop function if exists public.docs_app_tables();

grant select, insert, update, delete on
  public.docs_section, public.docs_query_embedding, public.docs_chat_session,
  public.docs_chat_message, public.docs_chat_limits
to anon, authenticated;
