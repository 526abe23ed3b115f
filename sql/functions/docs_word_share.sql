-- docs_word_share: for each word, the share (0..1) of the sections `audiences` may see whose
-- search vector holds it (stemmed as the index stems it), read from the word statistics
-- (docs_lexeme_stats.ndoc over docs_search_stats.section_count), not from the sections: one
-- index lookup per word. A word of several stems counts its rarest; a stop word or no word holds
-- 0. A word most sections hold is what the docs are about ("Claude", "Ray"), not a name the
-- question adds (app/judge/answer_check.py). Rows in the order of `words`. `audiences` has no
-- default (null, said explicitly: every section).
--   select * from public.docs_word_share(array['GitHub', 'Claude'], '{public}');
create or replace function public.docs_word_share(
  words text[],
  audiences text[]                     -- who asks (no default); null = every section
) returns table (word text, share float8)
language sql stable
set search_path = ''
as $$
  with corpus as (
    select greatest(coalesce(sum(s.section_count), 0), 1)::float8 as n
    from public.docs_search_stats s
    where docs_word_share.audiences is null or s.audiences operator(pg_catalog.&&) docs_word_share.audiences
  )
  select w.word,
         coalesce((
           select min(held.ndoc)
           from pg_catalog.unnest(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig,
                                                         coalesce(w.word, ''))) as l
           cross join lateral (
             select coalesce(sum(st.ndoc), 0) as ndoc
             from public.docs_lexeme_stats st
             where st.lexeme = l.lexeme
               and (docs_word_share.audiences is null
                    or st.audiences operator(pg_catalog.&&) docs_word_share.audiences)
           ) held
         ), 0)::float8 / c.n as share
  from pg_catalog.unnest(words) with ordinality as w(word, n)
  cross join corpus c
  order by w.n
$$;
