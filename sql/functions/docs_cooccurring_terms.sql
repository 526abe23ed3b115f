-- docs_cooccurring_terms: words the docs use together with the question's words, strongest first:
-- the vocabulary-mismatch rescue (app/search/rescue.py) searches the question with them added.
-- A user says "scatter actors", the docs say "SPREAD"; the sections holding "scatter" also hold
-- "spread" more often than chance. Seeds are the question's rarest terms found in 1..max_seed_ndoc
-- visible sections (a common word co-occurs with everything); a candidate is a word (letters
-- only: no versions, hashes or addresses) held by at least two of the seeds' sections and by at
-- least min_ndoc sections in all. Score: the share of the word's sections that hold a seed,
-- times ln(1 + sections shared), so a word found almost only beside the question's words wins,
-- and one shared section is not enough. Statistics are those of what `audiences` may see
-- (no default; null, said explicitly: every section).
--   select * from public.docs_cooccurring_terms('how to scatter actors across the cluster', '{public}');
create or replace function public.docs_cooccurring_terms(
  query_text text,
  audiences text[],                  -- who asks (no default); null = every section counts
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
