"""The two retrieval legs, each one statement calling the search functions (sql/functions/)."""

from __future__ import annotations

import asyncpg

from app.judge.question_terms import everyday_words
from app.search.hits import Coverage, Hit
from app.search.proximity import rerank_by_proximity
from app.text import storable_text


def _hits(rows: list[asyncpg.Record], score_column: str) -> list[Hit]:
    return [
        Hit(r["id"], r["source"], r["page"], r["title"], r["heading"], r["breadcrumb"], r["href"], r["content"],
            tuple(r["audiences"]), float(r[score_column]),
            Coverage(float(r["coverage"]), float(r["matched_idf"]), float(r["unseen_idf"]))
            if r.get("coverage") is not None else None,
            tuple(r["place"] or ()))
        for r in rows
    ]


# Each leg's hits come with their term coverage, computed in the leg's own statement: the
# confidence needs it for the legs' best hits, and a round trip of its own after both legs would
# add to every retrieval. `with ordinality` keeps the function's order through the join.
KEYWORD_LEG_SQL = """
with hits as (
  select * from public.search_docs_sections(
    public.docs_search_text(public.docs_identifier_words($1), $3, everyday_words => $4), $2, $3) with ordinality as h
)
select hits.*, c.coverage, c.matched_idf, c.unseen_idf
from hits
left join public.docs_term_coverage($1, (select pg_catalog.array_agg(id) from hits), $3) as c using (id)
order by hits.ordinality
"""

VECTOR_LEG_SQL = "select * from public.match_docs_sections($1, $2, $3, $4)"

# The vector leg's order is final (nothing re-ranks it), so only the hits the confidence reads
# need their coverage: the first $6.
VECTOR_LEG_WITH_COVERAGE_SQL = """
with hits as (
  select * from public.match_docs_sections($4, $5, $2, $3) with ordinality as h
)
select hits.*, c.coverage, c.matched_idf, c.unseen_idf
from hits
left join public.docs_term_coverage(
  $1, (select pg_catalog.array_agg(id) from hits where hits.ordinality <= $6), $3) as c using (id)
order by hits.ordinality
"""


async def search_docs_sections(
    conn: asyncpg.Connection, question: str, match_count: int, audiences: list[str] | None
) -> list[Hit]:
    """Full-text leg: rare question words weigh more; best first; only sections `audiences` may see.
    Identifiers are spelled out in words first (sql/functions/docs_identifier_words.sql: the typo
    step lower-cases, which would lose where `PostgresLimitsStorage` splits); then words no visible
    section holds are typo-corrected or dropped (sql/functions/docs_search_text.sql; an everyday
    word is never taken for a typo: question_terms.everyday_words); sections
    holding the question's words side by side move up (proximity.py)."""
    text = storable_text(question)
    rows = await conn.fetch(KEYWORD_LEG_SQL, text, match_count, audiences, everyday_words(text))
    return rerank_by_proximity(question, _hits(rows, "rank"))


async def match_docs_sections(
    conn: asyncpg.Connection, embedding: list[float], model: str, match_count: int, audiences: list[str] | None,
    coverage_of: str | None = None, coverage_hits: int = 3,
) -> list[Hit]:
    """Vector leg: nearest by cosine distance among rows of the same model that `audiences` may see;
    with `coverage_of`, the first `coverage_hits` hits carry their term coverage of that question."""
    if coverage_of is None:
        rows = await conn.fetch(VECTOR_LEG_SQL, embedding, model, match_count, audiences)
    else:
        rows = await conn.fetch(
            VECTOR_LEG_WITH_COVERAGE_SQL, storable_text(coverage_of), match_count, audiences, embedding, model,
            coverage_hits,
        )
    return _hits(rows, "distance")


async def query_terms(conn: asyncpg.Connection, question: str, audiences: list[str] | None) -> list[dict[str, object]]:
    """The question's full-text terms with their statistics as `audiences` see them (for --explain)."""
    # The question's own words, unknown ones included (ndoc 0): what the docs lack is worth seeing.
    rows = await conn.fetch(
        "select * from public.docs_query_lexemes($1, $2)", storable_text(question), audiences
    )
    return [{"lexeme": r["lexeme"], "ndoc": r["ndoc"], "idf": round(r["idf"], 4)} for r in rows]
