"""HTTP routes of the chat API: thin handlers over sessions, rate limits and ChatTurn."""

from __future__ import annotations

import uuid
from typing import Any

from litestar import HttpMethod, Request, Response, delete, get, post, route
from litestar.datastructures import Cookie, State
from litestar.response import Stream

from app.chat import stream_protocol as protocol
from app.chat.answerers import NOT_COVERED
from app.chat.api_schema import (
    CHAT_POST_RESPONSES,
    FEEDBACK_RESPONSES,
    UNAVAILABLE,
    ApiOperation,
    ChatOperation,
    FeedbackOperation,
)
from app.chat.feedback import BadFeedback, parse_feedback, record_feedback
from app.chat.requests import BadChatRequest, check_content_type, parse_chat_body
from app.chat.sessions import (
    COOKIE_NAME,
    delete_session,
    list_messages,
    parse_session_id,
)
from app.chat.turn import start_turn
from app.config import Settings
from app.db.pool import replica_lag
from app.db.recovery import RETRY_AFTER_SECONDS
from app.db.status import count_sections
from app.logging import get_logger
from app.rate_limit import client_key, is_trusted_proxy

log = get_logger(__name__)


def error_response(status: int, error: str, detail: str, headers: dict[str, str] | None = None) -> Response[Any]:
    return Response({"error": error, "detail": detail}, status_code=status, headers=headers)


def _is_https(request: Request[Any, Any, Any], state: State) -> bool:
    if request.url.scheme == "https":
        return True
    peer = request.client.host if request.client else None
    proto = request.headers.get("x-forwarded-proto", "")
    return proto == "https" and is_trusted_proxy(peer, state.settings.trusted_proxies)


def session_cookie(request: Request[Any, Any, Any], state: State, session_id: uuid.UUID | None) -> Cookie:
    """docs_chat_id: httpOnly, path /, SameSite=Lax, Secure behind HTTPS; max_age 0 clears it."""
    return Cookie(
        key=COOKIE_NAME,
        value=str(session_id) if session_id else "",
        path="/",
        httponly=True,
        samesite="lax",
        secure=_is_https(request, state),
        max_age=60 * 60 * 24 * 30 if session_id else 0,
    )


def rate_limited_text(limit: int, period: str, retry_after_seconds: int) -> str:
    """'You have reached the limit of 5 questions per hour. Please come back in about 12 minutes.'"""
    minutes = max(1, round(retry_after_seconds / 60))
    return (f"You have reached the limit of {limit} question{'s' if limit != 1 else ''} per {period}. "
            f"Please come back in about {minutes} minute{'s' if minutes != 1 else ''}.")


@post("/docs/chat", status_code=200, summary="Ask a question; the reply streams (AI SDK UI message stream)",
      operation_class=ChatOperation, responses=CHAT_POST_RESPONSES)
