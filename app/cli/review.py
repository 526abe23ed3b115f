"""`docschat check`: what a docs change does to readers and the chat, before it merges."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from app.cli.base import err_console, main, print_json
from app.cli.options import configured_sources
from app.config import get_settings
from app.review.check import CheckOptions, run_check, sources_named
from app.review.model import FLAGS, parse_fail_on
from app.review.render import markdown
from app.review.stored import live_database_url


@main.command("check")
@click.option("--base", default="main", show_default=True, help="The revision the change is compared with.")
@click.option("--head", required=True, help="The revision holding the change (a branch, a commit).")
@click.option("--repo", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Git repository holding the docs (DOCS_REPO); moves the environment's single source.")
@click.option("--docs-dir", default=None, help="Docs folder in the repository (DOCS_DIR).")
@click.option("--source", "only", default=None, help="Check only this source of docschat.toml.")
@click.option("--questions", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Questions in the eval format (JSON lines): which retrieve other pages at the head.")
@click.option("--fail-on", "fail_on", default=None, metavar="FLAGS",
              help=f"Exit 1 when any of these is found: {', '.join(FLAGS)}, all or none (default: public,snippet).")
@click.option("--gaps", "gaps_limit", default=10, show_default=True, type=click.IntRange(0, 200),
              help="How many of the most frequent recent gaps to try at the head (with a database).")
@click.option("--show-gap-questions", is_flag=True,
              help="Quote the gaps' questions (visitors' words; off: counts and pages only).")
@click.option("--show-internal", is_flag=True,
              help="Name the anchors and link targets of pages that are not public (their headings' words).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object instead of Markdown.")
def check_command(base: str, head: str, repo: Any, docs_dir: str | None, only: str | None, questions: Path | None,
                  fail_on: str | None, gaps_limit: int, show_gap_questions: bool, show_internal: bool, as_json: bool) -> None:
    """Compare the docs at --head with --base: audiences, hidden text and parse warnings, anchors and
    links, questions, and the size of the sync. Composed in memory; nothing is written to the index.

    Exits 1 when a flag of --fail-on is found (a page made public, a snippet that does not resolve).
    """
    try:
        flags = parse_fail_on(fail_on)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--fail-on") from None
    settings = get_settings()
    configured = configured_sources(repo, None, docs_dir, syncing=False)
    sources = sources_named(configured.sources, only)
    if not sources:
        raise click.UsageError(f"no docs source named {only!r}" if only else "no docs source is configured")
    options = CheckOptions(base=base, head=head, sources=sources, only=only,
                           config=configured.path, fail_on=flags,
                           questions=questions, database_url=live_database_url(settings), gaps_limit=gaps_limit,
                           show_gap_questions=show_gap_questions, show_internal=show_internal,
                           progress=_progress if err_console.is_terminal else None)
    report = run_check(options, settings)
    if as_json:
        print_json(report.to_dict())
    else:
        click.echo(markdown(report), nl=False)
    sys.exit(1 if report.failed() else 0)


def _progress(step: str) -> None:
    err_console.print(f"[dim]{escape(step)}…[/]", highlight=False)
