-- Code beside the docs (#14): identifiers searchable by their words, and the commit each source
-- was synced at. Applied by migrations/versions/2026_11_30_0008_code.py.
--
-- What changes versus sql/004_sources.sql (to port onto later versions of these functions):
--   1. NEW public.docs_identifier_words(text) returns text.
--   2. public.docs_section_search_vector (as 007_quality.sql left it): title, heading (with the
--      breadcrumb's parent headings) and content each go through public.docs_identifier_words();
--      weights unchanged (A, B, C).
--   3. public.docs_query_lexemes: the question goes through public.docs_identifier_words() before
--      it is lower-cased and split into words (the line marked /* #14 */). Signature unchanged.
--   4. NEW table public.docs_source_commit: the commit each source was last synced at (code
--      sources link to it and the model's read_file reads it).
--   Then every stored vector is recomputed and the term statistics refreshed.

-- docs_identifier_words: the text followed by the words of every identifier in it. An identifier
-- is CamelCase, snake_case, dotted or a path (`PostgresLimitsStorage`, `postgres_limits_storage`,
-- `limits.storage`, `app/chat/rate_limit.py`). Each part between dots or slashes adds its words
-- ("Postgres Limits Storage") and, when it has several, the words joined
-- ("postgreslimitsstorage"): the words alone, any spelling, or the exact identifier then share
-- lexemes. Postgres' parser keeps `PostgresLimitsStorage` as one token and `limits.storage` as a
-- host name, so without this "limits storage" finds neither.
create function public.docs_identifier_words(input text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(input, '') || coalesce(' ' || pg_catalog.string_agg(
           case when p.words like '% %' then p.words || ' ' || pg_catalog.lower(pg_catalog.replace(p.words, ' ', ''))
                else p.words end, ' '), '')
  from pg_catalog.regexp_matches(
         coalesce(input, ''), '[[:alpha:]_$][[:alnum:]_$]*(?:[./:\-][[:alpha:]_$][[:alnum:]_$]*)*', 'g') as m(token)
  cross join lateral pg_catalog.regexp_split_to_table(m.token[1], '[./:\-]+') as s(part)
  cross join lateral (
    -- fooBar → foo Bar; HTTPServer → HTTP Server; underscores and $ become spaces
    select pg_catalog.btrim(pg_catalog.regexp_replace(
             pg_catalog.regexp_replace(
               pg_catalog.regexp_replace(s.part, '([[:lower:][:digit:]])([[:upper:]])', '\1 \2', 'g'),
               '([[:upper:]]+)([[:upper:]][[:lower:]])', '\1 \2', 'g'),
             '[_$]+', ' ', 'g')) as words
  ) p
  -- only identifiers: a separator inside, or a lower-to-upper change; plain words need nothing
  where m.token[1] ~ '[[:alnum:]][_./:$][[:alnum:]]|[[:lower:][:digit:]][[:upper:]]|[[:upper:]]{2}[[:lower:]]'
    and p.words <> ''
$$;

-- The stored vector: as in 007_quality.sql (the breadcrumb's parent headings at weight B), with
-- every identifier also indexed by its words.
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

-- docs_query_lexemes: as in 004_sources.sql, with the question's identifiers expanded into words.
create or replace function public.docs_query_lexemes(
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
           pg_catalog.lower(public.docs_identifier_words(pg_catalog.left(coalesce(query_text, ''), 4000))) /* #14 */, '[^[:alnum:]]+') as w(word)
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

-- The commit each source was last synced at: code hrefs link to it, read_file reads it.
create table public.docs_source_commit (
  source text primary key,
  commit text not null,
  synced_at timestamptz not null default now()
);
alter table public.docs_source_commit enable row level security;
-- Supabase's default privileges grant new tables to its API roles: this one is the service's only.
revoke all on public.docs_source_commit from anon, authenticated;

-- The stored vectors change: recompute them, then the term statistics.
update public.docs_section
set search_vector = public.docs_section_search_vector(title, heading, breadcrumb, content);
select public.refresh_docs_search_stats();
