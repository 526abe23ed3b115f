"""The newcomer's path through the real command line: the demo and its Ctrl+C, `docschat db stop`,
`docschat ask` on a terminal, and which commands load the embedding model."""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import psutil
import pytest

from app.db.embedded import embedded_server_running
from tests.helpers import seed_docs, stop_embedded_server, wait_until
from tests.served import free_port
from tests.test_chat import DOCS

# Each test runs `docschat` (the demo, `db stop`, a terminal) as a real process: what only a fresh
# interpreter, its signals and the embedded Postgres it leaves prove.
pytestmark = pytest.mark.slow

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def docschat(*args: str, env: dict[str, str], timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=timeout,
                          env=env)


def embedded_env(home: Path, **extra: str) -> dict[str, str]:
    """No DATABASE_URL: the embedded Postgres in `home`."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return env | {"DOCSCHAT_HOME": str(home), "EMBEDDING_PROVIDER": "none"} | extra


def postmaster_pid(home: Path) -> int:
    return int((home / "pg" / "postmaster.pid").read_text().split("\n", 1)[0])


def alive(pid: int) -> bool:
    """A process that runs (a stopped postmaster no one reaped is a zombie: not running)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_db_stop_stops_the_embedded_postgres_that_commands_leave_running(tmp_path) -> None:
    home = tmp_path / "home"
    env = embedded_env(home)
    try:
        assert docschat("db", "upgrade", env=env).returncode == 0  # makes the cluster; a read would not
        pid = postmaster_pid(home)
        assert alive(pid) and embedded_server_running(home)  # left running for the next command
        stopped = docschat("db", "stop", env=env)
        assert stopped.returncode == 0, stopped.stderr
        assert f"stopped the embedded Postgres in {(home / 'pg').resolve()} (pid {pid})" in stopped.stdout
        assert not alive(pid) and not embedded_server_running(home)
        again = docschat("db", "stop", env=env)
        assert again.returncode == 0 and "no embedded Postgres runs in" in again.stdout
    finally:
        stop_embedded_server(home)
    elsewhere = docschat("db", "stop", env=env | {"DATABASE_URL": "postgresql://u@127.0.0.1:1/db"})
    assert elsewhere.returncode == 1 and "DATABASE_URL is set" in elsewhere.stderr


def test_the_demo_relaxes_its_rate_limit_and_ctrl_c_stops_its_postgres(tmp_path) -> None:
    home, port = tmp_path / "home", free_port()
    demo = subprocess.Popen([sys.executable, "-m", "app", "demo"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=embedded_env(home, PORT=str(port)))
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            def ready() -> bool:
                try:
                    return client.get("/healthz").status_code == 200
                except httpx.TransportError:
                    return demo.poll() is not None  # exited: the assertions below say why
            wait_until(ready, timeout=180, what="the demo to serve")
            pid = postmaster_pid(home)
            # The production limit (5 an hour) would refuse the sixth question.
            codes = [client.post("/docs/chat", json={"message": f"How do I embed the widget? ({i})"}).status_code
                     for i in range(7)]
            # Issue 47: the demo shows its features: the console, with a token printed once, and a
            # sample way out; the widget greets with example questions.
            printed: list[str] = []
            while not printed or "operator console" not in printed[-1]:
                printed.append(demo.stdout.readline())
                assert printed[-1], "".join(printed)
            token = re.search(r"token: (\S+)", ANSI.sub("", printed[-1])).group(1)
            assert client.get("/admin/api/status").status_code == 401
            assert client.get("/admin/api/status", headers={"authorization": f"Bearer {token}"}).status_code == 200
            refused = client.post("/docs/chat", json={"message": "What's a good recipe for banana bread?"}).text
            assert f'"url":"http://127.0.0.1:{port}/#ask-a-person"' in refused.replace(" ", "")
            assert 'id="ask-a-person"' in client.get("/").text
            widget = client.get("/docs/chat").json()["widget"]
            assert widget["title"] == "docschat" and widget["greeting"] and len(widget["examples"]) == 3
        assert codes == [200] * 7
        demo.send_signal(signal.SIGINT)  # Ctrl+C
        rest, _ = demo.communicate(timeout=120)
        out = "".join(printed) + rest
    finally:
        if demo.poll() is None:
            demo.kill()
        stop_embedded_server(home)
    out = ANSI.sub("", out)
    assert demo.returncode == 0, out
    assert f"open http://127.0.0.1:{port} and ask a question" in out
    assert "up to 100 questions an hour and 1000 a day per client (the demo's limits" in out
    assert "stopped the embedded Postgres" in out
    assert not alive(pid) and not embedded_server_running(home)


def test_the_demo_leaves_running_a_postgres_it_did_not_start(tmp_path) -> None:
    home = tmp_path / "home"
    env = embedded_env(home)
    try:
        assert docschat("db", "upgrade", env=env).returncode == 0  # makes the cluster; a read would not
        pid = postmaster_pid(home)
        demo = docschat("demo", "--no-serve", env=env)
        assert demo.returncode == 0, demo.stderr
        assert "using the embedded Postgres in" in demo.stdout
        assert "keeps running: docschat db stop stops it" in demo.stdout
        assert alive(pid) and embedded_server_running(home)
    finally:
        stop_embedded_server(home)
        docschat("db", "stop", env=env)


def on_a_terminal(args: list[str], env: dict[str, str], timeout: float = 180) -> str:
    """What a person sees: stdout and stderr on one pseudo-terminal."""
    main, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "app", *args], stdout=terminal, stderr=terminal,
                               stdin=subprocess.DEVNULL, env=env)
    os.close(terminal)
    seen = b""
    try:
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # EIO: the process closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(main)
        process.wait(timeout=timeout)
    assert process.returncode == 0, seen.decode(errors="replace")
    return ANSI.sub("", seen.decode(errors="replace")).replace("\r", "")


