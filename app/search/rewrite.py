"""With Gemini: one short, bounded call that rewrites a follow-up as a standalone search query.

Any failure (timeout, quota, an empty or absurd reply) returns None, and the conversation falls
back to the offline method (app/search/standalone.py).
"""

from __future__ import annotations

import asyncio

from google import genai
from google.genai import types

from app.config import Settings
from app.logging import get_logger
from app.search.standalone import clean_rewrite

log = get_logger(__name__)

REWRITE_INSTRUCTION = """You turn the latest question of a conversation about a product's documentation
into one standalone search query. If the latest question depends on earlier questions (pronouns such
as "it" or "that", ellipsis, "and how about…"), add the missing subject from them. If it stands
alone, or changes the topic, return it unchanged. Reply with the query only, on one line."""


class GeminiQueryRewriter:
    name = "gemini"

    def __init__(self, client: genai.Client, model: str, timeout_seconds: float) -> None:
        self.client = client
        self.model = model
        self.timeout_seconds = timeout_seconds

    async def rewrite(self, question: str, history: list[str]) -> str | None:
        earlier = "\n".join(f"- {h}" for h in history[-3:])
        prompt = f"Earlier questions (oldest first):\n{earlier}\n\nLatest question: {question}"
        config = types.GenerateContentConfig(
            system_instruction=REWRITE_INSTRUCTION, temperature=0.0, max_output_tokens=100,
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        )
        try:
            response = await asyncio.wait_for(
                self.client.aio.models.generate_content(model=self.model, contents=prompt, config=config),
                self.timeout_seconds,
            )
            return clean_rewrite(response.text, question)
        except (asyncio.CancelledError, GeneratorExit):
            raise
        except Exception as exc:  # noqa: BLE001 - the offline method takes over
            log.info("query_rewrite_failed", error="timeout" if isinstance(exc, TimeoutError) else type(exc).__name__)
            return None


def build_query_rewriter(settings: Settings) -> GeminiQueryRewriter | None:
    """The Gemini rewriter with a key and a non-zero timeout; None: the offline method alone."""
    if not settings.gemini_api_key or settings.query_rewrite_timeout_seconds <= 0:
        return None
    from app.embeddings.gemini import make_client

    client = make_client(settings.gemini_api_key.get_secret_value(), settings.gemini_base_url)
    return GeminiQueryRewriter(client, settings.chat_model, settings.query_rewrite_timeout_seconds)
