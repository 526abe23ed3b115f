"""What every command shares: the root group, its error handling, output helpers, the database."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, NoReturn, TypeVar

import click
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from app.config import get_settings
from app.db.url import redact_url, resolve_database_url
from app.errors import DatabaseError, DocschatError
from app.logging import configure_logging

T = TypeVar("T")
console = Console(stderr=False)
err_console = Console(stderr=True)


def run_async(factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
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


# Each command's module, imported when the command is looked up: what `docschat ask` imports at
# start is what it spends before its first byte (the whole CLI took about a second).
COMMAND_MODULES = {
    "serve": "chat", "ask": "chat", "mcp": "chat", "search": "search", "eval": "search",
    "db": "database", "sql": "database", "compose": "indexing", "sync": "indexing", "status": "indexing",
    "index": "indexing", "gaps": "reports", "feedback": "reports", "demo": "demo", "insights": "insights",
    "check": "review",
}


class DocschatGroup(click.Group):
    """Turns known failures into one line on stderr and exit code 1, never a traceback."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            import importlib

            importlib.import_module(f"app.cli.{COMMAND_MODULES[cmd_name]}")  # registers its commands on main
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        for name in COMMAND_MODULES:
            self.get_command(ctx, name)
        return super().list_commands(ctx)

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


# The database driver (asyncpg), the embedded server and alembic are imported by the functions
# that use them: `docschat ask` and `mcp` beside a server need none of them (app/cli/remote.py).

# Commands whose output is for a person reading the terminal: their info lines (a retrieval, a
# sync's report) repeat what they print. Warnings still show; LOG_LEVEL, when set, wins.
QUIET = frozenset({"ask", "demo", "eval", "mcp"})


@click.group(cls=DocschatGroup)
@click.version_option(package_name="docschat")
def main() -> None:
    """docschat: hybrid search and chat over a product's documentation."""
    try:
        settings = get_settings()
        level = settings.log_level
        if "log_level" not in settings.model_fields_set and click.get_current_context().invoked_subcommand in QUIET:
            level = "warning"
    except (ValidationError, DocschatError):
        level = "info"  # `--help` still works; the command itself reports the setting
    configure_logging(level)


def serve_until_stopped(run: Callable[[], None], settings: Any, host: str, port: int,
                        on_ready: Callable[[str], None]) -> None:
    """Run the server (`run` blocks until it stops). Once its /healthz answers 200 (the model loaded,
    the database reachable), `on_ready(url)` is called and home/server.json records it, for the CLI
    of this home to use (app/cli/remote.py); the record is removed when the server stops."""
    import threading

    from app.home import forget_server, record_server

    address = "127.0.0.1" if host in ("0.0.0.0", "", "::") else f"[{host}]" if ":" in host else host
    url = f"http://{address}:{port}"
    stop = threading.Event()

    def watch() -> None:
        import httpx

        while not stop.is_set():
            try:
                if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                    record_server(settings.docschat_home, url)
                    on_ready(url)
                    return
            except httpx.HTTPError:
                pass
            stop.wait(0.2)

    threading.Thread(target=watch, name="docschat-ready", daemon=True).start()
    try:
        run()
    except KeyboardInterrupt:  # Ctrl+C: uvicorn has shut down; as uvicorn.run, no "Aborted!" and exit 0
        pass
    finally:
        stop.set()
        forget_server(settings.docschat_home)


def database_label(settings: Any) -> str:
    """Which database the settings name, and why: for `status` and for errors."""
    if settings.database_url:
        return f"{redact_url(settings.database_url)} (DATABASE_URL)"
    return f"the embedded Postgres in {settings.docschat_home / 'pg'} ({settings.home_reason})"


def database_url(*, create: bool = False) -> str:
    """The database's URL, the embedded server started if need be. Only a command that writes
    (`create`: sync, demo, db upgrade) makes a new embedded cluster, and says so; any other is told
    where it looked and what makes one (it used to leave an empty one in the folder it ran in)."""
    from app.db.embedded import embedded_cluster_exists

    settings = get_settings()
    if not settings.database_url and not embedded_cluster_exists(settings.docschat_home):
        if not create:
            raise DatabaseError(f"no database yet: {database_label(settings)}. `docschat sync` makes it and indexes "
                                "your docs (`docschat demo` this repository's); DOCSCHAT_HOME or DATABASE_URL names another")
        err_console.print(escape(f"creating {database_label(settings)}"), highlight=False, soft_wrap=True)
    return resolve_database_url(settings)


async def open_pool(url: str) -> Any:
    """A pool on the database, migrated to head first."""
    # alembic: slow to import, kept off `docschat --help`
    from app.db.migrate import ensure_schema
    from app.db.pool import create_pool

    await ensure_schema(url)
    return await create_pool(url, min_size=1, max_size=4)


async def check_readable(url: str, *, indexed: bool = False) -> None:
    """For a command that reads: a DatabaseError in one line, with the command that fixes it, when
    the database has no docschat tables (or, with `indexed`, no section), rather than SQL's
    `relation "docs_section" does not exist` or an empty answer."""
    from app.db.migrate import current_revision
    from app.db.pool import connect

    label = database_label(get_settings())
    async with connect(url) as conn:
        if await current_revision(conn) is None:
            raise DatabaseError(f"{label} has no docschat tables: `docschat sync` creates them and indexes your docs")
        if indexed and not await conn.fetchval("select exists (select from public.docs_section)"):
            raise DatabaseError(f"nothing is indexed in {label}: `docschat sync` indexes your docs")


async def open_read_pool(url: str, *, indexed: bool = True) -> Any:
    """open_pool for a command that reads (ask, search, eval, status): check_readable first."""
    await check_readable(url, indexed=indexed)
    return await open_pool(url)


async def cli_retriever(pool: Any, settings: Any, mode: str = "hybrid") -> Any:
    """ready_retriever, saying on a terminal what it loads and how long that took: without a
    server beside it, the CLI loads the offline model itself (seconds, more on a busy machine)."""
    import time

    from app.search.retrieve import build_retriever

    retriever = build_retriever(pool, settings)
    if mode != "keyword" and retriever.needs_warm_up:
        shown = err_console.is_terminal
        if shown:
            err_console.print("[dim]loading the offline embedding model …[/]", highlight=False, soft_wrap=True)
        started = time.perf_counter()
        await retriever.warm_up()
        if shown:
            err_console.print(f"[dim]loaded in {time.perf_counter() - started:.1f} s (a running `docschat serve` keeps "
                              "it loaded for `ask` and `mcp` as visitors see)[/]", highlight=False, soft_wrap=True)
    return retriever


@contextlib.asynccontextmanager
async def migrated_connection(url: str) -> AsyncIterator[Any]:
    """One connection to the database, migrated to head first (a database without docschat tables
    is refused: see check_readable)."""
    # alembic: slow to import, kept off `docschat --help`
    from app.db.migrate import ensure_schema
    from app.db.pool import connect

    await check_readable(url)
    await ensure_schema(url)
    async with connect(url) as conn:
        yield conn
