-- Code beside the docs (#14): identifiers are searchable by their words, in the stored tsvector
-- and in the question's lexemes. Applied by migrations/versions/2026_11_30_0008_code.py.
--
-- What changes versus sql/002_search.sql (for porting onto other versions of these objects):
--   1. NEW public.docs_identifier_words(text) returns text (below).
--   2. docs_section.search_vector: each of title, heading and content goes through
--      public.docs_identifier_words() before to_tsvector; weights unchanged (A, B, C).
--   3. public.docs_query_lexemes: the question goes through public.docs_identifier_words() before
--      it is lower-cased and split into words: the one changed line is marked "-- #14".
--      Signature, knobs and result unchanged.

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

-- The stored vector: every identifier also indexed by its words.
alter table public.docs_section alter column search_vector set expression as (
  setweight(to_tsvector('english'::regconfig, public.docs_identifier_words(title)), 'A')
  || setweight(to_tsvector('english'::regconfig, public.docs_identifier_words(heading)), 'B')
  || setweight(to_tsvector('english'::regconfig, public.docs_identifier_words(content)), 'C')
);

-- docs_query_lexemes: as in 002_search.sql, with the question's identifiers expanded into words.
create or replace function public.docs_query_lexemes(
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
           pg_catalog.lower(public.docs_identifier_words(pg_catalog.left(coalesce(query_text, ''), 4000))), -- #14
           '[^[:alnum:]]+') as w(word)
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

-- The stored vectors changed: recount the lexemes.
select public.refresh_docs_search_stats();
