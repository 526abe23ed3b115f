-- Retrieval quality: what the full-text leg searches for, when a question has words no section
-- holds (typos, words the docs never use). Applied by migrations/versions/2026_11_30_0007_quality.py.
-- Nothing here changes search_docs_sections, match_docs_sections or docs_query_lexemes: the app
-- calls  search_docs_sections(docs_search_text($1, $3), $2, $3)  in one statement.
-- Changed from 004: docs_section_search_vector also indexes the breadcrumb (below).

-- Typo candidates are found through two indexes, on the first and on the last two letters: one
-- edit leaves at least one of them intact in a lexeme of 4+ letters.
create index docs_lexeme_stats_head_idx
  on public.docs_lexeme_stats (pg_catalog.left(lexeme, 2), pg_catalog.length(lexeme));
create index docs_lexeme_stats_tail_idx
  on public.docs_lexeme_stats (pg_catalog.right(lexeme, 2), pg_catalog.length(lexeme));

-- docs_one_edit_apart: whether b is a (one substitution, insertion, deletion, or swap of two
-- neighbours) away; a = b is not. Plain plpgsql: the server has no fuzzystrmatch or pg_trgm.
create function public.docs_one_edit_apart(a text, b text) returns boolean
language plpgsql immutable strict parallel safe
set search_path = ''
as $$
declare
  la integer := pg_catalog.length(a);
  lb integer := pg_catalog.length(b);
  i integer := 1;
begin
  if a = b or abs(la - lb) > 1 then
    return false;
  end if;
  while i <= least(la, lb) and pg_catalog.substr(a, i, 1) = pg_catalog.substr(b, i, 1) loop
    i := i + 1;
  end loop;
  if la = lb then
    return pg_catalog.substr(a, i + 1) = pg_catalog.substr(b, i + 1)
        or (pg_catalog.substr(a, i, 1) = pg_catalog.substr(b, i + 1, 1)
            and pg_catalog.substr(a, i + 1, 1) = pg_catalog.substr(b, i, 1)
            and pg_catalog.substr(a, i + 2) = pg_catalog.substr(b, i + 2));
  elsif la > lb then
    return pg_catalog.substr(a, i + 1) = pg_catalog.substr(b, i);
  end if;
  return pg_catalog.substr(a, i) = pg_catalog.substr(b, i + 1);
end
$$;

-- docs_search_text: the question as the full-text leg should search it. A word whose stem no
-- section `audiences` may see holds cannot match anything, yet it would take one of the
-- rarest-term slots of docs_query_lexemes (the rarest of all): it is replaced by the stem one edit
-- away that most visible sections hold ("programatically" → programmat), or dropped when there is
-- none or the stem is short (min_typo_length). Words the docs use, and stop words, are kept in order.
--   select public.docs_search_text('how do I programatically scale a clustr', '{public}');
create function public.docs_search_text(
  query_text text,
  audiences text[] default null,      -- who asks; null = every section counts
  min_typo_length integer default 5   -- shorter stems have too many neighbours one edit away
) returns text
language sql stable
set search_path = ''
as $$
  with words as (
    select w.word, w.n
    from pg_catalog.regexp_split_to_table(
           pg_catalog.lower(pg_catalog.left(coalesce(query_text, ''), 4000)), '[^[:alnum:]]+')
         with ordinality as w(word, n)
    where w.word <> ''
  ),
  stems as (
    select w.n, w.word, l.lexeme,
           exists (select 1 from public.docs_lexeme_stats st
                   where st.lexeme = l.lexeme
                     and (docs_search_text.audiences is null
                          or st.audiences operator(pg_catalog.&&) docs_search_text.audiences)) as known
    from words w
    left join lateral pg_catalog.unnest(
      pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, w.word)) as l on true
  )
  select coalesce(pg_catalog.string_agg(kept.text, ' ' order by s.n), '')
  from stems s
  cross join lateral (
    select s.word as text
    where s.lexeme is null or s.known  -- a stop word is left to docs_query_lexemes
    union all
    select * from (
      select c.lexeme
      from public.docs_lexeme_stats c
      where s.lexeme is not null and not s.known
        and pg_catalog.length(s.lexeme) >= min_typo_length
        and (pg_catalog.left(c.lexeme, 2) = pg_catalog.left(s.lexeme, 2)
             or pg_catalog.right(c.lexeme, 2) = pg_catalog.right(s.lexeme, 2))
        and pg_catalog.length(c.lexeme) between pg_catalog.length(s.lexeme) - 1 and pg_catalog.length(s.lexeme) + 1
        and (docs_search_text.audiences is null or c.audiences operator(pg_catalog.&&) docs_search_text.audiences)
        and public.docs_one_edit_apart(c.lexeme, s.lexeme)
      group by c.lexeme
      order by sum(c.ndoc) desc, c.lexeme
      limit 1
    ) fix
  ) kept
$$;

-- The breadcrumb (Page › Section › Subsection) is indexed like the heading: a subsection is found
-- by its parent sections' words too. Changed from 004: the breadcrumb's parent headings (weight B)
-- are added; its first part (the title, weight A) and last part (the heading) are indexed already.
create or replace function public.docs_section_search_vector(title text, heading text, breadcrumb text, content text)
returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, coalesce(title, '')), 'A')
      || pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig,
           coalesce(heading, '') || ' ' || coalesce(pg_catalog.array_to_string(
             (pg_catalog.string_to_array(breadcrumb, ' › '))[2:pg_catalog.cardinality(pg_catalog.string_to_array(breadcrumb, ' › ')) - 1],
             ' '), '')), 'B')
      || pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, coalesce(content, '')), 'C')
$$;

update public.docs_section
set search_vector = public.docs_section_search_vector(title, heading, breadcrumb, content);
select public.refresh_docs_search_stats();
