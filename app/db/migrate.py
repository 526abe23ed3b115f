"""Running the alembic revisions in migrations/ from code (the CLI, the server, the tests)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError

from app.db.bundle import BUNDLE_PACKAGE_DIR, migration_root, sql_dir  # noqa: F401 - re-exported
from app.db.repeatable import functions_current
from app.errors import DatabaseError


def alembic_config(database_url: str) -> Config:
    root = migration_root()
    _ensure_importable(root)
    config = Config(str(root / "alembic.ini"))
    config.set_main_option("script_location", str(root / "migrations"))
    config.attributes["database_url"] = database_url
    return config

def _ensure_importable(root: Path) -> None:
    # Revisions import `migrations.sqlfile`: the folder holding migrations/ must be on sys.path.
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))

def upgrade(database_url: str, revision: str = "head") -> None:
    with _revision_named(revision):
        command.upgrade(alembic_config(database_url), revision)

def downgrade(database_url: str, revision: str) -> None:
    with _revision_named(revision):
        command.downgrade(alembic_config(database_url), revision)

@contextmanager
def _revision_named(revision: str) -> Iterator[None]:
    """Alembic's refusal of a revision it does not know (a typo) as a one-line error, not a traceback."""
    try:
        yield
    except CommandError as exc:
        known = ", ".join(s.revision for s in _scripts().walk_revisions())
        raise DatabaseError(f"cannot migrate to {revision!r}: {exc} (revisions: head, base, {known})") from None

# Held by the connection that migrates (migrations/env.py): processes started together on a new
# database (replicas, a server and a CI sync) migrate one after the other, and the later ones then
# find the schema at head, where they raced and all but one failed with "already exists".
MIGRATION_LOCK_KEY = 0x646F6373_63686174 + 16  # "docschat" (as app/indexing/sync_apply.py's key) + 16

def _scripts() -> ScriptDirectory:
    """The revisions this docschat carries (no database needed)."""
    return ScriptDirectory.from_config(alembic_config(""))

def head_revision() -> str | None:
    return _scripts().get_current_head()

def _is_known(revision: str) -> bool:
    try:
        return _scripts().get_revision(revision) is not None
    except CommandError:
        return False

async def current_revision(conn) -> str | None:
    """The applied revision, read from alembic_version (None before the first upgrade)."""
    exists = await conn.fetchval("select to_regclass('public.alembic_version') is not null")
    if not exists:
        return None
    return await conn.fetchval("select version_num from public.alembic_version limit 1")

async def check_vector_available(conn) -> None:
    """Fail with instructions when the server cannot provide pgvector (a precondition of every
    migration: the first revision creates the extension)."""
    installed = await conn.fetchval("select 1 from pg_catalog.pg_extension where extname = 'vector'")
    available = await conn.fetchval("select 1 from pg_catalog.pg_available_extensions where name = 'vector'")
    if not installed and not available:
        raise DatabaseError(
            "the database server has no 'vector' extension (pgvector). Install it on the server "
            "(Debian/Ubuntu: apt-get install postgresql-<version>-pgvector; or use the pgvector/pgvector "
            "Docker image, or Supabase), or unset DATABASE_URL to use the embedded server"
        )

#: Revisions 0001 to 0013, squashed into the baseline 2026_12_02_0014 (design/sql-layout.md).
SQUASHED_REVISIONS = frozenset({
    "2026_11_29_0001", "2026_11_29_0002", "2026_11_30_0003", "2026_11_30_0004", "2026_11_30_0005",
    "2026_11_30_0006", "2026_11_30_0007", "2026_11_30_0008", "2026_11_30_0009", "2026_11_30_0010",
    "2026_12_01_0011", "2026_12_01_0012", "2026_12_01_0013",
})

async def known_revision(conn) -> str | None:
    """current_revision, or DatabaseError when a newer docschat wrote it (a rolling deploy, an old
    worker restarted): this one's `db upgrade` cannot help there, and alembic would blame the target."""
    current = await current_revision(conn)
    if current in SQUASHED_REVISIONS:
        raise DatabaseError(
            f"the database is at revision {current}, older than this docschat's first revision "
            "(2026_12_02_0014, which replaced 0001-0014): run `docschat db upgrade` with a docschat from before "
            "December 3, 2026 first (it carries them all), then this one"
        )
    if current is not None and not _is_known(current):
        raise DatabaseError(
            f"the database is at revision {current}, which this docschat does not know (it knows up to "
            f"{head_revision()}): a newer docschat migrated it; run that version, or `docschat db downgrade "
            f"{head_revision()}` with the newer one"
        )
    return current

async def check_migratable(database_url: str) -> None:
    """pgvector is there, and the schema is not from a newer docschat (before upgrade or downgrade)."""
    from app.db.pool import connect

    async with connect(database_url) as conn:
        await check_vector_available(conn)
        await known_revision(conn)

async def ensure_schema(database_url: str) -> None:
    """Check that pgvector is available and migrate to head when behind (a no-op when current)."""
    import asyncio

    from app.db.pool import connect

    async with connect(database_url) as conn:
        await check_vector_available(conn)
        current = await known_revision(conn)
        functions_stale = current == head_revision() and not await _functions_current(conn)
    if current != head_revision() or functions_stale:
        # alembic's env runs its own event loop: keep it off ours.
        try:
            await asyncio.to_thread(upgrade, database_url)
        except Exception as exc:  # noqa: BLE001 - any migration failure becomes one clear line
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0][:200]
            needs = (
                f"is at revision {current}, whose SQL functions differ from this docschat's sql/functions/"
                if functions_stale
                else f"is at revision {current or 'none'}, this docschat needs {head_revision()}"
            )
            raise DatabaseError(
                f"the database {needs}, and migrating failed ({reason}); run `docschat db upgrade` as the owner "
                "of the schema"
            ) from None

async def _functions_current(conn) -> bool:
    """Whether sql/functions/ as this docschat carries them is applied (app/db/repeatable.py).

    An app role that was granted before the checksum table existed cannot read it: then only the
    revision can be compared (`docschat db upgrade` and `db grant-role` as the owner settle it).
    """
    try:
        return await functions_current(conn)
    except asyncpg.InsufficientPrivilegeError:
        return True
