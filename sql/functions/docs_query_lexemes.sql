-- docs_query_lexemes: the question's search terms with their document frequency and IDF among
-- the sections `audiences` may see, rarest first. Terms are words of 2+ characters (ip, m1, s3),
-- identifiers spelled out in words (docs_identifier_words), stemmed, minus English stop words;
-- any text is safe. `audiences` has no default: a call must say who asks (null, said explicitly,
-- counts every section). A term in more than max_term_share of the sections is dropped.
--   select * from public.docs_query_lexemes('how do I get the IP of the head node', '{public}');
create or replace function public.docs_query_lexemes(
  query_text text,
  audiences text[],                    -- who asks (no default); null = every section counts
  max_term_share float8 default 0.25,  -- drop terms found in more than this share of sections
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
           pg_catalog.lower(public.docs_identifier_words(pg_catalog.left(coalesce(query_text, ''), 4000))), '[^[:alnum:]]+') as w(word)
    where pg_catalog.length(w.word) >= 2
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
