-- Undo 027_section_place.sql. The functions whose rows gained `place` (their return type changed)
-- are dropped and made again as 2026_12_06_0026 had them, so that the downgrades below, which
-- `create or replace` older versions, find the return type they expect; their checksums are
-- forgotten so the docschat that runs next applies its own. docs_sync_switch, whose body writes
-- the column, is made again as 0026 had it too.
do $$
begin
  if pg_catalog.to_regclass('public.docschat_sql_file') is not null then
    delete from public.docschat_sql_file
    where name in ('search_docs_sections.sql', 'match_docs_sections.sql', 'docs_search_box.sql',
                   'docs_section_shown.sql', 'docs_sync_switch.sql');
  end if;
end
$$;
drop function if exists public.docs_search_box;
drop function if exists public.search_docs_sections;
drop function if exists public.match_docs_sections;
drop function if exists public.docs_section_shown;
alter table public.docs_section_stage drop column if exists place;
alter table public.docs_section drop column if exists place;

-- match_docs_sections: the match_count (null: 10) sections `audiences` may see nearest to a query
-- vector by cosine distance, among rows embedded by the same model. match_count and audiences
-- have no default (null audiences, said explicitly: every section). Iterative HNSW scans keep going past
-- filtered-out rows, so a restricted search still returns match_count rows when that many exist.
-- The index is on embedding::halfvec(768) (migration 2026_12_02_0023, design/vector-index.md): the
-- candidates are ordered by that expression, exactly as the index has it, or the planner cannot
-- use it; `distance` is still the float32 cosine distance, so scores keep their precision.
-- The planner prices distance computations low: at ef_search = 100 it picks an exact scan of
-- 10k rows (~25 ms) over the index (~0.5 ms). enable_seqscan = off keeps it on the index; with
-- no index it still scans the table exactly.
--   select id, distance from public.match_docs_sections(
--     (select embedding from public.docs_section where embedding is not null limit 1),
--     (select embedding_model from public.docs_section where embedding is not null limit 1), 5, '{public}');
create or replace function public.match_docs_sections(
  query_embedding public.vector(768),
  model_name text,
  match_count integer,                 -- null: 10
  audiences text[]                     -- who asks; null = every section
) returns table (
  id text, source text, page text, title text, heading text, breadcrumb text, href text, content text,
  audiences text[], distance float8
)
language sql stable
set search_path = ''
set hnsw.iterative_scan = 'relaxed_order'
set hnsw.ef_search = 100
set enable_seqscan = off
as $$
  with nearest as materialized (
    select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb, d.href, d.content, d.audiences,
           d.embedding operator(public.<=>) query_embedding as distance
    from public.docs_section d
    where d.embedding_model = model_name
      and (match_docs_sections.audiences is null
           or d.audiences operator(pg_catalog.&&) match_docs_sections.audiences)
    order by d.embedding::public.halfvec(768) operator(public.<=>) query_embedding::public.halfvec(768)
    limit coalesce(match_count, 10)
  )
  -- relaxed_order may return near-ties out of order: sort the few rows found. The href as a
  -- reader sees it: a code link's `{commit}` filled (public.docs_section_href).
  select n.id, n.source, n.page, n.title, n.heading, n.breadcrumb,
         public.docs_section_href(n.href, c.commit, c.fill_hrefs), n.content, n.audiences, n.distance
  from nearest n
  left join public.docs_source_commit c on c.source = n.source
  order by n.distance, n.id
$$;

