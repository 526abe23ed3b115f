"""The schema, migrations and database plumbing against a real Postgres."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from app.db import migrate
from app.db.migrate import current_revision, head_revision
from app.errors import DatabaseError
from tests.helpers import stop_embedded_server


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


@pytest.mark.slow  # several real processes at once
def test_processes_started_together_on_a_new_database_migrate_one_after_the_other(fresh_database, tmp_path) -> None:
    """Two servers (or a server and a CI sync) on an unmigrated database raced: all but one failed
    with "already exists" or a duplicate key, 5 times in 5. (`db upgrade`: a command that writes; a
    read command on an unmigrated database says so and stops, issue 47.)"""
    url = fresh_database()
    env = {**os.environ, "DATABASE_URL": url, "DOCSCHAT_HOME": str(tmp_path / "home"), "EMBEDDING_PROVIDER": "none"}
    runs = [subprocess.Popen([sys.executable, "-m", "app", "db", "upgrade"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(3)]
    results = [(run.wait(timeout=180), run.stderr.read()) for run in runs]
    for run in runs:
        run.stdout.close()
        run.stderr.close()
    assert [code for code, _ in results] == [0, 0, 0], [err[-400:] for _, err in results]
    assert asyncio.run(_revision(url)) == head_revision()


def test_a_database_migrated_by_a_newer_docschat_says_so(fresh_database, monkeypatch) -> None:
    """It said "run `docschat db upgrade`", which this version cannot do."""
    url = fresh_database()
    migrate.upgrade(url)

    async def newer() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("update public.alembic_version set version_num = '2099_01_01_0099'")
        finally:
            await conn.close()

    asyncio.run(newer())
    with pytest.raises(DatabaseError, match="which this docschat does not know .*a newer docschat migrated it"):
        asyncio.run(migrate.ensure_schema(url))
    from click.testing import CliRunner

    from app.cli import main
    from app.config import get_settings

    monkeypatch.setenv("DATABASE_URL", url)
    get_settings.cache_clear()
    result = CliRunner().invoke(main, ["db", "upgrade"])  # it blamed 'head', which it could not find
    assert result.exit_code == 1 and "a newer docschat migrated it" in result.output, result.output
    get_settings.cache_clear()


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


def _shown(size: str) -> str:
    return "1GB" if size == "1024MB" else size  # Postgres shows whole gigabytes so


def test_the_embedded_server_starts_sized_for_a_large_corpus_and_is_never_restarted_for_it(
    tmp_path, monkeypatch
) -> None:
    """shared_buffers is written before the server starts; a server already running keeps its
    own until it next starts, so no client of it is cut off."""
    from app.db import embedded
    from app.db.embedded_settings import SHARED_BUFFERS_MAX_MB, embedded_settings

    home = tmp_path / "home"
    home.mkdir()
    try:
        url = embedded.ensure_embedded_server(home)
        wanted = embedded_settings()["shared_buffers"]
        assert 128 <= int(wanted.removesuffix("MB")) <= SHARED_BUFFERS_MAX_MB
        size, started = asyncio.run(_shared_buffers_and_start(url))
        assert size == _shown(wanted)
        monkeypatch.setattr(embedded, "embedded_settings", lambda: {"shared_buffers": "256MB"})
        embedded.drop_server_handle(home / "pg")  # as a second process would: no handle of its own
        assert embedded.ensure_embedded_server(home) == url
        assert asyncio.run(_shared_buffers_and_start(url)) == (size, started)  # running: not restarted
        conf = (home / "pg" / "postgresql.conf").read_text()
        assert conf.count("# docschat: begin") == 1 and "shared_buffers = '256MB'" in conf
        stop_embedded_server(home)
        assert asyncio.run(_shared_buffers_and_start(embedded.ensure_embedded_server(home)))[0] == "256MB"
    finally:
        stop_embedded_server(home)


def test_settings_the_embedded_server_refuses_leave_it_running_on_the_defaults(tmp_path, monkeypatch) -> None:
    from app.db import embedded

    monkeypatch.setattr(embedded, "embedded_settings", lambda: {"shared_buffers": "not-a-size"})
    home = tmp_path / "home"
    home.mkdir()
    conf = home / "pg" / "postgresql.conf"
    try:
        url = embedded.ensure_embedded_server(home)
        assert asyncio.run(_shared_buffers_and_start(url))[0] == "128MB"  # Postgres's default
        refused = conf.read_text()
        assert "\n# shared_buffers = 'not-a-size'\n" in refused and "\nshared_buffers = 'not-a-size'" not in refused
        stop_embedded_server(home)
        assert asyncio.run(_shared_buffers_and_start(embedded.ensure_embedded_server(home)))[0] == "128MB"
        assert conf.read_text() == refused  # remembered: not written, nor tried, again
    finally:
        stop_embedded_server(home)


_START_ONE = """
import sys
from pathlib import Path
from pathlib import Path
from app.db.embedded import ensure_embedded_server
print(ensure_embedded_server(Path(sys.argv[1])))
"""


@pytest.mark.slow  # several real processes at once
def test_processes_starting_one_new_cluster_at_once_share_it_with_its_settings(tmp_path) -> None:
    from app.db.embedded_settings import embedded_settings

    home = tmp_path / "home"
    home.mkdir()
    try:
        starts = [subprocess.Popen([sys.executable, "-c", _START_ONE, str(home)], stdout=subprocess.PIPE, text=True,
                                   cwd=os.path.dirname(os.path.dirname(__file__))) for _ in range(3)]
        urls = {start.communicate(timeout=120)[0].strip().splitlines()[-1] for start in starts}
        assert [start.returncode for start in starts] == [0, 0, 0] and len(urls) == 1
        assert asyncio.run(_shared_buffers_and_start(urls.pop()))[0] == _shown(embedded_settings()["shared_buffers"])
        conf = (home / "pg" / "postgresql.conf").read_text()
        assert conf.count("# docschat: begin") == 1 and "did not start" not in conf
    finally:
        from app.db.embedded import ensure_embedded_server

        ensure_embedded_server(home)  # a handle in this process, to stop it by
        stop_embedded_server(home)


def test_docschat_settings_replace_their_own_block_only(tmp_path) -> None:
    from app.db.embedded_settings import mark_refused, update_settings

    conf = tmp_path / "postgresql.conf"
    conf.write_text("max_connections = 100\n#shared_buffers = 128MB\n")
    conf.chmod(0o640)
    assert update_settings(conf, {"shared_buffers": "512MB"})
    assert not update_settings(conf, {"shared_buffers": "512MB"})  # unchanged
    assert update_settings(conf, {"shared_buffers": "1024MB"})
    text = conf.read_text()
    assert text == "max_connections = 100\n#shared_buffers = 128MB\n\n# docschat: begin\nshared_buffers = '1024MB'\n# docschat: end\n"
    assert conf.stat().st_mode & 0o777 == 0o640  # rewritten whole (a new file), with the old one's mode
    # Refused: commented out, and the same settings are not written again; new ones are.
    assert mark_refused(conf) and not mark_refused(conf)
    assert not update_settings(conf, {"shared_buffers": "1024MB"}) and "\n# shared_buffers = '1024MB'" in conf.read_text()
    assert update_settings(conf, {"shared_buffers": "512MB"}) and "\nshared_buffers = '512MB'" in conf.read_text()
    # Bytes that are not UTF-8 (a Latin-1 comment) survive as they were; a symlink stays a link.
    target = tmp_path / "elsewhere.conf"
    target.write_bytes(b"# caf\xe9\nmax_connections = 100\n")
    conf.unlink()
    conf.symlink_to(target)
    assert update_settings(conf, {"shared_buffers": "512MB"}) and conf.is_symlink()
    assert target.read_bytes() == b"# caf\xe9\nmax_connections = 100\n\n# docschat: begin\nshared_buffers = '512MB'\n# docschat: end\n"
    conf.unlink()
    # Hand-edited markers: a BEGIN with no END keeps the lines after it, stray ENDs go, and there
    # is one block, at the end.
    conf.write_text("a = 1\n# docschat: begin\nwork_mem = '8MB'\n# docschat: end\n# docschat: end\n"
                    "# docschat: begin\nb = 2\n")
    assert update_settings(conf, {"shared_buffers": "512MB"})
    assert conf.read_text() == "a = 1\nb = 2\n\n# docschat: begin\nshared_buffers = '512MB'\n# docschat: end\n"


def test_a_postmaster_pid_naming_another_program_or_garbage_is_handled(tmp_path) -> None:
    """After a machine or container restart, the pid in a stale postmaster.pid may belong to
    another program: Postgres would take it for a running server and never start. A file that
    cannot be read is named in the error."""
    from app.db.embedded import ensure_embedded_server, restart_embedded_server_if_down

    home = tmp_path / "home"
    home.mkdir()
    pid_file = home / "pg" / "postmaster.pid"
    other = subprocess.Popen(["sleep", "120"])
    try:
        url = ensure_embedded_server(home)
        # Both ways in: a process starting (a new handle) and the app's recovery.
        for start_again in (ensure_embedded_server, restart_embedded_server_if_down):
            lines = pid_file.read_text().splitlines()
            stop_embedded_server(home)
            pid_file.write_text("\n".join([str(other.pid), *lines[1:]]) + "\n")  # as a stale file would be
            assert start_again(home) == url, start_again.__name__
            assert int(pid_file.read_text().split()[0]) not in (other.pid, int(lines[0]))
            assert asyncio.run(_shared_buffers_and_start(url))[0]
            assert other.poll() is None  # the other program is left alone
        stop_embedded_server(home)
        pid_file.write_text("garbage\n")
        with pytest.raises(DatabaseError, match="postmaster.pid cannot be read"):
            restart_embedded_server_if_down(home)
        pid_file.unlink()
    finally:
        other.kill()
        stop_embedded_server(home)


def test_a_single_user_postgres_in_the_folder_is_no_server_and_its_lock_is_kept(tmp_path) -> None:
    """initdb's backends (and `postgres --single`) write postmaster.pid with their pid negated and
    no status line. Asked then, `embedded_server_running` said the file "cannot be read" and told
    the user to remove it: the lock of a Postgres still writing the folder (a flaky Ctrl+C test
    found it). While it runs there is no server; once it is gone its file is cleared and the
    server starts."""
    from app.db.embedded import embedded_server_running, ensure_embedded_server
    from app.db.embedded import stop_embedded_server as stop_server

    home = tmp_path / "home"
    home.mkdir()
    url = ensure_embedded_server(home)
    pid_file = home / "pg" / "postmaster.pid"
    lines = pid_file.read_text().splitlines()
    stop_embedded_server(home)
    single = subprocess.Popen(["sleep", "120"])
    try:
        # As miscinit.c's CreateLockFile writes it for a standalone backend: 7 lines, no status.
        pid_file.write_text("\n".join([f"-{single.pid}", *lines[1:4], "", "", lines[6]]) + "\n")
        assert not embedded_server_running(home)
        assert stop_server(home) is None
        with pytest.raises(DatabaseError, match=f"single-user Postgres \\(pid {single.pid}"):
            ensure_embedded_server(home)
        assert pid_file.read_text().startswith(f"-{single.pid}\n")  # never removed under it
        single.kill()
        single.wait()
        assert not embedded_server_running(home)
        assert not pid_file.exists()  # it is gone: its lock goes, as Postgres would take it over
        assert ensure_embedded_server(home) == url
        assert embedded_server_running(home)
    finally:
        single.kill()
        stop_embedded_server(home)


def test_a_start_that_fails_for_another_reason_keeps_the_settings_and_says_why(tmp_path) -> None:
    from app.db.embedded import ensure_embedded_server

    home = tmp_path / "home"
    home.mkdir()
    try:
        ensure_embedded_server(home)
        stop_embedded_server(home)
        conf = (home / "pg" / "postgresql.conf").read_bytes()
        hba = home / "pg" / "pg_hba.conf"
        hba.write_text(hba.read_text() + "\nnonsense line\n")
        with pytest.raises(DatabaseError, match="its log says: could not load"):
            ensure_embedded_server(home)
        assert (home / "pg" / "postgresql.conf").read_bytes() == conf  # not marked refused: not their fault
        (home / "pg.lock").unlink()
        (home / "pg.lock").mkdir()
        with pytest.raises(DatabaseError, match="cannot lock"):
            ensure_embedded_server(home)
    finally:
        stop_embedded_server(home)


def test_settings_stay_when_the_start_failed_for_a_reason_that_then_passed(tmp_path, monkeypatch) -> None:
    """The server refuses a start for a reason of the moment (here a pg_hba.conf line, repaired
    between the two attempts) and starts on the retry without docschat's settings: the settings
    were not the cause, so they are not given up for good, and the next start has them."""
    from app.db import embedded

    monkeypatch.setattr(embedded, "embedded_settings", lambda: {"shared_buffers": "256MB"})
    home = tmp_path / "home"
    home.mkdir()
    try:
        embedded.ensure_embedded_server(home)
        stop_embedded_server(home)
        conf = home / "pg" / "postgresql.conf"
        with_settings = conf.read_bytes()
        assert b"\nshared_buffers = '256MB'\n" in with_settings
        hba = home / "pg" / "pg_hba.conf"
        good = hba.read_text()
        hba.write_text(good + "\nnonsense line\n")
        refuse = embedded.mark_refused

        def the_reason_passes(path: Path) -> bool:  # called between the failed start and the retry
            hba.write_text(good)
            return refuse(path)

        monkeypatch.setattr(embedded, "mark_refused", the_reason_passes)
        url = embedded.ensure_embedded_server(home)
        assert asyncio.run(_shared_buffers_and_start(url))[0] == "128MB"  # this start: without them
        assert conf.read_bytes() == with_settings  # not remembered as refused
        stop_embedded_server(home)
        assert asyncio.run(_shared_buffers_and_start(embedded.ensure_embedded_server(home)))[0] == "256MB"
    finally:
        stop_embedded_server(home)


def test_only_a_refusal_naming_the_settings_or_memory_gives_them_up() -> None:
    from app.db.embedded_settings import refused_for_settings

    settings = {"shared_buffers": "1024MB"}
    assert refused_for_settings('invalid value for parameter "shared_buffers": "x"', settings)
    assert refused_for_settings("could not map anonymous shared memory: Cannot allocate memory", settings)
    assert not refused_for_settings("could not load pg_hba.conf", settings)
    assert not refused_for_settings(
        "pre-existing shared memory block (key 5432001, ID 3) is still in use", settings
    )
    assert not refused_for_settings("", settings)  # the log said nothing: no reason to give them up


async def _vector_index(url: str) -> tuple[str, int]:
    """The vector index's definition, and the index scans one match_docs_sections call made."""
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            definition = await conn.fetchval("select pg_get_indexdef('public.docs_section_embedding_idx'::regclass)")
            await conn.execute(
                "insert into public.docs_section (id, source, page, title, heading, breadcrumb, href, content, audiences,"
                " content_hash, embedding, embedding_model) select 'v' || i, 'docs', 'v.mdx', 'T', 'H', 'T', '/v', 'c',"
                " '{public}', 'h', array_fill(i::real, array[768])::public.vector, 'm' from generate_series(1, 5) i")
            query = "[" + ",".join(["1"] * 768) + "]"
            rows = await conn.fetch("select id from public.match_docs_sections($1::text::public.vector, 'm', 3, null)",
                                    query)
            scans = await conn.fetchval("select pg_stat_get_xact_numscans('public.docs_section_embedding_idx'::regclass)")
            assert len(rows) == 3
            await conn.execute("delete from public.docs_section where id like 'v%'")
        return definition, scans
    finally:
        await conn.close()


def test_the_vector_index_is_on_halfvec_and_the_downgrade_restores_float32(fresh_database) -> None:
    """2026_12_02_0023: the HNSW index on embedding::halfvec(768), which match_docs_sections
    orders by; one step down, the float32 index as the baseline made it, and the function as it was."""
    url = fresh_database()
    migrate.upgrade(url)
    definition, scans = asyncio.run(_vector_index(url))
    assert "(embedding)::halfvec(768)) halfvec_cosine_ops" in definition and scans > 0
    migrate.downgrade(url, "2026_12_02_0022")
    definition, scans = asyncio.run(_vector_index(url))
    assert "hnsw (embedding vector_cosine_ops)" in definition and scans > 0
    migrate.upgrade(url)
    definition, scans = asyncio.run(_vector_index(url))
    assert "halfvec_cosine_ops" in definition and scans > 0
