"""Questions asked of both revisions, without touching the live index: a scratch database is made
in the same cluster (the live one's, or the embedded server's), the sources synced into it at the
base (by the sync itself, from git) and the questions retrieved, then synced at the head (only
what changed is composed and embedded, the embedding cache asked first, seeded with the live
index's vectors) and the questions retrieved again. The scratch
database is dropped at the end, whatever happens."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from app.config import Settings
from app.db.url import redact_url
from app.errors import DocschatError
from app.review.compose_adapter import Snapshot, sources_config
from app.review.model import Report

K = 5  # sections retrieved per question, as `docschat eval` scores them by default


class ScratchDatabaseError(DocschatError):
    """The scratch database for the questions cannot be made."""


def _with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


@contextlib.asynccontextmanager
async def scratch_database(cluster_url: str) -> AsyncIterator[str]:
    """A new empty database in the cluster of `cluster_url`, dropped on the way out."""
    import asyncpg

    name = "docschat_check_" + secrets.token_hex(6)  # hex digits only: safe in DDL, which binds nothing
    admin = await asyncpg.connect(cluster_url)
    try:
        await admin.execute(f'create database "{name}"')
    except asyncpg.InsufficientPrivilegeError as exc:
        raise ScratchDatabaseError(
            f"questions are asked in a scratch database, and the role of {redact_url(cluster_url)} may not create "
            f"one ({exc}): give it CREATEDB, or point DATABASE_URL at a role that has it") from None
    finally:
        await admin.close()
    try:
        yield _with_database(cluster_url, name)
    finally:
        admin = await asyncpg.connect(cluster_url)
        try:
            await admin.execute(f'drop database if exists "{name}" with (force)')
        finally:
            await admin.close()


def _outcome(row: dict[str, Any]) -> str:
    if not row["would_answer"]:
        return "refused"
    check = row.get("answer_check")
    verdict = check.get("verdict") if isinstance(check, dict) else check
    return "partly" if verdict == "partly" else "answered"


def _pages(row: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(url.split("#", 1)[0] for url in row["retrieved"]))


def _floats(value: Any) -> Any:
    """A pgvector value as numbers (the pool's codec gives a pgvector Vector)."""
    return value.to_numpy() if hasattr(value, "to_numpy") else value


async def seed_cache_from_index(live_url: str, snapshot: Snapshot, model: str, cache: Any) -> int:
    """Put in the embedding cache the vectors the live index already holds for the snapshot's
    chunks (same content hash, same model): the scratch database's sync of the base then embeds
    nothing the index has, and the head's embeds only the chunks this change added or changed.
    Returns how many were added; 0 when the database has no index (not migrated, another one)."""
    import asyncpg
    import numpy as np

    from app.db.pool import connect

    texts = {c.content_hash: c.embed_text for c in snapshot.chunks}
    cached = await asyncio.to_thread(cache.get_many, model, list(texts.values()))
    wanted = [h for h, t in texts.items() if t not in cached]
    if not wanted:
        return 0
    try:
        async with connect(live_url) as conn:
            if await conn.fetchval("select to_regclass('public.docs_section')") is None:
                return 0
            rows = await conn.fetch(
                "select distinct on (content_hash) content_hash, embedding from public.docs_section"
                " where embedding_model = $1 and embedding is not null and content_hash = any($2::text[])",
                model, wanted)
    except (asyncpg.PostgresError, OSError):
        return 0
    vectors = {texts[r["content_hash"]]: np.asarray(_floats(r["embedding"]), dtype=np.float32) for r in rows}
    if vectors:
        await asyncio.to_thread(cache.put_many, model, vectors)
    return len(vectors)


async def ask_both(items: list[Any], base: Snapshot, head: Snapshot, settings: Settings, cluster_url: str
                   ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, int]]:
    """Per question, its retrieval at the base and at the head (eval's per-question rows), and what
    the head's sync embedded."""
    from app.db.migrate import ensure_schema
    from app.db.pool import create_pool
    from app.embeddings.cache import EmbeddingCache, cache_path
    from app.embeddings.providers import get_embedding_provider
    from app.indexing.sync import sync_sources
    from app.search.eval import evaluate
    from app.search.retrieve import Mode, ready_retriever

    provider = get_embedding_provider(settings)
    mode: Mode = "hybrid" if provider is not None else "keyword"
    cache = await asyncio.to_thread(EmbeddingCache, cache_path(settings.docschat_home)) if provider else None
    seeded = await seed_cache_from_index(cluster_url, base, provider.model, cache) if provider and cache else 0
    try:
        async with scratch_database(cluster_url) as url:
            await ensure_schema(url)
            pool = await create_pool(url, min_size=1, max_size=4)
            try:
                rows: list[list[dict[str, Any]]] = []
                embedded = {}
                for snapshot in (base, head):
                    # The sync's own path, from git: the head's sync composes and embeds only what
                    # changed (its page keys, and the content hashes, are the base's rows).
                    sync = await sync_sources(pool, sources_config(snapshot), settings, provider, cache=cache)
                    embedded[snapshot.ref] = sync.embedded
                    retriever = await ready_retriever(pool, settings, mode)
                    result = await evaluate(retriever, items, mode=mode, k=K, base_url=settings.docs_base_url)
                    rows.append(result["per_question"])  # type: ignore[arg-type]
            finally:
                await pool.close()
    finally:
        if cache is not None:
            cache.close()
    return rows[0], rows[1], {"embedded_at_head": embedded[head.ref], "embedded_at_base": embedded[base.ref],
                              "from_index": seeded}


