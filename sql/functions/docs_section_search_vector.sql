
-- docs_section_search_vector: the weighted full-text vector of a section: title (A), heading and
-- the breadcrumb's parent headings (B), content (C), every identifier also indexed by its words
-- (docs_identifier_words). A function (not a generated column) so that what is indexed can change
-- and the column be recomputed in place: a change here needs a numbered revision that runs
--   update public.docs_section set search_vector = public.docs_section_search_vector(title, heading, breadcrumb, content);
--   select public.refresh_docs_search_stats();
-- after the repeatable step (design/sql-layout.md). fill_docs_section_search_vector keeps the
-- column current on insert and update.
create or replace function public.docs_section_search_vector(title text, heading text, breadcrumb text, content text)
returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, public.docs_identifier_words(title)), 'A')
      || pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig,
           public.docs_identifier_words(coalesce(heading, '') || ' ' || coalesce(pg_catalog.array_to_string(
             (pg_catalog.string_to_array(breadcrumb, ' › '))[2:pg_catalog.cardinality(pg_catalog.string_to_array(breadcrumb, ' › ')) - 1],
             ' '), ''))), 'B')
      || pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, public.docs_identifier_words(content)), 'C')
$$;

create or replace function public.fill_docs_section_search_vector() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- A sync's metadata update sets title, heading and breadcrumb with every href it changes, most
  -- often to what they were: the vector (~2 ms a code row) is kept when none of its inputs moved
  -- and the update did not set the vector itself (then it is recomputed, as on insert).
  if tg_op = 'UPDATE' and (new.title, new.heading, new.breadcrumb, new.content, new.search_vector)
                          is not distinct from (old.title, old.heading, old.breadcrumb, old.content, old.search_vector) then
    return new;
  end if;
  new.search_vector := public.docs_section_search_vector(new.title, new.heading, new.breadcrumb, new.content);
  return new;
end
$$;

create or replace trigger docs_section_search_vector_fill
before insert or update of title, heading, breadcrumb, content on public.docs_section
for each row execute function public.fill_docs_section_search_vector();
