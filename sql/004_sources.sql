-- Sources and audiences. Applied by migrations/versions/2026_11_30_0004_sources.py.
--
-- Every section belongs to a source (a docs tree or a code repository) and is shown to a set of
-- audiences ('public', 'internal', 'developer', ...). Both search functions take the audiences the
-- caller may see and filter inside the query, before the limit. Term statistics are kept per
-- audience set, so the full-text ranking of a request counts only the sections it may see: a word
-- found only in hidden sections behaves exactly like a word found nowhere.
--
--   select id, title, rank from public.search_docs_sections('how do I embed the widget', 5, '{public}');

-- The rows change shape (ids become per source): start from an empty index; the next sync
-- re-fills it, taking unchanged vectors from the embedding cache.
truncate public.docs_section;

drop function public.match_docs_sections(public.vector, text, integer, boolean);
drop function public.search_docs_sections(text, integer, boolean, float8, integer, integer, integer, float4[], integer);
drop function public.docs_query_lexemes(text, float8, integer, integer);
drop function public.refresh_docs_search_stats();
drop table public.docs_lexeme_stats;
drop table public.docs_search_stats;

alter table public.docs_section
  add column source text not null default 'docs',
  add column audiences text[] not null default '{internal}'
    check (pg_catalog.cardinality(audiences) > 0),
  drop column public;
alter table public.docs_section alter column source drop default;
comment on column public.docs_section.source is 'name of the source (docschat.toml [[sources]]) the section comes from';
comment on column public.docs_section.audiences is 'who may see the section; undeclared pages get their source''s default (internal unless configured)';

create index docs_section_source_idx on public.docs_section (source, page);

-- The weighted full-text vector of a section. A function (not a generated column) so that a
-- later revision can change what is indexed and recompute the column in place.
create function public.docs_section_search_vector(title text, heading text, breadcrumb text, content text)
returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, coalesce(title, '')), 'A')
      || pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, coalesce(heading, '')), 'B')
      || pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, coalesce(content, '')), 'C')
$$;

alter table public.docs_section drop column search_vector;
alter table public.docs_section add column search_vector tsvector not null default ''::tsvector;
create index docs_section_search_vector_idx on public.docs_section using gin (search_vector);

create function public.fill_docs_section_search_vector() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.search_vector := public.docs_section_search_vector(new.title, new.heading, new.breadcrumb, new.content);
  return new;
end
$$;

create trigger docs_section_search_vector_fill
before insert or update of title, heading, breadcrumb, content on public.docs_section
for each row execute function public.fill_docs_section_search_vector();

-- Document frequencies per audience set (the exact `audiences` array of the sections counted).
-- Sections fall into disjoint audience sets, so the sections visible to any request are a union
-- of whole sets: summing the sets that overlap the request gives its exact statistics.
create table public.docs_lexeme_stats (
  audiences text[] not null,
  lexeme text not null,
  ndoc integer not null,
  primary key (lexeme, audiences)
);

create table public.docs_search_stats (
  audiences text[] primary key,
  section_count integer not null,
  refreshed_at timestamptz not null default now()
);

alter table public.docs_lexeme_stats enable row level security;
alter table public.docs_search_stats enable row level security;

-- refresh_docs_search_stats: recomputes the per-audience-set statistics; returns the section count.
create function public.refresh_docs_search_stats() returns integer
language sql
set search_path = ''
as $$
  delete from public.docs_lexeme_stats;
  delete from public.docs_search_stats;
  insert into public.docs_lexeme_stats (audiences, lexeme, ndoc)
    select d.audiences, t.lexeme, count(*)::integer
    from public.docs_section d
    cross join lateral pg_catalog.unnest(d.search_vector) as t(lexeme, positions, weights)
    group by d.audiences, t.lexeme;
  insert into public.docs_search_stats (audiences, section_count)
    select d.audiences, count(*)::integer from public.docs_section d group by d.audiences;
  select coalesce(sum(section_count), 0)::integer from public.docs_search_stats;
$$;

-- docs_query_lexemes: the question's search terms with their document frequency and IDF among
-- the sections `audiences` may see (null: all sections), rarest first. Terms are words of 3+
-- characters, stemmed, minus English stop words; any text is safe.
create function public.docs_query_lexemes(
  query_text text,
  audiences text[] default null,       -- who asks; null = every section counts
  max_term_share float8 default 0.5,   -- drop terms found in more than this share of sections
                                       -- (as BM25, whose IDF is ~0 there)...
  max_terms integer default 12,        -- ...and keep at most this many of the rarest;
  cheap_ndoc integer default 100       -- a term in fewer sections than this is cheap: never dropped
) returns table (lexeme text, ndoc integer, idf float8)
language sql stable
set search_path = ''
as $$
  with words as (
    select distinct w.word
    from pg_catalog.regexp_split_to_table(
           pg_catalog.lower(pg_catalog.left(coalesce(query_text, ''), 4000)), '[^[:alnum:]]+') as w(word)
    where pg_catalog.length(w.word) >= 3
  ),
  lexemes as (
    select distinct l.lexeme
    from words
    cross join lateral pg_catalog.unnest(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, words.word)) as l
  ),
  corpus as (
    select greatest(coalesce(sum(s.section_count), 0), 1)::float8 as n
    from public.docs_search_stats s
    where docs_query_lexemes.audiences is null or s.audiences operator(pg_catalog.&&) docs_query_lexemes.audiences
  ),
  counted as (
    select l.lexeme,
           coalesce((select sum(s.ndoc) from public.docs_lexeme_stats s
                     where s.lexeme = l.lexeme
                       and (docs_query_lexemes.audiences is null
                            or s.audiences operator(pg_catalog.&&) docs_query_lexemes.audiences)), 0)::integer as ndoc
    from lexemes l
  ),
  scored as (
    select c.lexeme, c.ndoc,
           pg_catalog.ln(1 + (n.n - c.ndoc + 0.5) / (c.ndoc + 0.5)) as idf,
           n.n,
           pg_catalog.row_number() over (order by c.ndoc, c.lexeme) as rarity
    from counted c
    cross join corpus n
  )
  select lexeme, ndoc, idf
  from scored
  -- A frequent term matches most of the corpus: costly to rank and it says little. The rarest
  -- term is always kept so that a question made only of common words still finds something.
  where (ndoc <= max_term_share * n or ndoc < cheap_ndoc or rarity = 1)
    and rarity <= max_terms
  order by rarity
