"""One chat turn: retrieve, send the Relevant Guides, stream the Summary, keep what was said.

`start_turn()` is the one entry point of the chat route and `docschat ask`: it opens or continues
the session, stores the question and returns the `ChatTurn`. `ChatTurn.parts()` yields
stream-protocol parts; `ChatTurn.save()` stores the reply with its sources once, whether the
stream completed, failed, or the client went away mid-answer. `answer_question()` runs the same
`ChatTurn.parts()` with a given history and stores nothing: the Summary and its outcome, for
`docschat eval` and scripts.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from app.chat import stream_protocol as protocol
from app.chat.answer_deadline import within_deadlines
from app.chat.answerers import NOT_COVERED, NOT_FOUND, Answerer, SourcesFound
from app.chat.code_tools import code_tools, tool_calls_with_code, visible_code_trees
from app.chat.excerpts import Excerpt, ExcerptBounds, in_page_order, select_excerpts, with_rest_of_section
from app.chat.gaps import record_gap
from app.chat.sessions import ChatMessage, add_message, list_messages, upsert_session
from app.chat.tools import SearchDocsTool, ToolBox, ToolStatus, with_statuses
from app.chat.turn_insights import count_turn
from app.config import Settings
from app.corpus.code_tree import CodeTree
from app.corpus.sources import Source
from app.insights.record import InsightsRecorder
from app.judge.answer_check import AnswerCheck, unquoted_names, unstated_limit, with_check
from app.judge.outcomes import is_partly
from app.judge.verify import Verifier, not_covered_line, with_verdict
from app.logging import get_logger
from app.metrics import observe_turn
from app.search.conversation import QueryRewriter, answer_check_of, retrieve_in_conversation
from app.search.retrieve import Retrieval, RetrievalError, Retriever
from app.search.urls import absolute_url

# Earlier user questions that may complete the latest one (app/search/standalone.py reads 3).
RETRIEVAL_HISTORY_QUESTIONS = 3

log = get_logger(__name__)


@dataclass
class ChatServices:
    """What a chat turn needs, built once per app (or per CLI call)."""

    pool: asyncpg.Pool
    settings: Settings
    retriever: Retriever
    answerer: Answerer
    rewriter: QueryRewriter | None = None
    verifier: Verifier | None = None  # ANSWER_VERIFIER=model: the answer check's model call (app/judge/verify.py)
    code_sources: tuple[Source, ...] = ()  # kind = "code": the model may read them (read_file, list_directory)
    code_trees: dict[tuple[str, str], CodeTree] = field(default_factory=dict)  # (source, commit) → tree
    insights: InsightsRecorder | None = None  # the server's (app/insights/record.py); None: turns are not counted
    background: set[asyncio.Task[Any]] = field(default_factory=set)

    @property
    def read_pool(self) -> asyncpg.Pool:
        """Where retrieval reads: the read replica's pool with DATABASE_READ_URL, else `pool`."""
        return self.retriever.pool

    def keep(self, task: asyncio.Task[Any]) -> None:
        self.background.add(task)
        task.add_done_callback(self.background.discard)


async def start_turn(
    services: ChatServices, session_id: uuid.UUID | None, question: str, audiences: list[str] | None
) -> ChatTurn:
    """Open (None, or an id whose row is gone) or continue the session, store the question, and
    return the turn that answers it. `question` is already parsed and clipped; `audiences` is who
    asks (the chat route: settings.anonymous_audiences; every search of the turn obeys it)."""
    if services.settings.flag_public:
        audiences = ["public"]  # what every search of the turn is held to (Retriever.retrieve): its session too
    async with services.pool.acquire() as conn, conn.transaction():
        session_id = await upsert_session(conn, session_id, audiences)
        question_id = await add_message(conn, session_id, "user", question)
    return ChatTurn(services, session_id, question, audiences, question_id)


def excerpt_bounds(settings: Settings) -> ExcerptBounds:
    return ExcerptBounds(settings.chat_max_excerpts, settings.chat_excerpt_min_score, settings.chat_max_excerpt_chars)


def _guide(title: str, url: str, heading: str, place: tuple[str, ...]) -> dict[str, Any]:
    """A Relevant Guide as stored with the reply (the widget draws it again on reload): its page's
    place in the site only when it has one."""
    return {"title": title, "url": url, "heading": heading, **({"place": list(place)} if place else {})}


