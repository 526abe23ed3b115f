-- Undo 008_code.sql: the vector and the question lexemes as in 002_search.sql.
alter table public.docs_section alter column search_vector set expression as (
  setweight(to_tsvector('english'::regconfig, title), 'A')
  || setweight(to_tsvector('english'::regconfig, heading), 'B')
  || setweight(to_tsvector('english'::regconfig, content), 'C')
);

create or replace function public.docs_query_lexemes(
  query_text text,
  max_term_share float8 default 0.5,
  max_terms integer default 12,
  cheap_ndoc integer default 100
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
  where (ndoc <= max_term_share * n or ndoc < cheap_ndoc or rarity = 1)
    and rarity <= max_terms
  order by rarity
$$;

drop function if exists public.docs_identifier_words(text);
select public.refresh_docs_search_stats();
