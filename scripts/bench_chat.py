"""Chat throughput with the offline answerer: requests/s and p95 time to the first source part.

Syncs ../shared/corpora/mintlify-docs (keyword-only, so no model time is measured) into a
throwaway embedded database, serves the real app under uvicorn on loopback, and sends a fixed
number of questions at 1 and 8 concurrent clients (rate limits raised for the run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
from _corpus import MINTLIFY_QUESTIONS as QUESTIONS
from _corpus import corpus_repo, free_port, stop_throwaway_database


def start_server(port: int):
    import uvicorn

    from app.config import get_settings
    from app.server import create_app

    get_settings.cache_clear()
    server = uvicorn.Server(uvicorn.Config(create_app(get_settings()), host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    return server, thread


async def client_loop(base: str, questions: list[str], first_source: list[float], done: list[float]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for question in questions:
            started = time.perf_counter()
            async with client.stream("POST", "/docs/chat", json={"message": question}) as response:
                response.raise_for_status()
                seen_source = False
                async for line in response.aiter_lines():
                    if not seen_source and '"type":"source-url"' in line:
                        first_source.append((time.perf_counter() - started) * 1000)
                        seen_source = True
            done.append((time.perf_counter() - started) * 1000)


async def run_level(base: str, clients: int, per_client: int) -> dict[str, float]:
    first_source: list[float] = []
    done: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(*(
        client_loop(base, [QUESTIONS[(c + i) % len(QUESTIONS)] for i in range(per_client)], first_source, done)
        for c in range(clients)
    ))
    elapsed = time.perf_counter() - started
    ordered = sorted(first_source)
    return {
        "clients": clients,
        "requests": len(done),
        "requests_per_second": round(len(done) / elapsed, 1),
        "first_source_p50_ms": round(statistics.median(ordered), 1),
        "first_source_p95_ms": round(ordered[max(0, round(0.95 * len(ordered)) - 1)], 1),
        "complete_p95_ms": round(sorted(done)[max(0, round(0.95 * len(done)) - 1)], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=80, help="requests per concurrency level")
    args = parser.parse_args()
    repo = corpus_repo("mintlify-docs")
    home = Path(tempfile.mkdtemp(prefix="docschat-bench-chat-"))
    os.environ.update({
        "DOCSCHAT_HOME": str(home), "EMBEDDING_PROVIDER": "none", "RATE_LIMIT_PER_HOUR": "1000000",
        "DOCS_DEFAULT_AUDIENCE": "public",  # the corpus declares no audiences: the widget may see it all
        "RATE_LIMIT_PER_DAY": "1000000", "LOG_LEVEL": "warning",
    })
    os.environ.pop("GEMINI_API_KEY", None)
    os.environ.pop("DATABASE_URL", None)
    from app.config import Settings
    from app.corpus.compose import DocsSource
    from app.db.embedded import ensure_embedded_server
    from app.db.migrate import ensure_schema
    from app.db.pool import create_pool
    from tests.helpers import sync_corpus

    async def prepare(url: str) -> None:
        await ensure_schema(url)
        pool = await create_pool(url)
        try:
            await sync_corpus(pool, DocsSource(repo, "main", "docs"), Settings(), None)
        finally:
            await pool.close()

    server = None
    try:
        url = ensure_embedded_server(home)
        asyncio.run(prepare(url))
        port = free_port()
        server, thread = start_server(port)
        base = f"http://127.0.0.1:{port}"
        asyncio.run(run_level(base, 1, 5))  # warm-up
        for clients in (1, 8):
            print(json.dumps(asyncio.run(run_level(base, clients, max(1, args.requests // clients)))), flush=True)
    finally:
        if server is not None:
            server.should_exit = True
            thread.join(timeout=30)
        stop_throwaway_database(home)
        shutil.rmtree(repo, ignore_errors=True)


if __name__ == "__main__":
    main()
