"""Compose time over the shared corpora: pages/s and chunks/s, or this tree against another checkout.

    python scripts/bench_compose.py --corpus mintlify-docs                # this tree, best of 5
    python scripts/bench_compose.py --against /tmp/old --rounds 3 \\
        --corpus mintlify-docs claude-docs ray-docs --dump /tmp/chunks    # old and new alternately

With --against, each corpus is composed in a fresh process per tree (its PYTHONPATH that tree), the
two trees taking turns, `--runs` times a process; the figure is the process's CPU seconds
(`time.process_time`, every thread's: V8's too), which load on a shared machine disturbs less than
the wall clock (also printed, as [min, median, max] like the CPU figures). --dump
writes each tree's chunks as JSON (`<dir>/<tree>-<corpus>.json`) to compare them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _corpus import ROOT, corpus_repo

# Run in a child process, with the tree to measure first on its path.
_CHILD = """
import json, sys, time
from pathlib import Path
from app.config import Settings
from app.corpus.compose import DocsSource, compose_corpus
repo, runs, dump = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
times, walls = [], []
for _ in range(runs):
    start, wall = time.process_time(), time.perf_counter()
    result = compose_corpus(DocsSource(repo, "main", "docs"), Settings())
    times.append(time.process_time() - start)
    walls.append(time.perf_counter() - wall)
if dump:
    Path(dump).write_text(json.dumps([chunk.to_dict() for chunk in result.chunks], indent=1))
print(json.dumps({"cpu": times, "wall": walls, "pages": len(result.pages), "chunks": len(result.chunks),
                  "warnings": len(result.warnings)}))
"""


def _child(tree: Path, repo: Path, runs: int, dump: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", _CHILD, str(repo), str(runs), dump], env=env, cwd=tree,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(args: argparse.Namespace) -> None:
    trees = {"old": Path(args.against).resolve(), "new": ROOT}
    for corpus in args.corpus:
        repo = corpus_repo(corpus)
        try:
            cpu: dict[str, list[float]] = {"old": [], "new": []}
            wall: dict[str, list[float]] = {"old": [], "new": []}
            counts: dict[str, dict] = {}
            for round_ in range(args.rounds):
                for name in ("old", "new") if round_ % 2 == 0 else ("new", "old"):
                    dump = f"{args.dump}/{name}-{corpus}.json" if args.dump and round_ == 0 else ""
                    figures = _child(trees[name], repo, args.runs, dump)
                    cpu[name] += figures.pop("cpu")
                    wall[name] += figures.pop("wall", [])
                    counts[name] = figures
            medians = {name: statistics.median(times) for name, times in cpu.items()}
            print(json.dumps({
                "corpus": corpus, **{f"{name}_{key}": value for name in cpu for key, value in counts[name].items()},
                **{f"{name}_cpu_s": [round(min(t), 3), round(medians[name], 3), round(max(t), 3)] for name, t in cpu.items()},
                "ratio_of_medians": round(medians["new"] / medians["old"], 2),
                **{f"{name}_wall_s": [round(min(t), 3), round(statistics.median(t), 3), round(max(t), 3)]
                   for name, t in wall.items() if t},
            }), flush=True)
        finally:
            shutil.rmtree(repo, ignore_errors=True)


def throughput(args: argparse.Namespace) -> None:
    from app.config import Settings
    from app.corpus.compose import DocsSource, compose_corpus

    for corpus in args.corpus:
        repo = corpus_repo(corpus)
        try:
            source, settings = DocsSource(repo, "main", "docs"), Settings()
            timings = []
            for _ in range(args.runs):
                start = time.perf_counter()
                result = compose_corpus(source, settings)
                timings.append(time.perf_counter() - start)
            best, median = min(timings), statistics.median(timings)
            print(json.dumps({
                "corpus": corpus,
                "pages": len(result.pages),
                "chunks": len(result.chunks),
                "snippets_resolved": result.snippets_resolved,
                "seconds_best": round(best, 3),
                "seconds_median": round(median, 3),
                "pages_per_second": round(len(result.pages) / median, 1),
                "chunks_per_second": round(len(result.chunks) / median, 1),
            }))
        finally:
            shutil.rmtree(repo, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", nargs="+", default=["mintlify-docs"])
    parser.add_argument("--runs", type=int, default=5, help="composes per process (default 5)")
    parser.add_argument("--against", help="another checkout of docschat (e.g. aeb2832) to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: processes per tree and corpus")
    parser.add_argument("--dump", help="with --against: a folder for each tree's chunks as JSON")
    args = parser.parse_args()
    if args.dump:
        Path(args.dump).mkdir(parents=True, exist_ok=True)
    compare(args) if args.against else throughput(args)


if __name__ == "__main__":
    main()
