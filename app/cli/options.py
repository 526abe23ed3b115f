"""Options several commands share: where the docs are read, and who is asking."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from app.config import get_settings

# The corpus and gaps modules are imported inside the functions that use them: `docschat ask`
# beside a server needs neither (they bring markdown-it, tree-sitter and the search code).

MODE_CHOICE = click.Choice(["hybrid", "keyword", "vector"])


def source_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--repo, --branch and --docs-dir, shared by compose and sync (defaults from settings)."""
    command = click.option("--docs-dir", default=None, help="Docs folder in the repository (DOCS_DIR).")(command)
    command = click.option("--branch", default=None, help="Branch or revision to read (BRANCH).")(command)
    command = click.option(
        "--repo", type=click.Path(file_okay=False, path_type=Path), default=None,
        help="Git repository holding the docs (DOCS_REPO).",
    )(command)
    return command


def configured_sources(repo: Any, branch: str | None, docs_dir: str | None, *, syncing: bool = True) -> Any:
    """The configured sources; --repo/--branch/--docs-dir move the single environment source instead
    (refused for a sync when the sources come from a file; compose only reads)."""
    from app.corpus.compose import DocsSource
    from app.corpus.sources import SourcesConfig, config_path, load_sources

    settings = get_settings()
    if repo is None and branch is None and docs_dir is None:
        return load_sources(settings)
    if syncing and (path := config_path(settings)) is not None:
        # The sync deletes the rows of sources no longer configured: the single source these flags
        # make would have replaced every source of the file, and deleted their rows.
        raise click.UsageError(
            f"--repo, --branch and --docs-dir move the single source of the environment, but the sources "
            f"come from {path}: edit it, or pick one of its sources with --source"
        )
    return SourcesConfig((DocsSource.from_settings(settings, repo, branch, docs_dir).to_source(settings),))


def _remember_all(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    ctx.meta["all_audiences"] = value
    return value


def audience_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """--audience a,b, --public-only and --all-audiences. The default is what the chat's visitors
    see (CHAT_AUDIENCES): a source left internal used to score well in `eval` while the widget saw
    nothing of it. --all-audiences reaches audiences_of through the context, so that the commands'
    signatures need not carry it."""
    command = click.option("--all-audiences", is_flag=True, expose_value=False, callback=_remember_all,
                           help="Search what every audience may see (the operator's view).")(command)
    command = click.option("--public-only", is_flag=True, help="Same as --audience public (FLAG_PUBLIC forces it).")(command)
    return click.option(
        "--audience", "audience", default=None, metavar="A,B",
        help="Search only what these audiences may see (default: CHAT_AUDIENCES, as the chat's visitors).",
    )(command)


def audiences_of(audience: str | None, public_only: bool) -> list[str] | None:
    """--audience, --public-only, --all-audiences → the audiences to search as (None: every audience);
    without any, CHAT_AUDIENCES (as the anonymous chat sees)."""
    context = click.get_current_context(silent=True)
    every = bool(context is not None and context.meta.get("all_audiences"))
    if every and (public_only or audience is not None):
        raise click.UsageError("--all-audiences searches every audience: leave out --audience and --public-only")
    if every:
        return None
    if public_only:
        return ["public"]
    if audience is None:
        return get_settings().anonymous_audiences
    if not audience.replace(",", " ").strip():
        # Read as "no filter", `--audience "$AUDIENCE"` with the variable unset searched everything.
        raise click.BadParameter("is empty: name an audience (like public), leave the option out for CHAT_AUDIENCES, "
                                 "or say --all-audiences", param_hint="--audience")
    from app.corpus.sources import parse_audience_filter

    try:
        return parse_audience_filter(audience)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--audience") from None


def scored_as(audiences: list[str] | None, audience: str | None, public_only: bool) -> str:
    """Who a search or an eval answered as, for a person: 'public (CHAT_AUDIENCES)'."""
    if audiences is None:
        return "every audience (--all-audiences)"
    why = "CHAT_AUDIENCES" if audience is None and not public_only else "--audience"
    return f"{', '.join(audiences)} ({why})"


def since_window(since: str | None) -> Any:
    """--since (30m, 24h, 7d, 2w) → the window it names; None without it."""
    from app.chat.gaps import BadDuration, parse_since

    try:
        return parse_since(since) if since is not None else None
    except BadDuration as exc:
        raise click.UsageError(str(exc)) from None
