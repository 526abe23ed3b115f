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
-- Each section comes with its page's place in the site (docs_section.place).
--   select id, title, rank, place from public.search_docs_sections('how do I embed the widget', 5, '{public}');
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
  audiences text[], rank float8,
  place text[]                         -- the page's place in its site's navigation (tab, group); {}: none
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
         public.docs_section_href(d.href, sc.commit, sc.fill_hrefs), d.content, d.audiences, r.rank, d.place
  from ranked r
  join public.docs_section d on d.id = r.id
  left join public.docs_source_commit sc on sc.source = d.source  -- a code link's {commit}, filled
  order by r.rank desc, d.id
$$;