-- search_docs_sections: the sections `audiences` may see that match the question's terms, best
-- first: at most match_count of them (null: 10). The rank is a sum over terms of IDF × ts_rank of that term alone (title >
-- heading > body weights), so a section matching more, and rarer, terms ranks higher.
-- Cost follows the rows touched, so candidates come from the rarest terms only (as in MaxScore):
-- terms are taken rarest first while their rows add up to at most candidate_rows; every term
-- then adds to the rank of those candidates. When even the rarest term is that common, the
-- candidates are the sections holding both of the two rarest terms. A term in more than
-- max_term_share of the visible sections is left out (design/retrieval-defaults.md), unless it is
-- the question's rarest or in fewer than cheap_ndoc sections. A question left with one term that
-- common reads first the sections holding it in their title or heading, and the others only when
-- those cannot make the list (the same list, design/fulltext-leg.md). match_count and audiences have no
-- default: a call says how many and for whom (null audiences, said explicitly: every section).
--   select id, title, rank from public.search_docs_sections('how do I embed the widget', 5, '{public}');
create or replace function public.search_docs_sections(
  query_text text,
  match_count integer,                 -- null: 10
  audiences text[],                    -- who asks; null = every section
  max_term_share float8 default 0.25,
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
  drawn as (
    -- The terms that draw the candidates: the rarest while their rows add up to at most
    -- candidate_rows (the rarest always); when even the rarest is that common (`common`, the same
    -- on every row), the two rarest.
    select t.lexeme, t.idf, r.common,
           case when r.common then t.rarity <= 2
                else t.rows_so_far <= candidate_rows or t.rarity = 1 end as draws
    from terms t
    cross join (select min(m.ndoc) > candidate_rows as common from terms m) r
  ),
  candidate_query as (
    -- Lexemes are letters and digits only (docs_query_lexemes), quoted: the cast cannot fail.
    select case
      when not pg_catalog.bool_or(t.common) then
        pg_catalog.string_agg(pg_catalog.quote_literal(t.lexeme), ' | ') filter (where t.draws)
      else
        pg_catalog.string_agg(pg_catalog.quote_literal(t.lexeme), ' & ') filter (where t.draws)
    end::pg_catalog.tsquery as query,
    (pg_catalog.string_agg(pg_catalog.quote_literal(t.lexeme), ' | ') filter (where t.draws))::pg_catalog.tsquery
      as any_query,
    -- One term's ts_rank is (w + sum over its other positions j of w_j / j^2) / (pi^2/6), w its
    -- greatest weight, j counted from 1: below 1.6079 × the greatest weight of its positions
    -- (1.61 leaves room for float4 rounding; normalization only divides). So a candidate whose
    -- drawing terms stand in body text only (weights D, C) ranks below this bound:
    1.61 * (coalesce(sum(t.idf) filter (where t.draws), 0) * greatest(rank_weights[1], rank_weights[2])
            + coalesce(sum(t.idf) filter (where not t.draws), 0)
              * greatest(rank_weights[1], rank_weights[2], rank_weights[3], rank_weights[4])) as body_only_bound,
    -- The head is tried for a question of one term in more than candidate_rows sections (the
    -- others dropped as too common): thousands of candidates, and a head that suffices as a rule.
    -- With more terms the bound is rarely beaten, and a failed try costs its reads (measured).
    -- (ts_rank reads a negative weight as its default one: the bound holds for weights >= 0.)
    pg_catalog.count(*) = 1 and pg_catalog.bool_or(t.common)
      and least(rank_weights[1], rank_weights[2], rank_weights[3], rank_weights[4]) >= 0 as try_head
    from drawn t
  ),
  head as (
    -- The candidates holding a drawing term in their title or heading (weights A, B: the index
    -- docs_section_fts_head_idx), best first. When the last of match_count of them ranks above
    -- body_only_bound, no other candidate can enter the list: a common term's thousands of other
    -- candidates are not read. Exact: the same ranks, the same order.
    select d.id,
           (select sum(t.idf * pg_catalog.ts_rank(rank_weights, d.search_vector, t.query, normalization))
            from terms t) as rank
    from candidate_query c
    join public.docs_section_fts d
      on pg_catalog.ts_filter(d.search_vector, '{a,b}') operator(pg_catalog.@@) c.any_query
     -- a candidate: called as a function, not through the operator, so that the planner does not
     -- AND the head index with search_vector's (the bitmap of every row holding the common term)
     and pg_catalog.ts_match_vq(d.search_vector, c.query)
    where c.try_head
      and (search_docs_sections.audiences is null
           or d.audiences operator(pg_catalog.&&) search_docs_sections.audiences)
    order by rank desc, d.id
    limit coalesce(match_count, 10)
  ),
  head_suffices as (
    select coalesce(count(*) = coalesce(match_count, 10)
                    and min(h.rank) > (select c.body_only_bound from candidate_query c), false) as yes
    from head h
  ),
  ranked as (
    select h.id, h.rank from head h where (select y.yes from head_suffices y)
    union all
    -- Otherwise every candidate, from the narrow docs_section_fts (id, audiences, search_vector:
    -- few, dense pages; design/fulltext-leg.md), each ranked where it is read: no materialised
    -- copy of the candidates' vectors, no grouping. The terms are summed in the same order as before.
    (select d.id,
           (select sum(t.idf * pg_catalog.ts_rank(rank_weights, d.search_vector, t.query, normalization))
            from terms t) as rank
    from candidate_query c
    join public.docs_section_fts d on d.search_vector operator(pg_catalog.@@) c.query
    where not (select y.yes from head_suffices y)
      and (search_docs_sections.audiences is null
           or d.audiences operator(pg_catalog.&&) search_docs_sections.audiences)
    order by rank desc, d.id
    limit coalesce(match_count, 10))
  )
  select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb,
         public.docs_section_href(d.href, sc.commit, sc.fill_hrefs), d.content, d.audiences, r.rank
  from ranked r
  join public.docs_section d on d.id = r.id
  left join public.docs_source_commit sc on sc.source = d.source  -- a code link's {commit}, filled
  order by r.rank desc, d.id
$$;

-- docs_search_box: what GET /docs/search returns, one row per section, pages best first and each
-- page's sections best first. As in the chat's keyword leg, the words are typo-corrected against
-- what `audiences` may see (docs_search_text) and weighed by IDF (docs_query_lexemes); in addition
-- the last word, while it is being typed (last_word_prefix), stands for the visible lexemes it
-- begins (`embe` → embed), its own stem (`embe` → emb, as "embed" is stored) and the stems it
-- runs past: Postgres stems what is stored, so a typed `deploym` must match the stored `deploy`
-- and `navigat` the stored `navig`, which a tsquery prefix (`deploym:*`) would not. A last word
-- that matches no visible lexeme so is read as a whole word, typo-corrected like the others.
-- Each word is one group of lexemes; a section's score is
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
-- `audiences` has no default: null or empty finds nothing (fail closed).
--   select * from public.docs_search_box('embe', '{public}');
--   select * from public.docs_search_box('deploy to vercl', '{public}', 5);
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
  snippet_chars integer default 320         -- of the text around the first match that ts_headline reads
                                            -- (its cost follows the length: ~40 words for 24 shown)
) returns table (
  page_rank integer, source text, page text, title text, heading text, breadcrumb text, href text,
  snippet text, score float8, content text
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
        s.aud),
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
         s.score, d.content
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

