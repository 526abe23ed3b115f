"""`docschat gaps` and `docschat feedback`: what visitors asked and thought."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table
from rich.text import Text

from app.chat.feedback import list_feedback, summarize
from app.chat.gaps import clear_gaps, list_gaps
from app.cli.base import (
    console,
    database_url,
    main,
    migrated_connection,
    print_json,
    run_async,
    visitor_text,
)
from app.cli.options import since_window
from app.config import get_settings
from app.judge.outcomes import OUTCOMES


@main.command("gaps")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per gap.")
@click.option("--since", default=None, help="Only gaps seen within this long: 30m, 24h, 7d, 2w.")
@click.option("--clear", is_flag=True, help="Delete the gaps (those seen within --since, or all).")
@click.option("--outcome", "outcomes", multiple=True, type=click.Choice(OUTCOMES),
              help="Only gaps with this outcome (repeatable); refused_indomain and partly are what the docs lack.")
def gaps_command(as_json: bool, since: str | None, clear: bool, outcomes: tuple[str, ...]) -> None:
    """Questions the docs did not answer, answered only in part, or answered with low confidence;
    most frequent first. Outcome: refused_offtopic (far from every page), refused_indomain (near
    the docs' topic, but they do not say), partly, answered (with low confidence)."""
    window = since_window(since)
    if clear and outcomes:
        raise click.UsageError("--clear deletes gaps by --since only, not by --outcome")
    settings = get_settings()
    url = database_url()

    async def go() -> Any:
        async with migrated_connection(url) as conn:
            if clear:
                return await clear_gaps(conn, window)
            return await list_gaps(conn, settings.gap_retention_days, window, settings)

    result = run_async(go)
    if clear:
        print_json({"deleted": result}) if as_json else console.print(f"deleted {result} gaps")
        return
    if outcomes:
        result = [gap for gap in result if gap.outcome in outcomes]
    if as_json:
        for gap in result:
            print_json(gap.to_dict())
        return
    if not result:
        console.print("no gaps")
        return
    table = Table("count", "question", "best page", "confidence", "outcome", "last seen", title="documentation gaps")
    for gap in result:
        table.add_row(str(gap.count), visitor_text(gap.question), Text(gap.best_page or "-"), f"{gap.confidence:.3f}",
                      gap.outcome, gap.last_seen.strftime("%Y-%m-%d %H:%M"))
    console.print(table)


@main.command("feedback")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per rated answer.")
@click.option("--since", default=None, help="Only feedback given within this long: 30m, 24h, 7d, 2w.")
def feedback_command(as_json: bool, since: str | None) -> None:
    """Visitors' answers to "Helpful?" (Yes or No), with their comments and the questions; newest first."""
    window = since_window(since)
    url = database_url()

    async def go() -> Any:
        async with migrated_connection(url) as conn:
            return await list_feedback(conn, window)

    items = run_async(go)
    if as_json:
        for item in items:
            print_json(item.to_dict())
        return
    counts = summarize(items)
    table = Table("rating", "question", "comment", "when", title=f"feedback: {counts['up']} up, {counts['down']} down")
    for item in items:
        table.add_row("up" if item.rating > 0 else "DOWN", visitor_text(item.question or "-"),
                      visitor_text(item.comment or ""),
                      item.updated_at.strftime("%Y-%m-%d %H:%M"))
    console.print(table if items else "no feedback")
