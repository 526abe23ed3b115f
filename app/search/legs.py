"""The two retrieval legs, each one statement calling the SQL functions of sql/002_search.sql."""

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
    """Full-text leg: rare question words weigh more; best first. Words no section holds are
    typo-corrected or dropped first (docs_search_text, sql/007_quality.sql)."""
    # Postgres text cannot hold NUL: a pasted NUL is dropped rather than failing the leg.
    rows = await conn.fetch(
        "select * from public.search_docs_sections(public.docs_search_text($1), $2, $3)", question.replace("\x00", ""), match_count,
        public_only,
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
