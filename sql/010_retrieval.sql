-- Retrieval quality (#15): two-letter words are search terms; a term in more than a quarter of
-- the sections is left out of the full-text leg; terms that co-occur with the question's, for
-- rescuing a question in words the docs do not use. Applied by
-- migrations/versions/2026_11_30_0010_retrieval.py.
--
-- What changes versus sql/008_code.sql: public.docs_query_lexemes keeps words of two characters
-- (the line marked /* #15 */); it kept three and more. Its max_term_share defaults to 0.25, as
-- search_docs_sections' below (it was 0.5). English stop words ("is", "on", "it") are
-- still dropped by to_tsvector, so what this adds are the short names docs use for things: IP,
-- M1, S3, UI, ID, OS. Such a term weighs by its IDF like any other: a rare one decides, a common
-- one barely counts. Signature unchanged; docs_term_coverage and search_docs_sections call it.
--   select * from public.docs_query_lexemes('how do I get the IP of the head node');

create or replace function public.docs_query_lexemes(
  query_text text,
  audiences text[] default null,       -- who asks; null = every section counts
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
           pg_catalog.lower(public.docs_identifier_words(pg_catalog.left(coalesce(query_text, ''), 4000))) /* #14 */, '[^[:alnum:]]+') as w(word)
    where pg_catalog.length(w.word) >= 2  /* #15: two-letter terms (ip, m1, s3, ui) */
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

-- search_docs_sections: as in sql/004_sources.sql, but max_term_share defaults to 0.25 (the line
-- marked /* #15 */): a term found in more than a quarter of the visible sections ("use",
-- "example", the product's name) is left out, unless it is the question's rarest or in fewer
-- than cheap_ndoc sections. Its BM25 IDF there is below ln 4 (1.4), against 4 to 7 for the words
-- that say what the question is about, yet it matched enough sections to move the order. Chosen
-- by measurement (docs/configuration.mdx): on both development corpora 0.25 to 0.4 did better
-- than 0.5, and 0.15 or 0.2 worse. Signature unchanged.
--   select id, rank from public.search_docs_sections('how do I use the example', 5);
create or replace function public.search_docs_sections(
  query_text text,
  match_count integer default 10,
  audiences text[] default null,
  max_term_share float8 default 0.25,  /* #15: was 0.5 */
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

-- docs_cooccurring_terms: words the docs use together with the question's words, strongest first:
-- the vocabulary-mismatch rescue (app/search/rescue.py) searches the question with them added.
-- A user says "scatter actors", the docs say "SPREAD"; the sections holding "scatter" also hold
-- "spread" more often than chance. Seeds are the question's rarest terms found in 1..max_seed_ndoc
-- visible sections (a common word co-occurs with everything); a candidate is a word (letters
-- only: no versions, hashes or addresses) held by at least two of the seeds' sections and by at
-- least min_ndoc sections in all. Score: the share of the word's sections that hold a seed,
-- times ln(1 + sections shared), so a word found almost only beside the question's words wins,
-- and one shared section is not enough. Statistics are those of what `audiences` may see.
--   select * from public.docs_cooccurring_terms('how to scatter actors across the cluster');
create function public.docs_cooccurring_terms(
  query_text text,
  audiences text[] default null,     -- who asks; null = every section counts
  max_terms integer default 5,
  max_seed_ndoc integer default 200, -- seeds: the question's rarest terms (at most max_seeds) in
  max_seeds integer default 4,       -- 1..max_seed_ndoc sections: at most 800 sections are read
  min_ndoc integer default 2         -- a candidate is in at least this many sections
) returns table (lexeme text, shared integer, ndoc integer, score float8)
language sql stable
set search_path = ''
as $$
  with seeds as (
    select q.lexeme
    from public.docs_query_lexemes(query_text, audiences) as q
    where q.ndoc between 1 and max_seed_ndoc
    order by q.ndoc, q.lexeme
    limit max_seeds
  ),
  seed_query as (
    -- One OR query, one index scan (as in search_docs_sections); lexemes are letters and digits.
    select pg_catalog.string_agg(pg_catalog.quote_literal(s.lexeme), ' | ')::pg_catalog.tsquery as query
    from seeds s
  ),
  seed_sections as materialized (
    select d.id, d.search_vector
    from seed_query q
    join public.docs_section d on d.search_vector operator(pg_catalog.@@) q.query
    where docs_cooccurring_terms.audiences is null
       or d.audiences operator(pg_catalog.&&) docs_cooccurring_terms.audiences
  ),
  shared as (
    select u.lexeme, count(*)::integer as n
    from seed_sections ss
    cross join pg_catalog.unnest(ss.search_vector) as u(lexeme, positions, weights)
    where u.lexeme operator(pg_catalog.~) '^[[:alpha:]]{3,}$'
      and not exists (select 1 from seeds s where s.lexeme = u.lexeme)
    group by u.lexeme
    having count(*) >= 2
  ),
  counted as (  -- one primary-key lookup per word, as in docs_query_lexemes
    select s.lexeme, s.n,
           (select sum(st.ndoc)::integer from public.docs_lexeme_stats st
            where st.lexeme = s.lexeme
              and (docs_cooccurring_terms.audiences is null
                   or st.audiences operator(pg_catalog.&&) docs_cooccurring_terms.audiences)) as ndoc
    from shared s
  )
  select c.lexeme, c.n, c.ndoc, (c.n::float8 / c.ndoc) * pg_catalog.ln(1 + c.n) as score
  from counted c
  where c.ndoc >= min_ndoc
  order by score desc, c.lexeme
  limit max_terms
$$;
