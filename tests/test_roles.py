"""Least privilege: `docschat db grant ROLE` gives an ordinary role what the app needs, and no more."""

from __future__ import annotations

import asyncio
import uuid
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest
from click.testing import CliRunner

from app.cli import main as cli_main
from app.db import migrate
from app.db.roles import grant_app_role
from app.errors import DatabaseError


def _as_role(url: str, role: str, password: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{role}:{password}@{host}"))


@pytest.fixture
def migrated_with_role(fresh_database):
    """A fresh migrated database and a new login role (neither superuser nor owner) on the same server."""
    url = fresh_database()
    migrate.upgrade(url)
    role, password = "app_" + uuid.uuid4().hex[:8], uuid.uuid4().hex

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    # role and password are generated hex: safe in DDL, which takes no bind parameters.
    asyncio.run(admin(f"create role {role} login password '{password}'"))
    yield url, role, _as_role(url, role, password)
    asyncio.run(admin(f"drop owned by {role}"))
    asyncio.run(admin(f"drop role {role}"))


async def _try(url: str, sql: str, *args: object) -> object:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(sql, *args)
    finally:
        await conn.close()


def test_grant_gives_the_app_role_its_work_and_nothing_more(migrated_with_role) -> None:
    owner_url, role, role_url = migrated_with_role
    with pytest.raises(asyncpg.InsufficientPrivilegeError):  # before the grant: nothing
        asyncio.run(_try(role_url, "select count(*) from public.docs_section"))

    result = CliRunner().invoke(cli_main, ["db", "grant", role],
                                env={"DATABASE_URL": owner_url})
    assert result.exit_code == 0, result.output
    assert "table public.docs_chat_message: select, insert, update, delete" in result.output

    async def work() -> None:
        conn = await asyncpg.connect(role_url)
        try:
            session = uuid.uuid4()
            await conn.execute("insert into public.docs_chat_session (id) values ($1)", session)
            await conn.execute(
                "insert into public.docs_chat_message (session_id, role, content) values ($1, 'user', 'hi')", session
            )
            assert await conn.fetchval("select count(*) from public.docs_chat_message") == 1  # RLS lets it read
            await conn.execute("update public.docs_chat_session set updated_at = now() where id = $1", session)
            await conn.fetchval("select public.refresh_docs_search_stats()")
            assert await conn.fetchval("select version_num from public.alembic_version") == migrate.head_revision()
            await conn.execute("delete from public.docs_chat_session where id = $1", session)
            for forbidden in ("truncate public.docs_chat_limits", "create table public.x (a int)",
                              "alter table public.docs_section disable row level security",
                              "drop policy docschat_app_x on public.docs_section",
                              "delete from public.alembic_version"):
                with pytest.raises((asyncpg.InsufficientPrivilegeError, asyncpg.UndefinedObjectError)):
                    await conn.execute(forbidden)
            assert not await conn.fetchval("select rolsuper or rolbypassrls from pg_roles where rolname = current_user")
        finally:
            await conn.close()

    asyncio.run(work())


async def test_grant_is_idempotent_and_refuses_unfit_roles(migrated_with_role) -> None:
    owner_url, role, _ = migrated_with_role
    conn = await asyncpg.connect(owner_url)
    try:
        first = await grant_app_role(conn, role)
        assert await grant_app_role(conn, role) == first
        assert await conn.fetchval(
            "select count(*) from pg_policies where policyname = $1", "docschat_app_" + role
        ) == len([o for o, _ in first if o.startswith("table public.docs_")])
        for bad, message in (("no_such_role_x", "does not exist"), ("anon", "API role"),
                             ("postgres", "superuser"), ("x; drop table y", "not a plain identifier")):
            if bad == "postgres" and not await conn.fetchval("select rolsuper from pg_roles where rolname = 'postgres'"):
                continue
            with pytest.raises(DatabaseError, match=message):
                await grant_app_role(conn, bad)
        # The grant never gives anon or authenticated anything.
        assert await conn.fetchval(
            "select count(*) from information_schema.role_table_grants where grantee in ('anon', 'authenticated')"
        ) == 0
    finally:
        await conn.close()


def test_grant_before_upgrade_says_to_upgrade(fresh_database) -> None:
    url = fresh_database()
    result = CliRunner().invoke(cli_main, ["db", "grant", "someone"],
                                env={"DATABASE_URL": url})
    assert result.exit_code == 1 and "run `docschat db upgrade` first" in result.output


async def test_app_role_on_a_database_behind_head_says_to_upgrade_as_owner(migrated_with_role) -> None:
    owner_url, role, role_url = migrated_with_role
    conn = await asyncpg.connect(owner_url)
    try:
        await grant_app_role(conn, role)
    finally:
        await conn.close()
    await asyncio.to_thread(migrate.downgrade, owner_url, "-1")  # one revision behind head
    with pytest.raises(DatabaseError, match=r"needs .*migrating failed \(.*permission denied.*run `docschat db upgrade` as the owner"):
        await migrate.ensure_schema(role_url)
    assert await _try(owner_url, "select version_num from public.alembic_version") != migrate.head_revision()


async def test_the_suite_connects_as_the_limited_role_when_one_is_configured(conn, app_role_template) -> None:
    """In CI's second run every test's connection is the limited role: neither superuser nor owner."""
    if not app_role_template:
        pytest.skip("the app connects as the owner (set TEST_APP_DATABASE_URL or TEST_LIMITED_ROLE=1)")
    user, superuser, bypass = await conn.fetchrow(
        "select current_user, rolsuper, rolbypassrls from pg_roles where rolname = current_user")
    owner = await conn.fetchval("select tableowner from pg_tables where schemaname = 'public' and tablename = 'docs_section'")
    assert user == urlsplit(app_role_template).username and not superuser and not bypass and owner != user


async def test_tables_added_by_later_migrations_are_covered_serial_ids_included(migrated_with_role) -> None:
    owner_url, role, role_url = migrated_with_role
    conn = await asyncpg.connect(owner_url)
    try:
        # What a later revision might add: a docs_ table with a serial id, RLS on, no grants.
        await conn.execute("create table public.docs_later (id serial primary key, note text not null);"
                           "alter table public.docs_later enable row level security")
        granted = dict(await grant_app_role(conn, role))
        assert "table public.docs_later" in granted and "sequence public.docs_later_id_seq" in granted
    finally:
        await conn.close()
    assert await _try(role_url, "insert into public.docs_later (note) values ('x') returning id") == 1
    assert await _try(role_url, "select count(*) from public.docs_later") == 1
