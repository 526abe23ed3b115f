-- Least privilege: docs_grant_app_role(role) grants an app role (neither superuser nor owner)
-- exactly what docschat needs, with its own row-level security policy on each table, and
-- docs_revoke_api_roles() takes every privilege on docschat's tables from Supabase's API roles
-- (anon, authenticated). Both are the owner's only.
--   select * from public.docs_grant_app_role('docschat_app');

-- docschat's tables: every ordinary or partitioned table in schema public whose name starts with
-- docs_ (later migrations add theirs under the same prefix, and are covered without editing this).
create or replace function public.docs_app_tables() returns setof text
language sql
stable
set search_path = ''
as $$
  select c.relname::text
  from pg_catalog.pg_class c
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname like 'docs\_%'
  order by c.relname;
$$;

-- docs_revoke_api_roles(): revokes every privilege of anon and authenticated on docschat's tables
-- (Supabase's default privileges grant new tables to them); returns the tables it went over.
create or replace function public.docs_revoke_api_roles() returns setof text
language plpgsql
set search_path = ''
as $$
declare
  table_name text;
begin
  for table_name in select public.docs_app_tables() loop
    execute format('revoke all on table public.%I from anon, authenticated', table_name);
    return next table_name;
  end loop;
end
$$;

-- docs_grant_app_role(app_role): what the app needs, idempotent (run it again after each upgrade:
-- tables added since get theirs). Returns one row per object: its name and the privileges given.
--   usage on schema public; select, insert, update, delete on each docs_ table plus a policy
--   "docschat_app_<role>" (using true, with check true) for that role only; usage on docs_
--   sequences (serial columns); execute on docs_ functions kept from PUBLIC; select on alembic_version
--   (the server checks the revision at start). No truncate, references, trigger,
--   no DDL, no ownership. Functions are executable by PUBLIC (Postgres' default) and run with the
--   caller's rights, so they need nothing more.
create or replace function public.docs_grant_app_role(app_role text) returns table (object text, privileges text)
language plpgsql
set search_path = ''
as $$
declare
  table_name text;
  policy_name text := 'docschat_app_' || app_role;
  role_row record;
begin
  select rolname, rolsuper into role_row from pg_catalog.pg_roles where rolname = app_role;
  if not found then
    raise exception 'role "%" does not exist: create it first (create role "%" login password ''…'')',
      app_role, app_role using errcode = 'undefined_object';
  end if;
  if app_role in ('anon', 'authenticated', 'public') then
    raise exception 'role "%" is an API role: it gets no grants on docschat''s tables', app_role
      using errcode = 'invalid_parameter_value';
  end if;
  if role_row.rolsuper then
    raise exception 'role "%" is a superuser: the app role must be an ordinary role', app_role
      using errcode = 'invalid_parameter_value';
  end if;
  if length(policy_name) > 63 then
    raise exception 'role name "%" is too long (at most 50 characters)', app_role
      using errcode = 'name_too_long';
  end if;

  execute format('grant usage on schema public to %I', app_role);
  object := 'schema public'; privileges := 'usage';
  return next;

  perform public.docs_revoke_api_roles();
  for table_name in select public.docs_app_tables() loop
    execute format('grant select, insert, update, delete on table public.%I to %I', table_name, app_role);
    if not exists (
      select 1 from pg_catalog.pg_policies
      where schemaname = 'public' and tablename = table_name and policyname = policy_name
    ) then
      execute format('create policy %I on public.%I as permissive for all to %I using (true) with check (true)',
                     policy_name, table_name, app_role);
    end if;
    object := 'table public.' || table_name; privileges := 'select, insert, update, delete; policy ' || policy_name;
    return next;
  end loop;

  -- serial columns draw from sequences (identity columns need no grant; a later table may use serial).
  for table_name in
    select c.relname::text from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'S' and c.relname like 'docs\_%' order by c.relname
  loop
    execute format('grant usage on sequence public.%I to %I', table_name, app_role);
    object := 'sequence public.' || table_name; privileges := 'usage';
    return next;
  end loop;

  -- docschat's functions that a migration took away from PUBLIC (docs_app_secret_get_or_create):
  -- the app calls them. The two owner-only functions of this file stay the owner's.
  for table_name in
    select p.oid::pg_catalog.regprocedure::text from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.proname like 'docs\_%'
      and p.proname not in ('docs_grant_app_role', 'docs_revoke_api_roles')
    order by 1
  loop
    execute format('grant execute on function %s to %I', table_name, app_role);
    object := 'function ' || table_name; privileges := 'execute';
    return next;
  end loop;

  if pg_catalog.to_regclass('public.alembic_version') is not null then
    execute format('grant select on table public.alembic_version to %I', app_role);
    object := 'table public.alembic_version'; privileges := 'select';
    return next;
  end if;
  -- The checksums of sql/functions/ (app/db/repeatable.py): the server compares them at start.
  if pg_catalog.to_regclass('public.docschat_sql_file') is not null then
    execute format('grant select on table public.docschat_sql_file to %I', app_role);
    object := 'table public.docschat_sql_file'; privileges := 'select';
    return next;
  end if;
end
$$;

-- Only the owner (who runs migrations) grants.
revoke execute on function public.docs_grant_app_role(text) from public;
revoke execute on function public.docs_revoke_api_roles() from public;
