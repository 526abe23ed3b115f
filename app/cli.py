"""The `docschat` command line: database, compose, sync, search, eval, ask, serve, demo."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from app.config import get_settings
from app.errors import DocschatError
from app.logging import configure_logging

T = TypeVar("T")
console = Console(stderr=False)
err_console = Console(stderr=True)


def run_async(factory: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(factory())


# C0/C1 control characters but tab and newline: what a visitor typed (a question, a comment) must
# not move the cursor, retitle or clear the operator's terminal. Rich keeps ESC as it is.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_C1 = re.compile("[\x7f-\x9f]")


def visitor_text(text: str) -> Text:
    """Text a visitor wrote, for a table: control characters shown as U+FFFD, never sent as such."""
    return Text(_CONTROLS.sub("\ufffd", text))


def print_json(obj: Any) -> None:
    text = json.dumps(obj, ensure_ascii=False, default=str)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (from an eval line's "\ud800"): JSON escapes it
        text = json.dumps(obj, default=str)
    # JSON escapes C0 controls but not DEL and C1 (U+009B is a CSI to many terminals): escaped here,
    # where they can only be inside strings.
    click.echo(_C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


class DocschatGroup(click.Group):
    """Turns known failures into one line on stderr and exit code 1, never a traceback."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # A script that asked for --json reads stdout: it gets the error as JSON there too.
        ctx.meta["docschat_json"] = "--json" in (args[: args.index("--")] if "--" in args else args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        as_json = bool(ctx.meta.get("docschat_json"))
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # click prints it on stderr and exits 2; a script reads stdout
            if as_json:
                print_json({"error": exc.format_message()})
            raise
        except DocschatError as exc:
            self._fail(str(exc), as_json)
        except Exception as exc:  # pydantic ValidationError for settings, among others
            from pydantic import ValidationError

            if isinstance(exc, ValidationError):
                problems = "; ".join(f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in exc.errors())
                self._fail(f"invalid setting: {problems}", as_json)
            raise

    @staticmethod
    def _fail(message: str, as_json: bool) -> NoReturn:
        err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
        if as_json:
            print_json({"error": message})
        sys.exit(1)


# Commands whose output is for a person reading the terminal: their info lines (a retrieval, a
# sync's report) repeat what they print. Warnings still show; LOG_LEVEL, when set, wins.
QUIET = frozenset({"ask", "demo", "mcp"})


@click.group(cls=DocschatGroup)
@click.version_option(package_name="docschat")
def main() -> None:
    """docschat: hybrid search and chat over a product's documentation."""
    from pydantic import ValidationError

    try:
        settings = get_settings()
        level = settings.log_level
        if "log_level" not in settings.model_fields_set and click.get_current_context().invoked_subcommand in QUIET:
            level = "warning"
    except (ValidationError, DocschatError):
        level = "info"  # `--help` still works; the command itself reports the setting
    configure_logging(level)


def database_url() -> str:
    from app.db.url import resolve_database_url

    return resolve_database_url(get_settings())


# --- db ------------------------------------------------------------------------------------------


@main.group()
def db() -> None:
    """Migrations and the state of the database."""


@db.command("upgrade")
@click.argument("revision", default="head")
def db_upgrade(revision: str) -> None:
    """Apply migrations up to REVISION (default: head)."""
    from app.db import migrate

    url = database_url()
    run_async(lambda: _check_server(url))
    migrate.upgrade(url, revision)
    console.print(f"database at revision [bold]{revision}[/]")


@db.command("downgrade")
@click.argument("revision")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def db_downgrade(revision: str, yes: bool) -> None:
    """Revert migrations down to REVISION ('base' removes everything)."""
    from app.db import migrate

    url = database_url()
    # As `index clear` asks: a downgrade drops what the migrations it reverts created, at base every
    # table (the index, chat history, gaps, sync history).
    what = "drop every docschat table and its rows" if revision == "base" else "drop what later migrations added"
    if not yes and not click.confirm(f"Revert the database to {revision} ({what})?", default=False):
        raise click.ClickException("nothing changed")
    run_async(lambda: _check_server(url))
    migrate.downgrade(url, revision)
    console.print(f"database at revision [bold]{revision}[/]")


@db.command("grant")
@click.argument("role")
def db_grant(role: str) -> None:
    """Grant ROLE what the app needs (run as the owner, after each upgrade; idempotent)."""
    from app.db.pool import connect
    from app.db.roles import grant_app_role

    url = database_url()

    async def go() -> list[tuple[str, str]]:
        async with connect(url) as conn:
            return await grant_app_role(conn, role)

    for obj, privileges in run_async(go):
        console.print(f"{obj}: {privileges}", highlight=False)
    console.print(f"role [bold]{escape(role)}[/] can run the app (RLS on; anon and authenticated have no grants)")


@db.command("stop")
def db_stop() -> None:
    """Stop the embedded Postgres of DOCSCHAT_HOME (it keeps running between commands)."""
    from app.db.embedded import stop_embedded_server

    settings = get_settings()
    if settings.database_url:
        raise click.ClickException("DATABASE_URL is set: docschat does not run that server, so it does not stop it")
    home = settings.docschat_home
    pid = stop_embedded_server(home)
    where = escape(str((home / "pg").resolve()))
    console.print(f"stopped the embedded Postgres in {where} (pid {pid})" if pid is not None
                  else f"no embedded Postgres runs in {where}", highlight=False, soft_wrap=True)


async def _check_server(url: str) -> None:
    """pgvector is there, and the schema is not from a newer docschat (before upgrade or downgrade)."""
    from app.db.migrate import known_revision
    from app.db.pool import connect
    from app.db.status import check_vector_available

    async with connect(url) as conn:
        await check_vector_available(conn)
        await known_revision(conn)


@db.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def db_status(as_json: bool) -> None:
    """Current revision, server and pgvector versions, row counts."""
    from app.db.pool import connect
    from app.db.status import database_status
    from app.db.url import redact_url

    url = database_url()

    async def go() -> dict[str, Any]:
        async with connect(url) as conn:
            return await database_status(conn)

    status = run_async(go)
    status["database_url"] = redact_url(url)
    if as_json:
        print_json(status)
        return
    table = Table(show_header=False, box=None)
    for key in ("database_url", "revision", "head", "server_version", "pgvector_version"):
        table.add_row(key, Text(str(status[key])))
    for name, count in status["rows"].items():
        table.add_row(f"rows {name}", "-" if count is None else str(count))
    console.print(table)
    if not status["up_to_date"]:
        console.print("[yellow]not at head: run `docschat db upgrade`[/]")


@main.command("sql")
@click.option("-c", "--command", "command", help="Run one statement and print its result.")
def sql_console(command: str | None) -> None:
    """Open psql on the configured database (embedded included), or run one statement."""
    from app.db.url import redact_url

    url = database_url()
    psql = shutil.which("psql")
    if psql is None:
        console.print(
            "psql is not installed. Connection string:\n"
            f"  {escape(redact_url(url))}\n"
            "Install the client: apt-get install postgresql-client (Debian/Ubuntu), "
            "brew install libpq (macOS)."
        )
        if command is None:
            sys.exit(1)
        _run_one_statement(url, command)
        return
    from app.db.url import split_password

    address, password = split_password(url)  # the password goes in the environment, not on `ps`
    args = [psql, address, "-v", "ON_ERROR_STOP=1"]
    if command is not None:
        args += ["-c", command]
    sys.exit(subprocess.call(args, env=os.environ | ({"PGPASSWORD": password} if password else {})))


def _run_one_statement(url: str, command: str) -> None:
    from app.db.pool import connect

    async def go() -> list[Any]:
        async with connect(url) as conn:
            return [dict(r) for r in await conn.fetch(command)]

    for row in run_async(go):
        print_json(row)


# --- compose -------------------------------------------------------------------------------------


def source_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--repo, --branch and --docs-dir, shared by compose and sync (defaults from settings)."""
    command = click.option("--docs-dir", default=None, help="Docs folder in the repository (DOCS_DIR).")(command)
    command = click.option("--branch", default=None, help="Branch or revision to read (BRANCH).")(command)
    command = click.option(
        "--repo", type=click.Path(file_okay=False, path_type=Path), default=None,
        help="Git repository holding the docs (DOCS_REPO).",
    )(command)
    return command


def _sources(repo: Any, branch: str | None, docs_dir: str | None, *, syncing: bool = True) -> Any:
    """The configured sources; --repo/--branch/--docs-dir move the single environment source instead
    (refused for a sync when the sources come from a file; compose only reads)."""
    from app.corpus.compose import DocsSource
    from app.sources import SourcesConfig, config_path, load_sources

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


def audience_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """--audience a,b (default: every audience: these are the operator's tools) and --public-only."""
    command = click.option("--public-only", is_flag=True, help="Same as --audience public (FLAG_PUBLIC forces it).")(command)
    return click.option(
        "--audience", "audience", default=None, metavar="A,B",
        help="Search only what these audiences may see (default: everything).",
    )(command)


def _audiences(audience: str | None, public_only: bool) -> list[str] | None:
    from app.sources import parse_audience_filter

    if public_only:
        return ["public"]
    if audience is not None and not audience.replace(",", " ").strip():
        # Read as "no filter", `--audience "$AUDIENCE"` with the variable unset searched everything.
        raise click.BadParameter("is empty: name an audience (like public), or leave the option out to search "
                                 "what every audience may see", param_hint="--audience")
    try:
        return parse_audience_filter(audience)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--audience") from None


@main.command("compose")
@source_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per chunk, then a summary line.")
def compose_command(repo: Any, branch: str | None, docs_dir: str | None, as_json: bool) -> None:
    """Read the docs from git and print their chunks."""
    from app.corpus.compose import ComposeResult
    from app.sync import SyncReport, compose_sources

    report = SyncReport()  # the sync's own compose step: the same warnings, a bad source skipped
    result = ComposeResult.merged(compose_sources(_sources(repo, branch, docs_dir, syncing=False).sources, get_settings(), report))
    result.warnings = report.warnings
    for warning in result.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False, soft_wrap=True)
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
        f"{summary['snippets_resolved']} snippets pasted, {len(result.warnings)} warnings"
    )
    if report.failed:
        sys.exit(1)


