"""Question embeddings, cached in process (LRU) and in docs_query_embedding (hash id, no text)."""

from __future__ import annotations

from collections import OrderedDict

import asyncpg

from app.embeddings.base import EmbeddingProvider, embed_shortening
from app.search.terms import question_key


class QueryEmbedder:
    """Embeds questions once: a repeated question makes no provider call."""

    def __init__(self, provider: EmbeddingProvider, lru_size: int = 512) -> None:
        self.provider = provider
        self.lru_size = lru_size
        # Where a new embedding is stored when `embed` is given a read replica's pool
        # (DATABASE_READ_URL): the primary's (app/chat/services.py sets it). None: the pool given.
        self.write_pool: asyncpg.Pool | None = None
        self._lru: OrderedDict[str, list[float]] = OrderedDict()
        self.provider_calls = 0

    async def embed(self, pool: asyncpg.Pool, question: str) -> list[float]:
        key = question_key(self.provider.model, question)
        if key in self._lru:
            self._lru.move_to_end(key)
            return self._lru[key]
        async with pool.acquire() as conn:
            stored = await conn.fetchval(
                "select embedding from public.docs_query_embedding where id = $1 and model = $2",
                key, self.provider.model,
            )
        if stored is not None:
            vector = stored.to_list() if hasattr(stored, "to_list") else [float(v) for v in stored]
        else:
            # A pasted log a small-context server refuses is embedded from its start.
            vector, _ = await embed_shortening(self._embed_query, question)
            async with (self.write_pool or pool).acquire() as conn:
                await conn.execute(
                    "insert into public.docs_query_embedding (id, model, embedding) values ($1, $2, $3)"
                    " on conflict (id) do nothing",
                    key, self.provider.model, vector,
                )
        self._lru[key] = vector
        if len(self._lru) > self.lru_size:
            self._lru.popitem(last=False)
        return vector

    async def _embed_query(self, text: str) -> list[float]:
        self.provider_calls += 1
        return await self.provider.embed_query(text)
