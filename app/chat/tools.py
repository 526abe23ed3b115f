"""Tools the model may call during a turn, and the bounds around them.

A `ChatTool` declares itself (name, description, JSON-schema parameters) and answers one call
with a `ToolOutcome`: the JSON object sent back to the model, and any pages it found (shown to the
reader as sources before the text that uses them). A `ToolBox` holds a turn's tools: at most
`max_calls` calls a turn, each bounded by `timeout_seconds`; a failure, a timeout or an exhausted
budget is an outcome with a truthful status, never an exception, so the model can say so.

`search_docs` is the first tool; read_file/list_directory (issue 14) plug into the same box.

While it works, the box says so: a `ToolStatus` when a call starts and when it returns (its
caption is the tool's own), which `with_statuses` interleaves with the answerer's events and the
turn streams as `data-status` parts.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

import asyncpg

from app.chat.excerpts import Excerpt, ExcerptBounds, select_excerpts
from app.logging import get_logger
from app.search.retrieve import RetrievalError, Retriever

log = get_logger(__name__)


@dataclass(frozen=True)
class GuideLink:
    """A page shown to the reader, numbered like the Relevant Guides."""

    number: int
    title: str
    url: str
    heading: str
    place: tuple[str, ...] = ()  # the page's place in its site's navigation (tab, group)


@dataclass
class ToolOutcome:
    response: dict[str, Any]  # what the model reads
    sources: list[GuideLink] = field(default_factory=list)  # new pages the reader should see


@dataclass(frozen=True)
class ToolStatus:
    """What the turn is doing, for the reader: `state` is working, done or unavailable."""

    text: str
    state: str = "working"


UNAVAILABLE_INDEX = "Docs index unavailable — answering without it"


class ChatTool(Protocol):
    name: str
    description: str
    @property
    def parameters(self) -> dict[str, Any]: ...  # JSON schema of the arguments (a class variable will do)

    async def call(self, args: dict[str, Any]) -> ToolOutcome: ...


class ToolBox:
    """One turn's tools with their bounds: calls, time per call, model steps."""

    def __init__(self, tools: Sequence[ChatTool], *, max_calls: int, timeout_seconds: float,
                 max_steps: int | None = None) -> None:
        self.tools = {tool.name: tool for tool in tools}
        self.max_calls = max_calls
        self.timeout_seconds = timeout_seconds
        # Model requests a turn may make; the last one is offered no tools (default: one per call + the answer).
        self.max_steps = max_steps if max_steps is not None else max_calls + 1
        self.calls = 0
        self.statuses: asyncio.Queue[ToolStatus] = asyncio.Queue()

    def _say(self, tool: object, method: str, *args: Any) -> None:
        caption = getattr(tool, method, None)
        try:
            status = caption(*args) if caption is not None else None
        except Exception:  # noqa: BLE001 - a caption never fails a call
            status = None
        if status is not None:
            self.statuses.put_nowait(status)

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
        self._say(tool, "started", args)
        outcome = await self._call(tool, name, args)
        self._say(tool, "returned", args, outcome)
        return outcome

    async def _call(self, tool: ChatTool, name: str, args: dict[str, Any]) -> ToolOutcome:
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


_Event = TypeVar("_Event")


async def with_statuses(events: AsyncIterator[_Event], box: ToolBox) -> AsyncIterator[_Event | ToolStatus]:
    """`events` with the box's statuses in between, each as soon as it is said (a status said
    before an event comes before it). Closing this closes `events`."""
    queue = box.statuses
    iterator = aiter(events)
    pending: asyncio.Future[Any] = asyncio.ensure_future(anext(iterator))
    getter: asyncio.Future[ToolStatus] | None = None
    try:
        while True:
            while not queue.empty():
                yield queue.get_nowait()
            getter = asyncio.ensure_future(queue.get())
            done, _ = await asyncio.wait({pending, getter}, return_when=asyncio.FIRST_COMPLETED)
            if getter in done:
                yield getter.result()
            else:
                getter.cancel()
            getter = None
            if pending in done:
                try:
                    event = pending.result()
                except StopAsyncIteration:
                    while not queue.empty():
                        yield queue.get_nowait()
                    return
                while not queue.empty():
                    yield queue.get_nowait()
                yield event
                pending = asyncio.ensure_future(anext(iterator))
    finally:
        if getter is not None:
            getter.cancel()
        if not pending.done():
            pending.cancel()
            with contextlib.suppress(BaseException):
                await pending
        aclose = getattr(events, "aclose", None)
        if aclose is not None:
            with contextlib.suppress(RuntimeError):
                await aclose()


class SearchDocsTool:
    """`search_docs(query)`: the documentation's sections for a query, with the turn's audiences and
    floor. Pages already shown keep their numbers; new ones continue the numbering."""

    name = "search_docs"
    description = (
        "Search this product's documentation. Use it when the excerpts you were given do not answer the "
        "question. Write the query as a standalone search (no pronouns). Returns numbered sections to cite."
    )
    parameters: ClassVar[dict[str, Any]] = {
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

    def started(self, args: dict[str, Any]) -> ToolStatus:
        query = args.get("query")
        about = f" for “{' '.join(query.split())[:80]}”" if isinstance(query, str) and query.strip() else ""
        return ToolStatus(f"Searching the documentation{about}")

    def returned(self, args: dict[str, Any], outcome: ToolOutcome) -> ToolStatus:
        if not outcome.response.get("available", True):
            return ToolStatus(UNAVAILABLE_INDEX, "unavailable")
        found = len(outcome.response.get("results") or [])
        return ToolStatus(f"Found {found} section{'s' if found != 1 else ''}" if found
                          else "Nothing more in the documentation", "done")

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
        excerpts = select_excerpts(retrieval, self.bounds, self.base_url, self.numbering, self.retriever.model)
        sources: list[GuideLink] = []
        for excerpt in excerpts:
            page_url = excerpt.url.split("#", 1)[0]
            if page_url not in known and all(s.number != excerpt.number for s in sources):
                sources.append(GuideLink(excerpt.number, excerpt.title, excerpt.url, excerpt.heading, excerpt.place))
        return ToolOutcome({"available": True, "status": "ok", "results": [_result(e) for e in excerpts]}, sources)


def _result(excerpt: Excerpt) -> dict[str, Any]:
    return {"number": excerpt.number, "title": excerpt.title, "section": excerpt.heading or "Overview",
            "url": excerpt.url, "text": excerpt.text}
