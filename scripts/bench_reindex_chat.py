"""Chat during a reindex: time to the first guide while the server syncs a large source.

The server (`docschat serve`, one worker, its own process) has two sources: `docs`, the shared
mintlify-docs corpus the questions are about, and `bulk`, a synthetic corpus of --chunks chunks
(scripts/bench_sync.py's generator). `bulk` is synced once by the CLI; then its every page is
rewritten and committed, and the admin API's reindex syncs both sources while --clients clients
ask questions in a loop. The first-guide p50/p95 of that window are compared with those of the
same server idle (the same number of questions just before). Keyword-only, extractive answers: no
model time is measured.

    nice python scripts/bench_reindex_chat.py --chunks 100000 [--tree /work/main]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from _corpus import MINTLIFY_QUESTIONS as QUESTIONS
from _corpus import ROOT, SHARED, start_server, stop_server, throwaway_database
from bench_sync import synthetic_repo

TOKEN = "bench-reindex-token"


async def ask(client: httpx.AsyncClient, question: str) -> float | None:
    started = time.perf_counter()
    async with client.stream("POST", "/docs/chat", json={"message": question}) as response:
        response.raise_for_status()
        first = None
        async for line in response.aiter_lines():
            if first is None and '"type":"source-url"' in line:
                first = (time.perf_counter() - started) * 1000
    return first


async def ask_until(client: httpx.AsyncClient, done: asyncio.Event, times: list[float], offset: int,
                    limit: int | None) -> None:
    i = offset
    while not done.is_set() and (limit is None or i - offset < limit):
        first = await ask(client, QUESTIONS[i % len(QUESTIONS)])
        if first is not None:
            times.append(first)
        i += 1


def figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"n": len(ordered), "p50_ms": round(statistics.median(ordered), 1),
            "p95_ms": round(ordered[max(0, round(0.95 * len(ordered)) - 1)], 1), "max_ms": round(ordered[-1], 1)}


async def measure(base: str, clients: int, idle_questions: int) -> dict[str, object]:
    headers = {"authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(base_url=base, timeout=600) as client:
        warm: list[float] = []
        await ask_until(client, asyncio.Event(), warm, 0, 10)
        idle: list[float] = []
        never = asyncio.Event()
        await asyncio.gather(*(ask_until(client, never, idle, c * 3, idle_questions // clients)
                               for c in range(clients)))
        started = time.perf_counter()
        response = await client.post("/admin/api/reindex", json={}, headers=headers)
        response.raise_for_status()
        job_id = response.json()["job"]["id"]
        done = asyncio.Event()
        busy: list[float] = []

        async def watch() -> dict[str, Any]:
            while True:
                job = (await client.get(f"/admin/api/reindex/{job_id}", headers=headers)).json()["job"]
                if job["state"] != "running":
                    done.set()
                    return job
                await asyncio.sleep(1)

        job, *_ = await asyncio.gather(watch(), *(ask_until(client, done, busy, c * 5, None) for c in range(clients)))
        seconds = round(time.perf_counter() - started, 1)
    assert isinstance(job, dict)
    return {"idle": figures(idle), "during_reindex": figures(busy), "reindex_seconds": seconds,
            "job_state": job["state"],
            "sources": {s["source"]: {k: (s.get("report") or {}).get(k) for k in ("chunks", "new", "changed", "deleted")}
                        for s in job["sources"]},
            "p95_ratio": round(figures(busy)["p95_ms"] / figures(idle)["p95_ms"], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--idle-questions", type=int, default=60)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose app/ the server runs")
    args = parser.parse_args()
    tree = args.tree.resolve()
    bulk = synthetic_repo(args.chunks)
    docs = Path(str(bulk) + "-docs")
    shutil.copytree(SHARED / "corpora" / "mintlify-docs", docs / "docs")
    git = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@x.invalid", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "b@x.invalid", "PATH": "/usr/bin:/bin:/usr/local/bin"}
    for step in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "docs"]):
        subprocess.run(["git", "-C", str(docs), *step], check=True, env=git, capture_output=True)
    config = Path(str(bulk) + ".toml")
    config.write_text(
        f'[[sources]]\nname = "docs"\nrepo = "{docs}"\nbranch = "main"\ndir = "docs"\naudience = "public"\n\n'
        f'[[sources]]\nname = "bulk"\nrepo = "{bulk}"\nbranch = "main"\ndir = "docs"\nurl_prefix = "/bulk"\n'
        f'audience = "internal"\n')
    try:
        with throwaway_database("docschat-bench-reindex-") as (url, home):
            env = {k: v for k, v in os.environ.items() if k not in {"GEMINI_API_KEY", "OPENAI_API_KEY"}}
            env.update(DATABASE_URL=url, DOCSCHAT_HOME=str(home), EMBEDDING_PROVIDER="none",
                       ANSWER_PROVIDER="extractive", RATE_LIMIT_PER_HOUR="100000000", RATE_LIMIT_PER_DAY="100000000",
                       LOG_LEVEL="warning", DOCSCHAT_CONFIG=str(config), ADMIN_TOKEN=TOKEN, PYTHONPATH=str(tree))
            sync = subprocess.run([sys.executable, "-m", "app", "sync", "--json"], env=env, cwd=tree,
                                  capture_output=True, text=True)
            if sync.returncode != 0:
                raise SystemExit(f"sync failed: {sync.stderr[-3000:]}")
            # Every page of `bulk` rewritten (another seed): the reindex rewrites every row.
            rewritten = synthetic_repo(args.chunks, seed=35)
            shutil.rmtree(bulk / "docs")
            shutil.move(str(rewritten / "docs"), str(bulk / "docs"))
            shutil.rmtree(rewritten, ignore_errors=True)
            for step in (["add", "-A"], ["commit", "-q", "-m", "rewrite"]):
                subprocess.run(["git", "-C", str(bulk), *step], check=True, env=git, capture_output=True)
            process, base = start_server(env, 1)
            try:
                result = asyncio.run(measure(base, args.clients, args.idle_questions))
            finally:
                stop_server(process)
            print(json.dumps({"tree": str(tree), "chunks": args.chunks, "clients": args.clients, **result}))
    finally:
        for path in (bulk, docs):
            shutil.rmtree(path, ignore_errors=True)
        config.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
