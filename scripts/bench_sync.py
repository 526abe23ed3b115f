"""Sync benchmark on a fresh embedded DB: a shared corpus with the local model, or a synthetic one.

    python scripts/bench_sync.py --corpus mintlify-docs --provider local
    nice python scripts/bench_sync.py --synthetic 300000 --provider none --resyncs 3   # issue 34's 300k corpus
    nice python scripts/bench_sync.py --code-repo /tmp/pyrepo --provider none --resyncs 2 [--new-commit] [--link T]

With --code-repo the source is that git repository's branch main as a code source (kind = "code",
the default include and exclude); --new-commit makes an empty commit before each re-sync (a new
commit, no file changed), --link sets the source's link template (`{commit}` in it is stored as
it is and filled when read: a new commit rewrites no row).

Prints: full sync time and chunks/s (embedding included, empty cache), and the no-change re-sync
time and its share of the full sync. With --synthetic N the corpus is N chunks (pages of ten
sections of about 60 words from a Zipf-distributed vocabulary, 100 pages a folder) committed into a
throwaway git repo; each sync then runs in its own child process, so that the peak RSS reported
(`ru_maxrss` of that process, and of the git processes it waited for) is the sync's alone, as are
its CPU seconds (user + system, its own and its git processes'; Postgres' are not counted).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _corpus import ROOT, corpus_repo, throwaway_database

from app.config import Settings
from app.corpus.compose import DocsSource
from app.db.migrate import ensure_schema
from app.db.pool import create_pool
from app.embeddings.cache import EmbeddingCache
from app.embeddings.providers import get_embedding_provider
from tests.helpers import sync_corpus

SECTIONS_PER_PAGE = 10  # an overview and nine `##` sections
PAGES_PER_FOLDER = 100
WORDS_PER_SECTION = 60
_GIT_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@x.invalid", "GIT_COMMITTER_NAME": "bench",
            "GIT_COMMITTER_EMAIL": "b@x.invalid", "PATH": "/usr/bin:/bin:/usr/local/bin"}


def _vocabulary(rng: random.Random, size: int) -> tuple[list[str], list[float]]:
    syllables = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "de", "vu", "za", "ge", "fo", "xi", "bre", "tor",
                 "lan", "sek", "dim", "pra"]
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    ordered = sorted(words)
    rng.shuffle(ordered)
    cumulative = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(size)))  # Zipf, s = 1
    return ordered, cumulative


def synthetic_repo(chunks: int, seed: int = 34) -> Path:
    """A throwaway git repo (branch main) whose docs/ holds `chunks` chunks of synthetic pages."""
    rng = random.Random(seed)
    words, cumulative = _vocabulary(rng, 30_000)
    total = cumulative[-1]

    def sentence(n: int) -> str:
        picked = [words[bisect.bisect(cumulative, rng.random() * total)] for _ in range(n)]
        return " ".join(picked).capitalize() + "."

    def paragraph() -> str:
        return " ".join(sentence(12) for _ in range(WORDS_PER_SECTION // 12))

    repo = Path(tempfile.mkdtemp(prefix="docschat-bench-synthetic-"))
    pages = -(-chunks // SECTIONS_PER_PAGE)
    for number in range(pages):
        folder = repo / "docs" / f"area-{number // PAGES_PER_FOLDER:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        sections = "\n\n".join(f"## {sentence(3)[:-1]} {i}\n\n{paragraph()}" for i in range(1, SECTIONS_PER_PAGE))
        (folder / f"page-{number:06d}.md").write_text(
            f"---\ntitle: {sentence(4)[:-1]} {number}\naudience: {'public' if number % 3 else 'internal'}\n---\n"
            f"{paragraph()}\n\n{sections}\n", encoding="utf-8")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "corpus"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=_GIT_ENV, capture_output=True)
    return repo


async def run(repo: Path, url: str, home: Path, provider_name: str) -> dict[str, object]:
    await ensure_schema(url)
    settings = Settings(embedding_provider=provider_name, docschat_home=home)
    provider = get_embedding_provider(settings)
    pool = await create_pool(url)
    cache = EmbeddingCache(home / "embed-cache.sqlite3")
    try:
        source = DocsSource(repo, "main", "docs")
        if provider is not None:
            await provider.embed_query("warm up the model")  # load time is not sync time
        full = await sync_corpus(pool, source, settings, provider, cache=cache)
        again = await sync_corpus(pool, source, settings, provider, cache=cache)
    finally:
        cache.close()
        await pool.close()
    return {
        "provider": provider.model if provider else "none",
        "pages": full.pages,
        "chunks": full.chunks,
        "full_sync_seconds": full.seconds,
        "full_sync_chunks_per_second": round(full.chunks / full.seconds, 1),
        "embedded": full.embedded,
        "resync_seconds": again.seconds,
        "resync_share_of_full": round(again.seconds / full.seconds, 4),
        "resync_embedded": again.embedded,
        "resync_unchanged": again.unchanged,
    }


# One sync in a child process, the tree to measure first on its path: its time, counts, peak RSS.
_CHILD = """
import asyncio, json, resource, sys, time
from pathlib import Path
from app.config import Settings
from app.corpus.compose import DocsSource
from app.db.pool import create_pool
from app.embeddings.cache import EmbeddingCache
from app.embeddings.providers import get_embedding_provider
from app.logging import configure_logging
try:
    from tests.helpers import sync_corpus
