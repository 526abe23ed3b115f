"""Page selection: fused chunks → at most N pages close to the best one, each with its excerpt."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.search.fusion import FusedHit
from app.search.terms import names_page


@dataclass
class PageChoice:
    page: str
    title: str
    href: str  # the excerpt's href (section anchor)
    page_href: str
    score: float  # the page's best fused chunk score, after any demotion
    raw_score: float
    excerpt: str
    heading: str
    chunk_id: str
    source: str = "docs"
    weight: float = 1.0  # source weight × path boosts (in `score` already)
    demoted: bool = False
    kept: bool = False
    reason: str = ""
    chunks: list[FusedHit] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "title": self.title, "href": self.href, "score": round(self.score, 6), "excerpt": self.excerpt,
            "heading": self.heading, "page": self.page, "source": self.source, "chunk_id": self.chunk_id,
        }


def is_demoted(title: str, page: str, demoted: set[str]) -> bool:
    """`demoted` holds lower-cased titles, paths, or paths without their extension."""
    return title.lower() in demoted or page.lower() in demoted or page.rsplit(".", 1)[0].lower() in demoted


def select_pages(
    fused: list[FusedHit],
    question: str,
    *,
    max_pages: int = 3,
    score_ratio: float = 0.5,
    demoted_pages: list[str] | None = None,
    demotion_factor: float = 0.25,
) -> list[PageChoice]:
    """Every candidate page, best first, with `kept` and the reason; the kept ones lead."""
    demoted = {d.strip().lower() for d in demoted_pages or [] if d.strip()}
    by_page: dict[str, PageChoice] = {}
    for item in fused:
        hit = item.hit
        choice = by_page.get(hit.page_key)
        if choice is None:
            choice = by_page[hit.page_key] = PageChoice(
                page=hit.page, title=hit.title, href=hit.href, page_href=hit.href.split("#", 1)[0],
                score=item.score, raw_score=item.score, excerpt=hit.content, heading=hit.heading, chunk_id=hit.id,
                source=hit.source, weight=item.weight,
            )
        choice.chunks.append(item)
    for choice in by_page.values():
        # The excerpt is the best matching section; the overview only when no section matched.
        sections = [c for c in choice.chunks if c.hit.heading]
        best = sections[0] if sections else choice.chunks[0]
        choice.href, choice.excerpt, choice.heading, choice.chunk_id = (
            best.hit.href, best.hit.content, best.hit.heading, best.hit.id
        )
        if is_demoted(choice.title, choice.page, demoted) and not names_page(
            question, choice.title, choice.page
        ):
            choice.demoted = True
            choice.score = choice.raw_score * demotion_factor
    ordered = sorted(by_page.values(), key=lambda c: (-c.score, c.source, c.page))
    if not ordered:
        return []
    best_score = ordered[0].score
    kept = 0
    for choice in ordered:
        if kept >= max_pages:
            choice.reason = f"dropped: only {max_pages} pages are kept"
        elif choice.score < score_ratio * best_score:
            choice.reason = f"dropped: score below {score_ratio:.2f} × best"
        else:
            choice.kept = True
            kept += 1
            choice.reason = "kept"
        if choice.demoted:
            choice.reason += f" (demoted ×{demotion_factor})"
    return ordered