def guide_numbering(retrieval: Retrieval, settings: Settings) -> dict[str, int]:
    """Page URL → its number among the Relevant Guides (the search tool numbers its finds after them)."""
    return {absolute_url(settings.docs_base_url, page.page_href): number
            for number, page in enumerate(retrieval.pages, start=1)}


def model_excerpts(
    retrieval: Retrieval, settings: Settings, model: str | None, numbering: dict[str, int] | None = None
) -> list[Excerpt]:
    """The numbered excerpts the answerer is given before any tool call (the admin tester shows them).
    `numbering` (the guides' numbers) is extended with any page first given here."""
    numbering = guide_numbering(retrieval, settings) if numbering is None else numbering
    return select_excerpts(retrieval, excerpt_bounds(settings), settings.docs_base_url, numbering, model)


@dataclass
class ChatTurn:
    services: ChatServices
    session_id: uuid.UUID
    question: str  # already clipped and stored
    audiences: list[str] | None  # who asks: the chat route passes settings.anonymous_audiences
    question_id: int  # the stored question: its history is what came before it
    text: list[str] = field(default_factory=list)
    sources: list[dict[str, Any]] = field(default_factory=list)
    failed: str | None = None
    retrieval: Retrieval | None = None
    message_key: str = field(default_factory=lambda: uuid.uuid4().hex)  # the stream's messageId, stored with the reply
    # The conversation before this question when the caller gives it (answer_question): no session is read.
    earlier: list[ChatMessage] | None = None
    _saving: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    async def parts(self) -> AsyncIterator[dict[str, Any]]:
        services, settings = self.services, self.services.settings
        text_id = f"text-{self.message_key[:8]}"
        yield protocol.start(self.message_key)
        yield protocol.data_status("Searching the documentation")
        try:
            if self.earlier is not None:
                earlier = self.earlier
            else:
                async with services.pool.acquire() as conn:
                    # What was stored before this question: not "all but the newest", which is another
                    # turn's question when two are asked at once in one session (two tabs, a double send).
                    earlier = await list_messages(
                        conn, self.session_id, self.audiences,
                        max(settings.chat_history_turns, 2 * RETRIEVAL_HISTORY_QUESTIONS), before=self.question_id,
                    )
            history = earlier[-settings.chat_history_turns:] if settings.chat_history_turns else []
            retrieval = await retrieve_in_conversation(
                services.retriever, self.question, _questions(earlier)[-RETRIEVAL_HISTORY_QUESTIONS:],
                rewriter=services.rewriter, audiences=self.audiences,
            )
            trees = await visible_code_trees(services.pool, services.code_sources, self.audiences, services.code_trees)
        except (RetrievalError, asyncpg.PostgresError, OSError) as exc:
            self.failed = "search is unavailable right now; please try again in a moment"
            log.warning("chat_retrieval_failed", error=type(exc).__name__)
            yield protocol.error(self.failed)
            return
        self.retrieval = retrieval
        log.info("chat_retrieval", method=(retrieval.standalone or {}).get("method"), pages=len(retrieval.pages),
                 would_answer=retrieval.would_answer)
        if retrieval.degraded:
            yield protocol.data_status(DEGRADED_STATUS.get(retrieval.degraded, retrieval.degraded), "unavailable")
        # The judgment hook: the answer check's verdict (offline, or the model's); "not" refuses.
        numbering = guide_numbering(retrieval, settings)
        excerpts = model_excerpts(retrieval, settings, services.retriever.model, numbering) if retrieval.would_answer else []
        quotes = bool(getattr(services.answerer, "quotes_passages", False))
        if excerpts and quotes:
            excerpts = await _in_page_order(services, excerpts, retrieval)
        if services.verifier is not None and excerpts:
            yield protocol.data_status("Checking that the excerpts answer the question")
        check = await apply_verifier(services.verifier, excerpts, retrieval)
        metadata = {"confidence": retrieval.confidence, "would_answer": retrieval.would_answer,
                    "degraded": retrieval.degraded, **_handoff(settings, retrieval.would_answer)}
        if not retrieval.would_answer:
            # Below the floor the guides would be unrelated pages: say so instead, call no model.
            self.text.append(NOT_COVERED)
            for part in (protocol.text_start(text_id), protocol.text_delta(text_id, NOT_COVERED),
                         protocol.text_end(text_id), protocol.finish(metadata)):
                yield part
            return
        for number, page in enumerate(retrieval.pages, start=1):
            url = absolute_url(settings.docs_base_url, page.href)
            self.sources.append(_guide(page.title, url, page.heading, page.place))
            yield protocol.source_url(f"source-{number}", url, page.title, page.place)
        code = code_tools(trees)
        tools = ToolBox(
            [SearchDocsTool(services.retriever, excerpt_bounds(settings), settings.docs_base_url, numbering,
                            {"audiences": self.audiences}),
             *code],
            max_calls=tool_calls_with_code(settings.chat_tool_calls_per_turn) if code else settings.chat_tool_calls_per_turn,
            timeout_seconds=settings.chat_tool_timeout_seconds,
        )
        yield protocol.text_start(text_id)
        try:
            if not excerpts:
                self.text.append(NOT_FOUND)  # nothing to answer from: no model is called
                yield protocol.text_delta(text_id, NOT_FOUND)
            else:
                yield protocol.data_status("Writing the answer")
                # An answerer that reads no history (the offline one) gets the query as searched:
                # a follow-up completed from earlier turns ("and its colour?" alone names nothing).
                asked = self.question if getattr(services.answerer, "reads_history", True) else retrieval.question
                async for event in with_statuses(within_deadlines(
                    services.answerer.stream(asked, excerpts, history, tools),
                    first_token_seconds=settings.answer_first_token_timeout_seconds,
                    total_seconds=settings.answer_timeout_seconds,
                ), tools):
                    if isinstance(event, ToolStatus):
                        yield protocol.data_status(event.text, event.state)
                        continue
                    if isinstance(event, SourcesFound):  # pages the model's search found: listed before its text
                        for source in event.sources:
                            self.sources.append(_guide(source.title, source.url, source.heading, source.place))
                            yield protocol.source_url(f"source-{source.number}", source.url, source.title,
                                                      source.place)
                        continue
                    self.text.append(event)
                    yield protocol.text_delta(text_id, event)
        except (asyncio.CancelledError, GeneratorExit):
            raise
        except Exception as exc:  # noqa: BLE001 - any answerer failure becomes an error part
            self.failed = "the summary is unavailable right now; the guides above are still relevant"
            log.warning("chat_answer_failed", answerer=services.answerer.name, error=type(exc).__name__)
            yield protocol.error(self.failed)
            return
        if excerpts and quotes:
            check = _quoted_check(check, retrieval, "".join(self.text))
        if excerpts and (line := not_covered_line(check)):  # "partly": say what the docs do not cover
            if settings.handoff_url:  # and where to ask about the rest
                line += f" [{_link_text(settings.handoff_text)}]({settings.handoff_url})"
            self.text.append(line)
            yield protocol.text_delta(text_id, line)
        yield protocol.text_end(text_id)
        yield protocol.finish(metadata)

    @property
    def outcome(self) -> str:
        """"refused" (the floor or a model verifier's "not"), "partly" (answered with a line on what
        the docs do not mention), "answered", or "failed" (search or the answerer failed)."""
        if self.failed or self.retrieval is None:
            return "failed"
        if not self.retrieval.would_answer:
            return "refused"
        return "partly" if is_partly(self.retrieval.judgment) else "answered"

    def save(self) -> asyncio.Task[None]:
        """Store the reply (possibly partial) with its sources, and the gap if it is one: one task,
        however often asked for, that a cancelled request does not cancel."""
        if self._saving is None:
            self._saving = asyncio.create_task(self._save())
            self.services.keep(self._saving)
        return self._saving

    async def _save(self) -> None:
        try:
            content = "".join(self.text)
            if content or self.sources:
                async with self.services.pool.acquire() as conn:
                    await add_message(conn, self.session_id, "assistant", content, self.sources, self.message_key)
            if self.retrieval is not None:  # after the reply, which the session shows first
                await record_gap(self.services.pool, self.retrieval, self.services.settings.gap_retention_days)
            await count_turn(self.services.insights, self.services.retriever, self.question, self.retrieval, self.sources)
        except Exception as exc:  # noqa: BLE001 - the reply was sent; only its record is lost
            log.warning("chat_save_failed", error=type(exc).__name__)

    async def sse(self) -> AsyncIterator[str]:
        """The turn as server-sent events; the reply is saved even if the client disconnects."""
        try:
            async for part in observe_turn(self.parts()):
                yield protocol.sse(part)
            # Saved before [DONE]: a client that reads to the end finds the reply in its history.
            await asyncio.shield(self.save())
            yield protocol.DONE
        finally:
            self.save()


