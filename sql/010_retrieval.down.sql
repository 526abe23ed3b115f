drop function if exists public.docs_cooccurring_terms(text, text[], integer, integer, integer, integer);

-- Back to sql/008_code.sql's docs_query_lexemes: words of three characters and more.
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

-- Back to sql/004_sources.sql's search_docs_sections: max_term_share defaults to 0.5.
create or replace function public.search_docs_sections(
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
