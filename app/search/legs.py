"""The two retrieval legs, each one statement calling the search functions (sql/004_sources.sql, 007)."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from app.search.proximity import rerank_by_proximity


@dataclass(frozen=True)
class Hit:
    id: str
    source: str
    page: str
    title: str
    heading: str
    breadcrumb: str
    href: str
    content: str
    audiences: tuple[str, ...]
    score: float  # full-text rank (higher is better) or cosine distance (lower is better)

    @property
    def page_key(self) -> str:
        """Pages are per source: two sources may both have an index.mdx."""
        return f"{self.source}:{self.page}"


def _hits(rows: list[asyncpg.Record], score_column: str) -> list[Hit]:
    return [
        Hit(r["id"], r["source"], r["page"], r["title"], r["heading"], r["breadcrumb"], r["href"], r["content"],
            tuple(r["audiences"]), float(r[score_column]))
        for r in rows
    ]


async def search_docs_sections(
    conn: asyncpg.Connection, question: str, match_count: int, audiences: list[str] | None
) -> list[Hit]:
    """Full-text leg: rare question words weigh more; best first; only sections `audiences` may see.
    Identifiers are spelled out in words first (docs_identifier_words, 008: the typo step lower-cases,
    which would lose where `PostgresLimitsStorage` splits); then words no visible section holds are
    typo-corrected or dropped (docs_search_text, 007); sections holding the question's words side by
    side move up (proximity.py)."""
    # Postgres text cannot hold NUL: a pasted NUL is dropped rather than failing the leg.
    rows = await conn.fetch(
        "select * from public.search_docs_sections("
        "public.docs_search_text(public.docs_identifier_words($1), $3), $2, $3)",
        question.replace("\x00", ""), match_count, audiences,
    )
    return rerank_by_proximity(question, _hits(rows, "rank"))


async def match_docs_sections(
    conn: asyncpg.Connection, embedding: list[float], model: str, match_count: int, audiences: list[str] | None
) -> list[Hit]:
    """Vector leg: nearest by cosine distance among rows of the same model that `audiences` may see."""
    rows = await conn.fetch(
        "select * from public.match_docs_sections($1, $2, $3, $4)", embedding, model, match_count, audiences
    )
    return _hits(rows, "distance")


async def query_terms(conn: asyncpg.Connection, question: str, audiences: list[str] | None) -> list[dict[str, object]]:
    """The question's full-text terms with their statistics as `audiences` see them (for --explain)."""
    # The question's own words, unknown ones included (ndoc 0): what the docs lack is worth seeing.
    rows = await conn.fetch(
        "select * from public.docs_query_lexemes($1, $2)", question.replace("\x00", ""), audiences
    )
    return [{"lexeme": r["lexeme"], "ndoc": r["ndoc"], "idf": round(r["idf"], 4)} for r in rows]


async def term_coverage(
    conn: asyncpg.Connection, question: str, section_ids: list[str], audiences: list[str] | None
) -> tuple[float, float, float] | None:
    """(coverage, matched IDF, unseen IDF) of the section that matches most of the question's IDF
    weight, with term statistics as `audiences` see them."""
    row = await conn.fetchrow(
        "select coverage, matched_idf, unseen_idf from public.docs_term_coverage($1, $2, $3) limit 1",
        question, section_ids, audiences,
    )
    return (float(row["coverage"]), float(row["matched_idf"]), float(row["unseen_idf"])) if row else None
