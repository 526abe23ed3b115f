"""`docschat insights`: per day questions, outcomes, ratings and requests per door; the questions
asked most, the pages cited most and the queries that found nothing (app/insights/report.py)."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table
from rich.text import Text

from app.cli.base import console, database_url, main, migrated_connection, print_json, run_async, visitor_text
from app.config import get_settings
from app.insights.report import DEFAULT_SINCE, parse_window, read_insights


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _table(title: str, *columns: str, text: tuple[str, ...] = ()) -> Table:
    """A table whose columns are right-aligned numbers but those named in `text`."""
    table = Table(title=title)
    for column in columns:
        table.add_column(column, justify="left" if column in text else "right")
    return table


def render(result: dict[str, Any]) -> list[Table]:
    """The tables a person reads: days (with the requests per door), then the three top lists."""
    totals = result["totals"]
    days = _table(f"insights {result['from']} … {result['to']} (UTC): {totals['questions']} questions, "
                  f"helpful {_rate(totals['helpful_rate'])}", "date", "questions", "answered", "partly", "refused",
                  "👍", "👎", "helpful", "chat", "search", "mcp", "llms.txt", text=("date",))
    doors = {d["date"]: d for d in result["doors"]}
    for day in result["days"]:
        rate = day["helpful"] / (day["helpful"] + day["not_helpful"]) if day["helpful"] + day["not_helpful"] else None
        door = doors.get(day["date"], {})
        days.add_row(day["date"], *(str(day[k]) for k in ("questions", "answered", "partly", "refused", "helpful",
                                                          "not_helpful")),
                     _rate(rate), *(str(door.get(k, 0)) for k in ("chat", "search", "mcp", "llms_txt")))
    days.add_row("total", *(str(totals[k]) for k in ("questions", "answered", "partly", "refused", "helpful",
                                                     "not_helpful")),
                 _rate(totals["helpful_rate"]), *(str(totals["doors"][k]) for k in ("chat", "search", "mcp", "llms_txt")),
                 style="bold")
    questions = _table(f"top questions (near-duplicates together; the last {result['retention']['chat_days']} "
                       "days at most)", "count", "question", "answered", "partly", "refused", "wordings", "last seen",
                       text=("question", "last seen"))
    for q in result["top_questions"]:
        questions.add_row(str(q["count"]), visitor_text(q["question"]), str(q["answered"]), str(q["partly"]),
                          str(q["refused"]), str(q["wordings"]), q["last_seen"])
    pages = _table("top pages cited", "citations", "page", "url", text=("page", "url"))
    for p in result["top_pages"]:
        pages.add_row(str(p["citations"]), Text(p["title"]), Text(p["url"]))
    misses = _table("queries that found nothing", "count", "where", "query", "last seen",
                    text=("where", "query", "last seen"))
    for m in result["search_no_results"]:
        misses.add_row(str(m["count"]), "search box" if m["door"] == "search" else "chat", visitor_text(m["query"]),
                       m["last_seen"])
    return [days, questions, pages, misses]


@main.command("insights")
@click.option("--since", default=DEFAULT_SINCE, show_default=True, help="The window: days or weeks, like 7d, 30d, 12w.")
@click.option("--json", "as_json", is_flag=True, help="The whole report as one JSON object (as GET /admin/api/insights).")
def insights_command(since: str, as_json: bool) -> None:
    """What readers asked and got, per day (UTC): questions answered, partly answered and refused,
    👍/👎, requests per door; the questions asked most, the pages cited most, the queries that
    found nothing. A running server adds its door counts every few seconds."""
    days = parse_window(since)
    settings = get_settings()
    url = database_url()

    async def go() -> dict[str, Any]:
        async with migrated_connection(url) as conn:
            return await read_insights(conn, settings, days)

    result = run_async(go)
    if as_json:
        print_json(result)
        return
    per_day, *lists = render(result)
    console.print(per_day)
    for table in lists:
        console.print(table if table.row_count else Text(f"{table.title}: none"))
