-- Undo 028_section_order.sql. docs_section_shown, whose rows gained page_order and section_order
-- (its return type changed), is dropped and made again as 2026_12_06_0027 had it, so that the
-- downgrades below find the return type they expect; docs_sync_switch, whose body writes the
-- columns, is made again as 0027 had it too. Their checksums are forgotten so the docschat that
-- runs next applies its own.
do $$
begin
  if pg_catalog.to_regclass('public.docschat_sql_file') is not null then
    delete from public.docschat_sql_file where name in ('docs_section_shown.sql', 'docs_sync_switch.sql');
  end if;
end
$$;
drop function if exists public.docs_section_shown;
alter table public.docs_section_stage drop column if exists page_order, drop column if exists section_order;
alter table public.docs_section drop column if exists page_order, drop column if exists section_order;

-- docs_section_shown(audiences): the sections `audiences` may see, as a reader sees them:
-- docs_section's reader columns (the page's place in its site included), `href` as public.docs_section_href gives it (a code link's
-- `{commit}` filled with the commit the source's rows were synced at). The commit row is joined
-- in this query, so a statement that reads from it reads the commit and the rows from one
-- snapshot. audiences has no default: a call says for whom; null gives no section (fail closed;
-- `$1 is null or …` would also change the generic plans). Runs with the caller's rights, row-level
-- security included. Postgres inlines it into the caller's query (a stable SQL function returning
-- a set, one SELECT, not strict, no SET clause): the plan is the one of the join written out in
-- the caller's statement. Hence no `set search_path` (docs_section_href.sql says what a SET
-- clause costs); the body names schema-qualified objects and pg_catalog's operators only. The
-- page list reads docs_page_shown instead (each page's href filled once, not every row's).
--   select s.id, s.href from public.docs_section_shown('{public}') s order by s.id;
create or replace function public.docs_section_shown(audiences text[])
returns table (
  id text, source text, page text, title text, heading text, breadcrumb text, href text, content text,
  audiences text[], place text[]
)
language sql
stable
parallel safe
as $$
  select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb,
         public.docs_section_href(d.href, c.commit, c.fill_hrefs), d.content, d.audiences, d.place
  from public.docs_section d
  left join public.docs_source_commit c on c.source operator(pg_catalog.=) d.source
  where d.audiences operator(pg_catalog.&&) docs_section_shown.audiences
$$;

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
     place)
  select s.id, s.source, s.page, s.title, s.heading, s.breadcrumb, s.href, s.content, s.audiences, s.content_hash,
         s.embedding, s.embedding_model, coalesce(s.place, '{}')
  from public.docs_section_stage s
  where s.gen = generation and s.kind = 'upsert'
  on conflict (id) do update set
    source = excluded.source, page = excluded.page, title = excluded.title, heading = excluded.heading,
    breadcrumb = excluded.breadcrumb, href = excluded.href, content = excluded.content,
    audiences = excluded.audiences, content_hash = excluded.content_hash,
    embedding = excluded.embedding, embedding_model = excluded.embedding_model, place = excluded.place,
    updated_at = now();

  update public.docs_section d
  set source = s.source, page = s.page, title = s.title, heading = s.heading, breadcrumb = s.breadcrumb,
      href = s.href, audiences = s.audiences, place = coalesce(s.place, '{}'), updated_at = now()
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
