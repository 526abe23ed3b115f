"""Revisions apply plain SQL files from sql/; this runs one whole file on the migration connection."""

from __future__ import annotations

from alembic import op
from sqlalchemy.util import await_only

from app.db.migrate import sql_dir


def apply_sql_file(name: str) -> None:
    """Execute sql/<name> as one script (functions with $$ bodies included).

    SQLAlchemy's asyncpg adapter prepares each statement, and a prepared statement holds one
    command; the driver connection's execute() without arguments takes a whole script.
    """
    sql = (sql_dir() / name).read_text(encoding="utf-8")
    driver_connection = op.get_bind().connection.driver_connection
    await_only(driver_connection.execute(sql))
