-- docs_sync_switch: applies the rows a sync staged under `generation` (docs_section_stage) to
-- docs_section, and keeps the per-audience-set statistics (docs_lexeme_stats, docs_search_stats)
-- current from the rows it touches only: what those rows counted is taken away before they are
-- written, what they count after is added (no rebuild from every tsvector). Returns the number of
-- staged rows. The caller holds the sync lock and has checked docs_index_version, in the same
-- transaction (app/indexing/sync_apply.py). plpgsql: an early return when nothing is staged, and
-- statements run in order on what the previous ones wrote.
--   select public.docs_sync_switch('6f1c…'::uuid);
create or replace function public.docs_sync_switch(generation uuid) returns bigint
language plpgsql
set search_path = ''
as $$
declare
  staged bigint;
begin
  select count(*) into staged from public.docs_section_stage s where s.gen = generation;
  if staged = 0 then
    return 0;
  end if;

  -- What the touched rows count now leaves the statistics (a set's row goes at zero).
  with touched as (
    select d.audiences, d.search_vector
    from public.docs_section_stage s
    join public.docs_section d on d.id = s.id
    where s.gen = generation
  ),
  counted as (
    select t.audiences, w.lexeme, count(*)::integer as n
    from touched t
    cross join lateral pg_catalog.unnest(t.search_vector) as w(lexeme, positions, weights)
    group by t.audiences, w.lexeme
  ),
  emptied as (
    delete from public.docs_lexeme_stats st using counted c
    where st.lexeme = c.lexeme and st.audiences = c.audiences and st.ndoc <= c.n
    returning 1
  )
  update public.docs_lexeme_stats st set ndoc = st.ndoc - c.n
  from counted c
  where st.lexeme = c.lexeme and st.audiences = c.audiences and st.ndoc > c.n;

  with counted as (
    select d.audiences, count(*)::integer as n
    from public.docs_section_stage s
    join public.docs_section d on d.id = s.id
    where s.gen = generation
    group by d.audiences
  ),
  emptied as (
    delete from public.docs_search_stats st using counted c
    where st.audiences = c.audiences and st.section_count <= c.n
    returning 1
  )
  update public.docs_search_stats st set section_count = st.section_count - c.n
  from counted c
  where st.audiences = c.audiences and st.section_count > c.n;

  insert into public.docs_section as d
    (id, source, page, title, heading, breadcrumb, href, content, audiences, content_hash, embedding, embedding_model,
     place, page_order, section_order)
  select s.id, s.source, s.page, s.title, s.heading, s.breadcrumb, s.href, s.content, s.audiences, s.content_hash,
         s.embedding, s.embedding_model, coalesce(s.place, '{}'), s.page_order, s.section_order
  from public.docs_section_stage s
  where s.gen = generation and s.kind = 'upsert'
  on conflict (id) do update set
    source = excluded.source, page = excluded.page, title = excluded.title, heading = excluded.heading,
    breadcrumb = excluded.breadcrumb, href = excluded.href, content = excluded.content,
    audiences = excluded.audiences, content_hash = excluded.content_hash,
    embedding = excluded.embedding, embedding_model = excluded.embedding_model, place = excluded.place,
    page_order = excluded.page_order, section_order = excluded.section_order, updated_at = now();

  update public.docs_section d
  set source = s.source, page = s.page, title = s.title, heading = s.heading, breadcrumb = s.breadcrumb,
      href = s.href, audiences = s.audiences, place = coalesce(s.place, '{}'), page_order = s.page_order,
      section_order = s.section_order, updated_at = now()
  from public.docs_section_stage s
  where s.gen = generation and s.kind = 'meta' and d.id = s.id;

  delete from public.docs_section d
  using public.docs_section_stage s
  where s.gen = generation and s.kind = 'delete' and d.id = s.id;

  -- What the touched rows count as written joins the statistics.
  insert into public.docs_lexeme_stats as st (audiences, lexeme, ndoc)
  select d.audiences, w.lexeme, count(*)::integer
  from public.docs_section_stage s
  join public.docs_section d on d.id = s.id
  cross join lateral pg_catalog.unnest(d.search_vector) as w(lexeme, positions, weights)
  where s.gen = generation and s.kind <> 'delete'
  group by d.audiences, w.lexeme
  on conflict (lexeme, audiences) do update set ndoc = st.ndoc + excluded.ndoc;

  insert into public.docs_search_stats as st (audiences, section_count)
  select d.audiences, count(*)::integer
  from public.docs_section_stage s
  join public.docs_section d on d.id = s.id
  where s.gen = generation and s.kind <> 'delete'
  group by d.audiences
  on conflict (audiences) do update set section_count = st.section_count + excluded.section_count;

  -- /llms.txt keys its cache on max(refreshed_at): every switch that writes moves it.
  update public.docs_search_stats set refreshed_at = now();
  return staged;
end
$$;
