"""Tools the model may call during a turn, and the bounds around them.

A `ChatTool` declares itself (name, description, JSON-schema parameters) and answers one call
with a `ToolOutcome`: the JSON object sent back to the model, and any pages it found (shown to the
reader as sources before the text that uses them). A `ToolBox` holds a turn's tools: at most
`max_calls` calls a turn, each bounded by `timeout_seconds`; a failure, a timeout or an exhausted
budget is an outcome with a truthful status, never an exception, so the model can say so.

`search_docs` is the first tool; read_file/list_directory (issue 14) plug into the same box.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

import asyncpg

from app.chat.answerers import Excerpt
from app.chat.excerpts import ExcerptBounds, select_excerpts
from app.logging import get_logger
from app.search.retrieve import RetrievalError, Retriever

log = get_logger(__name__)


@dataclass(frozen=True)
class Source:
    """A page shown to the reader, numbered like the Relevant Guides."""

    number: int
    title: str
    url: str
    heading: str


@dataclass
class ToolOutcome:
    response: dict[str, Any]  # what the model reads
    sources: list[Source] = field(default_factory=list)  # new pages the reader should see


class ChatTool(Protocol):
    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments

    async def call(self, args: dict[str, Any]) -> ToolOutcome: ...


class ToolBox:
    """One turn's tools with their bounds."""

    def __init__(self, tools: list[ChatTool], *, max_calls: int, timeout_seconds: float) -> None:
        self.tools = {tool.name: tool for tool in tools}
        self.max_calls = max_calls
        self.timeout_seconds = timeout_seconds
        self.calls = 0

    @property
    def exhausted(self) -> bool:
        return self.calls >= self.max_calls

    async def run(self, name: str, args: dict[str, Any]) -> ToolOutcome:
        tool = self.tools.get(name)
        if tool is None:
            return ToolOutcome({"available": False, "status": f"there is no tool named {name!r}"})
        if self.exhausted:
            return ToolOutcome({"available": False,
                                "status": f"limit of {self.max_calls} calls this turn reached: answer with what you have"})
        self.calls += 1
        try:
            return await asyncio.wait_for(tool.call(args), self.timeout_seconds)
        except TimeoutError:
            log.warning("chat_tool_failed", tool=name, error="timeout")
            return ToolOutcome({"available": False, "status": f"timed out after {self.timeout_seconds:g} s"})
        except (asyncio.CancelledError, GeneratorExit):
            raise
        except Exception as exc:  # noqa: BLE001 - a failed tool is a status for the model, not a failed turn
            log.warning("chat_tool_failed", tool=name, error=type(exc).__name__)
            return ToolOutcome({"available": False, "status": f"failed ({type(exc).__name__})"})


class SearchDocsTool:
    """`search_docs(query)`: the documentation's sections for a query, with the turn's audiences and
    floor. Pages already shown keep their numbers; new ones continue the numbering."""

    name = "search_docs"
    description = (
        "Search this product's documentation. Use it when the excerpts you were given do not answer the "
        "question. Write the query as a standalone search (no pronouns). Returns numbered sections to cite."
    )
    parameters = {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "What to look for, in a few words."}},
        "required": ["query"],
    }

    def __init__(self, retriever: Retriever, bounds: ExcerptBounds, base_url: str, numbering: dict[str, int],
                 retrieve_options: dict[str, Any] | None = None) -> None:
        self.retriever = retriever
        self.bounds = bounds
        self.base_url = base_url
        self.numbering = numbering  # page URL → guide number, shared with the turn
        self.retrieve_options = retrieve_options or {}

    async def call(self, args: dict[str, Any]) -> ToolOutcome:
        query = args.get("query")
        if not isinstance(query, str) or not query.strip():
            return ToolOutcome({"available": True, "status": "the query must be a non-empty string", "results": []})
        try:
            retrieval = await self.retriever.retrieve(query, **self.retrieve_options)
        except (RetrievalError, asyncpg.PostgresError, OSError) as exc:
            log.warning("chat_tool_search_unavailable", error=type(exc).__name__)
            return ToolOutcome({"available": False, "status": "the documentation index cannot be searched right now"})
        if getattr(retrieval, "would_answer", True) is False or not retrieval.pages:
            return ToolOutcome({"available": True, "status": "nothing in the documentation matches", "results": []})
        known = dict(self.numbering)
        excerpts = select_excerpts(retrieval, self.bounds, self.base_url, numbering=self.numbering)
        sources: list[Source] = []
        for excerpt in excerpts:
            page_url = excerpt.url.split("#", 1)[0]
            if page_url not in known and all(s.number != excerpt.number for s in sources):
                sources.append(Source(excerpt.number, excerpt.title, excerpt.url, excerpt.heading))
        return ToolOutcome({"available": True, "status": "ok", "results": [_result(e) for e in excerpts]}, sources)


def _result(excerpt: Excerpt) -> dict[str, Any]:
    return {"number": excerpt.number, "title": excerpt.title, "section": excerpt.heading or "Overview",
            "url": excerpt.url, "text": excerpt.text}
