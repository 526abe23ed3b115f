"""The CLI beside a running server: the demo says "open" only once /healthz answers, records itself
in its home, and `docschat ask` and `docschat mcp` of that home use it (no model, no database
driver loaded), with links to its port. Real processes: the demo, the CLI, stdio."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.doors.mcp_server import page_href_of
from tests.helpers import stop_embedded_server
from tests.served import free_port

REPO = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# What only the path that searches the database itself imports.
HEAVY = re.compile(r"\|\s+(asyncpg|torch|sentence_transformers|litestar|mcp|app\.search\.retrieve)$", re.MULTILINE)


def test_links_follow_public_url_then_port_and_get_page_takes_them() -> None:
    assert Settings().docs_base_url == "http://127.0.0.1:8000"
    assert Settings(port=18431).docs_base_url == "http://127.0.0.1:18431"
    assert Settings(public_url="https://docs.example.com/").docs_base_url == "https://docs.example.com"
    assert Settings(public_url="https://docs.example.com", docs_base_url="https://site.test").docs_base_url == \
        "https://site.test"  # chosen: it wins
    moved = Settings().with_public_url("http://127.0.0.1:18431")
    assert moved.docs_base_url == "http://127.0.0.1:18431" and "docs_base_url" not in moved.model_fields_set
    for bad in ("ftp://docs.example.com", "https://user:pw@docs.example.com", "docs.example.com", "https://x.test/?a=1"):
        with pytest.raises(ValueError, match="is not an http"):
            Settings(public_url=bad)
    settings = Settings(public_url="http://127.0.0.1:18431", docs_base_url="https://site.test")
    assert page_href_of("http://127.0.0.1:18431/docs/guides/widget#embed", settings) == [
        "http://127.0.0.1:18431/docs/guides/widget", "/docs/guides/widget"]
    assert page_href_of("http://127.0.0.1:9999/docs/guides/widget", settings) == [
        "http://127.0.0.1:9999/docs/guides/widget"]  # another server's: only as an absolute href


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "PORT", "PUBLIC_URL", "DOCS_BASE_URL", "LOG_LEVEL"}}
    return env | {"DOCSCHAT_HOME": str(home), "EMBEDDING_PROVIDER": "none", "PYTHONPATH": str(REPO)} | extra


@pytest.mark.slow
def test_the_demo_is_announced_when_ready_and_the_cli_uses_it(tmp_path) -> None:
    home, port = tmp_path / "home", free_port()
    demo = subprocess.Popen([sys.executable, "-m", "app", "demo"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=_env(home, PORT=str(port)), cwd=REPO)
    try:
        assert demo.stdout is not None
        before: list[str] = []
        for line in demo.stdout:
            if f"open http://127.0.0.1:{port} and ask a question" in ANSI.sub("", line):
                break
            before.append(line)
        else:
            pytest.fail("the demo exited before it was ready:\n" + "".join(before))
        # Said only once the server answers, ready (it used to come ~19 s before /healthz did).
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).status_code == 200
        assert len(before) < 40, "".join(before)
        record = json.loads((home / "server.json").read_text())
        assert record == {"url": f"http://127.0.0.1:{port}", "pid": demo.pid}

        # `docschat ask` from another folder, with no PORT: the server answers, with its links.
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        asked = subprocess.run([sys.executable, "-X", "importtime", "-m", "app", "ask", "How do I embed the widget?"],
                               capture_output=True, text=True, timeout=120, env=_env(home), cwd=elsewhere)
        assert asked.returncode == 0, asked.stderr[-2000:]
        assert "Relevant Guides" in asked.stdout and f"http://127.0.0.1:{port}/docs/" in asked.stdout, asked.stdout
        assert not HEAVY.findall(asked.stderr), sorted(set(HEAVY.findall(asked.stderr)))
        assert "continue this conversation: docschat ask --session" in asked.stderr
        page = re.search(rf"http://127\.0\.0\.1:{port}/docs/\S+", asked.stdout).group(0)

        # `docschat mcp` on stdio: relayed to the server's /mcp; get_page takes the server's own URL.
        messages = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_page", "arguments": {"url": page}}},
        ]
        relay = subprocess.run([sys.executable, "-X", "importtime", "-m", "app", "mcp"], capture_output=True, text=True,
                               timeout=120, env=_env(home), cwd=elsewhere,
                               input="".join(json.dumps(m) + "\n" for m in messages))
        assert relay.returncode == 0, relay.stderr[-2000:]
        replies = [json.loads(line) for line in relay.stdout.splitlines()]
        assert [r["id"] for r in replies] == [1, 2], relay.stdout
        result = replies[1]["result"]
        assert not result.get("isError"), result
        assert page.split("#")[0] in json.dumps(result)
        assert not HEAVY.findall(relay.stderr), sorted(set(HEAVY.findall(relay.stderr)))

        demo.send_signal(signal.SIGINT)
        demo.communicate(timeout=120)
    finally:
        if demo.poll() is None:
            demo.kill()
        stop_embedded_server(home)
    assert not (home / "server.json").exists()  # removed at exit: the CLI looks for no server


def test_ask_uses_the_recorded_server_and_searches_here_when_it_refuses(offline, monkeypatch, start_server) -> None:
    """The home's server.json names a live server: ask is answered there (its links carry the
    server's port); once the server refuses (its rate limit), ask says so and answers from the
    database itself. A record whose process is gone is ignored."""
    from app.config import get_settings
    from app.home import record_server
    from tests.helpers import docschat_in_process, seed_docs
    from tests.test_chat import DOCS

    seed_docs(offline, DOCS)
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "1")
    monkeypatch.setenv("PUBLIC_URL", "http://server.test")  # the server's links
    server = start_server()
    home = get_settings().docschat_home
    record_server(home, server.url)  # this process (the test) serves it
    env = {"DATABASE_URL": offline, "EMBEDDING_PROVIDER": "none", "PUBLIC_URL": "", "PORT": "9"}
    first = docschat_in_process("ask", "How do I embed the widget?", env=env)
    assert first.returncode == 0 and "did not answer" not in first.stderr, first.stderr
    assert "http://server.test/docs/" in first.stdout, first.stdout  # answered by the server
    second = docschat_in_process("ask", "How do I embed the widget?", env=env)
    assert second.returncode == 0, second.stderr
    assert f"the server at {server.url} did not answer (429" in second.stderr and "searching the database here" in \
        second.stderr
    assert "http://127.0.0.1:9/docs/" in second.stdout  # answered here: this process's own links
    (home / "server.json").write_text(json.dumps({"url": server.url, "pid": 2**22 + 12345}))  # no such process
    third = docschat_in_process("ask", "How do I embed the widget?", env=env)
    assert third.returncode == 0 and "did not answer" not in third.stderr and "127.0.0.1:9/docs/" in third.stdout


def test_search_with_the_admin_token_is_the_servers_tester(offline, monkeypatch, start_server) -> None:
    """With ADMIN_TOKEN, a plain `docschat search` beside the server is its retrieval tester: it
    works even where this process could not reach the database (a local search would fail)."""
    from app.config import get_settings
    from app.home import record_server
    from tests.helpers import docschat_in_process, seed_docs
    from tests.test_chat import DOCS

    seed_docs(offline, DOCS)
    token = "admin-token-0123456789abcdef"
    monkeypatch.setenv("ADMIN_TOKEN", token)
    server = start_server()
    record_server(get_settings().docschat_home, server.url)
    unreachable = {"DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none", "EMBEDDING_PROVIDER": "none"}
    local = docschat_in_process("search", "embed the widget", "--json", env={"DATABASE_URL": offline,
                                                                            "EMBEDDING_PROVIDER": "none"})
    remote = docschat_in_process("search", "embed the widget", "--json", env=unreachable | {"ADMIN_TOKEN": token})
    assert remote.returncode == 0, remote.stderr
    mine, theirs = json.loads(local.stdout), json.loads(remote.stdout)
    assert theirs["pages"] and [p["href"] for p in theirs["pages"]] == [p["href"] for p in mine["pages"]]
    assert theirs["audiences"] == ["public"] and set(theirs) == set(mine)
    shown = docschat_in_process("search", "embed the widget", env=unreachable | {"ADMIN_TOKEN": token})
    assert shown.returncode == 0 and "1. Chat widget" in shown.stdout and "would answer" in shown.stdout, shown.stdout
    wrong = docschat_in_process("search", "embed the widget", env=unreachable | {"ADMIN_TOKEN": token + "x"})
    assert "did not search (401" in wrong.stderr and wrong.returncode == 1  # then the local search, which fails
