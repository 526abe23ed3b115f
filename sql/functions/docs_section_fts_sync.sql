-- docs_section_fts_sync: statement triggers that keep public.docs_section_fts (id, audiences,
-- search_vector: what the full-text leg reads, sql/020_section_fts.sql) equal to docs_section,
-- in the statement's own transaction, whoever writes: a sync's switch (docs_sync_switch), a clear,
-- a hand-made update. One trigger per event, each with its transition table (Postgres allows one
-- event per trigger that has one); after the row trigger docs_section_search_vector_fill has set
-- the new rows' search_vector. An INSERT … ON CONFLICT DO UPDATE fires the insert trigger for the
-- rows it inserted and the update trigger for those it updated. Returns null (statement triggers).
-- plpgsql: a trigger function cannot be written in sql.
--   select count(*) from public.docs_section_fts;  -- = select count(*) from public.docs_section
create or replace function public.docs_section_fts_insert() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  insert into public.docs_section_fts (id, audiences, search_vector)
  select n.id, n.audiences, n.search_vector from new_rows n;
  return null;
end
$$;

-- An update may change anything, the id included: rows whose id is gone leave, the others are
-- written where what the leg reads changed (a metadata-only update rewrites nothing here).
-- The delete joins the two transition tables, so it is planned at each call (execute) for the
-- rows at hand: plpgsql would keep the plan made at the session's first call, and a switch's first
-- update is often empty (its upsert when only hrefs changed), whose plan, a nested loop over
-- new_rows, takes time in the square of the rows of the next, big update (design/scale-sync.md, Rejected).
create or replace function public.docs_section_fts_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  execute 'delete from public.docs_section_fts f
    using old_rows o
    where f.id = o.id and not exists (select 1 from new_rows n where n.id = o.id)';
  insert into public.docs_section_fts as f (id, audiences, search_vector)
  select n.id, n.audiences, n.search_vector from new_rows n
  on conflict (id) do update set audiences = excluded.audiences, search_vector = excluded.search_vector
  where (f.audiences, f.search_vector) is distinct from (excluded.audiences, excluded.search_vector);
  return null;
end
$$;

create or replace function public.docs_section_fts_delete() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  delete from public.docs_section_fts f using old_rows o where f.id = o.id;
  return null;
end
$$;

create or replace function public.docs_section_fts_truncate() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  truncate public.docs_section_fts;
  return null;
end
$$;

create or replace trigger docs_section_fts_insert
after insert on public.docs_section referencing new table as new_rows
for each statement execute function public.docs_section_fts_insert();

create or replace trigger docs_section_fts_update
after update on public.docs_section referencing old table as old_rows new table as new_rows
for each statement execute function public.docs_section_fts_update();

create or replace trigger docs_section_fts_delete
after delete on public.docs_section referencing old table as old_rows
for each statement execute function public.docs_section_fts_delete();

create or replace trigger docs_section_fts_truncate
after truncate on public.docs_section
for each statement execute function public.docs_section_fts_truncate();