# What a degraded retrieval (app/search/retrieve.py) means to the reader.
DEGRADED_STATUS = {
    "keyword_only": "Semantic search unavailable — searching by keywords only",
    "vector_only": "Keyword search unavailable — searching by meaning only",
}


async def apply_verifier(
    verifier: Verifier | None, excerpts: list[Excerpt], retrieval: Retrieval
) -> AnswerCheck | None:
    """The verdict the turn acts on: the offline check's (already applied to the retrieval), or,
    with a verifier and excerpts, the model's well-formed verdict, whose "not" refuses the
    retrieval (no guides, a gap). The question checked is the one searched (a follow-up completed
    from earlier turns)."""
    offline = answer_check_of(retrieval)
    if verifier is None or not excerpts or not retrieval.would_answer:
        return offline
    check = await verifier.verify(retrieval.question, excerpts)
    if check is None:
        return offline
    retrieval.judgment = with_verdict(retrieval.judgment, check)
    return check


async def _in_page_order(services: ChatServices, excerpts: list[Excerpt], retrieval: Retrieval) -> list[Excerpt]:
    """The excerpts with their places in their pages (app/chat/excerpts.py in_page_order), the
    leading one with the rest of its section (with_rest_of_section); as they are, in the
    retrieval's order, when the index cannot say."""
    settings = services.settings
    try:
        excerpts = await in_page_order(excerpts, retrieval, services.read_pool)
        return await with_rest_of_section(excerpts, retrieval.audiences, services.read_pool,
                                          excerpt_bounds(settings), settings.docs_base_url)
    except (asyncpg.PostgresError, OSError) as exc:
        log.warning("chat_page_order_failed", error=type(exc).__name__)
        return excerpts


