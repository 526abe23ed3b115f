"""Sync benchmark over ../shared/corpora/mintlify-docs with the local model, on a fresh embedded DB.

Prints: full sync time and chunks/s (embedding included, empty cache), and the no-change re-sync
time and its share of the full sync.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
from pathlib import Path

from _corpus import corpus_repo, throwaway_database

from app.config import Settings
from app.corpus.compose import DocsSource
from app.db.migrate import ensure_schema
from app.db.pool import create_pool
from app.embeddings.cache import EmbeddingCache
from app.embeddings.providers import get_embedding_provider
from app.indexing.sync import sync_corpus


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default="mintlify-docs")
    parser.add_argument("--provider", default="local", choices=["local", "none"])
    args = parser.parse_args()
    repo = corpus_repo(args.corpus)
    try:
        with throwaway_database("docschat-bench-sync-") as (url, home):
            print(json.dumps(asyncio.run(run(repo, url, home, args.provider))))
    finally:
        shutil.rmtree(repo, ignore_errors=True)


if __name__ == "__main__":
    main()
