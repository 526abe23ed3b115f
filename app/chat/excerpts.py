"""Bounded injection: which retrieved sections reach the model, and how much of each.

At most `chat_max_excerpts` sections (the best ones, from the kept pages, in fused order), none
whose score is known to fall below the minimum (`chat_excerpt_min_score`, else the retrieval's
answer floor): a section's score is its cosine similarity on the embedding model's 0–1 scale, the
scale of the judgment's confidence (app/judge/confidence.py). At most `chat_max_excerpt_chars`
characters in all. A section is cut at a paragraph or code-block boundary, never inside a fence.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import asyncpg

from app.corpus.chunker import section_part
from app.corpus.code import fenced_code_excerpt
from app.judge.confidence import scaled_cosine
from app.judge.excerpt import Excerpt
from app.search.chunk_text import chunk_blocks
from app.search.hits import Hit
from app.search.retrieve import Retrieval
from app.search.urls import absolute_url, with_absolute_links

CUT_MARK = "\n\n[…]"


@dataclass(frozen=True)
class ExcerptBounds:
    max_excerpts: int = 4
    min_score: float | None = None
    max_chars: int = 7000


def cut_at_boundaries(text: str, limit: int) -> str:
    """`text` when it fits in `limit` characters; else its leading whole blocks that fit, marked as
    cut. A list may be cut between its items; a fence or a table is never cut: one that does not
    fit is left out with what follows."""
    if len(text) <= limit:
        return text
    kept: list[str] = []
    size = 0
    budget = limit - len(CUT_MARK)
    for block in chunk_blocks(text):
        extra = len(block.text) + (2 if kept else 0)
        if size + extra > budget:
            items: list[str] = []
            for item in block.items:
                if size + (2 if kept else 0) + len("\n".join([*items, item])) > budget:
                    break
                items.append(item)
            kept += ["\n".join(items)] if items else []
            break
        kept.append(block.text)
        size += extra
    return "\n\n".join(kept) + CUT_MARK if kept else ""


def score_by_chunk(retrieval: Retrieval, model: str | None) -> dict[str, float]:
    """The scaled cosine similarity of every chunk the vector leg returned, on the scale the
    judgment used (COSINE_SCALE or the model's own)."""
    explanation = getattr(getattr(retrieval, "judgment", None), "explanation", None) or {}
    used = explanation.get("cosine_scale")
    scale = (float(used["unrelated"]), float(used["related"])) if isinstance(used, dict) else None
    return {hit.id: scaled_cosine(1.0 - hit.score, model, scale) for hit in retrieval.legs.get("vector", [])}


def select_excerpts(
    retrieval: Retrieval, bounds: ExcerptBounds, base_url: str, numbering: dict[str, int] | None = None,
    model: str | None = None,
) -> list[Excerpt]:
    """The sections given to the model, each numbered by its page's place among the guides.

    `numbering` (page URL → number) holds the pages already shown in this turn; a page first given
    here takes the next number and is added to it. `model` names the embedding model (its scale).
    """
    pages = retrieval.pages
    numbering = {} if numbering is None else numbering
    kept_pages = {absolute_url(base_url, page.page_href) for page in pages}

    def page_url(hit: Hit) -> str:
        return absolute_url(base_url, hit.href.split("#", 1)[0])

    floor = bounds.min_score
    if floor is None:
        judged = getattr(retrieval, "floor", None)
        floor = float(judged) if isinstance(judged, (int, float)) else None
    scores = score_by_chunk(retrieval, model)
    # Each kept page's own best section first (the guide's excerpt), then its other sections.
    ordered = [next(f for f in page.chunks if f.hit.id == page.chunk_id) for page in pages]
    ordered += [f for f in retrieval.ranking if page_url(f.hit) in kept_pages and f not in ordered]
    chosen: list[Excerpt] = []
    used = 0
    seen: set[str] = set()
    for fused in ordered:
        hit = fused.hit
        if len(chosen) >= bounds.max_excerpts or used >= bounds.max_chars:
            break
        if hit.id in seen:
            continue
        seen.add(hit.id)
        score = scores.get(hit.id)
        # The best section is always given: the turn already decided that it answers.
        if chosen and floor is not None and score is not None and score < floor:
            continue
        text = cut_at_boundaries(hit.content, bounds.max_chars - used)
        if not text.strip():
            continue
        used += len(text)
        # Code reaches the model fenced, headed by its path and lines.
        text = fenced_code_excerpt(hit.page, hit.href, text) or with_absolute_links(text, base_url)
        number = numbering.setdefault(page_url(hit), len(numbering) + 1)
        chosen.append(Excerpt(number, hit.title, absolute_url(base_url, hit.href), hit.heading, text, hit.breadcrumb,
                              hit.place, section=hit.id))
    return chosen


async def in_page_order(excerpts: list[Excerpt], retrieval: Retrieval, pool: asyncpg.Pool) -> list[Excerpt]:
    """`excerpts`, each of a page that gave two or more with its place in that page: the position
    sync stored (docs_section.section_order, as compose made it), so the offline answer quotes a
    page's passages in the page's order (issue 45). A row synced before positions were stored has
    none (None) until the next sync: the retrieval's order holds."""
    hits = {f.hit.id: f.hit for f in retrieval.ranking} | {f.hit.id: f.hit for p in retrieval.pages for f in p.chunks}
    shared: dict[tuple[str, str], list[str]] = {}
    for excerpt in excerpts:
        if (hit := hits.get(excerpt.section)) is not None:
            shared.setdefault((hit.source, hit.page), []).append(hit.id)
    ids = sorted({row_id for group in shared.values() if len(group) > 1 for row_id in group})
    if not ids:
        return excerpts
    async with pool.acquire() as conn:
        # The ids are those retrieval gave for this audience; their positions are all that is read.
        stored = {r["id"]: r["section_order"] for r in await conn.fetch(
            "select id, section_order from public.docs_section where id = any($1::text[]) and section_order is not null",
            ids)}
    # Each excerpt's rank among its page's excerpts (0 first), as the answerer counts places.
    places: dict[str, int] = {}
    for group in shared.values():
        known = sorted((row_id for row_id in group if row_id in stored), key=lambda row_id: stored[row_id])
        places |= {row_id: n for n, row_id in enumerate(known)}
    return [dataclasses.replace(e, order_in_page=places[e.section]) if e.section in places else e for e in excerpts]


# Room the leading excerpt's next part needs to be worth reading: less holds a line or two.
MIN_CONTINUATION_CHARS = 300
# How many parts after the leading one its rest reads, as far as the room allows. A section of
# tabs (npm2yarn's four commands) or long code is stored in more parts, and the fix sits two parts
# on (jest-06). Tuned on jest, confirmed on the other twenty sets: +4 facts, -1 (session 36).
REST_PARTS = 2


async def with_rest_of_section(
    excerpts: list[Excerpt], audiences: list[str] | None, pool: asyncpg.Pool, bounds: ExcerptBounds, base_url: str,
) -> list[Excerpt]:
    """`excerpts`, the leading one with the next parts of its section as its `rest`. A long section is
    stored in parts (`<id>~2`, `~3`, app/corpus/chunker.py), and the part retrieval ranks first is
    often the one that sets out the problem in the question's words, while what to do is in the
    next (httpx's "Change the scheme of your HTTPS proxy to `http://`", typer's
    `pretty_exceptions_show_locals`): the offline answer can only quote what it is given. It may
    quote the rest beside a passage of the excerpt, never lead with it: appended to the excerpt's
    text, it displaced the best passage as often as it helped (design/answer-eval.md). Read as
    `audiences` may see it (none for None: fail closed), within the excerpts' character bound; not
    for a code chunk (its lines are their own unit) nor an excerpt already cut."""
    if not excerpts or audiences is None:
        return excerpts
    lead = excerpts[0]
    if not lead.section or lead.text.endswith(CUT_MARK) or "#L" in lead.url:
        return excerpts
    section, part = section_part(lead.section)
    given = {e.section for e in excerpts}
    following = []
    for n in range(part + 1, part + 1 + REST_PARTS):
        if f"{section}~{n}" in given:
            break
        following.append(f"{section}~{n}")
    room = bounds.max_chars - sum(len(e.text) for e in excerpts) - 2
    if room < MIN_CONTINUATION_CHARS or not following:
        return excerpts
    async with pool.acquire() as conn:
        rows = await conn.fetch(
            # As a reader sees it (sql/functions/docs_section_shown.sql): only what audiences may see.
            "select s.id, s.content from public.docs_section_shown($2::text[]) s where s.id = any($1::text[])",
            following, audiences)
    contents = {row["id"]: row["content"] for row in rows}
    parts: list[str] = []
    for part_id in following:  # consecutive parts only: a part not shown ends the rest
        if not contents.get(part_id):
            break
        parts.append(contents[part_id])
    text = cut_at_boundaries("\n\n".join(parts), room)
    if not text.strip():
        return excerpts
    return [dataclasses.replace(lead, rest=with_absolute_links(text, base_url)), *excerpts[1:]]