# --- sync ----------------------------------------------------------------------------------------


def make_progress(label: str) -> tuple[Any, Callable[[int, int], None] | None]:
    """A rich progress bar on a terminal; nothing otherwise (CI logs stay clean)."""
    if not err_console.is_terminal:
        return None, None
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeRemainingColumn,
    )

    progress = Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=err_console, transient=True,
    )
    task = progress.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    return progress, update


async def open_pool(url: str) -> Any:
    from app.db.migrate import ensure_schema
    from app.db.pool import create_pool

    await ensure_schema(url)
    return await create_pool(url, min_size=1, max_size=4)


def sync_with_progress(
    url: str, sources: Any, settings: Any, label: str, *, wait_for_lock: bool, only: str | None = None
) -> Any:
    """One recorded sync job of `sources` (the job lock keeps it alone; `docschat status` shows it),
    with the configured provider, the disk cache and a progress bar on a terminal."""
    from app.embeddings.providers import get_embedding_provider
    from app.ops.jobs import claim_sync_job, run_sync_job

    provider = get_embedding_provider(settings)
    progress, update = make_progress(label)

    async def go() -> Any:
        async with await open_pool(url) as pool:
            job = await claim_sync_job(pool, settings, trigger="cli", config=sources, only=only, wait=wait_for_lock)
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
def sync_command(
    repo: Any, branch: str | None, docs_dir: str | None, only: str | None, as_json: bool, wait: bool
) -> None:
    """Embed new or changed chunks, upsert them, delete vanished ones (one transaction).

    Exits 1 when a source could not be read (the others are synced, its rows stay as they were), or
    a page could not be (the rest of its source is synced; the page is not in the index until fixed).
    """
    report = sync_with_progress(
        database_url(), _sources(repo, branch, docs_dir), get_settings(), "embedding", wait_for_lock=wait, only=only
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


# --- search and eval -----------------------------------------------------------------------------

MODE_CHOICE = click.Choice(["hybrid", "keyword", "vector"])


@main.command("search")
@click.argument("question")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--explain", is_flag=True, help="Show each leg's ranks, fused scores and page decisions.")
@click.option("--mode", type=MODE_CHOICE, default="hybrid", show_default=True)
@audience_option
@click.option("--history", "history", multiple=True, metavar="QUESTION",
              help="An earlier question of the conversation (repeat, oldest first): searched as the chat does.")
def search_command(
    question: str, as_json: bool, explain: bool, mode: str, audience: str | None, public_only: bool,
    history: tuple[str, ...],
) -> None:
    """Find the pages and excerpts that answer QUESTION."""
    from app.search.conversation import retrieve_in_conversation
    from app.search.retrieve import ready_retriever
    from app.search.rewrite import build_query_rewriter

    audiences = _audiences(audience, public_only)
    settings = get_settings()
    url = database_url()

    async def go() -> Any:
        async with await open_pool(url) as pool:
            retriever = await ready_retriever(pool, settings, mode)
            return await retrieve_in_conversation(
                retriever, question, list(history), rewriter=build_query_rewriter(settings),
                mode=mode, audiences=audiences, explain=explain,
            )

    retrieval = run_async(go)
    if as_json:
        print_json(retrieval.to_dict(explain=explain))
        return
    standalone = retrieval.standalone or {}
    if explain or standalone.get("method", "as_asked") != "as_asked":
        console.print(f"query: [bold]{escape(retrieval.question)}[/] ({standalone.get('method', 'as_asked')})", highlight=False)
    if retrieval.degraded:
        console.print(f"[yellow]degraded: {retrieval.degraded}[/] ({escape('; '.join(retrieval.errors.values()))})",
                      highlight=False)
    verdict = "would answer" if retrieval.would_answer else "[yellow]would not answer[/]"
    console.print(f"confidence {retrieval.confidence:.3f} (floor {retrieval.floor:.2f}): {verdict}")
    if not retrieval.pages:
        console.print("no matching pages")
    for number, page in enumerate(retrieval.pages, 1):
        console.print(f"[bold]{number}. {escape(page.title)}[/] [dim]{escape(page.href)}[/]  score {page.score:.4f}",
                      highlight=False)
        excerpt = page.excerpt if len(page.excerpt) < 400 else page.excerpt[:400] + " …"
        console.print(excerpt, markup=False, highlight=False)
        console.print()
    if explain:
        _print_explain(retrieval)


def _print_explain(retrieval: Any) -> None:
    audiences = ", ".join(retrieval.audiences) if retrieval.audiences is not None else "every audience"
    terms = Table("term", "ndoc", "idf", title=f"full-text terms (statistics as {audiences} see them)")
    for term in retrieval.terms:
        terms.add_row(Text(str(term["lexeme"])), str(term["ndoc"]), f"{term['idf']:.3f}")
    console.print(terms)
    table = Table("fused", "weight", "chunk", "keyword", "vector", title="fused ranking")
    for item in retrieval.ranking[:20]:
        table.add_row(
            f"{item.score:.5f}", f"{item.weight:g}", Text(item.hit.id), str(item.ranks.get("keyword", "-")),
            str(item.ranks.get("vector", "-")),
        )
    console.print(table)
    pages = Table("source", "page", "weight", "score", "decision", title="pages")
    for choice in retrieval.candidates:
        pages.add_row(Text(choice.source), Text(choice.title), f"{choice.weight:g}", f"{choice.score:.5f}",
                      Text(choice.reason))
    console.print(pages)
    console.print(f"confidence: {retrieval.to_dict(explain=True)['explain']['confidence']}", highlight=False)
    console.print(f"timings (ms): {retrieval.timings_ms}")
    if retrieval.standalone:
        console.print(f"standalone query: {retrieval.standalone}", markup=False, highlight=False)


@main.command("eval")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--mode", type=MODE_CHOICE, default="hybrid", show_default=True)
@click.option("--k", "k", type=click.IntRange(1, 50), default=3, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with per-question results.")
@audience_option
@click.option("--no-history", is_flag=True, help="Search every question alone, ignoring lines' \"history\".")
def eval_command(
    file: Any, mode: str, k: int, as_json: bool, audience: str | None, public_only: bool, no_history: bool
) -> None:
    """Score retrieval on FILE (JSON lines of {"question", "gold": [urls], "history"?: [earlier questions]})."""
    from app.search.eval import evaluate, load_eval_file
    from app.search.retrieve import ready_retriever
    from app.search.rewrite import build_query_rewriter

    audiences = _audiences(audience, public_only)
    settings = get_settings()
    items = load_eval_file(file)
    url = database_url()

    async def go() -> Any:
        async with await open_pool(url) as pool:
            retriever = await ready_retriever(pool, settings, mode)
            return await evaluate(
                retriever, items, mode=mode, k=k, base_url=settings.docs_base_url, audiences=audiences,
                use_history=not no_history, rewriter=build_query_rewriter(settings),
            )

    report = run_async(go)
    if as_json:
        print_json(report)
        return
    console.print(f"{report['questions']} questions ({report['answerable']} answerable, "
                  f"{report['unanswerable']} unanswerable), mode {mode}, k={k}")
    if report["answerable"]:
        console.print(
            f"answerable: precision {report['precision']:.3f}  recall {report['recall']:.3f}  "
            f"MRR {report['mrr']:.3f}  page recall {report['page_recall']:.3f}"
        )
        console.print(f"false refusal rate (answerable refused): {report['false_refusal_rate']:.3f}")
    if report["unanswerable"]:
        console.print(f"refusal rate (unanswerable refused): {report['refusal_rate']:.3f}")
    for kind, row in report.get("refusal_by_kind", {}).items():
        console.print(f"  {kind}: refused {row['refused']}/{row['questions']} ({row['refusal_rate']:.3f}), "
                      f"answered partly {row['partly']}", highlight=False)


# --- gaps ----------------------------------------------------------------------------------------


@main.command("gaps")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per gap.")
@click.option("--since", default=None, help="Only gaps seen within this long: 30m, 24h, 7d, 2w.")
@click.option("--clear", is_flag=True, help="Delete the gaps (those seen within --since, or all).")
def gaps_command(as_json: bool, since: str | None, clear: bool) -> None:
    """Questions the docs did not answer, or answered with low confidence; most frequent first."""
    from app.chat.gaps import BadDuration, clear_gaps, list_gaps, parse_since
    from app.db.pool import connect

    try:
        window = parse_since(since) if since is not None else None
    except BadDuration as exc:
        raise click.UsageError(str(exc)) from None
    settings = get_settings()
    url = database_url()

    async def go() -> Any:
        from app.db.migrate import ensure_schema

        await ensure_schema(url)
        async with connect(url) as conn:
            if clear:
                return await clear_gaps(conn, window)
            return await list_gaps(conn, settings.gap_retention_days, window, settings)

    result = run_async(go)
    if clear:
        print_json({"deleted": result}) if as_json else console.print(f"deleted {result} gaps")
        return
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
    """Visitors' 👍/👎 on answers, with their comments and the questions asked; newest first."""
    from app.chat.feedback import list_feedback, summarize
    from app.chat.gaps import BadDuration, parse_since
    from app.db.migrate import ensure_schema
    from app.db.pool import connect

    try:
        window = parse_since(since) if since is not None else None
    except BadDuration as exc:
        raise click.UsageError(str(exc)) from None
    url = database_url()

    async def go() -> Any:
        await ensure_schema(url)
        async with connect(url) as conn:
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


# --- status and index ----------------------------------------------------------------------------


@main.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the same as GET /admin/api/status).")
def status_command(as_json: bool) -> None:
    """Per source pages, chunks, models, audiences and last sync; provider, scheduler, gaps, size."""
    from app.chat.services import build_answerer
    from app.embeddings.providers import get_embedding_provider
    from app.ops.status import index_status

    settings = get_settings()
    url = database_url()
    provider = get_embedding_provider(settings)
    answerer = build_answerer(settings)

    async def go() -> dict[str, Any]:
        async with await open_pool(url) as pool:
            return await index_status(pool, settings, provider_model=provider.model if provider else None,
                                      answerer=answerer)

    status = run_async(go)
    if as_json:
        print_json(status)
        return
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


@main.group("index")
def index_group() -> None:
    """The index itself."""


@index_group.command("clear")
@click.option("--source", default=None, help="Only this source's chunks.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def index_clear(source: str | None, yes: bool) -> None:
    """Delete every indexed chunk (or one source's); the next sync rebuilds them."""
    from app.ops.index import clear_index

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


# --- serve and ask -------------------------------------------------------------------------------


@main.command("serve")
@click.option("--host", default=None, help="Address to bind (HOST, default 127.0.0.1).")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="Port to bind (PORT, default 8000).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes; each has its own pool of DB_POOL_SIZE connections.")
def serve_command(host: str | None, port: int | None, workers: int) -> None:
    """Serve the chat API, the widget and the demo page."""
    import uvicorn

    from app.server import prepare_serving

    settings = get_settings()
    # Once, before any worker starts: the embedded server, the schema and the IP secret, so
    # workers neither race to migrate nor each make a secret of their own.
    prepare_serving(settings)
    host, port = host or settings.host, port or settings.port
    console.print(f"docschat on [bold]http://{host}:{port}[/]  ({workers} worker{'s' if workers > 1 else ''};"
                  " API schema at /schema)")
    if workers == 1:
        from app.server import create_app

        uvicorn.run(create_app(settings), host=host, port=port, log_level="warning", proxy_headers=False)
    else:
        from app.serving import run_workers

        run_workers(host, port, workers)


@main.command("ask")
@click.argument("question")
@audience_option
@click.option("--session", "session", default=None, metavar="ID",
              help="Continue this conversation (the id printed after an answer).")
def ask_command(question: str, audience: str | None, public_only: bool, session: str | None) -> None:
    """Ask a question in the terminal: Relevant Guides, then the Summary."""
    from app.chat.requests import BadChatRequest, parse_question
    from app.chat.services import build_chat_services
    from app.chat.sessions import parse_session_id
    from app.chat.turn import start_turn

    try:
        question = parse_question(question)
    except BadChatRequest as exc:
        raise click.UsageError(str(exc)) from None
    audiences = _audiences(audience, public_only)
    session_id = parse_session_id(session)
    if session is not None and session_id is None:
        raise click.UsageError(f"--session must be a session id (a UUID), not {session!r}")
    settings = get_settings()
    url = database_url()

    async def go() -> int:
        async with await open_pool(url) as pool:
            services = build_chat_services(pool, settings)
            await services.retriever.warm_up()
            turn = await start_turn(services, session_id, question, audiences)
            if session_id is not None and turn.session_id != session_id:
                # A session belongs to the audiences it was opened for (app/chat/sessions.py).
                err_console.print(f"[yellow]session {session_id} was opened for other audiences (or by the chat "
                                  "widget): this question starts a new conversation[/]", highlight=False)
            printed_summary = False
            status = 0
            async for part in turn.parts():
                kind = part["type"]
                if kind == "source-url":
                    if part["sourceId"] == "source-1":
                        console.print("[bold]Relevant Guides[/]")
                    console.print(f"  • {escape(part['title'])}  [dim]{escape(part['url'])}[/]", highlight=False,
                                  soft_wrap=True)  # a URL cut in two is not one to copy
                elif kind == "text-delta":
                    if not printed_summary:
                        console.print("\n[bold]Summary[/]")
                        printed_summary = True
                    console.print(part["delta"], end="", markup=False, highlight=False)
                elif kind == "error":
                    err_console.print(f"\n[bold red]error:[/] {escape(part['errorText'])}", highlight=False)
                    status = 1
            console.print()
            await turn.save()
            again = f" --audience {','.join(turn.audiences)}" if turn.audiences is not None else ""
            err_console.print(f"[dim]continue this conversation: docschat ask{escape(again)} --session {turn.session_id}"
                              " \"…\"[/]", highlight=False, soft_wrap=True)
            return status

    sys.exit(run_async(go))


@main.command("mcp")
@click.option("--audience", "audience", default=None, metavar="A,B", help="What the caller may see (default: CHAT_AUDIENCES).")
def mcp_command(audience: str | None) -> None:
    """The MCP server on stdio (search_docs, get_page, read_file), for a coding assistant to start."""
    from app.doors.mcp_server import run_stdio

    if audience is not None and not audience.replace(",", " ").strip():
        raise click.BadParameter("is empty: name an audience, or leave the option out for CHAT_AUDIENCES",
                                 param_hint="--audience")
    run_async(lambda: run_stdio(get_settings(), _audiences(audience, False)))


# --- demo ----------------------------------------------------------------------------------------


# The demo is one person trying it on their own machine: the production limits (5 questions an
# hour, 10 a day) would stop them after five questions. Set RATE_LIMIT_PER_* to keep others.
DEMO_RATE_LIMITS = {"rate_limit_per_hour": 100, "rate_limit_per_day": 1000}


@main.command("demo")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="Port to serve on (PORT, default 8000).")
@click.option("--no-serve", is_flag=True, help="Prepare everything, then exit (used by tests).")
def demo_command(port: int | None, no_serve: bool) -> None:
    """Embedded database + this repository's docs/ synced offline + the demo page with the widget."""
    from app import PROJECT_ROOT
    from app.corpus.compose import DocsSource
    from app.db.embedded import embedded_server_running
    from app.db.url import resolve_database_url
    from app.embeddings.local import local_model_installed
    from app.sources import SourcesConfig, config_path

    settings = get_settings()
    # A setting counts as chosen when the environment or .env gave it (pydantic's fields set).
    chosen = settings.model_fields_set
    if "embedding_provider" not in chosen and not settings.gemini_api_key:
        # The demo runs offline: the packaged model when installed, keyword-only otherwise.
        settings = settings.model_copy(update={"embedding_provider": "local" if local_model_installed() else "none"})
    settings = settings.model_copy(update={k: v for k, v in DEMO_RATE_LIMITS.items() if k not in chosen})

    if (path := config_path(settings)) is not None:
        # Its "docs" would take the place of the file's sources in the same database: refused before
        # the database is resolved (which may start the embedded server).
        raise click.UsageError(f"the demo syncs this repository's docs/ as its only source; the sources come from "
                               f"{path}: run it with another DOCSCHAT_HOME and no DOCSCHAT_CONFIG")
    embedded = not settings.database_url
    started_here = embedded and not embedded_server_running(settings.docschat_home)
    if embedded:
        console.print(escape(f"starting the embedded Postgres in {settings.docschat_home / 'pg'}"
                             if started_here else f"using the embedded Postgres in {settings.docschat_home / 'pg'}"),
                      highlight=False, soft_wrap=True)
    else:
        console.print("database: DATABASE_URL", soft_wrap=True)
    database = settings  # the settings that say which Postgres to stop, whatever the demo changes later
    # Ctrl+C (or a failure) at any step after this, the first sync included, stops the Postgres the
    # demo started: a newcomer who gives up during the model load is not left a server running.
    try:
        url = resolve_database_url(settings)
        if settings.embedding_provider == "local":
            console.print("loading the offline embedding model (10–30 s on a first run)", highlight=False, soft_wrap=True)
        source = DocsSource(PROJECT_ROOT, "HEAD", "docs").to_source(settings)  # the current branch, as committed
        # `only`: the rows of any other source in this database stay (a sync of all deletes them).
        report = sync_with_progress(url, SourcesConfig((source,)), settings, "embedding docs/", wait_for_lock=True,
                                    only=source.name)
        console.print(
            f"indexed docs/: {report.pages} pages, {report.chunks} sections ({report.new} new, {report.changed} changed, "
            f"{report.unchanged} unchanged, {report.deleted} deleted); embeddings: "
            f"{report.embedding_model or 'none (keyword search only)'}",
            highlight=False, soft_wrap=True,
        )
        if no_serve:
            return
        import uvicorn

        from app.server import create_app

        port = port or settings.port
        if "docs_base_url" not in chosen:
            # The demo serves the docs itself: guide links point at this server.
            settings = settings.model_copy(update={"docs_base_url": f"http://127.0.0.1:{port}"})
        stops = "the demo and its database" if started_here else "the demo"
        relaxed = any(name not in chosen for name in DEMO_RATE_LIMITS)
        whose = " (the demo's limits; RATE_LIMIT_PER_HOUR and RATE_LIMIT_PER_DAY set others)" if relaxed else ""
        console.print(f"\n[bold green]docschat demo:[/] open [bold]http://127.0.0.1:{port}[/] and ask a question"
                      f"   (Ctrl+C stops {stops})\n"
                      f"  up to {settings.rate_limit_per_hour} questions an hour and {settings.rate_limit_per_day} a day "
                      f"per client{whose}\n"
                      "  another port: PORT=8080 make demo;  the command line: .venv/bin/docschat --help\n",
                      highlight=False, soft_wrap=True)
        uvicorn.run(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    finally:
        _stop_demo_database(database, started_here)


def _stop_demo_database(settings: Any, started_here: bool) -> None:
    """At the demo's exit: stop the embedded Postgres it started; say how to stop one it found running."""
    from app.db.embedded import stop_embedded_server

    if settings.database_url:
        return
    if started_here:
        if stop_embedded_server(settings.docschat_home) is not None:
            console.print("stopped the embedded Postgres", highlight=False, soft_wrap=True)
    else:
        console.print("the embedded Postgres was running before the demo and keeps running: docschat db stop "
                      "stops it", highlight=False, soft_wrap=True)
