"""Compose time of hostile pages (1 MB and 4 MB), this tree and optionally another checkout.

    python scripts/bench_hostile.py --against /tmp/old            # every page, both trees
    python scripts/bench_hostile.py --pages brackets tables --sizes 1000000

Each page is composed as `.md` and as `.mdx` in a process of its own (PYTHONPATH the tree measured,
timeout --timeout seconds); the figure is that process's CPU seconds for the compose. "real-docs" is
the ray-docs corpus's pages end to end, cut to the size.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from _corpus import ROOT, SHARED

_CHILD = r"""
import json, sys, time
from pathlib import Path
from app.config import Settings
from app.corpus.compose import compose_files
name, size, shared = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
real = lambda: "\n\n".join(p.read_text() for p in sorted((shared / "corpora/ray-docs").rglob("*.md")))
make = {
    "real-docs": lambda n: (real() * (n // 1_000_000 + 2))[:n],
    "long-line": lambda n: ("word `a` <!-- c --> {x} [l](u) " * (n // 30))[:n],
    "brackets": lambda n: "[" * n,
    "bracket-words": lambda n: "[a " * (n // 3),
    "links": lambda n: "[x](" * (n // 4),
    "tables": lambda n: "| a | b |\n|---|---|\n" + "| x | y |\n" * (n // 10),
    "nested-quotes": lambda n: "> " * (n // 2) + "x\n",
    "nested-lists": lambda n: "".join("  " * (i % 200) + "- a\n" for i in range(n // 250)),
    "comments": lambda n: "<!--" * (n // 4),
    "backticks": lambda n: "".join("`" * (i % 50 + 1) + " " for i in range(n // 26)),
    "directives": lambda n: "```{note}\n" * (n // 10),
}
text = "---\npublic: true\n---\n" + make[name](size)
row = {}
for ext in (".md", ".mdx"):
    start = time.process_time()
    result = compose_files({"p" + ext: text}, Settings())
    row[ext] = [round(time.process_time() - start, 2), len(result.chunks), len(result.warnings)]
print(json.dumps(row))
"""
PAGES = ["real-docs", "long-line", "brackets", "bracket-words", "links", "tables", "nested-quotes", "nested-lists",
         "comments", "backticks", "directives"]


def run(tree: Path, page: str, size: int, timeout: float) -> object:
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD, page, str(size), str(SHARED)], cwd=tree, text=True,
                              capture_output=True, timeout=timeout, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                              check=False)
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f} s"
    return json.loads(done.stdout) if done.returncode == 0 else done.stderr.strip().splitlines()[-1][:120]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", help="another checkout (e.g. aeb2832) to measure too")
    parser.add_argument("--pages", nargs="+", default=PAGES, choices=PAGES)
    parser.add_argument("--sizes", nargs="+", type=int, default=[1_000_000, 4_000_000])
    parser.add_argument("--timeout", type=float, default=240)
    args = parser.parse_args()
    trees = {"new": ROOT} | ({"old": Path(args.against).resolve()} if args.against else {})
    for size in args.sizes:
        for page in args.pages:
            print(json.dumps({"page": page, "bytes": size, **{name: run(tree, page, size, args.timeout)
                                                               for name, tree in trees.items()}}), flush=True)


if __name__ == "__main__":
    main()
