"""Documentation gaps: the questions the docs did not answer (refused), answered with low
confidence, or answered only in part (the answer check's "partly": app/judge/answer_check.py),
grouped by a normalised key (public.docs_gap_key in sql/functions/docs_chat_gap.sql).

Each gap records what became of its latest occurrence (`outcome`, one of app/judge/outcomes.py's
OUTCOMES, revision 2026_12_02_0018): refused as off the docs' topic (below the answer floor),
refused because the docs do not say (a model verifier: the topic is near, the answer is not
there), answered in part, or answered with low confidence. The refusals in the docs' own words
and the partly covered answers are what the docs lack. A gap recorded before the column has no
outcome: it is read from `refused` and the confidence against the low-confidence line
(`low_line`), as "refused", "partly" or "answered".

A gap holds the question (clipped to 500 characters), how often and when it was asked, the best
page found and the confidence: no IP, no session. Gaps not seen for GAP_RETENTION_DAYS are deleted
whenever one is recorded or listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

import asyncpg

from app.config import Settings
from app.errors import DocschatError
from app.judge.outcomes import is_gap, low_line, outcome, outcome_of
from app.logging import get_logger
from app.search.retrieve import Retrieval

log = get_logger(__name__)
MAX_GAP_CHARS = 500
_DURATION = re.compile(r"^\s*(\d{1,18})\s*([mhdw])\s*$")  # 18 digits: past a century, within int()
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


class BadDuration(DocschatError):
    """A --since value that is not a duration."""


@dataclass(frozen=True)
class Gap:
    question: str
    count: int
    first_seen: datetime
    last_seen: datetime
    best_page: str | None
    confidence: float
    refused: bool
    outcome: str = "refused_offtopic"  # one of OUTCOMES ("refused" for a gap recorded before 0018)

    def to_dict(self) -> dict[str, object]:
        return {
            "question": self.question, "count": self.count, "first_seen": self.first_seen.isoformat(),
            "last_seen": self.last_seen.isoformat(), "best_page": self.best_page,
            "confidence": round(self.confidence, 4), "refused": self.refused, "outcome": self.outcome,
        }


MAX_SINCE = timedelta(days=36_500)  # a century: past it a Postgres timestamp soon overflows


def parse_since(text: str) -> timedelta:
    """'30m', '24h', '7d' or '2w' as a timedelta."""
    match = _DURATION.match(text or "")
    if not match or int(match.group(1)) == 0:
        raise BadDuration(f"--since must be a positive number with m, h, d or w (like 7d), not {text!r}")
    number, unit = int(match.group(1)), timedelta(**{_UNITS[match.group(2)]: 1})
    if number > MAX_SINCE / unit:  # compared before multiplying: a huge number overflows timedelta
        raise BadDuration(f"--since must be at most {MAX_SINCE.days} days, not {text!r}")
    return number * unit


async def record_gap(pool: asyncpg.Pool, retrieval: Retrieval, retention_days: int) -> bool:
    """Count the retrieval's question as a gap when it is one; True when recorded.

    Runs after the reply (never on its critical path); a failure is logged, never raised, so the
    reply is still stored.
    """
    # The question as asked, not the query a follow-up was searched with (app/search/conversation.py).
    question = str((retrieval.standalone or {}).get("asked") or retrieval.question)
    if not is_gap(retrieval.judgment) or not question.strip():
        return False
    best_page = retrieval.candidates[0].page if retrieval.candidates else None
    try:
        async with pool.acquire() as conn:
            await conn.fetchval(
                "select public.record_docs_chat_gap($1, $2, $3, $4, $5, $6)",
                question[:MAX_GAP_CHARS], best_page, retrieval.confidence, not retrieval.would_answer,
                retention_days, outcome(retrieval.judgment),
            )
    except (asyncpg.PostgresError, OSError) as exc:
        log.warning("gap_not_recorded", error=type(exc).__name__)
        return False
    return True


async def prune_gaps(conn: asyncpg.Connection, retention_days: int) -> int:
    """Delete gaps not seen for retention_days; returns how many."""
    result = await conn.execute(
        "delete from public.docs_chat_gap where last_seen < now() - make_interval(days => $1)", retention_days
    )
    return int(result.split()[-1])


async def list_gaps(
    conn: asyncpg.Connection, retention_days: int, since: timedelta | None = None, settings: Settings | None = None
) -> list[Gap]:
    """Gaps seen within `since` (all when None), most frequent first, then most recent; each
    outcome read against `settings`' low-confidence line (the defaults' when None)."""
    line = low_line(settings)
    await prune_gaps(conn, retention_days)
    rows = await conn.fetch(
        "select question, count, first_seen, last_seen, best_page, confidence, refused, outcome"
        " from public.docs_chat_gap where $1::interval is null or last_seen >= now() - $1::interval"
        " order by count desc, last_seen desc, question_key",
        since,
    )
    return [Gap(r["question"], r["count"], r["first_seen"], r["last_seen"], r["best_page"], float(r["confidence"]),
                r["refused"], r["outcome"] or outcome_of(r["refused"], float(r["confidence"]), line)) for r in rows]


async def clear_gaps(conn: asyncpg.Connection, since: timedelta | None = None) -> int:
    """Delete gaps (those seen within `since`, or all); returns how many."""
    result = await conn.execute(
        "delete from public.docs_chat_gap where $1::interval is null or last_seen >= now() - $1::interval", since
    )
    return int(result.split()[-1])
