"""Compose throughput over ../shared/corpora/mintlify-docs: pages/s and chunks/s (best of N runs)."""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import time

from _corpus import corpus_repo

from app.config import Settings
from app.corpus.compose import DocsSource, compose_corpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default="mintlify-docs")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    repo = corpus_repo(args.corpus)
    try:
        source, settings = DocsSource(repo, "main", "docs"), Settings()
        timings = []
        for _ in range(args.runs):
            start = time.perf_counter()
            result = compose_corpus(source, settings)
            timings.append(time.perf_counter() - start)
        best, median = min(timings), statistics.median(timings)
        figures = {
            "corpus": args.corpus,
            "pages": len(result.pages),
            "chunks": len(result.chunks),
            "snippets_resolved": result.snippets_resolved,
            "seconds_best": round(best, 3),
            "seconds_median": round(median, 3),
            "pages_per_second": round(len(result.pages) / median, 1),
            "chunks_per_second": round(len(result.chunks) / median, 1),
        }
        print(json.dumps(figures))
    finally:
        shutil.rmtree(repo, ignore_errors=True)


if __name__ == "__main__":
    main()
