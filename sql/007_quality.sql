-- Retrieval quality: what the full-text leg searches for, when a question has words no section
-- holds (typos, words the docs never use). Applied by migrations/versions/2026_11_30_0007_quality.py.
-- Nothing here changes search_docs_sections, match_docs_sections or docs_query_lexemes: the app
-- calls  search_docs_sections(docs_search_text($1), …)  in one statement.

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
-- section holds cannot match anything, yet it would take one of the rarest-term slots of
-- docs_query_lexemes (the rarest of all, with no section): it is replaced by the stem one edit
-- away that most sections hold ("programatically" → programmat), or dropped when there is none or
-- the word is short (min_typo_length). Words the docs use, and stop words, are kept in order.
--   select public.docs_search_text('how do I programatically scale a clustr');
create function public.docs_search_text(
  query_text text,
  min_typo_length integer default 5   -- shorter words have too many neighbours one edit away
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
    select w.n, w.word, l.lexeme
    from words w
    left join lateral pg_catalog.unnest(
      pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, w.word)) as l on true
  )
  select coalesce(pg_catalog.string_agg(coalesce(kept.text, ''), ' ' order by s.n), '')
  from stems s
  left join lateral (
    select s.word as text
    where s.lexeme is null  -- a stop word or a short word: docs_query_lexemes decides
       or exists (select 1 from public.docs_lexeme_stats st where st.lexeme = s.lexeme)
    union all
    select * from (
      select c.lexeme
      from public.docs_lexeme_stats c
      where s.lexeme is not null
        and pg_catalog.length(s.lexeme) >= min_typo_length
        and not exists (select 1 from public.docs_lexeme_stats st where st.lexeme = s.lexeme)
        and (pg_catalog.left(c.lexeme, 2) = pg_catalog.left(s.lexeme, 2)
             or pg_catalog.right(c.lexeme, 2) = pg_catalog.right(s.lexeme, 2))
        and pg_catalog.length(c.lexeme) between pg_catalog.length(s.lexeme) - 1 and pg_catalog.length(s.lexeme) + 1
        and public.docs_one_edit_apart(c.lexeme, s.lexeme)
      order by c.ndoc desc, c.lexeme
      limit 1
    ) fix
  ) kept on true
  where kept.text is not null
$$;