except ImportError:  # a tree from before sync_corpus moved out of app/
    from app.indexing.sync import sync_corpus
configure_logging("warning")
repo, url, home, provider_name = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), sys.argv[4]
code_link = sys.argv[5] if len(sys.argv) > 5 else None  # "": a code source with the default link

def source():
    if code_link is None:
        return DocsSource(repo, "main", "docs")
    from app.corpus.code import DEFAULT_CODE_EXCLUDE, DEFAULT_CODE_INCLUDE
    from app.corpus.sources import DEFAULT_CODE_LINK, Source
    return Source(name="code", repo=repo, branch="main", kind="code", dir=".", include=tuple(DEFAULT_CODE_INCLUDE),
                  exclude=tuple(DEFAULT_CODE_EXCLUDE), audiences=("developer",), link=code_link or DEFAULT_CODE_LINK)

async def one_sync():
    settings = Settings(embedding_provider=provider_name, docschat_home=home)
    provider = get_embedding_provider(settings)
    pool = await create_pool(url)
    cache = EmbeddingCache(home / "embed-cache.sqlite3")
    started = time.perf_counter()
    try:
        report = await sync_corpus(pool, source(), settings, provider, cache=cache)
    finally:
        cache.close()
        await pool.close()
    return {
        "seconds": round(time.perf_counter() - started, 2), "pages": report.pages, "chunks": report.chunks,
        "new": report.new, "unchanged": report.unchanged, "embedded": report.embedded,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "peak_rss_children_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
        "cpu_seconds": round(sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF,
                             resource.RUSAGE_CHILDREN) for f in ("ru_utime", "ru_stime")), 2),
    }

print(json.dumps(asyncio.run(one_sync())))
"""


def synthetic(chunks: int, provider: str, tree: Path, resyncs: int = 1, *, code_repo: Path | None = None,
              link: str | None = None, new_commit: bool = False) -> dict[str, object]:
    started = time.perf_counter()
    repo = code_repo or synthetic_repo(chunks)
    built = round(time.perf_counter() - started, 1)
    code_args = [link or ""] if code_repo else []
    try:
        with throwaway_database("docschat-bench-sync-") as (url, home):
            asyncio.run(ensure_schema(url))
            env = {**os.environ, "PYTHONPATH": str(tree)}
            runs: list[dict[str, float]] = []
            for number in range(1 + resyncs):
                if number and new_commit:
                    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "empty"],
                                   check=True, env=_GIT_ENV, capture_output=True)
                done = subprocess.run(
                    [sys.executable, "-c", _CHILD, str(repo), url, str(home), provider, *code_args],
                    env=env, cwd=tree, capture_output=True, text=True, check=False)
                if done.returncode != 0:
                    raise SystemExit(f"sync {len(runs) + 1} failed ({done.returncode}):\n{done.stdout[-2000:]}\n"
                                     f"{done.stderr[-4000:]}")
                runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
                print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    finally:
        if code_repo is None:
            shutil.rmtree(repo, ignore_errors=True)
    first, again = runs[0], runs[1:]
    return {"tree": str(tree), "provider": provider, "corpus_seconds": built, "first": first, "noop": again,
            "noop_share_of_first": [round(r["seconds"] / first["seconds"], 4) for r in again],
            "noop_cpu_share_of_first": [round(r["cpu_seconds"] / max(first["cpu_seconds"], 0.01), 4) for r in again]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default="mintlify-docs")
    parser.add_argument("--provider", default="local", choices=["local", "none"])
    parser.add_argument("--synthetic", type=int, metavar="CHUNKS", help="a synthetic corpus of this many chunks")
    parser.add_argument("--resyncs", type=int, default=1, help="no-op re-syncs after the first (--synthetic)")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the checkout whose app/ the syncs run (another branch, to compare)")
    parser.add_argument("--code-repo", type=Path, help="sync this git repository (branch main) as a code source")
    parser.add_argument("--link", help="the code source's link template (default: docschat's)")
    parser.add_argument("--new-commit", action="store_true", help="an empty commit before each re-sync (--code-repo)")
    args = parser.parse_args()
    if args.code_repo:
        print(json.dumps(synthetic(0, args.provider, args.tree.resolve(), args.resyncs, code_repo=args.code_repo.resolve(),
                                   link=args.link, new_commit=args.new_commit)))
        return
    if args.synthetic:
        print(json.dumps(synthetic(args.synthetic, args.provider, args.tree.resolve(), args.resyncs)))
        return
    repo = corpus_repo(args.corpus)
    try:
        with throwaway_database("docschat-bench-sync-") as (url, home):
            print(json.dumps(asyncio.run(run(repo, url, home, args.provider))))
    finally:
        shutil.rmtree(repo, ignore_errors=True)


if __name__ == "__main__":
    main()
