"""The two retrieval legs, each one call of a SQL function in sql/002_search.sql."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg


@dataclass(frozen=True)
class Hit:
    id: str
    page: str
    title: str
    heading: str
    breadcrumb: str
    href: str
    content: str
    public: bool
    score: float  # full-text rank (higher is better) or cosine distance (lower is better)


def _hits(rows: list[asyncpg.Record], score_column: str) -> list[Hit]:
    return [
        Hit(r["id"], r["page"], r["title"], r["heading"], r["breadcrumb"], r["href"], r["content"], r["public"],
            float(r[score_column]))
        for r in rows
    ]


async def search_docs_sections(
    conn: asyncpg.Connection, question: str, match_count: int, public_only: bool
) -> list[Hit]:
    """Full-text leg: rare question words weigh more; best first."""
    rows = await conn.fetch(
        "select * from public.search_docs_sections($1, $2, $3)", question, match_count, public_only
    )
    return _hits(rows, "rank")


async def match_docs_sections(
    conn: asyncpg.Connection, embedding: list[float], model: str, match_count: int, public_only: bool
) -> list[Hit]:
    """Vector leg: nearest by cosine distance among rows of the same embedding model."""
    rows = await conn.fetch(
        "select * from public.match_docs_sections($1, $2, $3, $4)", embedding, model, match_count, public_only
    )
    return _hits(rows, "distance")


async def term_coverage(
    conn: asyncpg.Connection, question: str, section_ids: list[str]
) -> tuple[float, float, float] | None:
    """(coverage, matched IDF, unseen IDF) of the section that matches most of the question's IDF weight."""
    row = await conn.fetchrow(
        "select coverage, matched_idf, unseen_idf from public.docs_term_coverage($1, $2) limit 1",
        question, section_ids,
    )
    return (float(row["coverage"]), float(row["matched_idf"]), float(row["unseen_idf"])) if row else None
