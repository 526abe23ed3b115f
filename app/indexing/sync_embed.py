"""Sync, step two: embedding a batch's changed chunks. It runs outside any transaction and lock
(it is the slow part); vectors travel as float32 arrays (numpy), never as lists of Python floats."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from app.embeddings.base import MIN_SHORTENED_CHARS, EmbeddingProvider, embed_shortening
from app.embeddings.cache import EmbeddingCache
from app.errors import EmbeddingInputRefusedError
from app.indexing.sync_report import SyncReport

ProgressCallback = Callable[[int, int], None]
Vector = npt.NDArray[np.float32]


async def embed_batch(provider: EmbeddingProvider, batch: list[str], report: SyncReport) -> list[list[float]]:
    """The provider's vectors for `batch`. When it refuses the batch's input (a text longer than
    its model takes: OpenAI-compatible servers refuse rather than truncate), each text is embedded
    alone, and one still refused is embedded from its first half, and so on, with a warning."""
    try:
        return await provider.embed_documents(batch)
    except EmbeddingInputRefusedError:
        if len(batch) == 1 and len(batch[0]) <= MIN_SHORTENED_CHARS:
            raise
    return [await _embed_shortening(provider, text, report) for text in batch]


def _first_line(text: str) -> str:
    return (text.splitlines() or [""])[0][:120]


async def _embed_shortening(provider: EmbeddingProvider, text: str, report: SyncReport) -> list[float]:
    async def embed(shown: str) -> list[float]:
        return (await provider.embed_documents([shown]))[0]

    try:
        vector, shown = await embed_shortening(embed, text)
    except EmbeddingInputRefusedError as exc:
        raise EmbeddingInputRefusedError(
            f"the embedding provider refuses the chunk '{_first_line(text)}' even cut to "
            f"{MIN_SHORTENED_CHARS} characters or fewer: {exc}") from exc
    if shown is not text:
        report.warnings.append(
            f"chunk '{_first_line(text)}': {len(text):,} characters are more than the embedding "
            f"model takes; its vector is of the first {len(shown):,} (its full text is still searched by keyword)")
    return vector


async def embed_texts(
    texts: list[str],
    provider: EmbeddingProvider,
    cache: EmbeddingCache | None,
    report: SyncReport,
    progress: ProgressCallback | None,
    known: dict[str, Vector] | None = None,
) -> dict[str, Vector]:
    """float32 vectors for `texts`: already known, from the cache, else from the provider (in its
    batches). The SQLite cache is read and written in a worker thread, off the event loop."""
    unique = list(dict.fromkeys(texts))
    vectors = {t: known[t] for t in unique if known and t in known}
    wanted = [t for t in unique if t not in vectors]
    cached = await asyncio.to_thread(cache.get_many, provider.model, wanted) if cache and wanted else {}
    report.cache_hits += len(cached)
    vectors.update(cached)
    todo = [t for t in unique if t not in vectors]
    done = len(unique) - len(todo)
    if progress:
        progress(done, len(unique))
    step = max(provider.batch_size, 1)
    for start in range(0, len(todo), step):
        batch = todo[start : start + step]
        embedded = {t: np.asarray(v, dtype=np.float32)
                    for t, v in zip(batch, await embed_batch(provider, batch, report), strict=True)}
        if cache:
            await asyncio.to_thread(cache.put_many, provider.model, embedded)  # kept even if a later batch fails
        vectors.update(embedded)
        report.embedded += len(batch)
        done += len(batch)
        if progress:
            progress(done, len(unique))
    return vectors
