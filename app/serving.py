"""Running the app under uvicorn: one process, or a supervisor with N worker processes.

Exposed to the internet, a server must not be held by clients that send slowly. uvicorn 0.55 bounds
neither the time a request's headers take (its keep-alive timer runs only between requests, and
neither httptools nor h11 has a header timeout) nor the number of open connections (its
`limit_concurrency` answers 503 once the headers are in, so a connection that never finishes them
holds its file descriptor forever). BoundedHttpProtocol adds both to uvicorn's httptools protocol:
every request must be read whole, headers and body, within REQUEST_READ_TIMEOUT_SECONDS of its first
byte (or of the connection's opening), and a connection past MAX_CONNECTIONS is answered 503 and
closed at once, before the process runs out of file descriptors. Measured with
scripts/bench_slow_clients.py; a reverse proxy in front is still the advice (docs/guides/production.mdx).
"""

from __future__ import annotations

import asyncio
import resource
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.config import Settings
from app.errors import DocschatError
from app.logging import get_logger

log = get_logger(__name__)

#: Each worker imports this factory and builds the app from the same environment settings.
APP_FACTORY = "app.server:create_app"


def tcp_listener(host: str, port: int) -> socket.socket:
    """The shared listening socket, created with proto=IPPROTO_TCP.

    asyncio turns Nagle's algorithm off (TCP_NODELAY) only on sockets whose proto is IPPROTO_TCP;
    uvicorn's own multi-worker socket has proto 0, so every small streamed write waited for the
    client's delayed ACK (~40 ms per request, measured with scripts/bench_load.py).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise DocschatError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


# File descriptors kept out of MAX_CONNECTIONS: the database pool, the model's files, logs, sockets
# to the providers.
RESERVED_FILES = 256
_REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: 25\r\nretry-after: 5\r\nconnection: close\r\n\r\ntoo many open connections")
_TIMED_OUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
              b"content-length: 23\r\nconnection: close\r\n\r\nrequest sent too slowly")


class BoundedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for reading each request and a cap on open
    connections (the module's docstring says why). Its limits come from its BoundedConfig."""

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.read_timeout: float = config.request_read_timeout
        self.max_connections: int = config.max_connections
        self.read_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            transport.write(_REFUSED)
            transport.close()
            return
        self._arm()  # until the first request is read whole

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()  # a request's first byte (on a kept-alive connection: after its idle timeout)

    def on_message_complete(self) -> None:
        self._disarm()  # read whole; answering it may take as long as it takes
        super().on_message_complete()

    def _arm(self) -> None:
        if self.read_deadline is None:
            self.read_deadline = self.loop.call_later(self.read_timeout, self._read_timed_out)

    def _disarm(self) -> None:
        if self.read_deadline is not None:
            self.read_deadline.cancel()
            self.read_deadline = None

    def _read_timed_out(self) -> None:
        self.read_deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(_TIMED_OUT)
        # The app, if it is reading the body, gets http.disconnect (connection_lost).
        self.transport.close()


class BoundedConfig(uvicorn.Config):
    """uvicorn's Config with BoundedHttpProtocol and its two limits (picklable: worker processes
    are given it)."""

    def __init__(self, app: Any, *, request_read_timeout: float, max_connections: int, **kwargs: Any) -> None:
        super().__init__(app, http=BoundedHttpProtocol, **kwargs)
        self.request_read_timeout = request_read_timeout
        self.max_connections = max_connections


def open_file_limit() -> int:
    """The process's open-file limit, raised first to its hard limit (as far as 1,048,576): each
    connection holds one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard if hard != resource.RLIM_INFINITY else 1 << 20, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return wanted if soft == resource.RLIM_INFINITY else soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        return soft
    return wanted


def connection_cap(settings: Settings, open_files: int) -> int:
    """MAX_CONNECTIONS, lowered to what `open_files` leaves after RESERVED_FILES."""
    room = max(open_files - RESERVED_FILES, 16)
    if settings.max_connections > room:
        log.warning("max_connections_lowered", wanted=settings.max_connections, allowed=room, open_files=open_files)
    return min(settings.max_connections, room)


def server_config(app: Any, settings: Settings, host: str, port: int, **kwargs: Any) -> BoundedConfig:
    """The uvicorn configuration every docschat server runs with (serve, demo, workers)."""
    kwargs.setdefault("log_level", "warning")
    return BoundedConfig(app, host=host, port=port, proxy_headers=False,
                         request_read_timeout=settings.request_read_timeout_seconds,
                         max_connections=connection_cap(settings, open_file_limit()), **kwargs)


def serve(app: Any, settings: Settings, host: str, port: int) -> None:
    """One process serving `app` until interrupted. Ctrl+C ends it quietly, as uvicorn.run does
    (the server re-raises the signal once it has shut down)."""
    try:
        uvicorn.Server(server_config(app, settings, host, port)).run()
    except KeyboardInterrupt:
        pass


def run_workers(host: str, port: int, workers: int, settings: Settings, log_level: str = "warning") -> None:
    """uvicorn's process supervisor over `workers` processes sharing one socket (restarts dead workers)."""
    from uvicorn.supervisors import Multiprocess

    config = server_config(APP_FACTORY, settings, host, port, factory=True, workers=workers, log_level=log_level)
    Multiprocess(config, sockets=[tcp_listener(host, port)]).run()
