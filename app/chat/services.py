"""Building the chat services from settings (the server's lifespan and `docschat ask`)."""

from __future__ import annotations

import asyncpg

from app.chat.answerers import Answerer, ExtractiveAnswerer, GeminiAnswerer
from app.chat.turn import ChatServices
from app.config import Settings
from app.search.retrieve import build_retriever
from app.search.rewrite import build_query_rewriter


def build_answerer(settings: Settings) -> Answerer:
    """Gemini with a key, the offline extractive answerer without."""
    if settings.gemini_api_key:
        from app.embeddings.gemini import make_client

        return GeminiAnswerer(make_client(settings.gemini_api_key.get_secret_value(), settings.gemini_base_url), settings.chat_model)
    return ExtractiveAnswerer()


def build_chat_services(pool: asyncpg.Pool, settings: Settings) -> ChatServices:
    retriever = build_retriever(pool, settings)
    sources = retriever.sources.sources if retriever.sources else ()
    return ChatServices(
        pool=pool, settings=settings, retriever=retriever, answerer=build_answerer(settings),
        rewriter=build_query_rewriter(settings), code_sources=tuple(s for s in sources if s.kind == "code"),
    )
