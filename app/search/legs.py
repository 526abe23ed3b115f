"""The two retrieval legs, each one call of a SQL function in sql/002_search.sql."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg


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
    """Full-text leg: rare question words weigh more; best first; only sections `audiences` may see."""
    rows = await conn.fetch(
        "select * from public.search_docs_sections($1, $2, $3)", question, match_count, audiences
    )
    return _hits(rows, "rank")


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
    rows = await conn.fetch("select * from public.docs_query_lexemes($1, $2)", question, audiences)
    return [{"lexeme": r["lexeme"], "ndoc": r["ndoc"], "idf": round(r["idf"], 4)} for r in rows]
