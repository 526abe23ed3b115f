-- docs_identifier_words: the text followed by the words of every identifier in it. An identifier
-- is CamelCase, snake_case, dotted or a path (`PostgresLimitsStorage`, `postgres_limits_storage`,
-- `limits.storage`, `app/chat/rate_limit.py`). Each part between dots or slashes adds its words
-- ("Postgres Limits Storage") and, when it has several, the words joined
-- ("postgreslimitsstorage"): the words alone, any spelling, or the exact identifier then share
-- lexemes. Postgres' parser keeps `PostgresLimitsStorage` as one token and `limits.storage` as a
-- host name, so without this "limits storage" finds neither.
create or replace function public.docs_identifier_words(input text) returns text
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
