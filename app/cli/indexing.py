"""`docschat compose`, `sync`, `status` and `index clear`: the indexing pipeline from the terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from app.cli.base import (
    console,
    database_label,
    database_url,
    err_console,
    main,
    open_pool,
    open_read_pool,
    print_json,
    run_async,
)
from app.cli.options import configured_sources, source_options
from app.config import get_settings
from app.db.url import redact_url
from app.embeddings.providers import get_embedding_provider
from app.indexing.clear import clear_index
from app.indexing.jobs import claim_sync_job, run_sync_job
from app.indexing.status import index_status
from app.indexing.sync import compose_merged


def excluded_summary(counts: dict[str, int]) -> str:
    """`12 outside the navigation, 2 redirects`: the files left out, counted by kind (ComposeResult.excluded_counts)."""
    return ", ".join(f"{count} {kind}{'s' if kind == 'redirect' and count > 1 else ''}" for kind, count in counts.items())


def components_summary(counts: dict[str, int], limit: int | None = 10) -> str:
    """`Foo ×3, Bar ×1`, the most used first; past `limit`, how many more."""
    shown = list(counts.items())[:limit] if limit else list(counts.items())
    more = len(counts) - len(shown)
    return ", ".join(f"{name}\u00a0×{uses}" for name, uses in shown) + (f" and {more} more" if more else "")


@main.command("compose")
@source_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per chunk, then a summary line.")
@click.option("--verbose", "-v", is_flag=True, help="Name each file the site does not publish as a page, and why.")
def compose_command(repo: Any, branch: str | None, docs_dir: str | None, as_json: bool, verbose: bool) -> None:
    """Read the docs from git and print their chunks."""
    sources = configured_sources(repo, branch, docs_dir, syncing=False).sources
    result, report = compose_merged(sources, get_settings())
    for warning in result.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False, soft_wrap=True)
    if verbose:
        for path, exclusion in result.excluded:
            err_console.print(f"left out: {escape(path)}: {escape(exclusion.reason)}", highlight=False, soft_wrap=True)
        for label, found, counts in (("unknown component", result.unknown_components, result.unknown_component_counts()),
                                     ("component hiding its children", result.hiding_components,
                                      result.hiding_component_counts())):
            pages: dict[str, list[str]] = {}
            for page, name, _ in found:
                pages.setdefault(name, []).append(page)
            for name, uses in counts.items():
                err_console.print(f"{label}: {escape(name)} ×{uses} in {escape(', '.join(pages[name]))}",
                                  highlight=False, soft_wrap=True)
    if as_json:
        for chunk in result.chunks:
            print_json(chunk.to_dict())
        print_json({"summary": result.summary()})
        sys.exit(1 if report.failed else 0)
    table = Table("id", "href", "audiences", "chars", title="chunks")
    for chunk in result.chunks:
        table.add_row(Text(chunk.id), Text(chunk.href), ", ".join(chunk.audiences), str(len(chunk.text)))
    console.print(table)
    summary = result.summary()
    console.print(
        f"{summary['pages']} pages, {summary['chunks']} chunks, "
        f"{summary['snippets_resolved']} snippets pasted"
        + (f" ({summary['snippets_unresolved']} not found)" if summary["snippets_unresolved"] else "")
        + f", {len(result.warnings)} warnings"
    )
    if result.excluded:
        console.print(f"{len(result.excluded)} files left out as the site's configuration says"
                      + ("" if verbose else " (--verbose names them)") + ": " + excluded_summary(result.excluded_counts()),
                      highlight=False)
    if result.skipped_pages:
        console.print(f"{len(result.skipped_pages)} pages not indexed: their parser rejects them, or they cannot be "
                      "read (the warnings above say why)", highlight=False)
    more = "" if verbose else "; --verbose names the pages"
    if components := result.unknown_component_counts():
        console.print(escape(f"{len(components)} components docschat has no rule for (their children are shown and "
                             f"indexed, a guess; their attributes are not){more}: "
                             + components_summary(components, None if verbose else 10)), highlight=False)
    if components := result.hiding_component_counts():
        # The site's own components whose code never renders their children: the text inside is lost
        # if the reader is wrong, so they are named apart from the guesses above.
        console.print(escape(f"{len(components)} of the site's own components read as hiding their children (their "
                             f"code never renders them: the text inside them is not indexed){more}: "
                             + components_summary(components, None if verbose else 10)), highlight=False)
    if report.failed:
        sys.exit(1)


def make_progress(label: str) -> tuple[Any, Callable[[int, int], None] | None]:
    """A rich progress bar on a terminal; nothing otherwise (CI logs stay clean)."""
    if not err_console.is_terminal:
        return None, None
    progress = Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=err_console, transient=True,
    )
    task = progress.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    return progress, update


def sync_with_progress(
    url: str, sources: Any, settings: Any, label: str, *, wait_for_lock: bool, only: str | None = None,
    full: bool = False,
) -> Any:
    """One recorded sync job of `sources` (the job lock keeps it alone; `docschat status` shows it),
    with the configured provider, the disk cache and a progress bar on a terminal."""
    provider = get_embedding_provider(settings)
    progress, update = make_progress(label)

    async def go() -> Any:
        async with await open_pool(url) as pool:
            job = await claim_sync_job(pool, settings, trigger="cli", config=sources, only=only, wait=wait_for_lock,
                                       full=full)
            if progress:
                progress.start()
            try:
                outcome = await run_sync_job(job, settings, provider, progress=update, wait_for_lock=wait_for_lock)
            finally:
                if progress:
                    progress.stop()
            return outcome.reports[0]

    return run_async(go)


@main.command("sync")
@source_options
@click.option("--source", "only", default=None, help="Sync only this source of docschat.toml.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--wait", is_flag=True, help="Wait for a running sync instead of exiting.")
@click.option("--full", is_flag=True, help="Compose every page, even those whose files did not change.")
def sync_command(
    repo: Any, branch: str | None, docs_dir: str | None, only: str | None, as_json: bool, wait: bool, full: bool
) -> None:
    """Embed new or changed chunks, upsert them, delete vanished ones (one transaction).

    Exits 1 when a source could not be read (the others are synced, its rows stay as they were), or
    a page could not be (the rest of its source is synced; the page is not in the index until fixed).
    """
    report = sync_with_progress(
        database_url(create=True), configured_sources(repo, branch, docs_dir), get_settings(), "embedding", wait_for_lock=wait, only=only,
        full=full,
    )
    for warning in report.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False, soft_wrap=True)
    data = report.to_dict()
    if as_json:
        print_json({k: v for k, v in data.items() if k != "warnings"} | {"warnings": report.warnings})
    else:
        console.print(
            f"synced {data['pages']} pages, {data['chunks']} chunks: {data['new']} new, {data['changed']} changed "
            f"({data['metadata_only']} metadata only), {data['unchanged']} unchanged, {data['deleted']} deleted; "
            f"{data['embedded']} embedded, {data['cache_hits']} from cache "
            f"({data['embedding_model'] or 'no embeddings'}) in {data['seconds']}s"
        )
        for source in report.failed:
            err_console.print(f"[bold red]source {escape(repr(source.name))} failed:[/] {escape(str(source.error))}", highlight=False)
    if report.skipped_pages:
        err_console.print("[bold red]pages that could not be read (not in the index until fixed):[/] "
                          + escape(", ".join(report.skipped_pages)), highlight=False)
    if report.failed or report.skipped_pages:
        sys.exit(1)


@main.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the same as GET /admin/api/status).")
def status_command(as_json: bool) -> None:
    """Per source pages, chunks, models, audiences and last sync; provider, scheduler, gaps, size."""
    # google.genai: slow to import, kept off `docschat --help`
    from app.chat.services import build_answerer

    settings = get_settings()
    url = database_url()
    provider = get_embedding_provider(settings)
    answerer = build_answerer(settings)

    async def go() -> dict[str, Any]:
        async with await open_read_pool(url, indexed=False) as pool:
            return await index_status(pool, settings, provider_model=provider.model if provider else None,
                                      answerer=answerer)

    status = run_async(go)
    # Which database, and why that one: the setting, or the file the search upwards found (app/home.py).
    status["database"] = {**status.get("database", {}), "url": redact_url(url), "home": str(settings.docschat_home),
                          "chosen_by": "DATABASE_URL" if settings.database_url else settings.home_reason}
    if as_json:
        print_json(status)
        return
    console.print(escape(f"database: {database_label(settings)}"), highlight=False, soft_wrap=True)
    _print_status(status)


def _print_status(status: dict[str, Any]) -> None:
    def counts(mapping: dict[str, int]) -> str:
        return ", ".join(f"{name} {n}" for name, n in mapping.items()) or "-"

    for source in status["sources"]:
        console.print(f"[bold]{escape(source['name'])}[/]: {source['pages']} pages, {source['chunks']} chunks "
                      f"(models: {counts(source['chunks_by_model'])}; audiences: {counts(source['chunks_by_audience'])})",
                      highlight=False, soft_wrap=True)
        if source["repo"]:
            console.print(escape(f"  from {source['repo']} at {source['branch']} ({source['dir'] or '/'})"), highlight=False, soft_wrap=True)
        last = source["last_sync"]
        if last is None:
            console.print("  last sync: never", soft_wrap=True)
        else:
            behind = "" if source["up_to_date"] else f" (branch now at {(source['head_commit'] or '?')[:12]})"
            console.print(f"  last sync: {last['result']} at {last['finished_at']} by {last['trigger']} in "
                          f"{last['seconds']}s; synced commit {(source['synced_commit'] or '-')[:12]}{behind}",
                          highlight=False, soft_wrap=True)
            if last["error"]:
                console.print(f"  [red]error:[/] {escape(last['error'])}", highlight=False, soft_wrap=True)
            if (last.get("report") or {}).get("skipped_pages"):
                console.print("  [yellow]could not be read (not in the index):[/] "
                              + escape(", ".join(last["report"]["skipped_pages"])), highlight=False, soft_wrap=True)
        if source["head_error"]:
            console.print(f"  [yellow]repository:[/] {escape(source['head_error'])}", highlight=False, soft_wrap=True)
    provider, scheduler = status["provider"], status["scheduler"]
    console.print(escape(f"embeddings: {provider['embedding_model'] or 'none (keyword-only)'}; answers: {provider['answerer']}"
                         + (f" ({provider['chat_model']})" if provider["chat_model"] else "")), soft_wrap=True)
    if scheduler["enabled"]:
        console.print(f"scheduler: every {scheduler['interval_seconds']}s; last check {scheduler['last_check_at'] or 'never'}; "
                      f"next {scheduler['next_check_at'] or 'when a server runs'}", soft_wrap=True)
    else:
        console.print("scheduler: off (SYNC_INTERVAL_SECONDS unset)")
    if status["running_job"]:
        console.print(f"running: sync job {status['running_job']['id']} ({status['running_job']['trigger']})")
    elif status.get("interrupted_job"):
        stopped = status["interrupted_job"]
        console.print(f"[yellow]interrupted:[/] sync job {stopped['id']} ({stopped['trigger']}, {stopped['created_at']}) "
                      "stopped before it finished; the index is as the sync before it left it", highlight=False)
    database = status["database"]
    console.print(f"gaps: {status['gaps']}; database {database['size_bytes'] / 1e6:.1f} MB "
                  f"(index {database['index_bytes'] / 1e6:.1f} MB)", soft_wrap=True)
    console.print(_replica_line(status["replica"]), highlight=False, soft_wrap=True)


def _replica_line(replica: dict[str, Any]) -> str:
    if not replica["configured"]:
        return "replica: no replica configured (DATABASE_READ_URL unset)"
    if "error" in replica:
        return f"[red]replica:[/] {escape(replica['error'])}"
    if not replica["replica"]:
        return "[yellow]replica:[/] DATABASE_READ_URL is not a replica (its server is not in recovery)"
    if not replica["lag_bytes"]:
        return "replica: caught up (lag 0 bytes, 0 s)"
    return (f"[yellow]replica:[/] {replica['lag_bytes']:,} bytes of WAL behind; last replayed transaction "
            f"{replica['lag_seconds']:.1f} s ago")


@main.group("index")
def index_group() -> None:
    """The index itself."""


@index_group.command("clear")
@click.option("--source", default=None, help="Only this source's chunks.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def index_clear(source: str | None, yes: bool) -> None:
    """Delete every indexed chunk (or one source's); the next sync rebuilds them."""
    url = database_url()
    what = f"every chunk of source {source!r}" if source else "the whole index"
    if not yes and not click.confirm(f"Delete {what}?", default=False):
        raise click.ClickException("nothing deleted")

    async def go() -> int:
        async with await open_pool(url) as pool:
            return await clear_index(pool, source)

    deleted = run_async(go)
    if source and not deleted:  # a typo: say so rather than "deleted 0", exit 0
        raise click.ClickException(f"the index holds no chunk of source {source!r} (docschat status lists its sources)")
    console.print(escape(f"deleted {deleted} chunks" + (f" of source {source!r}" if source else "")))
