"""Reading insights: one window of days (7, 30, 90, …) from the rollup rows, for the admin API
(GET /admin/api/insights) and `docschat insights` alike (`read_insights`).

The window is the `days` days ending today (UTC). Questions are read no further back than
CHAT_RETENTION_DAYS and no-result queries than GAP_RETENTION_DAYS: what retention deleted from
the conversations and gaps is not shown from the rollups either.
"""

from __future__ import annotations

import re
from typing import Any

import asyncpg

from app.config import Settings
from app.errors import DocschatError

MAX_DAYS = 366
DEFAULT_SINCE = "30d"
TOP_ROWS = 20
_SINCE = re.compile(r"^\s*(\d{1,4})\s*([dw])\s*$")


class BadWindow(DocschatError):
    """A `since` that is not a number of days or weeks within MAX_DAYS."""


def parse_window(text: str | None) -> int:
    """'30d', '2w' (or None: 30 days) as a number of days, 1 to MAX_DAYS."""
    match = _SINCE.match(DEFAULT_SINCE if text is None else text)
    days = int(match.group(1)) * (7 if match.group(2) == "w" else 1) if match else 0
    if not 1 <= days <= MAX_DAYS:
        raise BadWindow(f"since must be a number of days or weeks between 1d and {MAX_DAYS}d (like 7d, 30d "
                        f"or 12w), not {text!r}")
    return days


def helpful_rate(helpful: int, not_helpful: int) -> float | None:
    """The share of ratings that were 👍; None without ratings."""
    rated = helpful + not_helpful
    return round(helpful / rated, 4) if rated else None


async def read_insights(conn: asyncpg.Connection, settings: Settings, days: int, top: int = TOP_ROWS) -> dict[str, Any]:
    """The insights of the `days` days ending today: `days`, `top_questions`, `top_pages`,
    `search_no_results`, `doors` and `totals`."""
    day_rows = await conn.fetch("select * from public.docs_insight_days($1)", days)
    door_rows = await conn.fetch("select * from public.docs_insight_doors($1)", days)
    questions = await conn.fetch("select * from public.docs_insight_top_questions($1, $2, $3)",
                                 days, settings.chat_retention_days, top)
    pages = await conn.fetch("select * from public.docs_insight_top_pages($1, $2)", days, top)
    misses = await conn.fetch("select * from public.docs_insight_no_results($1, $2, $3)",
                              days, settings.gap_retention_days, top)
    day_list = [{"date": r["day"].isoformat(), "questions": r["questions"], "answered": r["answered"],
                 "partly": r["partly"], "refused": r["refused"], "helpful": r["helpful"],
                 "not_helpful": r["not_helpful"]} for r in day_rows]
    doors: dict[str, dict[str, Any]] = {}
    for r in door_rows:
        doors.setdefault(r["day"].isoformat(), {"date": r["day"].isoformat()})[r["door"]] = int(r["requests"])
    totals: dict[str, Any] = {key: sum(d[key] for d in day_list) for key in
                              ("questions", "answered", "partly", "refused", "helpful", "not_helpful")}
    totals["helpful_rate"] = helpful_rate(totals["helpful"], totals["not_helpful"])
    door_list = list(doors.values())
    totals["doors"] = {door: sum(d[door] for d in door_list) for door in ("chat", "search", "mcp", "llms_txt")}
    return {
        "since": f"{days}d",
        "from": day_list[0]["date"] if day_list else None,
        "to": day_list[-1]["date"] if day_list else None,
        "retention": {"chat_days": settings.chat_retention_days, "gap_days": settings.gap_retention_days},
        "totals": totals,
        "days": day_list,
        "top_questions": [
            {"question": r["question"], "count": int(r["count"]), "answered": int(r["answered"]),
             "partly": int(r["partly"]), "refused": int(r["refused"]), "wordings": int(r["wordings"]),
             "last_seen": r["last_day"].isoformat()} for r in questions
        ],
        "top_pages": [{"url": r["page"], "title": r["title"], "citations": int(r["citations"])} for r in pages],
        "search_no_results": [
            {"door": r["door"], "query": r["query"], "count": int(r["count"]), "last_seen": r["last_day"].isoformat()}
            for r in misses
        ],
        "doors": door_list,
    }
