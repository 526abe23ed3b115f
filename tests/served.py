"""`docschat serve` as a real separate process (its own interpreter, workers and event loops)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServeProcess:
    """Starts `command serve --port P …`, waits until /healthz answers 200, stops it on exit."""

    def __init__(self, command: list[str], env: dict[str, str], cwd: Path | None = None,
                 extra_args: list[str] | None = None, timeout: float = 90.0) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = [*command, "serve", "--port", str(self.port), *(extra_args or [])]
        self.env, self.cwd, self.timeout = env, cwd, timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path: Path | None = None

    def __enter__(self) -> ServeProcess:
        log = (self.cwd or Path(".")) / f"serve-{self.port}.log"
        self.log_path = log
        self.process = subprocess.Popen(self.args, env=self.env, cwd=self.cwd, stdout=log.open("wb"),
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + self.timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited with {self.process.returncode}:\n{self.log()}")
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"serve did not answer /healthz:\n{self.log()}")
            time.sleep(0.1)  # polling a condition with a deadline, not waiting a fixed time

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path and self.log_path.exists() else ""

    def __exit__(self, *exc: object) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # the server and its workers
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
