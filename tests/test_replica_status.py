"""The replica's lag outside the slow group: the WAL arithmetic, and what `docschat status` says
without a replica, with a URL that is not one, and with one it cannot reach (a real replica's lag
is in tests/test_replica.py)."""

from __future__ import annotations

import json
import socket

import pytest

from app.db.pool import wal_bytes_behind
from tests.helpers import docschat_in_process

BLOCK, SEGMENT = 8192, 16 * 1024 * 1024


@pytest.mark.parametrize(("inserted", "replayed", "behind"), [
    ("0/3002100", "0/3002000", 0x100),   # a record not replayed
    ("0/3002018", "0/3002000", 0),       # at a page boundary: the insert position is past the header
    ("0/3000028", "0/3000000", 0),       # at a segment's start: its long header
    ("0/3002018", "0/3001FF0", 0x10),    # past a header, but a record before it missing
    ("1/10", "0/FFFFFFF0", 0x20),        # across the 4 GB line of the text form
    ("0/3002000", "0/3002100", 0),       # the replica read after a newer primary position: not behind
])
def test_wal_bytes_behind(inserted: str, replayed: str, behind: int) -> None:
    assert wal_bytes_behind(inserted, replayed, BLOCK, SEGMENT) == behind


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_status_says_no_replica_is_configured(db_env) -> None:
    env = {"EMBEDDING_PROVIDER": "none"}
    result = docschat_in_process("status", "--json", env=env)
    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout)["replica"] == {"configured": False}
    result = docschat_in_process("status", env=env)
    assert result.returncode == 0 and "replica: no replica configured (DATABASE_READ_URL unset)" in result.stdout


def test_status_reports_a_read_url_that_is_not_a_replica_or_cannot_be_reached(db_env) -> None:
    env = {"EMBEDDING_PROVIDER": "none", "DATABASE_READ_URL": db_env}  # the primary itself
    result = docschat_in_process("status", "--json", env=env)
    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout)["replica"] == {"configured": True, "replica": False, "lag_bytes": 0,
                                                    "lag_seconds": 0.0}
    result = docschat_in_process("status", env=env)
    assert "DATABASE_READ_URL is not a replica" in result.stdout, result.stdout

    env["DATABASE_READ_URL"] = f"postgresql://reader:s3cret@127.0.0.1:{_closed_port()}/docschat"
    result = docschat_in_process("status", "--json", env=env)
    assert result.returncode == 0, result.stdout  # the rest of the status is still there
    status = json.loads(result.stdout)
    assert status["sources"] is not None and status["replica"]["configured"] is True
    assert "cannot connect to the database at" in status["replica"]["error"] and "s3cret" not in result.stdout + result.stderr
    result = docschat_in_process("status", env=env)
    assert "replica:" in result.stdout and "cannot connect" in result.stdout and "s3cret" not in result.stdout + result.stderr
