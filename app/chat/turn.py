"""One chat turn: retrieve, send the Relevant Guides, stream the Summary, keep what was said.

`ChatTurn.parts()` yields stream-protocol parts; `ChatTurn.save()` stores the reply with its
sources once, whether the stream completed, failed, or the client went away mid-answer.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from app.chat import stream_protocol as protocol
from app.chat.answerers import NOT_FOUND, Answerer, Excerpt
from app.chat.sessions import add_message, list_messages
from app.config import Settings
from app.corpus.code import fenced_code_excerpt
from app.logging import get_logger
from app.search.eval import absolute_url
from app.search.retrieve import RetrievalError, Retriever

log = get_logger(__name__)


@dataclass
class ChatServices:
    """What a chat turn needs, built once per app (or per CLI call)."""

    pool: asyncpg.Pool
    settings: Settings
    retriever: Retriever
    answerer: Answerer
    background: set[asyncio.Task[Any]] = field(default_factory=set)

    def keep(self, task: asyncio.Task[Any]) -> None:
        self.background.add(task)
        task.add_done_callback(self.background.discard)


@dataclass
class ChatTurn:
    services: ChatServices
    session_id: uuid.UUID
    question: str  # already clipped and stored
    text: list[str] = field(default_factory=list)
    sources: list[dict[str, Any]] = field(default_factory=list)
    saved: bool = False
    failed: str | None = None

    async def parts(self) -> AsyncIterator[dict[str, Any]]:
        services, settings = self.services, self.services.settings
        message_id = uuid.uuid4().hex
        text_id = f"text-{message_id[:8]}"
        yield protocol.start(message_id)
        try:
            async with services.pool.acquire() as conn:
                history = await list_messages(conn, self.session_id, settings.chat_history_turns + 1)
            history = history[:-1]  # the last one is this question
            retrieval = await services.retriever.retrieve(self.question)
        except (RetrievalError, asyncpg.PostgresError, OSError) as exc:
            self.failed = "search is unavailable right now; please try again in a moment"
            log.warning("chat_retrieval_failed", error=type(exc).__name__)
            yield protocol.error(self.failed)
            return
        excerpts = []
        for number, page in enumerate(retrieval.pages, start=1):
            url = absolute_url(settings.docs_base_url, page.href)
            self.sources.append({"title": page.title, "url": url, "heading": page.heading})
            text = fenced_code_excerpt(page.page, page.href, page.excerpt) or page.excerpt
            excerpts.append(Excerpt(number, page.title, url, page.heading, text))
            yield protocol.source_url(f"source-{number}", url, page.title)
        yield protocol.text_start(text_id)
        try:
            if not excerpts:
                self.text.append(NOT_FOUND)  # nothing to answer from: no model is called
                yield protocol.text_delta(text_id, NOT_FOUND)
            else:
                async for delta in services.answerer.stream(self.question, excerpts, history):
                    self.text.append(delta)
                    yield protocol.text_delta(text_id, delta)
        except (asyncio.CancelledError, GeneratorExit):
            raise
        except Exception as exc:  # noqa: BLE001 - any answerer failure becomes an error part
            self.failed = "the answer could not be completed; the guides above are still relevant"
            log.warning("chat_answer_failed", answerer=services.answerer.name, error=type(exc).__name__)
            yield protocol.error(self.failed)
            return
        yield protocol.text_end(text_id)
        yield protocol.finish()

    async def save(self) -> None:
        """Store the reply (possibly partial) with its sources; runs once."""
        if self.saved:
            return
        self.saved = True
        content = "".join(self.text)
        if not content and not self.sources:
            return
        async with self.services.pool.acquire() as conn:
            await add_message(conn, self.session_id, "assistant", content, self.sources)

    async def sse(self) -> AsyncIterator[str]:
        """The turn as server-sent events; the reply is saved even if the client disconnects."""
        try:
            async for part in self.parts():
                yield protocol.sse(part)
            yield protocol.DONE
        finally:
            # A detached task: a cancelled request must not cancel the write of what was said.
            self.services.keep(asyncio.create_task(self.save()))