-- docs_section_shown(audiences): the sections `audiences` may see, as a reader sees them:
-- docs_section's reader columns, `href` as public.docs_section_href gives it (a code link's
-- `{commit}` filled with the commit the source's rows were synced at). The commit row is joined
-- in this query, so a statement that reads from it reads the commit and the rows from one
-- snapshot. audiences has no default: a call says for whom; null gives no section (fail closed;
-- `$1 is null or …` would also change the generic plans). Runs with the caller's rights, row-level
-- security included. Postgres inlines it into the caller's query (a stable SQL function returning
-- a set, one SELECT, not strict, no SET clause): the plan is the one of the join written out in
-- the caller's statement. Hence no `set search_path` (docs_section_href.sql says what a SET
-- clause costs); the body names schema-qualified objects and pg_catalog's operators only. The
-- page list reads docs_page_shown instead (each page's href filled once, not every row's).
--   select s.id, s.href from public.docs_section_shown('{public}') s order by s.id;
create or replace function public.docs_section_shown(audiences text[])
returns table (
  id text, source text, page text, title text, heading text, breadcrumb text, href text, content text,
  audiences text[]
)
language sql
stable
parallel safe
as $$
  select d.id, d.source, d.page, d.title, d.heading, d.breadcrumb,
         public.docs_section_href(d.href, c.commit, c.fill_hrefs), d.content, d.audiences
  from public.docs_section d
  left join public.docs_source_commit c on c.source operator(pg_catalog.=) d.source
  where d.audiences operator(pg_catalog.&&) docs_section_shown.audiences
$$;

