"""alembic environment: runs the revisions over an async (asyncpg) SQLAlchemy engine."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

config = context.config


def _database_url() -> str:
    url = config.attributes.get("database_url")
    if not url:
        from app.config import get_settings
        from app.db.url import resolve_database_url

        url = resolve_database_url(get_settings())
    return url.replace("postgresql://", "postgresql+asyncpg://", 1).replace("postgres://", "postgresql+asyncpg://", 1)


def _run(connection) -> None:
    from app.db.migrate import MIGRATION_LOCK_KEY

    # One transaction for the whole upgrade, the repeatable step included, opened by a
    # transaction-level lock: one migrating process at a time, and the revision is read after the
    # lock is taken, so a process that waited finds the schema at head and has nothing to do. Not a
    # session lock: behind a pooler in transaction mode (DATABASE_POOLER=transaction) a session lock
    # stays with whichever server connection took it, and the next migration waits for it forever.
    # (A revision that needs to run outside a transaction, `create index concurrently`, would end
    # this one and the lock with it: none does.)
    context.configure(connection=connection, target_metadata=None, transaction_per_migration=False)
    with context.begin_transaction():
        connection.execute(text("select pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        context.run_migrations()
        _apply_repeatable(connection)


def _apply_repeatable(connection) -> None:
    """The repeatable step: at head, sql/functions/ is applied (in one transaction) when a file changed.

    Not after a downgrade, nor an upgrade that stopped short of head: the functions follow the files
    of the newest schema only (design/sql-layout.md).
    """
    from alembic.script import ScriptDirectory

    from migrations.sqlfile import apply_function_files

    heads = set(ScriptDirectory.from_config(config).get_heads())
    if heads and set(context.get_context().get_current_heads()) == heads:
        apply_function_files(connection)


async def _run_online() -> None:
    from app.db.pool import sqlalchemy_pooler_options

    engine = create_async_engine(_database_url(), **sqlalchemy_pooler_options())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    raise SystemExit("docschat migrations run online only: they execute the files in sql/")
asyncio.run(_run_online())
