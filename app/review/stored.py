"""What the live database says about a change, read only: the anchors stored answers cite, the pages
gaps found, and the most frequent recent gaps. Nothing is written (not even the gaps' pruning)."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from app.config import Settings
from app.review.compose_adapter import Snapshot, Source
from app.review.model import Report

# Gaps worth trying at the head: the docs did not hold the answer, or held part of it.
GAP_OUTCOMES = ("refused_indomain", "partly")
RECENT_DAYS = 30


@dataclass
class Stored:
    answer_urls: Counter[tuple[str, str]]  # (URL path, fragment) → answers citing it
    gap_pages: Counter[str]  # page path → gaps whose best page it was
    gaps: list[dict[str, Any]]  # the most frequent recent gaps of GAP_OUTCOMES


def live_database_url(settings: Settings) -> str | None:
    """DATABASE_URL, else the embedded server's when DOCSCHAT_HOME already holds one; None when
    there is none (a check never creates a database to read nothing from it)."""
    if settings.database_url:
        return settings.database_url
    if (settings.docschat_home / "pg" / "PG_VERSION").is_file():
        from app.db.url import resolve_database_url

        return resolve_database_url(settings)
    return None


async def _read(url: str, gaps_limit: int) -> Stored | None:
    from app.db.pool import connect

    async with connect(url) as conn:
        tables = await conn.fetchrow("select to_regclass('public.docs_chat_message') is not null as messages,"
                                     " to_regclass('public.docs_chat_gap') is not null as gaps")
        if not tables["messages"] or not tables["gaps"]:
            return None
        answers: Counter[tuple[str, str]] = Counter()
        rows = await conn.fetch(
            "select s.value ->> 'url' as url, count(*) as n from public.docs_chat_message m"
            " cross join lateral jsonb_array_elements(case jsonb_typeof(m.sources) when 'array' then m.sources"
            " else '[]'::jsonb end) s where m.role = 'assistant' and jsonb_typeof(s.value) = 'object'"
            " and s.value ? 'url' group by 1")
        for row in rows:
            parts = urlsplit(row["url"] or "")
            answers[(unquote(parts.path).rstrip("/") or "/", unquote(parts.fragment))] += int(row["n"])
        pages = Counter({r["best_page"]: int(r["n"]) for r in await conn.fetch(
            "select best_page, count(*) as n from public.docs_chat_gap where best_page is not null group by 1")})
        gaps = [dict(r) for r in await conn.fetch(
            "select question, count, outcome from public.docs_chat_gap where outcome = any($1::text[])"
            " and last_seen >= now() - make_interval(days => $2) order by count desc, last_seen desc, question_key"
            " limit $3", list(GAP_OUTCOMES), RECENT_DAYS, gaps_limit)]
        return Stored(answers, pages, gaps)


def read_stored(url: str, gaps_limit: int) -> Stored | str:
    """What the database holds, or why it could not be read (not migrated, no privilege, down)."""
    import asyncpg

    from app.errors import DocschatError

    try:
        stored = asyncio.run(_read(url, gaps_limit))
    except (asyncpg.PostgresError, DocschatError, OSError) as exc:
        return f"the database cannot be read ({type(exc).__name__}: {str(exc)[:200]})"
    return stored if stored is not None else "the database is not migrated"


def add_citations(report: Report, stored: Stored, sources: list[Source], base: Snapshot | None = None) -> None:
    """How many stored answers cite each removed or renamed anchor (by its URL path ending in the
    page's route, and its fragment), and how many gaps found its page. The route is the one the
    page had in `base` (where the site publishes it), else its path's."""
    from app.review.compose_adapter import page_url_path

    prefixes = {s.name: s.url_prefix for s in sources}
    for change in report.anchors:
        known = base.pages.get((change.source, change.page)) if base is not None else None
        route = known.route if known is not None else page_url_path(change.page, prefixes.get(change.source, "/docs"))
        answers = sum(n for (path, fragment), n in stored.answer_urls.items()
                      if fragment == change.anchor and (path == route or path.endswith(route)))
        gaps = stored.gap_pages.get(change.page, 0)
        change.cited_by = {k: v for k, v in (("answers", answers), ("gaps on its page", gaps)) if v}
