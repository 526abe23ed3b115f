"""Several processes over one database: quotas and conversations stay exact across workers."""

from __future__ import annotations

import concurrent.futures
import os
import sys
from pathlib import Path

import httpx
import psutil
import pytest

from tests.helpers import parse_sse
from tests.served import ServeProcess
from tests.test_chat import seed

DOCSCHAT = [sys.executable, "-m", "app"]


def _env(database_url: str, home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RATE_LIMIT", "METRICS"))}
    repo = str(Path(__file__).resolve().parent.parent)
    env.update(DATABASE_URL=database_url, DOCSCHAT_HOME=str(home), PYTHONPATH=repo, LOG_LEVEL="warning", **extra)
    return env


async def test_worker_socket_lets_asyncio_turn_nagle_off() -> None:
    """Streamed parts leave at once: accepted connections of the shared socket get TCP_NODELAY."""
    import asyncio
    import socket

    from app.serving import tcp_listener

    listener = tcp_listener("127.0.0.1", 0)
    nodelay: list[int] = []
    accepted = asyncio.Event()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nodelay.append(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        accepted.set()
        writer.close()

    server = await asyncio.start_server(handle, sock=listener)
    async with server:
        _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
        await asyncio.wait_for(accepted.wait(), 10)
        writer.close()
    assert nodelay == [1]


def test_serve_on_a_busy_port_is_one_clear_error() -> None:
    from app.errors import DocschatError
    from app.serving import tcp_listener

    taken = tcp_listener("127.0.0.1", 0)
    taken.listen()
    try:
        with pytest.raises(DocschatError, match=r"cannot listen on 127\.0\.0\.1:\d+"):
            tcp_listener("127.0.0.1", taken.getsockname()[1]).close()
    finally:
        taken.close()


@pytest.mark.slow
def test_two_workers_admit_exactly_five_of_twenty_concurrent_questions(clean_db, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    seed(clean_db)
    env = _env(clean_db, tmp_path / "home", EMBEDDING_PROVIDER="none", RATE_LIMIT_PER_HOUR="5",
               RATE_LIMIT_PER_DAY="10")
    with ServeProcess(DOCSCHAT, env, cwd=tmp_path, extra_args=["--workers", "2"]) as server:
        workers = [p for p in psutil.Process(server.process.pid).children() if "spawn_main" in " ".join(p.cmdline())]
        assert len(workers) == 2

        def one(i: int) -> int:
            # A new connection per question: the kernel spreads them over both workers.
            with httpx.Client(base_url=server.url, timeout=60) as client:
                return client.post("/docs/chat", json={"message": f"How do I embed the widget? ({i})"}).status_code

        with concurrent.futures.ThreadPoolExecutor(20) as pool:
            statuses = list(pool.map(one, range(20)))
    assert sorted(statuses) == [200] * 5 + [429] * 15, server.log()


@pytest.mark.slow
def test_a_conversation_alternating_between_processes_keeps_its_history(
    fake_gemini, clean_db, tmp_path
) -> None:
    seed(clean_db)
    # This test is about history across processes, not judgment: the fake's bag-of-words vectors
    # get their own cosine scale and a low floor, so every turn reaches the model.
    env = _env(clean_db, tmp_path / "home", RATE_LIMIT_PER_HOUR="100", RATE_LIMIT_PER_DAY="100",
               COSINE_SCALE="0,0.3", ANSWER_FLOOR="0.05")
    # Two separate server processes: every turn provably lands on the other one.
    with ServeProcess(DOCSCHAT, env, cwd=tmp_path) as first, ServeProcess(DOCSCHAT, env, cwd=tmp_path) as second:
        cookies = httpx.Cookies()
        questions = ["How do I embed the widget?", "And how do I run a sync?", "What colors does it use?"]
        for turn, question in enumerate(questions):
            server = (first, second)[turn % 2]
            with httpx.Client(base_url=server.url, timeout=60, cookies=cookies) as client:
                response = client.post("/docs/chat", json={"message": question})
                assert response.status_code == 200
                assert any(isinstance(p, dict) and p["type"] == "finish" for p in parse_sse(response.text))
                cookies = client.cookies
        with httpx.Client(base_url=second.url, timeout=60, cookies=cookies) as client:
            messages = client.get("/docs/chat").json()["messages"]
    assert [m["content"] for m in messages if m["role"] == "user"] == questions
    assert len(messages) == 6
    # The third turn's model call (on the first process) was given the turns answered by both.
    last_call = str(fake_gemini.generate_calls()[-1]["body"]["contents"])
    assert questions[0] in last_call and questions[1] in last_call
