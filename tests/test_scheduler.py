"""The server's re-check loop: a new commit is synced within one interval, an unchanged head costs
nothing, and two server processes never sync at the same time."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from tests.helpers import commit_all, git, make_docs_repo, wait_until, write_files
from tests.test_admin import DOCS, TOKEN, auth, query

REPO_ROOT = Path(__file__).resolve().parent.parent


def runs(url: str) -> list[dict]:
    return [dict(r) for r in query(
        url, "select id, state, trigger, commit, created_at, started_at, finished_at"
             " from public.docs_sync_run order by id")]


def checks(url: str) -> int:
    rows = query(url, "select checks from public.docs_sync_schedule")
    return rows[0]["checks"] if rows else 0


def test_new_commit_is_synced_within_one_interval_and_an_unchanged_head_costs_nothing(
    fake_gemini, clean_db, tmp_path, monkeypatch, start_server
) -> None:
    repo = make_docs_repo(tmp_path / "repo", DOCS)
    interval = 1.5
    monkeypatch.setenv("DOCS_REPO", str(repo))
    monkeypatch.setenv("SYNC_INTERVAL_SECONDS", str(interval))
    monkeypatch.setenv("SYNC_START_DELAY_SECONDS", "0.2")
    monkeypatch.setenv("ADMIN_TOKEN", TOKEN)
    server = start_server()
    # Empty index: the first check, after the start delay, syncs.
    first = wait_until(lambda: [r for r in runs(clean_db) if r["state"] == "ok"], what="the first sync")
    assert first[0]["trigger"] == "scheduler" and first[0]["commit"] == git(repo, "rev-parse", "main").strip()
    embeds = len(fake_gemini.embed_calls())
    sections = query(clean_db, "select id, updated_at from public.docs_section order by id")

    with httpx.Client(base_url=server.url, timeout=30) as client:
        scheduler = client.get("/admin/api/status", headers=auth()).json()["scheduler"]
    assert scheduler["enabled"] and scheduler["interval_seconds"] == interval and scheduler["checks"] >= 1
    assert scheduler["next_check_at"] and scheduler["last_check_at"]

    # Two more checks on the same head: no run, no embedding, no row touched.
    seen = checks(clean_db)
    wait_until(lambda: checks(clean_db) >= seen + 2, what="two re-checks")
    assert len(runs(clean_db)) == 1
    assert len(fake_gemini.embed_calls()) == embeds
    assert query(clean_db, "select id, updated_at from public.docs_section order by id") == sections

    # A new commit: picked up by the next check, so within one interval.
    write_files(repo / "docs", {"colors.mdx": "---\ntitle: Colors\npublic: true\n---\nThe widget follows the theme.\n"})
    committed_at = query(clean_db, "select clock_timestamp() as t")[0]["t"]
    commit_all(repo, "colors")
    head = git(repo, "rev-parse", "main").strip()
    new = wait_until(lambda: [r for r in runs(clean_db) if r["commit"] == head and r["state"] == "ok"],
                     what="the new commit to be synced")
    lag = (new[0]["created_at"] - committed_at).total_seconds()
    assert lag <= interval + 1.0, f"the new commit waited {lag:.2f}s for a check every {interval}s"
    assert len(fake_gemini.embed_calls()) == embeds + 1  # only the new page's chunk
    assert query(clean_db, "select count(*) from public.docs_section where page = 'colors.mdx'")[0][0] == 1


def test_scheduler_is_off_by_default(clean_db, tmp_path, monkeypatch, start_server) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("DOCS_REPO", str(make_docs_repo(tmp_path / "repo", DOCS)))
    monkeypatch.setenv("SYNC_START_DELAY_SECONDS", "0")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        # Requests are answered, and their database round trips come after any check would have run.
        for _ in range(5):
            assert client.get("/healthz").json()["sections"] == 0
    assert runs(clean_db) == [] and checks(clean_db) == 0


def _serve(port: int, env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--port", str(port)],
            cwd=env["DOCSCHAT_HOME"], env=env, stdout=subprocess.DEVNULL, stderr=out,
        )


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_two_server_processes_never_sync_at_the_same_time(fake_gemini, clean_db, tmp_path) -> None:
    repo = make_docs_repo(tmp_path / "repo", DOCS)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        **os.environ, "PYTHONPATH": str(REPO_ROOT), "DATABASE_URL": clean_db, "DOCSCHAT_HOME": str(home),
        "DOCS_REPO": str(repo), "SYNC_INTERVAL_SECONDS": "0.3", "SYNC_START_DELAY_SECONDS": "0",
        "EMBEDDING_PROVIDER": "gemini", "LOG_LEVEL": "debug",
    }
    fake_gemini.embed_gate = threading.Event()  # the first sync waits inside its embedding step
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    servers = []
    try:
        for log in logs:
            port = _free_port()
            servers.append((_serve(port, env, log), port))
        for process, port in servers:
            wait_until(lambda port=port, process=process: _healthy(port, process), timeout=60,
                       what=f"the server on port {port}")
        wait_until(lambda: fake_gemini.embeds_waiting, what="one server to start syncing")
        # While one process syncs, the other's checks find the lock taken and skip.
        wait_until(lambda: sum(log.read_text().count("scheduled_check_skipped") for log in logs) >= 2,
                   what="the other server to skip its checks")
        assert fake_gemini.embeds_waiting == 1
        assert [r["state"] for r in runs(clean_db)] == ["running"]
        fake_gemini.embed_gate.set()
        wait_until(lambda: [r for r in runs(clean_db) if r["state"] == "ok"], what="the first sync to end")

        write_files(repo / "docs", {"colors.mdx": "---\ntitle: Colors\npublic: true\n---\nThemes.\n"})
        commit_all(repo, "colors")
        head = git(repo, "rev-parse", "main").strip()
        wait_until(lambda: any(r["commit"] == head and r["state"] == "ok" for r in runs(clean_db)),
                   what="the new commit to be synced")
        seen = checks(clean_db)
        wait_until(lambda: checks(clean_db) >= seen + 4, what="four more checks across both servers")
    finally:
        fake_gemini.embed_gate.set()
        for process, _ in servers:
            process.terminate()
        for process, _ in servers:
            process.wait(timeout=30)
    recorded = runs(clean_db)
    assert [r["state"] for r in recorded] == ["ok", "ok"]  # each commit once, by one of the servers
    assert len({r["commit"] for r in recorded}) == 2
    assert recorded[0]["finished_at"] <= recorded[1]["started_at"]
    assert all("Traceback" not in log.read_text() for log in logs)


def _healthy(port: int, process: subprocess.Popen) -> bool:
    if process.poll() is not None:
        raise AssertionError(f"the server on port {port} exited with {process.returncode}")
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False
