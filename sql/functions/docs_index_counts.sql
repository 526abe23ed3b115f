-- docs_index_counts: per source, pages, chunks, chunks per embedding model and chunks per audience.
create or replace function public.docs_index_counts()
returns table (source text, pages bigint, chunks bigint, chunks_by_model jsonb, chunks_by_audience jsonb)
language sql
stable
set search_path = ''
as $$
  select s.source, count(distinct s.page), count(*),
         (select pg_catalog.jsonb_object_agg(m.model, m.n)
          from (select coalesce(d.embedding_model, 'none') as model, count(*) as n
                from public.docs_section d where d.source = s.source group by 1) m),
         (select pg_catalog.jsonb_object_agg(a.audience, a.n)
          from (select u.audience, count(*) as n
                from public.docs_section d, pg_catalog.unnest(d.audiences) as u(audience)
                where d.source = s.source group by 1) a)
  from public.docs_section s
  group by s.source
  order by s.source
$$;
