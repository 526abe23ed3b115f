"""`docschat db …` (migrations, grants, the embedded server, status) and `docschat sql`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import Any

import click
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from app.cli.base import check_readable, console, database_url, err_console, main, print_json, run_async
from app.config import get_settings
from app.db.embedded import stop_embedded_server
from app.db.pool import connect
from app.db.roles import grant_app_role
from app.db.url import redact_url, split_password
from app.errors import DatabaseError


@main.group()
def db() -> None:
    """Migrations and the state of the database."""


@db.command("upgrade")
@click.argument("revision", default="head")
def db_upgrade(revision: str) -> None:
    """Apply migrations up to REVISION (default: head)."""
    # alembic: slow to import, kept off `docschat --help`
    from app.db import migrate

    url = database_url(create=True)
    run_async(lambda: migrate.check_migratable(url))
    migrate.upgrade(url, revision)
    console.print(f"database at revision [bold]{revision}[/]")


@db.command("downgrade")
@click.argument("revision")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def db_downgrade(revision: str, yes: bool) -> None:
    """Revert migrations down to REVISION ('base' removes everything)."""
    # alembic: slow to import, kept off `docschat --help`
    from app.db import migrate

    url = database_url()
    # As `index clear` asks: a downgrade drops what the migrations it reverts created, at base every
    # table (the index, chat history, gaps, sync history).
    what = "drop every docschat table and its rows" if revision == "base" else "drop what later migrations added"
    if not yes and not click.confirm(f"Revert the database to {revision} ({what})?", default=False):
        raise click.ClickException("nothing changed")
    run_async(lambda: migrate.check_migratable(url))
    migrate.downgrade(url, revision)
    console.print(f"database at revision [bold]{revision}[/]")


@db.command("grant")
@click.argument("role")
def db_grant(role: str) -> None:
    """Grant ROLE what the app needs (run as the owner, after each upgrade; idempotent)."""
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
    settings = get_settings()
    if settings.database_url:
        raise click.ClickException("DATABASE_URL is set: docschat does not run that server, so it does not stop it")
    home = settings.docschat_home
    pid = stop_embedded_server(home)
    where = escape(str((home / "pg").resolve()))
    console.print(f"stopped the embedded Postgres in {where} (pid {pid})" if pid is not None
                  else f"no embedded Postgres runs in {where}", highlight=False, soft_wrap=True)


@db.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def db_status(as_json: bool) -> None:
    """Current revision, server and pgvector versions, row counts."""
    # reads the head revision: alembic, slow to import, kept off `docschat --help`
    from app.db.status import database_status

    url = database_url()

    async def go() -> dict[str, Any]:
        async with connect(url) as conn:
            return await database_status(conn)

    status = run_async(go)
    status["database_url"] = redact_url(url)
    settings = get_settings()
    status["chosen_by"] = "DATABASE_URL" if settings.database_url else settings.home_reason
    if as_json:
        print_json(status)
        return
    table = Table(show_header=False, box=None)
    for key in ("database_url", "chosen_by", "revision", "head", "server_version", "pgvector_version"):
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
    url = database_url()
    try:
        run_async(lambda: check_readable(url))
    except DatabaseError as exc:  # psql may still be wanted (to look, to grant): said, not refused
        err_console.print(f"[yellow]note:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
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
    address, password = split_password(url)  # the password goes in the environment, not on `ps`
    args = [psql, address, "-v", "ON_ERROR_STOP=1"]
    if command is not None:
        args += ["-c", command]
    sys.exit(subprocess.call(args, env=os.environ | ({"PGPASSWORD": password} if password else {})))


def _run_one_statement(url: str, command: str) -> None:
    async def go() -> list[Any]:
        async with connect(url) as conn:
            return [dict(r) for r in await conn.fetch(command)]

    for row in run_async(go):
        print_json(row)
