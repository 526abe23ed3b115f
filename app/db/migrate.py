"""Running the alembic revisions in migrations/ from code (the CLI, the server, the tests)."""

from __future__ import annotations

import sys

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

from app import PROJECT_ROOT


def alembic_config(database_url: str) -> Config:
    _ensure_importable()
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    config.attributes["database_url"] = database_url
    return config


def _ensure_importable() -> None:
    # Revisions import `migrations.sqlfile`; the repository root must be on sys.path.
    root = str(PROJECT_ROOT)
    if root not in sys.path:
        sys.path.insert(0, root)


def upgrade(database_url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    command.downgrade(alembic_config(database_url), revision)


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("")).get_current_head()


async def current_revision(conn) -> str | None:
    """The applied revision, read from alembic_version (None before the first upgrade)."""
    exists = await conn.fetchval("select to_regclass('public.alembic_version') is not null")
    if not exists:
        return None
    return await conn.fetchval("select version_num from public.alembic_version limit 1")



async def ensure_schema(database_url: str) -> None:
    """Check that pgvector is available and migrate to head when behind (a no-op when current)."""
    import asyncio

    from app.db.pool import connect
    from app.db.status import check_vector_available

    async with connect(database_url) as conn:
        await check_vector_available(conn)
        current = await current_revision(conn)
    if current != head_revision():
        # alembic's env runs its own event loop: keep it off ours.
        await asyncio.to_thread(upgrade, database_url)
