"""A section one retrieval leg found, with the term coverage the confidence reads.

Its own module: the legs (SQL), the proximity re-rank, the fusion and the excerpts all read it,
and none of them should import another to get a dataclass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class Coverage(NamedTuple):
    """How much of the question's IDF weight a section holds (sql/functions/docs_term_coverage.sql)."""

    share: float  # matched IDF / the question's total IDF
    matched_idf: float
    unseen_idf: float  # the IDF a term found in no visible section would have


PLACE_SEPARATOR = " › "


def place_text(place: tuple[str, ...] | list[str] | None) -> str:
    """A page's place in its site (docs_section.place) as shown: its labels joined, outermost first."""
    return PLACE_SEPARATOR.join(part for part in place or () if part)


@dataclass(frozen=True)
class Hit:
    """A docs_section row as a leg returns it. Nine of its fields repeat app.corpus.chunker.Chunk's
    (id through audiences, and place), on purpose, not shared through a base class: a Chunk is what compose
    makes for the sync to write (its href as stored, `{commit}` unfilled; its embed_text and
    content_hash), a Hit what a reader is shown (its href filled with the source's commit by
    docs_section_href, the stored content, a leg's score and coverage). The table's columns tie
    them; a common base would make search depend on the composer's record for fields whose meaning
    differs between the two (the href above all)."""

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
    coverage: Coverage | None = None  # of the question searched, when the leg was asked for it
    place: tuple[str, ...] = ()  # the page's place in its site's navigation (tab, group); (): none

    @property
    def page_key(self) -> str:
        """Pages are per source: two sources may both have an index.mdx."""
        return f"{self.source}:{self.page}"
