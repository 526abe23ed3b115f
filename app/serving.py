"""Running the app under uvicorn: one process, or a supervisor with N worker processes."""

from __future__ import annotations

import socket

from app.errors import DocschatError

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


def run_workers(host: str, port: int, workers: int, log_level: str = "warning") -> None:
    """uvicorn's process supervisor over `workers` processes sharing one socket (restarts dead workers)."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(APP_FACTORY, factory=True, host=host, port=port, workers=workers,
                            log_level=log_level, proxy_headers=False)
    Multiprocess(config, sockets=[tcp_listener(host, port)]).run()
