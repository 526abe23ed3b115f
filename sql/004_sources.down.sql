-- Undo 004_sources.sql: back to one public flag and global term statistics (the index is emptied;
-- the next sync re-fills it).
truncate public.docs_section;

drop function public.match_docs_sections(public.vector, text, integer, text[]);
drop function public.search_docs_sections(text, integer, text[], float8, integer, integer, integer, float4[], integer);
drop function public.docs_query_lexemes(text, text[], float8, integer, integer);
drop function public.refresh_docs_search_stats();
drop table public.docs_lexeme_stats;
drop table public.docs_search_stats;
drop trigger docs_section_search_vector_fill on public.docs_section;
drop function public.fill_docs_section_search_vector();
alter table public.docs_section drop column search_vector;
drop function public.docs_section_search_vector(text, text, text, text);
drop index if exists public.docs_section_source_idx;

alter table public.docs_section
  drop column source,
  drop column audiences,
  add column public boolean not null default false,
  add column search_vector tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, title), 'A')
    || setweight(to_tsvector('english'::regconfig, heading), 'B')
    || setweight(to_tsvector('english'::regconfig, content), 'C')
  ) stored;
create index docs_section_search_vector_idx on public.docs_section using gin (search_vector);
-- How many sections contain each lexeme (document frequency), for IDF weighting.
-- Postgres' ts_rank knows no term rarity; this table gives it. Refreshed by every sync.
create table public.docs_lexeme_stats (
  lexeme text primary key,
  ndoc integer not null
);

-- The number of sections the stats were computed over (one row).
create table public.docs_search_stats (
  singleton boolean primary key default true check (singleton),
  section_count integer not null,
  refreshed_at timestamptz not null default now()
);

alter table public.docs_lexeme_stats enable row level security;
alter table public.docs_search_stats enable row level security;

-- refresh_docs_search_stats: recomputes the lexeme document frequencies; returns the section count.
create function public.refresh_docs_search_stats() returns integer
language sql
set search_path = ''
as $$
  delete from public.docs_lexeme_stats;
  insert into public.docs_lexeme_stats (lexeme, ndoc)
    select word, ndoc from pg_catalog.ts_stat('select search_vector from public.docs_section');
  insert into public.docs_search_stats (singleton, section_count, refreshed_at)
    select true, count(*), now() from public.docs_section
  on conflict (singleton) do update
    set section_count = excluded.section_count, refreshed_at = excluded.refreshed_at;
  select section_count from public.docs_search_stats;
$$;

-- docs_query_lexemes: the question's search terms with their document frequency and IDF, rarest
-- first. Terms are words of 3+ characters, stemmed, minus English stop words; any text is safe.
create function public.docs_query_lexemes(
  query_text text,
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
    select greatest(coalesce((select section_count from public.docs_search_stats), 0), 1) as n
  ),
  scored as (
    select l.lexeme,
           coalesce(s.ndoc, 0) as ndoc,
           pg_catalog.ln(1 + (c.n - coalesce(s.ndoc, 0) + 0.5) / (coalesce(s.ndoc, 0) + 0.5)) as idf,
           c.n,
           pg_catalog.row_number() over (order by coalesce(s.ndoc, 0), l.lexeme) as rarity
    from lexemes l
    cross join corpus c
    left join public.docs_lexeme_stats s on s.lexeme = l.lexeme
  )
  select lexeme, ndoc, idf
  from scored
  -- A frequent term matches most of the corpus: costly to rank and it says little. The rarest
  -- term is always kept so that a question made only of common words still finds something.
  where (ndoc <= max_term_share * n or ndoc < cheap_ndoc or rarity = 1)
    and rarity <= max_terms
  order by rarity
$$;

-- search_docs_sections: the sections that match the question's terms, best first. The rank is a
-- sum over terms of IDF × ts_rank of that term alone (title > heading > body weights), so a
-- section matching more, and rarer, terms ranks higher.
-- Cost follows the rows touched, so candidates come from the rarest terms only (as in MaxScore):
-- terms are taken rarest first while their rows add up to at most candidate_rows; every term
-- then adds to the rank of those candidates. When even the rarest term is that common, the
-- candidates are the sections holding both of the two rarest terms.
create function public.search_docs_sections(
  query_text text,
  match_count integer default 10,
  public_only boolean default false,
  max_term_share float8 default 0.5,
  max_terms integer default 12,
  cheap_ndoc integer default 100,
  candidate_rows integer default 2000,
  rank_weights float4[] default '{0.1, 0.4, 0.8, 1.0}',   -- {D, C body, B heading, A title}
  normalization integer default 0                         -- ts_rank flags; 0: chunks are already
                                                          -- bounded by MAX_CHUNK_CHARS, so no length norm
) returns table (
  id text, page text, title text, heading text, breadcrumb text, href text, content text,
  public boolean, rank float8
)
language sql stable
set search_path = ''
as $$
  with terms as (
    select q.lexeme, q.ndoc, q.idf,
           pg_catalog.quote_literal(q.lexeme)::pg_catalog.tsquery as query,
           pg_catalog.row_number() over (order by q.ndoc, q.lexeme) as rarity,
           sum(q.ndoc) over (order by q.ndoc, q.lexeme) as rows_so_far
    from public.docs_query_lexemes(query_text, max_term_share, max_terms, cheap_ndoc) as q
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
    where not public_only or d.public
  ),
  ranked as (
    select c.id, sum(t.idf * pg_catalog.ts_rank(rank_weights, c.search_vector, t.query, normalization)) as rank
    from candidates c
    cross join terms t
    group by c.id
    order by rank desc, c.id
    limit match_count
  )
  select d.id, d.page, d.title, d.heading, d.breadcrumb, d.href, d.content, d.public, r.rank
  from ranked r
  join public.docs_section d on d.id = r.id
  order by r.rank desc, d.id
$$;

-- match_docs_sections: the sections nearest to a query vector by cosine distance, among rows
-- embedded by the same model. Iterative HNSW scans keep going past filtered-out rows, so a
-- public-only search still returns match_count rows when that many public rows exist.
-- The planner prices distance computations low: at ef_search = 100 it picks an exact scan of
-- 10k rows (~25 ms) over the index (~0.5 ms). enable_seqscan = off keeps it on the index; with
-- no index it still scans the table exactly.
create function public.match_docs_sections(
  query_embedding public.vector(768),
  model_name text,
  match_count integer default 10,
  public_only boolean default false
) returns table (
  id text, page text, title text, heading text, breadcrumb text, href text, content text,
  public boolean, distance float8
)
language sql stable
set search_path = ''
set hnsw.iterative_scan = 'relaxed_order'
set hnsw.ef_search = 100
set enable_seqscan = off
as $$
  with nearest as materialized (
    select d.id, d.page, d.title, d.heading, d.breadcrumb, d.href, d.content, d.public,
           d.embedding operator(public.<=>) query_embedding as distance
    from public.docs_section d
    where d.embedding_model = model_name
      and (not public_only or d.public)
    order by d.embedding operator(public.<=>) query_embedding
    limit match_count
  )
  -- relaxed_order may return near-ties out of order: sort the few rows found.
  select * from nearest order by distance, id
$$;
