"""The doors' routes: /llms.txt, /llms-full.txt and /mcp (streamable HTTP, mounted ASGI).

`open_doors` runs inside the app's lifespan: it builds the MCP server over the chat's services and
starts the SDK's session manager (its task group lives as long as the app).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any, cast

from litestar import Response, get
from litestar.datastructures import State
from litestar.enums import MediaType
from litestar.handlers import asgi
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter
from litestar.types import Receive, Scope, Send

from app.chat.api_schema import UNAVAILABLE
from app.config import Settings
from app.doors.llms_txt import LlmsTexts, LlmsTxtCache, etag_matches
from app.doors.mcp_server import SCOPE_AUDIENCES, McpDoor, audiences_for_authorization
from app.logging import get_logger
from app.rate_limit import ClientRateLimiter, client_key

log = get_logger(__name__)

TEXT_HEADERS = {"cache-control": "public, max-age=60", "x-content-type-options": "nosniff"}


@asynccontextmanager
async def open_doors(state: State, settings: Settings) -> AsyncIterator[None]:
    """The llms.txt cache, the MCP server and its rate limit on `state`, for the app's lifetime."""
    services = state.services
    state.llms_txt = LlmsTxtCache(settings, services.retriever.sources.sources if services.retriever.sources else ())
    state.mcp_limiter = ClientRateLimiter(services.pool, settings.mcp_rate_limit_per_hour,
                                          settings.mcp_rate_limit_per_day, "mcp")

    async def ready() -> bool:
        return bool(await state.readiness.wait(settings.startup_wait_seconds))

    state.mcp = McpDoor(services, ready=ready)
    async with state.mcp.session_manager.run():
        yield


def _text_response(if_none_match: str | None, text: str, etag: str) -> Response[str]:
    headers = {**TEXT_HEADERS, "etag": etag}
    if etag_matches(if_none_match, etag):
        return Response("", status_code=304, headers=headers)
    return Response(text, media_type=MediaType.TEXT, headers=headers)


async def _texts(state: State) -> LlmsTexts:
    state.insights.count("llms_txt")  # a request of /llms.txt or /llms-full.txt (app/insights/record.py)
    cache: LlmsTxtCache = state.llms_txt
    return await cache.get(state.services.read_pool)


# Documented in /schema: plain text, and 304 when If-None-Match names the current ETag.
TEXT_RESPONSES = {
    304: ResponseSpec(data_container=None, description="Not modified: If-None-Match names the current ETag.",
                      generate_examples=False, media_type=MediaType.TEXT),
    **UNAVAILABLE,
}
IfNoneMatch = Annotated[str | None, HeaderParameter(name="if-none-match", required=False,
                                                    description="An ETag received before: 304 while it is current.")]


@get("/llms.txt", media_type=MediaType.TEXT, responses=TEXT_RESPONSES, tags=["doors"],
     summary="The docs as an llms.txt index (llmstxt.org): sections of links with one-line descriptions")
async def llms_txt(state: State, if_none_match: IfNoneMatch = None) -> Response[str]:
    texts = await _texts(state)
    return _text_response(if_none_match, texts.index, texts.index_etag)


@get("/llms-full.txt", media_type=MediaType.TEXT, responses=TEXT_RESPONSES, tags=["doors"],
     summary="Every page the chat may show, as text, in page order")
async def llms_full_txt(state: State, if_none_match: IfNoneMatch = None) -> Response[str]:
    texts = await _texts(state)
    return _text_response(if_none_match, texts.full, texts.full_etag)


async def _send_json(send: Send, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
    raw = json.dumps(body).encode()
    extra = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    start: Any = {"type": "http.response.start", "status": status,
                  "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()), *extra]}
    body_event: Any = {"type": "http.response.body", "body": raw}
    await send(start)
    await send(body_event)


def _header(scope: Scope, name: bytes) -> str | None:
    values = [v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == name]
    return values[-1] if values else None


@asgi("/mcp", is_mount=True, copy_scope=True, include_in_schema=False)
async def mcp_http(scope: Scope, receive: Receive, send: Send) -> None:
    """MCP over streamable HTTP (stateless, JSON responses; POST only): rate limited per hashed client IP like
    the chat; `Authorization: Bearer <token>` of MCP_TOKENS widens the audiences, any other
    Authorization is 401; a browser page of another site (an Origin not in CORS_ORIGINS) is 403."""
    if scope["type"] != "http":
        return
    if scope.get("method") != "POST":
        # Stateless with JSON responses: a GET stream would never carry anything, yet it stays open
        # as long as the caller likes; there is no session to DELETE. Only POST is served.
        await _send_json(send, 405, {"error": "method_not_allowed", "detail": "POST JSON-RPC messages to /mcp"},
                         {"Allow": "POST"})
        return
    state: State = scope["app"].state
    settings: Settings = state.settings
    client = scope.get("client")
    key = client_key(client[0] if client else None, _header(scope, b"x-forwarded-for"), settings.trusted_proxies,
                     state.ip_secret)
    decision = await state.mcp_limiter.hit(key)
    if not decision.allowed:
        await _send_json(send, 429, {"error": "rate_limited", "detail": f"more than {decision.limit} MCP requests per "
                                     f"{decision.period} from this address; try again later"},
                         {"Retry-After": str(decision.retry_after_seconds)})
        return
    origin = _header(scope, b"origin")
    if origin is not None and origin.rstrip("/") not in settings.cors_origins:
        await _send_json(send, 403, {"error": "forbidden", "detail": "browser pages of other sites may not call /mcp"})
        return
    audiences = audiences_for_authorization(_header(scope, b"authorization"), settings)
    if audiences is None:
        log.warning("mcp_auth_failed", client=key[:12])
        await _send_json(send, 401, {"error": "unauthorized", "detail": "unknown token: send no Authorization header, "
                                     "or Authorization: Bearer <a token of MCP_TOKENS>"},
                         {"WWW-Authenticate": 'Bearer realm="docschat mcp"'})
        return
    door: McpDoor = state.mcp
    state.insights.count("mcp")  # a JSON-RPC request served (app/insights/record.py)
    # The SDK takes Starlette's ASGI types; Litestar's are the same messages, typed apart.
    await door.session_manager.handle_request({**scope, SCOPE_AUDIENCES: tuple(audiences)}, cast(Any, receive),
                                              cast(Any, send))


DOORS_ROUTES = [llms_txt, llms_full_txt, mcp_http]