def compare_questions(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for old, new in zip(before, after, strict=True):
        old_pages, new_pages = _pages(old), _pages(new)
        entry = {
            "id": old.get("id"), "question": old["question"],
            "before": {"outcome": _outcome(old), "pages": old_pages, "confidence": round(old["confidence"], 4)},
            "after": {"outcome": _outcome(new), "pages": new_pages, "confidence": round(new["confidence"], 4)},
            "pages_lost": [p for p in old_pages if p not in new_pages],
            "pages_gained": [p for p in new_pages if p not in old_pages],
        }
        entry["changed"] = bool(entry["pages_lost"] or entry["pages_gained"]
                                or entry["before"]["outcome"] != entry["after"]["outcome"])
        out.append(entry)
    return out


def add_questions(report: Report, path: Path, base: Snapshot, head: Snapshot, settings: Settings,
                  cluster_url: str) -> None:
    from app.search.eval import load_eval_file

    items = load_eval_file(path)
    before, after, embedded = asyncio.run(ask_both(items, base, head, settings, cluster_url))
    report.questions = compare_questions(before, after)
    report.notes.append(f"questions: {len(items)} asked at both revisions in a scratch database; its syncs embedded "
                        f"{embedded['embedded_at_base']} texts of the base ({embedded['from_index']} vectors taken "
                        f"from the index) and {embedded['embedded_at_head']} of the head")


def embedded_cluster(settings: Settings) -> str:
    """The embedded server's URL (started or reused in DOCSCHAT_HOME): its cluster holds the scratch database."""
    from app.db.embedded import ensure_embedded_server

    return ensure_embedded_server(settings.docschat_home)


def add_gaps(report: Report, gaps: list[dict[str, Any]], base: Snapshot, head: Snapshot, settings: Settings,
             cluster_url: str, changed_urls: set[str], *, quote: bool = False) -> None:
    """The gaps whose question, at the head, is answered better than at the base or retrieves a
    page this change touches: the head may now answer them."""
    from app.search.eval import EvalItem

    if not gaps:
        return
    items = [EvalItem(g["question"], []) for g in gaps]
    before, after, _ = asyncio.run(ask_both(items, base, head, settings, cluster_url))
    rank = {"refused": 0, "partly": 1, "answered": 2}
    for gap, old, new in zip(gaps, before, after, strict=True):
        touched = [p for p in _pages(new) if p in changed_urls]
        if touched or rank[_outcome(new)] > rank[_outcome(old)]:
            report.gaps.append({"question": gap["question"] if quote else None, "count": gap["count"], "outcome": gap["outcome"],
                                "before": _outcome(old), "after": _outcome(new), "changed_pages": touched})
