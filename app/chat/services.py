"""Building the chat services from settings (the server's lifespan and `docschat ask`)."""

from __future__ import annotations

import asyncpg

from app.chat.answerers import Answerer, ExtractiveAnswerer, GeminiAnswerer
from app.chat.turn import ChatServices
from app.config import Settings
from app.errors import ConfigError
from app.search.retrieve import build_retriever
from app.search.rewrite import build_query_rewriter


def build_answerer(settings: Settings) -> Answerer:
    """ANSWER_PROVIDER; auto: Gemini with its key, else an OpenAI-compatible server with its key, else extractive."""
    choice = settings.answer_provider
    if choice == "auto":
        choice = "gemini" if settings.gemini_api_key else "openai" if settings.openai_api_key else "extractive"
    if choice == "openai":
        from app.chat.openai_answerer import OpenAIAnswerer
        from app.embeddings.openai_provider import make_openai_client

        if not settings.openai_api_key:
            raise ConfigError("ANSWER_PROVIDER=openai needs OPENAI_API_KEY (any value for a local server)")
        client = make_openai_client(settings.openai_api_key.get_secret_value(), settings.openai_base_url,
                                    max_retries=min(2, settings.embedding_max_retries))  # a reader is waiting
        return OpenAIAnswerer(client, settings.openai_chat_model)
    if choice == "gemini":
        if not settings.gemini_api_key:
            raise ConfigError("ANSWER_PROVIDER=gemini needs GEMINI_API_KEY")
        from app.embeddings.gemini import make_client

        return GeminiAnswerer(make_client(settings.gemini_api_key.get_secret_value(), settings.gemini_base_url), settings.chat_model)
    return ExtractiveAnswerer()


def build_chat_services(pool: asyncpg.Pool, settings: Settings, read_pool: asyncpg.Pool | None = None) -> ChatServices:
    """`read_pool`: a read replica's (DATABASE_READ_URL): retrieval reads there (`services.read_pool`),
    everything else, the question embeddings retrieval stores included, goes to `pool`."""
    retriever = build_retriever(read_pool or pool, settings)
    if read_pool is not None and retriever.embedder is not None:
        retriever.embedder.write_pool = pool
    sources = retriever.sources.sources if retriever.sources else ()
    from app.judge.verify import build_verifier

    answerer = build_answerer(settings)
    return ChatServices(
        pool=pool, settings=settings, retriever=retriever, answerer=answerer,
        rewriter=build_query_rewriter(settings), code_sources=tuple(s for s in sources if s.kind == "code"),
        verifier=build_verifier(settings, answerer.name),
    )