def test_ask_prints_only_the_answer_on_a_terminal(offline) -> None:
    seed_docs(offline, DOCS)
    env = {**os.environ, "DATABASE_URL": offline, "EMBEDDING_PROVIDER": "none", "COLUMNS": "200"}
    seen = on_a_terminal(["ask", "How do I embed the widget?"], env)
    lines = [line for line in seen.splitlines() if line.strip()]
    assert lines[0] == "Relevant Guides", seen
    assert "chat_retrieval" not in seen and "[info" not in seen and '"event"' not in seen
    assert "Summary" in seen and "script tag" in seen.split("Summary", 1)[1]
    # The log line is there for whoever asks for it: LOG_LEVEL wins.
    assert "chat_retrieval" in on_a_terminal(["ask", "How do I embed the widget?"], env | {"LOG_LEVEL": "info"})


MODEL_MODULES = re.compile(r"\|\s+(torch|sentence_transformers)$", re.MULTILINE)


@pytest.mark.parametrize("args", [["status"], ["gaps"], ["db", "status"], ["compose", "--branch", "HEAD"],
                                  ["sql", "-c", "select 1"], ["search", "embed the widget"]])
def test_only_the_commands_that_search_load_the_embedding_model(args, db_env, clean_db, monkeypatch) -> None:
    """`python -X importtime` lists every module a command imports: the offline model's
    (sentence_transformers, torch) only for commands that embed."""
    from app import PROJECT_ROOT
    from app.embeddings.local import local_model_installed

    if not local_model_installed():
        pytest.skip("the offline model is not installed")
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")  # seeded without the model: search refuses an empty index
    seed_docs(clean_db, DOCS)
    env = {**os.environ, "DATABASE_URL": db_env, "EMBEDDING_PROVIDER": "local", "DOCS_REPO": str(PROJECT_ROOT)}
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "app", *args], capture_output=True,
                            text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    loaded = set(MODEL_MODULES.findall(result.stderr))
    assert loaded == ({"torch", "sentence_transformers"} if args[0] == "search" else set()), (args, loaded)


def test_ctrl_c_while_the_demo_is_still_indexing_stops_its_postgres(tmp_path) -> None:
    """Ctrl+C during the first sync (the model load, the embedding) is the likeliest time for a
    newcomer to give up: the Postgres the demo started goes with it."""
    home = tmp_path / "home"
    demo = subprocess.Popen([sys.executable, "-m", "app", "demo", "--no-serve"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=embedded_env(home, EMBEDDING_PROVIDER="local"))
    seen: list[str] = []
    try:
        assert demo.stdout is not None
        for line in demo.stdout:
            seen.append(line)
            if "loading the offline embedding model" in line:
                break
        # Its server is started before the model loads; one read here, on a loaded machine, met a
        # single-user Postgres's lock in its folder instead (how is not known): wait for the server.
        wait_until(lambda: embedded_server_running(home), timeout=60, what="the demo's Postgres: " + "".join(seen))
        pid = postmaster_pid(home)
        demo.send_signal(signal.SIGINT)  # Ctrl+C
        out, _ = demo.communicate(timeout=120)
    finally:
        if demo.poll() is None:
            demo.kill()
        stop_embedded_server(home)
    assert "stopped the embedded Postgres" in ANSI.sub("", out), out
    assert not alive(pid) and not embedded_server_running(home)
