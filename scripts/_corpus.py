"""Benchmarks' shared step: a corpus folder from ../shared committed into a temporary git repo."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))


def corpus_repo(name: str) -> Path:
    """A throwaway git repo (branch main) whose `docs/` is ../shared/corpora/<name>."""
    source = SHARED / "corpora" / name
    if not source.is_dir():
        raise SystemExit(f"{source} is not present: the benchmark needs ../shared/corpora/{name}")
    repo = Path(tempfile.mkdtemp(prefix=f"docschat-bench-{name}-"))
    shutil.copytree(source, repo / "docs")
    env = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@x.invalid", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "b@x.invalid", "PATH": "/usr/bin:/bin:/usr/local/bin"}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "corpus"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)
    return repo
