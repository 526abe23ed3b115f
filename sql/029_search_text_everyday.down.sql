-- Undo 029_search_text_everyday.sql: docs_search_text is made again as 2026_12_06_0028 had it (three
-- arguments), so that the downgrades below, which make functions calling it, find it; its checksum
-- is forgotten so the docschat that runs next applies its own.
do $$
begin
  if pg_catalog.to_regclass('public.docschat_sql_file') is not null then
    delete from public.docschat_sql_file where name = 'docs_search_text.sql';
  end if;
end
$$;
drop function if exists public.docs_search_text(text, text[], integer, text[]);

-- docs_search_text: the question as the full-text leg should search it. A word whose stem no
-- section `audiences` may see holds cannot match anything, yet it would take one of the
-- rarest-term slots of docs_query_lexemes (the rarest of all): it is replaced by the stem one edit
-- away that most visible sections hold ("programatically" → programmat), or dropped when there is
-- none or the stem is short (min_typo_length). Words the docs use, and stop words, are kept in order.
-- `audiences` has no default (null, said explicitly: every section).
--   select public.docs_search_text('how do I programatically scale a clustr', '{public}');
create or replace function public.docs_search_text(
  query_text text,
  audiences text[],                   -- who asks (no default); null = every section counts
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
