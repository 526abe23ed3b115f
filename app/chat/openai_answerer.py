"""An answerer on an OpenAI-compatible chat completions server (OpenAI, vLLM, Ollama, LM Studio)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import openai

from app.chat.answerers import SYSTEM_INSTRUCTION, format_excerpts
from app.chat.excerpts import Excerpt
from app.chat.sessions import ChatMessage
from app.embeddings.openai_provider import describe_openai_error
from app.errors import DocschatError


class AnswerError(DocschatError):
    """The model server could not write the answer; the message names why (never the key)."""


class OpenAIAnswerer:
    name = "openai"

    def __init__(self, client: openai.AsyncOpenAI, model: str) -> None:
        self.client = client
        self.model = model

    async def stream(
        self, question: str, excerpts: list[Excerpt], history: list[ChatMessage], tools: Any = None
    ) -> AsyncIterator[str]:
        """The model's answer; the docs search tool is offered to Gemini only (`tools` is ignored)."""
        messages: list[dict[str, str]] = [{"role": "system", "content": SYSTEM_INSTRUCTION}]
        messages += [{"role": "user" if m.role == "user" else "assistant", "content": m.content} for m in history]
        messages.append({"role": "user", "content": f"{format_excerpts(excerpts)}\n\nQuestion: {question}"})
        try:
            response = await self.client.chat.completions.create(
                model=self.model, messages=messages, stream=True, temperature=0.2  # type: ignore[arg-type]
            )
            async for chunk in response:  # type: ignore[union-attr]  # stream=True: an AsyncStream
                delta = chunk.choices[0].delta.content if chunk.choices else None
                if delta:
                    yield delta
        except openai.OpenAIError as exc:
            raise AnswerError(describe_openai_error(exc, "OpenAI-compatible chat")) from exc