def _quoted_check(check: AnswerCheck | None, retrieval: Retrieval, answer: str) -> AnswerCheck | None:
    """The offline check once the answer is quoted: a name asked about that no quoted passage shows,
    or a limit asked for that none states, makes it "partly" (app/judge/answer_check.py
    unquoted_names, unstated_limit), recorded in the judgment (the turn's outcome and its gap). A
    model verifier's verdict stands as it is."""
    if check is None or check.method != "offline":
        return check
    quoted = unstated_limit(unquoted_names(check, answer), retrieval.question, answer)
    if quoted is not check:
        retrieval.judgment = with_check(retrieval.judgment, quoted)
    return quoted


def _handoff(settings: Settings, would_answer: bool) -> dict[str, Any]:
    """The way out (HANDOFF_URL) in the finish metadata when the docs do not cover the question."""
    if would_answer or not settings.handoff_url:
        return {}
    return {"handoff": {"url": settings.handoff_url, "text": settings.handoff_text}}


@dataclass(frozen=True)
class Answer:
    """What the chat says to a question: the Summary as the reader sees it, and its outcome."""

    summary: str
    outcome: str  # ChatTurn.outcome: "answered", "partly", "refused" or "failed"
    sources: list[dict[str, Any]]
    retrieval: Retrieval | None


async def answer_question(
    services: ChatServices, question: str, history: list[str] | None = None, audiences: list[str] | None = None
) -> Answer:
    """The chat's answer to `question` after the earlier user questions `history` (oldest first), with
    `services`' settings and answerer: the very turn the chat route and `docschat ask` run
    (`ChatTurn.parts`), without a session; nothing is stored (no message, no gap)."""
    if services.settings.flag_public:
        audiences = ["public"]
    earlier = [ChatMessage("user", q, [], "") for q in history or []]
    turn = ChatTurn(services, uuid.UUID(int=0), question, audiences, 0, earlier=earlier)
    async for _ in turn.parts():
        pass
    return Answer("".join(turn.text), turn.outcome, turn.sources, turn.retrieval)


def _link_text(text: str) -> str:
    """HANDOFF_TEXT as a Markdown link's text: brackets would end it early."""
    return text.replace("[", "(").replace("]", ")")


def _questions(messages: list[ChatMessage]) -> list[str]:
    return [m.content for m in messages if m.role == "user"]