$$;

-- search_docs_sections: the sections `audiences` may see (null: all) that match the question's
-- terms, best first. The rank is a sum over terms of IDF × ts_rank of that term alone (title >
-- heading > body weights), so a section matching more, and rarer, terms ranks higher.
-- Cost follows the rows touched, so candidates come from the rarest terms only (as in MaxScore):
-- terms are taken rarest first while their rows add up to at most candidate_rows; every term
-- then adds to the rank of those candidates. When even the rarest term is that common, the
-- candidates are the sections holding both of the two rarest terms.
create function public.search_docs_sections(
  query_text text,
  match_count integer default 10,
  audiences text[] default null,
  max_term_share float8 default 0.5,
  max_terms integer default 12,
  cheap_ndoc integer default 100,
  candidate_rows integer default 2000,
  rank_weights float4[] default '{0.1, 0.4, 0.8, 1.0}',   -- {D, C body, B heading, A title}
  normalization integer default 0                         -- ts_rank flags; 0: chunks are already
                                                          -- bounded by MAX_CHUNK_CHARS, so no length norm
) returns table (
  id text, source text, page text, title text, heading text, breadcrumb text, href text, content text,
  audiences text[], rank float8
)
language sql stable
set search_path = ''
as $$
  with terms as (
    select q.lexeme, q.ndoc, q.idf,
           pg_catalog.quote_literal(q.lexeme)::pg_catalog.tsquery as query,
           pg_catalog.row_number() over (order by q.ndoc, q.lexeme) as rarity,
           sum(q.ndoc) over (order by q.ndoc, q.lexeme) as rows_so_far
    from public.docs_query_lexemes(query_text, search_docs_sections.audiences, max_term_share, max_terms, cheap_ndoc) as q
  ),
  candidate_query as (
    -- Lexemes are letters and digits only (docs_query_lexemes), quoted: the cast cannot fail.
    select case
      when min(t.ndoc) <= candidate_rows then
        pg_catalog.string_agg(pg_catalog.quote_literal(t.lexeme), ' | ')
          filter (where t.rows_so_far <= candidate_rows or t.rarity = 1)
      else
        pg_catalog.string_agg(pg_catalog.quote_literal(t.lexeme), ' & ') filter (where t.rarity <= 2)
    end::pg_catalog.tsquery as query
    from terms t
  ),
  candidates as materialized (
    select d.id, d.search_vector
    from candidate_query c
    join public.docs_section d on d.search_vector operator(pg_catalog.@@) c.query
    where search_docs_sections.audiences is null
       or d.audiences operator(pg_catalog.&&) search_docs_sections.audiences
  ),
  ranked as (
    select c.id, sum(t.idf * pg_catalog.ts_rank(rank_weights, c.search_vector, t.query, normalization)) as rank
    from candidates c
    cross join terms t
    group by c.id
    order by rank desc, c.id
    limit match_count
  )
  select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb, d.href, d.content, d.audiences, r.rank
  from ranked r
  join public.docs_section d on d.id = r.id
  order by r.rank desc, d.id
$$;

-- match_docs_sections: the sections `audiences` may see (null: all) nearest to a query vector by
-- cosine distance, among rows embedded by the same model. Iterative HNSW scans keep going past
-- filtered-out rows, so a restricted search still returns match_count rows when that many exist.
-- The planner prices distance computations low: at ef_search = 100 it picks an exact scan of
-- 10k rows (~25 ms) over the index (~0.5 ms). enable_seqscan = off keeps it on the index; with
-- no index it still scans the table exactly.
create function public.match_docs_sections(
  query_embedding public.vector(768),
  model_name text,
  match_count integer default 10,
  audiences text[] default null
) returns table (
  id text, source text, page text, title text, heading text, breadcrumb text, href text, content text,
  audiences text[], distance float8
)
language sql stable
set search_path = ''
set hnsw.iterative_scan = 'relaxed_order'
set hnsw.ef_search = 100
set enable_seqscan = off
as $$
  with nearest as materialized (
    select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb, d.href, d.content, d.audiences,
           d.embedding operator(public.<=>) query_embedding as distance
    from public.docs_section d
    where d.embedding_model = model_name
      and (match_docs_sections.audiences is null
           or d.audiences operator(pg_catalog.&&) match_docs_sections.audiences)
    order by d.embedding operator(public.<=>) query_embedding
    limit match_count
  )
  -- relaxed_order may return near-ties out of order: sort the few rows found.
  select * from nearest order by distance, id
$$;
