"""Load: requests/s and time to the first guide with the server in its own processes.

`docschat serve --workers N` runs as a separate process (1 and 2 workers); this process is only
the client (asyncio + httpx), so client and server share neither event loop nor GIL. The corpus
is ../shared/corpora/mintlify-docs, synced keyword-only into a throwaway embedded Postgres; the
answerer is the offline extractive one, so no model time is measured. Each (workers, clients)
level runs --rounds times; figures are the median of the rounds with their min and max.

    python scripts/bench_load.py [--requests 96] [--rounds 3] [--clients 1,8,32] [--workers 1,2]
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

import httpx
from _corpus import MINTLIFY_QUESTIONS as QUESTIONS
from _corpus import ROOT, corpus_repo, start_server, stop_server, throwaway_database


async def client_loop(client: httpx.AsyncClient, questions: list[str], first_guide: list[float]) -> int:
    done = 0
    for question in questions:
        started = time.perf_counter()
        async with client.stream("POST", "/docs/chat", json={"message": question}) as response:
            response.raise_for_status()
            seen = False
            async for line in response.aiter_lines():
                if not seen and '"type":"source-url"' in line:
                    first_guide.append((time.perf_counter() - started) * 1000)
                    seen = True
        done += 1
    return done


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(share * len(ordered)) - 1)]


async def run_round(base: str, clients: int, requests: int) -> dict[str, float]:
    per_client = max(1, requests // clients)
    first_guide: list[float] = []
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        started = time.perf_counter()
        done = await asyncio.gather(*(
            client_loop(client, [QUESTIONS[(c + i) % len(QUESTIONS)] for i in range(per_client)], first_guide)
            for c in range(clients)
        ))
        elapsed = time.perf_counter() - started
    return {"rps": sum(done) / elapsed, "p50": statistics.median(first_guide), "p95": percentile(first_guide, 0.95),
            "requests": sum(done)}


def summarize(rounds: list[dict[str, float]], key: str) -> dict[str, float]:
    values = [r[key] for r in rounds]
    return {"median": round(statistics.median(values), 1), "min": round(min(values), 1), "max": round(max(values), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=96, help="requests per round (split over the clients)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--workers", default="1,2")
    args = parser.parse_args()
    repo = corpus_repo("mintlify-docs")
    try:
        _run(args, repo)
    finally:
        shutil.rmtree(repo, ignore_errors=True)


def _run(args: argparse.Namespace, repo: Path) -> None:
    with throwaway_database("docschat-bench-load-") as (url, home):
        env = {k: v for k, v in os.environ.items() if k not in {"GEMINI_API_KEY", "OPENAI_API_KEY"}}
        env.update(DATABASE_URL=url, DOCSCHAT_HOME=str(home), EMBEDDING_PROVIDER="none", ANSWER_PROVIDER="extractive",
                   RATE_LIMIT_PER_HOUR="100000000", RATE_LIMIT_PER_DAY="100000000", LOG_LEVEL="warning",
                   DOCS_DEFAULT_AUDIENCE="public",  # the corpus declares no audiences: the widget may see it all
                   PYTHONPATH=str(ROOT))
        sync = subprocess.run([sys.executable, "-m", "app", "sync", "--repo", str(repo), "--json"], env=env, cwd=ROOT,
                              capture_output=True, text=True)
        if sync.returncode != 0:
            raise SystemExit(f"sync failed: {sync.stderr}")
        print(json.dumps({"corpus": "mintlify-docs", "sync": json.loads(sync.stdout.splitlines()[-1]),
                          "cpus": os.cpu_count()}), flush=True)
        for workers in [int(w) for w in args.workers.split(",")]:
            process, base = start_server(env, workers)
            try:
                asyncio.run(run_round(base, 4, 40))  # warm-up: pools filled, code paths loaded
                for clients in [int(c) for c in args.clients.split(",")]:
                    rounds = [asyncio.run(run_round(base, clients, args.requests)) for _ in range(args.rounds)]
                    print(json.dumps({
                        "workers": workers, "clients": clients, "rounds": args.rounds,
                        "requests_per_round": rounds[0]["requests"],
                        "requests_per_second": summarize(rounds, "rps"),
                        "first_guide_p50_ms": summarize(rounds, "p50"),
                        "first_guide_p95_ms": summarize(rounds, "p95"),
                    }), flush=True)
            finally:
                stop_server(process)


if __name__ == "__main__":
    main()
