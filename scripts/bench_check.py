"""`docschat check` against a compose of the same corpus: the target is check ≤ 2 × compose.

    python scripts/bench_check.py                      # mintlify-docs, one page changed, 5 rounds
    python scripts/bench_check.py --corpus ray-docs --rounds 3
    python scripts/bench_check.py --cli                # the commands: `docschat compose --json`, `docschat check --json`

The corpus (../shared/corpora/<name>, or SHARED_DIR) is committed into a throwaway repository; a
branch `change` edits one page (a paragraph appended to the first page by path). Each round runs, in
turns, a compose of `main` (compose_corpus, what `docschat compose` does) and a check of `change`
against `main` (the comparison of `docschat check`, without a database: no questions or gaps), in
this process after one warm-up of each. CPU seconds include git's (child processes). With --cli, each round runs the two commands instead, as
processes (their start and imports included; output to /dev/null). Printed: both times per round (wall clock and CPU), their
median and spread, and the ratio of the medians, as one JSON line each.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _corpus import ROOT, corpus_repo

from app.config import Settings
from app.corpus.compose import DocsSource, compose_corpus
from app.review.check import CheckOptions, compare


def _branch_with_one_change(repo: Path) -> str:
    docs = sorted(p for p in (repo / "docs").rglob("*.md*") if "snippets" not in p.parts and p.suffix in (".md", ".mdx"))
    page = docs[0]
    page.write_text(page.read_text(encoding="utf-8") + "\n\nOne paragraph added by the benchmark.\n",
                    encoding="utf-8")
    env = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@x.invalid", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "b@x.invalid", "PATH": "/usr/bin:/bin:/usr/local/bin"}
    for args in (["checkout", "-q", "-b", "change"], ["commit", "-q", "-am", "one page"], ["checkout", "-q", "main"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)
    return str(page.relative_to(repo))


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (git, the commands of --cli)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _timed(fn: Callable[[], object]) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), _cpu()
    value = fn()
    return time.perf_counter() - wall, _cpu() - cpu, value


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "min": round(min(values), 3),
            "max": round(max(values), 3), "stdev": round(statistics.stdev(values), 3) if len(values) > 1 else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default="mintlify-docs")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cli", action="store_true", help="time the commands as processes")
    args = parser.parse_args()
    repo = corpus_repo(args.corpus)
    try:
        run(repo, args)
    finally:
        shutil.rmtree(repo, ignore_errors=True)


def run(repo: Path, args: argparse.Namespace) -> None:
    changed = _branch_with_one_change(repo)
    settings = Settings(docs_repo=repo, embedding_provider="none", docschat_home=repo / ".home")
    source = DocsSource(repo, "main", "docs").to_source(settings)
    options = CheckOptions(base="main", head="change", sources=[source])

    def compose() -> object:
        return compose_corpus(source, settings)

    def check() -> object:
        return compare(options, settings)[0]

    if args.cli:
        env = {**os.environ, "DOCS_REPO": str(repo), "EMBEDDING_PROVIDER": "none", "DOCSCHAT_HOME": str(repo / ".home"),
               "PYTHONPATH": str(ROOT)}
        env.pop("DATABASE_URL", None)
        env.pop("DOCSCHAT_CONFIG", None)

        def command(*argv: str) -> Any:
            def go() -> object:
                done = subprocess.run([sys.executable, "-m", "app", *argv], env=env, cwd=repo,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                if done.returncode not in (0, 1):
                    raise SystemExit(f"docschat {' '.join(argv)} exited {done.returncode}")
                return the_report if argv[0] == "check" else None
            return go

        the_report = compare(options, settings)[0]  # for the counts printed, outside the clock

        compose, check = command("compose", "--json"), command("check", "--head", "change", "--json")

    compose(), check()  # warm-up: imports, caches
    times: dict[str, dict[str, list[float]]] = {"compose": {"wall": [], "cpu": []}, "check": {"wall": [], "cpu": []}}
    report = None
    for _ in range(args.rounds):
        for name, fn in (("compose", compose), ("check", check)):
            wall, cpu, value = _timed(fn)
            times[name]["wall"].append(wall)
            times[name]["cpu"].append(cpu)
            if name == "check":
                report = value
    assert report is not None
    size = report.size  # type: ignore[attr-defined]
    print(json.dumps({"corpus": args.corpus, "changed": changed, "rounds": args.rounds, "cli": args.cli,
                      "pages_composed_at_head": size.pages_composed_at_head, "pages_changed": size.pages_changed,
                      "chunks_changed": size.chunks_changed + size.chunks_added + size.chunks_removed}))
    for name, figures in times.items():
        print(json.dumps({"step": name, "wall_s": _spread(figures["wall"]), "cpu_s": _spread(figures["cpu"])}))
    ratio = {kind: round(statistics.median(times["check"][kind]) / statistics.median(times["compose"][kind]), 3)
             for kind in ("wall", "cpu")}
    rounds = [round(c / k, 3) for c, k in zip(times["check"]["wall"], times["compose"]["wall"], strict=True)]
    print(json.dumps({"check_over_compose": ratio, "per_round_wall": rounds, "target": 2.0,
                      "met": ratio["wall"] <= 2.0}))


if __name__ == "__main__":
    main()
