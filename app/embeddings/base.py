"""The provider interface: documents in batches, one query; every vector has EMBEDDING_DIMENSIONS."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from app.errors import EmbeddingInputRefusedError

# The column is vector(768): Gemini gives 768 with output_dimensionality, smaller models are padded.
EMBEDDING_DIMENSIONS = 768
# A text the provider refuses is halved down to this before it is given up.
MIN_SHORTENED_CHARS = 200


class EmbeddingProvider(Protocol):
    #: Recorded in every row's embedding_model; vectors of different models are never compared.
    model: str
    batch_size: int

    async def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text, for indexing (one provider call for up to batch_size texts)."""
        ...

    async def embed_query(self, text: str) -> list[float]:
        """The vector of a question."""
        ...


async def load_provider(provider: EmbeddingProvider) -> None:
    """Whatever a provider must load before its first call (the offline model); a no-op otherwise."""
    load = getattr(provider, "load", None)
    if load is not None:
        await load()


def pad_vector(vector: list[float], dimensions: int = EMBEDDING_DIMENSIONS) -> list[float]:
    """Zero-pad to `dimensions`: dot products and norms are unchanged, so cosine is unchanged."""
    if len(vector) > dimensions:
        raise ValueError(f"vector has {len(vector)} dimensions, more than {dimensions}")
    return list(vector) + [0.0] * (dimensions - len(vector))


async def embed_shortening(embed: Callable[[str], Awaitable[list[float]]], text: str) -> tuple[list[float], str]:
    """`embed(text)`, with the text it is of. When the provider refuses it as longer than its model
    takes (OpenAI-compatible servers refuse rather than truncate), `embed` of its first half, then
    quarter, and so on; refused at MIN_SHORTENED_CHARS or fewer, the refusal is raised."""
    shown = text
    while True:
        try:
            return await embed(shown), shown
        except EmbeddingInputRefusedError:
            if len(shown) <= MIN_SHORTENED_CHARS:
                raise
            shown = shown[: len(shown) // 2]
