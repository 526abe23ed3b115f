"""Vocabulary-mismatch rescue: one passage found through words the docs use beside the question's.

A user asks how to "scatter actors"; the docs say "SPREAD". Neither leg may find that page: the
words differ, and the embedding of a short question can miss too. The docs themselves say which of
their words go with the question's: `docs_cooccurring_terms` (sql/functions/docs_cooccurring_terms.sql) ranks the
words found, more often than chance, in the sections holding the question's terms. The question is
searched again with them added; the best section of a page not already chosen is the rescued
passage.

It is a last resort, so it is bounded: it runs only for an answer below the low-confidence line
(a refusal shows no pages), it adds at most one passage, and that passage takes the last place
(the last page slot, the third section) without reordering what was found: a confident
retrieval is never touched. The confidence stays what the legs' evidence made it (fail closed).
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from app.search.fusion import FusedHit
from app.search.hits import Hit
from app.search.legs import search_docs_sections
from app.search.pages import PageChoice

RESCUE_TERMS = 5  # co-occurring words added to the question
RESCUE_HITS = 10  # sections of the expanded search looked through for a page not yet chosen


@dataclass(frozen=True)
class Rescue:
    terms: list[str]
    hit: Hit

    def to_dict(self) -> dict[str, object]:
        return {"terms": self.terms, "id": self.hit.id, "page": self.hit.page}


async def cooccurring_terms(conn: asyncpg.Connection, question: str, audiences: list[str] | None) -> list[str]:
    rows = await conn.fetch(
        "select lexeme from public.docs_cooccurring_terms($1, $2, $3)", question, audiences, RESCUE_TERMS
    )
    return [r["lexeme"] for r in rows]


async def find_rescue(
    conn: asyncpg.Connection, question: str, audiences: list[str] | None, chosen_pages: set[str],
    code_sources: frozenset[str] = frozenset(),
) -> Rescue | None:
    """The best section, searched with the co-occurring words added, of a docs page not in
    `chosen_pages` (page keys); None when there are no such words or no such page. Files of
    `code_sources` are never rescued: the mismatch is between users' words and the docs' prose,
    and a code question names its symbols (measured: scripts/bench_code.py lost a symbol's lines
    to a rescued file)."""
    terms = await cooccurring_terms(conn, question, audiences)
    if not terms:
        return None
    hits = await search_docs_sections(conn, f"{question} {' '.join(terms)}", RESCUE_HITS, audiences)
    hit = next((h for h in hits if h.page_key not in chosen_pages and h.source not in code_sources), None)
    return Rescue(terms, hit) if hit else None


def place_rescue(
    rescue: Rescue, ranking: list[FusedHit], candidates: list[PageChoice], max_pages: int
) -> tuple[list[FusedHit], list[PageChoice]]:
    """The rescued section third in the order of sections and its page in the last page slot
    (the page there before, if any, is dropped); everything else keeps its place."""
    hit = rescue.hit
    rest = [f for f in ranking if f.hit.id != hit.id]
    # Its score is the one above it: the rescue sets no score of its own, only a place.
    above = rest[min(1, len(rest) - 1)].score if rest else 0.0
    rescued = FusedHit(hit, above, {"rescue": 1})
    kept = [c for c in candidates if c.kept]
    if len(kept) >= max_pages:
        kept[-1].kept = False
        kept[-1].reason = "dropped: its slot went to a rescued passage"
    page = PageChoice.of(rescued)
    page.kept = True
    page.reason = "kept: rescued through words the docs use beside the question's (" + ", ".join(rescue.terms) + ")"
    others = [c for c in candidates if c.page_key != page.page_key]
    return (
        [*rest[:2], rescued, *rest[2:]],
        [*(c for c in others if c.kept), page, *(c for c in others if not c.kept)],
    )