-- docs_sync_switch: applies the rows a sync staged under `generation` (docs_section_stage) to
-- docs_section, and keeps the per-audience-set statistics (docs_lexeme_stats, docs_search_stats)
-- current from the rows it touches only: what those rows counted is taken away before they are
-- written, what they count after is added (no rebuild from every tsvector). Returns the number of
-- staged rows. The caller holds the sync lock and has checked docs_index_version, in the same
-- transaction (app/indexing/sync_apply.py). plpgsql: an early return when nothing is staged, and
-- statements run in order on what the previous ones wrote.
--   select public.docs_sync_switch('6f1c…'::uuid);
create or replace function public.docs_sync_switch(generation uuid) returns bigint
language plpgsql
set search_path = ''
as $$
declare
  staged bigint;
begin
  select count(*) into staged from public.docs_section_stage s where s.gen = generation;
  if staged = 0 then
    return 0;
  end if;

  -- What the touched rows count now leaves the statistics (a set's row goes at zero).
  with touched as (
    select d.audiences, d.search_vector
    from public.docs_section_stage s
    join public.docs_section d on d.id = s.id
    where s.gen = generation
  ),
  counted as (
    select t.audiences, w.lexeme, count(*)::integer as n
    from touched t
    cross join lateral pg_catalog.unnest(t.search_vector) as w(lexeme, positions, weights)
    group by t.audiences, w.lexeme
  ),
  emptied as (
    delete from public.docs_lexeme_stats st using counted c
    where st.lexeme = c.lexeme and st.audiences = c.audiences and st.ndoc <= c.n
    returning 1
  )
  update public.docs_lexeme_stats st set ndoc = st.ndoc - c.n
  from counted c
  where st.lexeme = c.lexeme and st.audiences = c.audiences and st.ndoc > c.n;

  with counted as (
    select d.audiences, count(*)::integer as n
    from public.docs_section_stage s
    join public.docs_section d on d.id = s.id
    where s.gen = generation
    group by d.audiences
  ),
  emptied as (
    delete from public.docs_search_stats st using counted c
    where st.audiences = c.audiences and st.section_count <= c.n
    returning 1
  )
  update public.docs_search_stats st set section_count = st.section_count - c.n
  from counted c
  where st.audiences = c.audiences and st.section_count > c.n;

  insert into public.docs_section as d
    (id, source, page, title, heading, breadcrumb, href, content, audiences, content_hash, embedding, embedding_model)
  select s.id, s.source, s.page, s.title, s.heading, s.breadcrumb, s.href, s.content, s.audiences, s.content_hash,
         s.embedding, s.embedding_model
  from public.docs_section_stage s
  where s.gen = generation and s.kind = 'upsert'
  on conflict (id) do update set
    source = excluded.source, page = excluded.page, title = excluded.title, heading = excluded.heading,
    breadcrumb = excluded.breadcrumb, href = excluded.href, content = excluded.content,
    audiences = excluded.audiences, content_hash = excluded.content_hash,
    embedding = excluded.embedding, embedding_model = excluded.embedding_model, updated_at = now();

  update public.docs_section d
  set source = s.source, page = s.page, title = s.title, heading = s.heading, breadcrumb = s.breadcrumb,
      href = s.href, audiences = s.audiences, updated_at = now()
  from public.docs_section_stage s
  where s.gen = generation and s.kind = 'meta' and d.id = s.id;

  delete from public.docs_section d
  using public.docs_section_stage s
  where s.gen = generation and s.kind = 'delete' and d.id = s.id;

  -- What the touched rows count as written joins the statistics.
  insert into public.docs_lexeme_stats as st (audiences, lexeme, ndoc)
  select d.audiences, w.lexeme, count(*)::integer
  from public.docs_section_stage s
  join public.docs_section d on d.id = s.id
  cross join lateral pg_catalog.unnest(d.search_vector) as w(lexeme, positions, weights)
  where s.gen = generation and s.kind <> 'delete'
  group by d.audiences, w.lexeme
  on conflict (lexeme, audiences) do update set ndoc = st.ndoc + excluded.ndoc;

  insert into public.docs_search_stats as st (audiences, section_count)
  select d.audiences, count(*)::integer
  from public.docs_section_stage s
  join public.docs_section d on d.id = s.id
  where s.gen = generation and s.kind <> 'delete'
  group by d.audiences
  on conflict (audiences) do update set section_count = st.section_count + excluded.section_count;

  -- /llms.txt keys its cache on max(refreshed_at): every switch that writes moves it.
  update public.docs_search_stats set refreshed_at = now();
  return staged;
end
$$;

