"""Gemini embeddings through google-genai: task types, 768 dimensions, retries honouring Retry-After."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

import httpx
from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from app.embeddings.base import EMBEDDING_DIMENSIONS
from app.errors import EmbeddingError, EmbeddingInputRefusedError
from app.logging import get_logger

log = get_logger(__name__)
T = TypeVar("T")
RETRYABLE_STATUS = {408, 429, 500, 502, 503, 504}


def make_client(api_key: str, base_url: str | None, timeout_seconds: float = 60.0) -> genai.Client:
    """The real google-genai client; base_url points it elsewhere (tests use a local fake server).

    The SDK's own retries are off: ours honour Retry-After and report the cause.
    """
    options = types.HttpOptions(
        base_url=base_url,
        timeout=int(timeout_seconds * 1000),
        retry_options=types.HttpRetryOptions(attempts=1),
    )
    return genai.Client(api_key=api_key, http_options=options)


def _retry_after_seconds(error: genai_errors.APIError) -> float | None:
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def describe_api_error(error: genai_errors.APIError) -> str:
    code = getattr(error, "code", None)
    message = getattr(error, "message", None) or str(error)
    if code in (400, 401, 403) and "key" in str(message).lower():
        return f"Gemini rejected the API key (HTTP {code}): check GEMINI_API_KEY"
    if code in (401, 403):
        return f"Gemini refused the request (HTTP {code}): check GEMINI_API_KEY and its permissions"
    if code == 429:
        return "Gemini quota exhausted (HTTP 429 Too Many Requests)"
    return f"Gemini error HTTP {code}: {message}"


async def with_retries(
    call: Callable[[], Awaitable[T]], *, max_retries: int, base_seconds: float, what: str
) -> T:
    """Run `call`, retrying 429/5xx and network errors with exponential backoff (or Retry-After)."""
    attempt = 0
    while True:
        try:
            return await call()
        except genai_errors.APIError as exc:
            if exc.code in (400, 413) and "key" not in str(exc.message or exc).lower():
                raise EmbeddingInputRefusedError(f"{what} failed: {describe_api_error(exc)}") from exc
            if exc.code not in RETRYABLE_STATUS or attempt >= max_retries:
                suffix = f" after {attempt + 1} attempts" if attempt else ""
                raise EmbeddingError(f"{what} failed{suffix}: {describe_api_error(exc)}") from exc
            delay = _retry_after_seconds(exc)
        except (httpx.TransportError, httpx.TimeoutException) as exc:
            if attempt >= max_retries:
                raise EmbeddingError(f"{what} failed after {attempt + 1} attempts: {type(exc).__name__}: {exc}") from exc
            delay = None
        if delay is None:
            delay = base_seconds * (2**attempt) * (1 + random.random() * 0.25)
        attempt += 1
        log.warning("gemini_retry", what=what, attempt=attempt, delay_seconds=round(delay, 2))
        await asyncio.sleep(delay)


class GeminiEmbeddingProvider:
    def __init__(
        self,
        client: genai.Client,
        model_name: str = "gemini-embedding-001",
        *,
        batch_size: int = 20,
        max_retries: int = 5,
        retry_base_seconds: float = 1.0,
    ) -> None:
        self.client = client
        self.model_name = model_name
        self.model = f"{model_name}@{EMBEDDING_DIMENSIONS}"
        self.batch_size = batch_size
        self.max_retries = max_retries
        self.retry_base_seconds = retry_base_seconds

    async def _embed(self, texts: list[str], task_type: str) -> list[list[float]]:
        config = types.EmbedContentConfig(task_type=task_type, output_dimensionality=EMBEDDING_DIMENSIONS)

        async def call() -> list[list[float]]:
            response = await self.client.aio.models.embed_content(
                model=self.model_name, contents=texts, config=config
            )
            vectors = [list(e.values or []) for e in (response.embeddings or [])]
            if len(vectors) != len(texts) or any(len(v) != EMBEDDING_DIMENSIONS for v in vectors):
                raise EmbeddingError(
                    f"Gemini returned {len(vectors)} embeddings for {len(texts)} texts "
                    f"(expected {EMBEDDING_DIMENSIONS} dimensions each)"
                )
            return vectors

        return await with_retries(
            call, max_retries=self.max_retries, base_seconds=self.retry_base_seconds, what="Gemini embedding"
        )

    async def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            vectors.extend(await self._embed(texts[start : start + self.batch_size], "RETRIEVAL_DOCUMENT"))
        return vectors

    async def embed_query(self, text: str) -> list[float]:
        return (await self._embed([text], "RETRIEVAL_QUERY"))[0]
