"""Slow clients cannot hold a served process: `docschat serve` as its own process, raw sockets.

Each request must be read whole within REQUEST_READ_TIMEOUT_SECONDS (headers and body), and
connections past MAX_CONNECTIONS are refused at once (app/serving.py). The waits below are reads
with a deadline: they end when the server closes the connection, or fail at the deadline.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.served import ServeProcess

REPO = Path(__file__).resolve().parent.parent
READ_TIMEOUT = 1.0
MAX_CONNECTIONS = 24


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    work = tmp_path_factory.mktemp("slow")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RATE_LIMIT", "METRICS", "MCP_"))}
    env.update(DATABASE_URL=database_url, DOCSCHAT_HOME=str(work / "home"), PYTHONPATH=str(REPO),
               EMBEDDING_PROVIDER="none", REQUEST_READ_TIMEOUT_SECONDS=str(READ_TIMEOUT),
               MAX_CONNECTIONS=str(MAX_CONNECTIONS))
    with ServeProcess([sys.executable, "-m", "app"], env, cwd=work) as served:
        yield served


def _connect(server: ServeProcess) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def _closed_by_server(sock: socket.socket, drip: bytes, every: float, deadline: float) -> tuple[bool, bytes]:
    """Sends `drip` every `every` seconds until the server closes the connection (True, what it
    sent) or `deadline` seconds pass (False)."""
    received = b""
    end = time.monotonic() + deadline
    sock.settimeout(every)
    while time.monotonic() < end:
        try:
            sock.sendall(drip)
        except OSError:  # reset: closed
            return True, received
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except OSError:
            return True, received
        if not chunk:
            return True, received
        received += chunk
    return False, received


def test_headers_sent_a_line_at_a_time_are_cut_at_the_read_timeout(server: ServeProcess) -> None:
    with _connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        closed, received = _closed_by_server(sock, b"X-Slow: 1\r\n", 0.2, 10 * READ_TIMEOUT)
        took = time.monotonic() - started
    assert closed, "a client dripping header lines kept its connection for 10 read timeouts"
    assert received.startswith(b"HTTP/1.1 408"), received
    assert took < 5 * READ_TIMEOUT


def test_a_body_sent_a_byte_at_a_time_is_cut_at_the_read_timeout(server: ServeProcess) -> None:
    with _connect(server) as sock:
        sock.sendall(b"POST /docs/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 500\r\n\r\n{")
        started = time.monotonic()
        closed, _ = _closed_by_server(sock, b" ", 0.2, 10 * READ_TIMEOUT)
        took = time.monotonic() - started
    assert closed, "a client dripping its body kept its connection for 10 read timeouts"
    assert took < 5 * READ_TIMEOUT


def test_a_connection_that_sends_nothing_is_closed(server: ServeProcess) -> None:
    with _connect(server) as sock:
        sock.settimeout(10 * READ_TIMEOUT)
        assert sock.recv(4096).startswith(b"HTTP/1.1 408")


def test_a_quick_request_is_answered_and_kept_alive(server: ServeProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        for _ in range(3):
            assert client.get("/healthz").status_code == 200


def test_connections_past_the_cap_are_refused_at_once_and_room_returns(server: ServeProcess) -> None:
    held = [_connect(server) for _ in range(MAX_CONNECTIONS)]
    try:
        # The cap counts the held ones once the server has accepted them all: the next is refused.
        with _connect(server) as extra:
            extra.settimeout(READ_TIMEOUT / 2)
            answer = extra.recv(4096)
        assert answer.startswith(b"HTTP/1.1 503"), answer
    finally:
        for sock in held:
            sock.close()
    # Their places are freed when they close: /healthz answers again.
    deadline = time.monotonic() + 10
    while True:
        try:
            if httpx.get(server.url + "/healthz", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "/healthz did not answer after the held connections closed"
        time.sleep(0.05)  # polling a condition with a deadline


def test_worker_processes_cut_slow_headers_too(database_url: str, tmp_path: Path) -> None:
    """`--workers 2`: each worker is given the bounded configuration (it is pickled to them)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RATE_LIMIT", "METRICS", "MCP_"))}
    env.update(DATABASE_URL=database_url, DOCSCHAT_HOME=str(tmp_path / "home"), PYTHONPATH=str(REPO),
               EMBEDDING_PROVIDER="none", REQUEST_READ_TIMEOUT_SECONDS=str(READ_TIMEOUT))
    with ServeProcess([sys.executable, "-m", "app"], env, cwd=tmp_path, extra_args=["--workers", "2"]) as served:
        for _ in range(4):  # connections land on either worker
            with _connect(served) as sock:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                closed, received = _closed_by_server(sock, b"X-Slow: 1\r\n", 0.2, 10 * READ_TIMEOUT)
            assert closed and received.startswith(b"HTTP/1.1 408"), received
