-- docs_search_box: what GET /docs/search returns, one row per section, pages best first and each
-- page's sections best first. As in the chat's keyword leg, the words are typo-corrected against
-- what `audiences` may see (docs_search_text; a word of `everyday_words` the docs do not use is
-- dropped, never corrected to another: app/search/legs.py passes the same) and weighed by IDF
-- (docs_query_lexemes); in addition the last word, while it is being typed (last_word_prefix),
-- stands for the visible lexemes it begins (`embe` → embed), its own stem (`embe` → emb, as
-- "embed" is stored) and the stems it runs past: Postgres stems what is stored, so a typed
-- `deploym` must match the stored `deploy` and `navigat` the stored `navig`, which a tsquery
-- prefix (`deploym:*`) would not. A last word that matches no visible lexeme so is read as a whole
-- word, typo-corrected like the others. Each word is one group of lexemes; a section's score is
-- the sum over groups of IDF × ts_rank (title > heading > body). Candidates are the sections
-- holding every group; when none does, those holding the rarest groups, as search_docs_sections
-- picks them. At most candidate_rows are ranked: a single word (or prefix) in more of the visible
-- sections than that ranks those holding it in their title or heading first (the head index of
-- docs_section_fts, sql/022_section_fts_head.sql: 3,513 rows for `com` at 100k, where the word's
-- own bitmap holds 45,730), then the others the index scan returns first (earliest
-- in the table); any other query ranks the first it returns, as before. Each candidate is ranked
-- where it is read; in keyword mode the order numbers and the join of the vector leg are skipped,
-- and only the chosen pages' sections are put in order.
-- With a query embedding and its model, the nearest visible sections join and the score is
-- reciprocal-rank fusion of both orders. The snippet is ts_headline's over the section's Markdown,
-- with the matched words between U+E000 and U+E001 (removed from the text first); `content` is the
-- section's text, from which the caller makes the plain-text snippet it sends, marking the words
-- ts_headline marked (app/search/plain_text.py). The default parser reads `<ADMIN_TOKEN>` as an
-- HTML tag, which ts_headline leaves out of its result ("Bearer  "): `<` and `>` are swapped for
-- U+E002 and U+E003 (also removed from the text first) while it reads, and back after.
-- `place` is the page's place in its site's navigation (docs_section.place; {}: none), shown with
-- its title. `audiences` has no default: null or empty finds nothing (fail closed).
--   select * from public.docs_search_box('embe', '{public}');
--   select * from public.docs_search_box('deploy to vercl', '{public}', 5);
--   select * from public.docs_search_box('taken ', '{public}', everyday_words => '{taken}');
create or replace function public.docs_search_box(
  query_text text,
  audiences text[],                         -- who searches (CHAT_AUDIENCES); null/empty: nothing
  match_count integer default 8,            -- pages
  sections_per_page integer default 3,
  last_word_prefix boolean default true,    -- the last word is being typed
  query_embedding public.vector(768) default null,  -- with model_name: hybrid (on submit)
  model_name text default null,
  prefix_expansions integer default 6,      -- lexemes a typed prefix stands for, most frequent first
  max_stem_trim integer default 4,          -- letters a typed word may run past its stored stem
  min_stem_length integer default 4,        -- ...which has at least this many
  candidate_rows integer default 300,       -- sections ranked at most (a box needs the best few)
  vector_rows integer default 40,
  rrf_k integer default 60,
  rank_weights float4[] default '{0.1, 0.4, 0.8, 1.0}',   -- {D, C body, B heading, A title}
  snippet_words integer default 24,
  snippet_chars integer default 320,        -- of the text around the first match that ts_headline reads
                                            -- (its cost follows the length: ~40 words for 24 shown)
  everyday_words text[] default null        -- lower-case words never taken for typos; null = none
) returns table (
  page_rank integer, source text, page text, title text, heading text, breadcrumb text, href text,
  snippet text, score float8, content text,
  place text[]                              -- the page's place in its site's navigation (tab, group); {}: none
)
language sql stable
set search_path = ''
-- One plan for every call: a custom plan for this statement is planned again on each call (~1.5 ms,
-- a third of the statement), and the generic one is as good (design/search-box.md).
set plan_cache_mode = force_generic_plan
as $$
  with visible as (  -- one row when someone may see something; every leg hangs off it
    select docs_search_box.audiences as aud
    where docs_search_box.audiences is not null and pg_catalog.cardinality(docs_search_box.audiences) > 0
  ),
  split as (  -- the text before the last word, and the last word when it is being typed
    select v.aud,
           case when m.parts is null then q.text else m.parts[1] end as head,
           m.parts[2] as tail
    from visible v
    cross join (select pg_catalog.lower(pg_catalog.left(coalesce(query_text, ''), 2000)) as text) q
    left join lateral (
      select pg_catalog.regexp_match(q.text, '^(.*?)([[:alnum:]]{2,})$') as parts
      where last_word_prefix
    ) m on true
  ),
  typed_forms as (  -- lexemes the typed word may stand for exactly: its stem, and the stems it runs past
    select l.lexeme
    from split s
    cross join pg_catalog.unnest(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, s.tail)) as l
    union
    select pg_catalog.left(s.tail, k)
    from split s
    cross join pg_catalog.generate_series(
      greatest(pg_catalog.length(s.tail) - max_stem_trim, min_stem_length), pg_catalog.length(s.tail) - 1) as k
  ),
  prefix_lexemes as (
    select m.lexeme, sum(m.ndoc)::integer as ndoc
    from (
      -- the lexemes it begins: through docs_lexeme_stats_head_idx (first two letters, length)
      select st.lexeme, st.ndoc
      from split s
      join public.docs_lexeme_stats st
        on pg_catalog.left(st.lexeme, 2) = pg_catalog.left(s.tail, 2)
       and pg_catalog.length(st.lexeme) >= pg_catalog.length(s.tail)
       and pg_catalog.starts_with(st.lexeme, s.tail)
       and st.lexeme operator(pg_catalog.~) '^[[:alnum:]]+$'  -- no `example.com`: quoted below as is
       and st.audiences operator(pg_catalog.&&) s.aud
      union all
      select st.lexeme, st.ndoc  -- ...and its exact forms, through the primary key
      from split s
      join public.docs_lexeme_stats st
        on st.lexeme = any (array(select f.lexeme from typed_forms f))
       and st.audiences operator(pg_catalog.&&) s.aud
       and not (pg_catalog.length(st.lexeme) >= pg_catalog.length(s.tail) and pg_catalog.starts_with(st.lexeme, s.tail))
    ) m
    group by m.lexeme
    order by sum(m.ndoc) desc, m.lexeme
    limit prefix_expansions
  ),
  corpus as (
    select greatest(coalesce(sum(c.section_count), 0), 1)::float8 as n
    from split s
    join public.docs_search_stats c on c.audiences operator(pg_catalog.&&) s.aud
  ),
  word_terms as (  -- the whole words (and an unknown last word), as the chat's keyword leg reads them
    select q.lexeme, q.ndoc, q.idf
    from (select * from split s  -- none when the only word is the one being typed: no call
          where s.head operator(pg_catalog.~) '[[:alnum:]]'
             or (s.tail is not null and not exists (select 1 from prefix_lexemes))) s
    cross join lateral public.docs_query_lexemes(
      public.docs_search_text(
        public.docs_identifier_words(
          s.head || case when s.tail is not null and not exists (select 1 from prefix_lexemes) then s.tail else '' end),
        s.aud, everyday_words => docs_search_box.everyday_words),
      s.aud) as q
  ),
  groups as (
    select 'w:' || w.lexeme as name, w.ndoc, w.idf, pg_catalog.quote_literal(w.lexeme) as query
    from word_terms w
    where w.ndoc > 0
    union all
    select 'prefix', least(sum(p.ndoc), max(c.n))::integer,
           pg_catalog.ln(1 + (max(c.n) - least(sum(p.ndoc), max(c.n)) + 0.5) / (least(sum(p.ndoc), max(c.n)) + 0.5)),
           '(' || pg_catalog.string_agg(pg_catalog.quote_literal(p.lexeme), ' | ') || ')'
    from prefix_lexemes p
    cross join corpus c
    having count(*) > 0
  ),
  ordered as (
    select g.name, g.ndoc, g.idf, g.query::pg_catalog.tsquery as query,
           pg_catalog.row_number() over (order by g.ndoc, g.name) as rarity,
           sum(g.ndoc) over (order by g.ndoc, g.name) as rows_so_far
    from groups g
  ),
  candidate_query as (
    -- Lexemes are letters and digits only (docs_query_lexemes, docs_lexeme_stats), quoted.
    -- Each group in parentheses: the prefix group is an OR of lexemes, and & binds tighter than |
    -- (without them `a & b | c` is `(a & b) | c`: any section holding c, not every word).
    select pg_catalog.string_agg('(' || o.query::text || ')', ' & ' order by o.rarity)::pg_catalog.tsquery as every_word,
           case
             when min(o.ndoc) <= candidate_rows then
               pg_catalog.string_agg(o.query::text, ' | ') filter (where o.rows_so_far <= candidate_rows or o.rarity = 1)
             else
               pg_catalog.string_agg('(' || o.query::text || ')', ' & ') filter (where o.rarity <= 2)
           end::pg_catalog.tsquery as some_words,
           -- one group (word or typed prefix) and more sections than are ranked: its head first
           count(*) = 1 and min(o.ndoc) > candidate_rows as head_first
    from ordered o
    having count(*) > 0
  ),
  head as materialized (  -- one common word: the sections holding it in their title or heading (weights A, B)
    select f.id
    from candidate_query c
    cross join split s
    cross join lateral (
      select f.id
      from public.docs_section_fts f
      where pg_catalog.ts_filter(f.search_vector, '{a,b}') operator(pg_catalog.@@) c.every_word
        and f.audiences operator(pg_catalog.&&) s.aud
      limit candidate_rows
    ) f
    where c.head_first
  ),
  every_word as materialized (  -- a box narrows as words are added: sections holding them all
    -- (each ranked where it is read: sum over groups in `ordered`'s order, as the grouping did)
    select d.id, d.source, d.page,
           (select sum(o.idf * pg_catalog.ts_rank(rank_weights, d.search_vector, o.query, 0)) from ordered o) as rank
    from head h
    join public.docs_section d on d.id = h.id
    union all
    select x.id, x.source, x.page, x.rank  -- the rest (all of it without a head): the first the bitmap gives
    from candidate_query c
    cross join split s
    cross join lateral (
      select d.id, d.source, d.page,
             (select sum(o.idf * pg_catalog.ts_rank(rank_weights, d.search_vector, o.query, 0)) from ordered o) as rank
      from public.docs_section d
      where d.search_vector operator(pg_catalog.@@) c.every_word
        and d.audiences operator(pg_catalog.&&) s.aud
        and d.id operator(pg_catalog.<>) all (array(select h.id from head h))
      limit candidate_rows - (select count(*) from head)
    ) x
    where (select count(*) from head) < candidate_rows  -- a full head reads no bitmap of the word
  ),
  keyword as (  -- ...or, when none does, as the chat's keyword leg: the rarest words
    select * from every_word
    union all
    select x.id, x.source, x.page, x.rank
    from candidate_query c
    cross join split s
    cross join lateral (
      select d.id, d.source, d.page,
             (select sum(o.idf * pg_catalog.ts_rank(rank_weights, d.search_vector, o.query, 0)) from ordered o) as rank
      from public.docs_section d
      where d.search_vector operator(pg_catalog.@@) c.some_words
        and d.audiences operator(pg_catalog.&&) s.aud
      limit candidate_rows
    ) x
    where not exists (select 1 from every_word)
  ),
  keyword_ranked as (
    select k.id, k.source, k.page, k.rank, pg_catalog.row_number() over (order by k.rank desc, k.id) as n
    from keyword k
  ),
  vector_ranked as (
    select m.id, m.source, m.page, pg_catalog.row_number() over (order by m.distance, m.id) as n
    from (select s.aud from split s where query_embedding is not null and model_name is not null) g
    cross join lateral public.match_docs_sections(query_embedding, model_name, vector_rows, g.aud) as m
  ),
  fused as (
    select k.id, k.source, k.page, k.rank as score  -- keyword only: its rank, no order numbers, no join
    from keyword k
    where query_embedding is null or model_name is null
    union all
    select coalesce(k.id, v.id), coalesce(k.source, v.source), coalesce(k.page, v.page),
           coalesce(1.0 / (rrf_k + k.n), 0) + coalesce(1.0 / (rrf_k + v.n), 0)
    from keyword_ranked k
    full join vector_ranked v on v.id = k.id
    where query_embedding is not null and model_name is not null
  ),
  pages as (  -- the best match_count pages, by their best section
    select f.source, f.page, max(f.score) as page_score,
           pg_catalog.row_number() over (order by max(f.score) desc, f.source, f.page)::integer as page_rank
    from fused f
    group by f.source, f.page
    order by page_score desc, f.source, f.page
    limit coalesce(match_count, 8)
  ),
  sections as (  -- ...and their best sections_per_page sections (only those pages' rows are ordered)
    select x.id, x.score, x.source, x.page
    from (select f.id, f.score, f.source, f.page,
                 pg_catalog.row_number() over (partition by f.source, f.page order by f.score desc, f.id) as in_page
          from fused f
          join pages p on p.source = f.source and p.page = f.page) x
    where x.in_page <= sections_per_page
  ),
  highlight as (
    select coalesce(pg_catalog.string_agg(o.query::text, ' | '), '')::pg_catalog.tsquery as query,
           (select coalesce(pg_catalog.array_agg(w.lexeme), '{}') from word_terms w where w.ndoc > 0)
             || (select coalesce(pg_catalog.array_agg(p.lexeme), '{}') from prefix_lexemes p) as lexemes
    from ordered o
  )
  select p.page_rank, d.source, d.page, d.title, d.heading, d.breadcrumb,
         public.docs_section_href(d.href, sc.commit, sc.fill_hrefs) as href,  -- a code link's {commit}, filled
         pg_catalog.translate(
           case when pg_catalog.numnode(h.query) = 0  -- vector hits of a query with no known word
             then pg_catalog.array_to_string((pg_catalog.regexp_split_to_array(pg_catalog.btrim(
                    pg_catalog.left(w.text, snippet_chars)), '\s+'))[1:snippet_words], ' ')
             else pg_catalog.ts_headline('pg_catalog.english'::pg_catalog.regconfig, w.text, h.query,
               'StartSel=' || pg_catalog.chr(57344) || ', StopSel=' || pg_catalog.chr(57345)
                 || ', MaxWords=' || snippet_words || ', MinWords=' || greatest(snippet_words / 2, 1)
                 || ', ShortWord=2, HighlightAll=false, MaxFragments=0') end,
           pg_catalog.chr(57346) || pg_catalog.chr(57347), '<>') as snippet,
         s.score, d.content, d.place
  from pages p
  join sections s on s.source = p.source and s.page = p.page
  join public.docs_section d on d.id = s.id
  left join public.docs_source_commit sc on sc.source = d.source
  cross join highlight h
  cross join lateral (select pg_catalog.lower(d.content) as text) lower_content  -- once, not per lexeme
  cross join lateral (  -- ts_headline parses all it is given: snippet_chars around the first match
    select pg_catalog.substr(  -- `<`, `>` as U+E002, U+E003; the four markers out of the text
             pg_catalog.translate(d.content, '<>' || pg_catalog.chr(57344) || pg_catalog.chr(57345)
                                  || pg_catalog.chr(57346) || pg_catalog.chr(57347),
                                  pg_catalog.chr(57346) || pg_catalog.chr(57347)),
             greatest(coalesce(min(nullif(pg_catalog.strpos(lower_content.text, l.lexeme), 0)), 1)
                      - snippet_chars / 4, 1),
             snippet_chars) as text
    from pg_catalog.unnest(h.lexemes) as l(lexeme)
  ) w
  order by p.page_rank, s.score desc, s.id
$$;
