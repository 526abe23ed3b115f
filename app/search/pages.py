"""Page selection: fused chunks → at most N pages close to the best one, each with its excerpt."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.search.chunk_text import prose_lines
from app.search.fusion import FusedHit, best_first
from app.search.hits import Hit
from app.search.terms import names_page

# The share of its page's best section that a page's overview gains in the order of sections.
OVERVIEW_SHARE = 0.25


@dataclass
class PageChoice:
    page: str
    title: str
    href: str  # the excerpt's href (section anchor)
    page_href: str
    score: float  # the page's best fused chunk score (+ its overview's), after any demotion
    raw_score: float
    excerpt: str
    heading: str
    chunk_id: str
    source: str = "docs"
    breadcrumb: str = ""  # the excerpt's Page › Section › Subsection
    place: tuple[str, ...] = ()  # the page's place in its site's navigation (tab, group)
    weight: float = 1.0  # source weight × path boosts (in `score` already)
    demoted: bool = False
    navigation: bool = False  # demoted as a list of links (navigates_only)
    kept: bool = False
    reason: str = ""
    chunks: list[FusedHit] = field(default_factory=list)

    @classmethod
    def of(cls, item: FusedHit) -> PageChoice:
        """The page of a fused section, with that section as its excerpt."""
        hit = item.hit
        return cls(
            page=hit.page, title=hit.title, href=hit.href, page_href=hit.href.split("#", 1)[0], score=item.score,
            raw_score=item.score, excerpt=hit.content, heading=hit.heading, chunk_id=hit.id, source=hit.source,
            breadcrumb=hit.breadcrumb, place=hit.place, weight=item.weight, chunks=[item],
        )

    @property
    def page_key(self) -> str:
        """As Hit.page_key: pages are per source."""
        return f"{self.source}:{self.page}"

    def to_dict(self) -> dict[str, object]:
        return {
            "title": self.title, "href": self.href, "score": round(self.score, 6), "excerpt": self.excerpt,
            "heading": self.heading, "breadcrumb": self.breadcrumb, "page": self.page, "source": self.source,
            "chunk_id": self.chunk_id, "place": list(self.place),
        }


# A link that leaves the section: [text](dest) but not an image nor an anchor in the same page,
# <https://…>, a bare URL, or a reference definition ("[name]: https://…").
_OUTBOUND_LINK = re.compile(
    r"(?<!!)\[([^\]\n]*)\]\((?!#)[^)\s]+(?:\s+\"[^\"\n]*\")?\)"
    r"|<(https?://[^>\s]+)>|^[ \t]*\[[^\]\n]+\]:[ \t]*\S+|(https?://[^\s)>\]]+)",
    re.MULTILINE,
)
_WORD = re.compile(r"[^\W\d_]{2,}")
# Every match of _OUTBOUND_LINK holds one of these (its own occurrence: matches do not overlap).
_LINK_MARKERS = ("](", "]:", "http")
# A line is a link line when at most this many words stand outside its links ("- [Guide](/g): setup").
LINK_LINE_WORDS = 3
# A section is navigation when at least this share of its prose lines are link lines.
NAVIGATION_LINE_SHARE = 2 / 3


def is_navigation(text: str) -> bool:
    """A section that is a list of links to elsewhere, with little prose: it points at the answer
    rather than holding it ("Where to go next", "Resources", a table of guides). Code is not
    prose here and not links either; links to anchors of the same page do not count (a page's own
    table of contents sits above the content it lists)."""
    if sum(map(text.count, _LINK_MARKERS)) < 2:
        return False  # the common case, cheaply: fewer than two links, so fewer than two link lines
    # Two links on one line are one link line. The prose lines below are whole lines of the text
    # (blocks are whole lines), so a link line is a line of the text holding a marker.
    if sum(1 for line in text.splitlines() if any(marker in line for marker in _LINK_MARKERS)) < 2:
        return False
    return navigation_by_lines(text)


def navigation_by_lines(text: str) -> bool:
    """is_navigation without its early return (the rule itself, line by line)."""
    lines = [line for line in prose_lines(text) if line.strip()]
    link_lines = link_words = other_words = 0
    for line in lines:
        links = list(_OUTBOUND_LINK.finditer(line))
        outside = len(_WORD.findall(_OUTBOUND_LINK.sub(" ", line)))
        other_words += outside
        link_words += sum(len(_WORD.findall(m.group(1) or m.group(2) or "")) for m in links)
        if links and outside <= LINK_LINE_WORDS:
            link_lines += 1
    return link_lines >= 2 and link_lines >= NAVIGATION_LINE_SHARE * len(lines) and other_words <= link_words


def navigates_only(choice: PageChoice, question: str) -> bool:
    """Whether the page was found through a list of links to elsewhere (its excerpt is
    navigation: is_navigation), for a question that does not name that list (its heading; the
    page's title when the list is the page's opening). Such a page points at the answer; listing
    it as a guide sends the reader to a list of links (the docs' index page, found by the titles
    of the guides it links to). The title of a page whose list is a section does not count as
    naming it, nor its file name: an index page's title is often the product's name and its file
    `index`, which questions about any page may say.

    The page is judged by its excerpt (select_pages: its best section, the overview only when no
    section matched), the section its score is made of with its overview, not by its best chunk:
    the overview is what any question about the product matches, and when it edged out the list
    (the demo's index page, 0.150 against 0.143: design/navigation-pages.md) the page was judged
    by its overview while its score and excerpt came from the list."""
    return is_navigation(choice.excerpt) and not names_page(question, choice.heading or choice.title)


def is_demoted(title: str, page: str, demoted: set[str]) -> bool:
    """`demoted` holds lower-cased titles, paths, or paths without their extension."""
    return title.lower() in demoted or page.lower() in demoted or page.rsplit(".", 1)[0].lower() in demoted


def rank_overviews_with_their_page(
    fused: list[FusedHit], share: float = OVERVIEW_SHARE, code_sources: frozenset[str] = frozenset()
) -> list[FusedHit]:
    """The fused sections, best first, each overview (the text before a page's first heading)
    raised by `share` of its page's best section. Files of `code_sources` are left as they are:
    a module's top-level lines (imports, constants) do not say what the file is for, and the
    question is about a symbol (measured: scripts/bench_code.py, gold lines in the top 3 fell
    from 0.85 to 0.75 with them raised).

    A question about what a page covers as a whole ("Does Ray support NCCL?") is answered by the
    page's opening, which says what the page is for; yet a detailed section out-scores it on the
    question's words. The overview alone is weak evidence, and so is one section, but a page whose
    opening and a section both match is the page the question is about: its opening then moves up
    the order. The pages (select_pages) are chosen from the fused scores as they were.
    """
    best_section: dict[str, float] = {}
    for item in fused:  # best first: the first section seen of a page is its best
        if item.hit.heading:
            best_section.setdefault(item.hit.page_key, item.score)
    return best_first(
        FusedHit(item.hit, item.score + share * best_section.get(item.hit.page_key, 0.0), item.ranks, item.weight)
        if not item.hit.heading and item.hit.source not in code_sources else item
        for item in fused
    )


def pages_both_legs_rank(legs: dict[str, list[Hit]], n: int) -> frozenset[str]:
    """The pages (page keys) that every leg ranks among its `n` best pages; none with one leg."""
    if len(legs) < 2:
        return frozenset()
    best: list[set[str]] = []
    for hits in legs.values():
        pages: list[str] = []
        for hit in hits:
            if hit.page_key not in pages:
                pages.append(hit.page_key)
                if len(pages) == n:
                    break
        best.append(set(pages))
    return frozenset(set.intersection(*best))


def select_pages(
    fused: list[FusedHit],
    question: str,
    *,
    max_pages: int = 3,
    score_ratio: float = 0.5,
    demoted_pages: list[str] | None = None,
    demotion_factor: float = 0.25,
    agreed: frozenset[str] = frozenset(),
) -> list[PageChoice]:
    """Every candidate page, best first, with `kept` and the reason; the kept ones lead.

    `agreed` pages (page keys both legs rank among their best: pages_both_legs_rank) are kept
    whatever their fused score: two legs that find a page each in its own way are better evidence
    than a score fused from sections, where a page whose best section differs per leg scores low.
    """
    demoted = {d.strip().lower() for d in demoted_pages or [] if d.strip()}
    by_page: dict[str, PageChoice] = {}
    for item in fused:
        key = item.hit.page_key
        choice = by_page.get(key)
        if choice is None:
            by_page[key] = PageChoice.of(item)
        else:
            choice.chunks.append(item)
    for choice in by_page.values():
        # Most pages have one fused chunk: PageChoice.of made it the excerpt, and the overview and
        # section pair below needs two. (This stage runs on every question: design/fulltext-leg.md.)
        if len(choice.chunks) > 1:
            # The excerpt is the best matching section; the overview only when no section matched.
            sections = [c for c in choice.chunks if c.hit.heading]
            best = sections[0] if sections else choice.chunks[0]
            choice.href, choice.excerpt, choice.heading, choice.chunk_id, choice.breadcrumb = (
                best.hit.href, best.hit.content, best.hit.heading, best.hit.id, best.hit.breadcrumb
            )
            # Page evidence: a page whose overview and a section both match says twice that it is
            # about the question; it outranks a page with one lucky chunk. (Adding further sections
            # was measured too: long pages with many weak matches then crowd out the answer.)
            overview = next((c for c in choice.chunks if not c.hit.heading), None)
            if overview is not None and sections:
                choice.score = choice.raw_score = overview.score + sections[0].score
        if is_demoted(choice.title, choice.page, demoted) and not names_page(
            question, choice.title, choice.page
        ):
            choice.demoted = True
            choice.score = choice.raw_score * demotion_factor
        elif navigates_only(choice, question):
            choice.demoted = choice.navigation = True
            choice.score = choice.raw_score * demotion_factor
    ordered = sorted(by_page.values(), key=lambda c: (-c.score, c.source, c.page))
    if not ordered:
        return []
    best_score = ordered[0].score
    # The pages both legs agree on come first (best first, at most max_pages); the others take the
    # slots left, by fused score.
    guaranteed = [c.page_key for c in ordered if c.page_key in agreed and not c.demoted][:max_pages]
    slots = max_pages - len(guaranteed)
    too_many, too_low = f"dropped: only {max_pages} pages are kept", f"dropped: score below {score_ratio:.2f} × best"
    for choice in ordered:
        if choice.page_key in guaranteed:
            choice.kept = True
            choice.reason = "kept: both legs rank it among their best pages"
        elif slots <= 0:
            choice.reason = too_many
        elif choice.score < score_ratio * best_score:
            choice.reason = too_low
        else:
            choice.kept = True
            slots -= 1
            choice.reason = "kept"
        if choice.demoted:
            choice.reason += f" ({'navigation, ' if choice.navigation else ''}demoted ×{demotion_factor})"
    return ordered