async def post_chat(request: Request[Any, Any, Any], state: State) -> Response[Any] | Stream:
    try:
        question = parse_chat_body(await request.body(), request.headers.get("content-type"))
    except BadChatRequest as exc:
        return error_response(exc.status, exc.error, str(exc))
    settings = state.settings
    if not await state.readiness.wait(settings.startup_wait_seconds):
        return error_response(503, "starting", "the assistant is starting; please try again in a moment",
                              headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
    decision = await state.rate_limiter.hit(client_key(
        request.client.host if request.client else None, request.headers.get("x-forwarded-for"),
        settings.trusted_proxies, state.ip_secret))
    if not decision.allowed:
        return error_response(
            429, "rate_limited", rate_limited_text(decision.limit, decision.period, decision.retry_after_seconds),
            headers={"Retry-After": str(decision.retry_after_seconds)},
        )
    turn = await start_turn(
        state.services, parse_session_id(request.cookies.get(COOKIE_NAME)), question, settings.anonymous_audiences
    )
    log.info("chat_question", session=str(turn.session_id)[:8], chars=len(question))
    return Stream(
        turn.sse(), media_type=protocol.MEDIA_TYPE, headers=protocol.HEADERS,
        cookies=[session_cookie(request, state, turn.session_id)],
    )


@post("/docs/chat/feedback", status_code=200, summary="Rate an answer of this session: Yes/No (up/down) and an optional comment",
      operation_class=FeedbackOperation, responses=FEEDBACK_RESPONSES)
async def post_feedback(request: Request[Any, Any, Any], state: State) -> Response[Any]:
    try:
        check_content_type(request.headers.get("content-type"))
    except BadChatRequest as exc:
        return error_response(exc.status, exc.error, str(exc))
    try:
        feedback = parse_feedback(await request.body())
    except BadFeedback as exc:
        return error_response(400, "bad_request", str(exc))
    settings = state.settings
    decision = await state.feedback_limiter.hit(client_key(
        request.client.host if request.client else None, request.headers.get("x-forwarded-for"),
        settings.trusted_proxies, state.ip_secret))
    if not decision.allowed:
        minutes = max(1, round(decision.retry_after_seconds / 60))
        return error_response(
            429, "rate_limited", f"Too much feedback from this address; please try again in about {minutes} "
            f"minute{'s' if minutes != 1 else ''}.", headers={"Retry-After": str(decision.retry_after_seconds)})
    async with state.services.pool.acquire() as conn:
        recorded = await record_feedback(conn, parse_session_id(request.cookies.get(COOKIE_NAME)), feedback,
                                         settings.anonymous_audiences)
    if not recorded:
        return error_response(404, "not_found", "no answer with that messageId in this chat session")
    log.info("chat_feedback", rating=feedback.rating, comment=feedback.comment is not None)
    handoff = ({"url": settings.handoff_url, "text": settings.handoff_text}
               if feedback.rating < 0 and settings.handoff_url else None)
    return Response({"recorded": True, "handoff": handoff})


@get("/docs/chat", summary="The session's messages (from the docs_chat_id cookie)", responses=UNAVAILABLE,
     operation_class=ApiOperation)
async def get_chat(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    settings = state.settings
    # The panel's title is the site's name when one is set (SITE_NAME's default says nothing more
    # than the widget's own "Ask the documentation").
    title = settings.site_name if "site_name" in settings.model_fields_set else None
    widget = {"title": title, "greeting": settings.widget_greeting, "examples": settings.widget_examples}
    session_id = parse_session_id(request.cookies.get(COOKIE_NAME))
    if session_id is None:
        return {"messages": [], "widget": widget}
    async with state.services.pool.acquire() as conn:
        messages = await list_messages(conn, session_id, settings.anonymous_audiences)
    return {"messages": [_with_handoff(m.to_dict(), settings) for m in messages], "widget": widget}


def _with_handoff(message: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """An answer as the widget drew it: with the way out (HANDOFF_URL) it was shown with, after a
    refusal or a No, so that a reload keeps it."""
    if settings.handoff_url and message["role"] == "assistant" and (
            message["content"] == NOT_COVERED or message.get("rating") == "down"):
        message["handoff"] = {"url": settings.handoff_url, "text": settings.handoff_text}
    return message


@delete("/docs/chat", status_code=200, summary="Delete the session and its messages; clears the cookie",
        responses=UNAVAILABLE, operation_class=ApiOperation)
async def delete_chat(request: Request[Any, Any, Any], state: State) -> Response[dict[str, Any]]:
    session_id = parse_session_id(request.cookies.get(COOKIE_NAME))
    deleted = False
    if session_id is not None:
        async with state.services.pool.acquire() as conn:
            deleted = await delete_session(conn, session_id, state.settings.anonymous_audiences)
    return Response({"deleted": deleted}, cookies=[session_cookie(request, state, None)])


@get("/healthz", summary="Ready (model loaded), database reachable, sections the chat sees, embedding provider",
     responses=UNAVAILABLE, operation_class=ApiOperation)
async def healthz(state: State) -> Response[dict[str, Any]]:
    embedder = state.services.retriever.embedder
    provider = embedder.provider.model if embedder else "none"
    readiness = state.readiness
    if not readiness.ready.is_set():
        return Response({"status": "starting", "ready": False, "error": "starting",
                         "detail": "the embedding model is loading", "embedding_provider": provider},
                        status_code=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
    try:
        async with state.services.pool.acquire(timeout=5) as conn:
            sections = await count_sections(conn, state.settings.anonymous_audiences)
    except Exception as exc:  # noqa: BLE001 - health reports, it does not raise
        state.db_recovery.notice_failure()
        return Response(
            {"status": "error", "ready": True, "error": "database_unavailable",
             "detail": "the database is unreachable", "database": type(exc).__name__, "embedding_provider": provider},
            status_code=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    extra: dict[str, Any] = {"warm_up_error": readiness.error} if readiness.error else {}
    if state.services.read_pool is not state.services.pool:  # DATABASE_READ_URL: how far behind it is
        try:
            extra["replica"] = await replica_lag(state.services.pool, state.services.read_pool)
        except Exception as exc:  # noqa: BLE001 - health reports, it does not raise
            return Response(
                {"status": "error", "ready": True, "error": "replica_unavailable",
                 "detail": "the read replica is unreachable", "database": "ok", "replica": type(exc).__name__,
                 "embedding_provider": provider},
                status_code=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
            )
    return Response({"status": "ok", "ready": True, **extra, "database": "ok", "sections": sections,
                     "embedding_provider": provider, "answerer": state.services.answerer.name})


@route("/docs/chat", http_method=[HttpMethod.OPTIONS], status_code=204, include_in_schema=False)
async def options_chat() -> Response[None]:
    # Litestar's automatic OPTIONS answer lists only the first handler's method for a path that
    # several handlers share; this one lists them all. (CORS preflights are answered earlier.)
    return Response(None, status_code=204, headers={"Allow": "DELETE, GET, OPTIONS, POST"})


CHAT_ROUTES = [options_chat, post_chat, post_feedback, get_chat, delete_chat, healthz]
