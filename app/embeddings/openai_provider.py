"""Embeddings from an OpenAI-compatible server (OpenAI, vLLM, Ollama, LM Studio) via the `openai` package.

Dimensions: the column is vector(768). The server is asked for OPENAI_EMBEDDING_DIMENSIONS (768 by
default; OpenAI's text-embedding-3 models shorten their vectors on request). A server that gives
fewer dimensions (a 384- or 512-dimension model, or OPENAI_EMBEDDING_DIMENSIONS=0 for servers that
refuse the parameter) has its vectors zero-padded to 768 like the offline model's: padding leaves
cosine similarity unchanged. A longer vector is refused: cutting it would change the similarities
of models not trained for truncation, and a configurable column would split the schema per model.
"""

from __future__ import annotations

from typing import Any

import openai

from app.embeddings.base import EMBEDDING_DIMENSIONS, pad_vector
from app.errors import EmbeddingError, EmbeddingInputRefusedError


def make_openai_client(api_key: str, base_url: str | None, *, max_retries: int, timeout_seconds: float = 60.0
                       ) -> openai.AsyncOpenAI:
    """The real client; its own retries honour Retry-After on 429 and back off on 5xx and network errors."""
    return openai.AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=max_retries, timeout=timeout_seconds)


def describe_openai_error(error: openai.OpenAIError, what: str) -> str:
    """One line naming the cause; never the key."""
    if isinstance(error, openai.AuthenticationError):
        return f"{what}: the server rejected the API key (HTTP 401): check OPENAI_API_KEY"
    if isinstance(error, openai.PermissionDeniedError):
        return f"{what}: the server refused the request (HTTP 403): check OPENAI_API_KEY and its permissions"
    if isinstance(error, openai.RateLimitError):
        return f"{what}: quota exhausted (HTTP 429 Too Many Requests) after retries"
    if isinstance(error, openai.NotFoundError):
        return f"{what}: the server has no such model or endpoint (HTTP 404): check the model name and OPENAI_BASE_URL"
    if isinstance(error, openai.APIStatusError):
        return f"{what}: HTTP {error.status_code}: {str(error.message)[:200]}"
    if isinstance(error, openai.APIConnectionError):
        return f"{what}: cannot reach the server ({type(error).__name__}): check OPENAI_BASE_URL"
    return f"{what}: {type(error).__name__}: {str(error)[:200]}"


class OpenAIEmbeddingProvider:
    """Questions and documents alike (OpenAI-style embedding models take no task type)."""

    def __init__(self, client: openai.AsyncOpenAI, model_name: str, *, dimensions: int = EMBEDDING_DIMENSIONS,
                 batch_size: int = 20) -> None:
        if not 0 <= dimensions <= EMBEDDING_DIMENSIONS:
            raise ValueError(f"dimensions must be between 0 and {EMBEDDING_DIMENSIONS}")
        self.client = client
        self.model_name = model_name
        self.dimensions = dimensions
        self.batch_size = batch_size
        # Recorded with every vector: another model, or another size, is never compared with it.
        self.model = f"{model_name}@{dimensions or 'native'}"

    async def _embed(self, texts: list[str]) -> list[list[float]]:
        extra: dict[str, Any] = {"dimensions": self.dimensions} if self.dimensions else {}
        try:
            response = await self.client.embeddings.create(model=self.model_name, input=texts, **extra)
        except openai.APIStatusError as exc:
            error = EmbeddingInputRefusedError if exc.status_code in (400, 413) else EmbeddingError
            raise error(describe_openai_error(exc, "OpenAI-compatible embedding")) from exc
        except openai.OpenAIError as exc:
            raise EmbeddingError(describe_openai_error(exc, "OpenAI-compatible embedding")) from exc
        vectors = [list(item.embedding) for item in sorted(response.data, key=lambda item: item.index)]
        if len(vectors) != len(texts):
            raise EmbeddingError(f"the embedding server returned {len(vectors)} vectors for {len(texts)} texts")
        for vector in vectors:
            if len(vector) > EMBEDDING_DIMENSIONS or (self.dimensions and len(vector) != self.dimensions):
                raise EmbeddingError(
                    f"{self.model_name} returned {len(vector)} dimensions; expected "
                    f"{self.dimensions or f'at most {EMBEDDING_DIMENSIONS}'} (OPENAI_EMBEDDING_DIMENSIONS; "
                    f"vectors longer than {EMBEDDING_DIMENSIONS} are refused, shorter ones zero-padded)"
                )
        return [pad_vector(v) for v in vectors]

    async def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            vectors.extend(await self._embed(texts[start : start + self.batch_size]))
        return vectors

    async def embed_query(self, text: str) -> list[float]:
        return (await self._embed([text]))[0]
