"""create_app(): the Litestar application (chat API, widget, demo page, health)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from litestar import Litestar, Request, Response
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.exceptions import HTTPException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR

from app.chat.requests import MAX_BODY_BYTES
from app.chat.routes import CHAT_ROUTES
from app.config import Settings, get_settings
from app.db.recovery import RETRY_AFTER_SECONDS, UNAVAILABLE_ERRORS
from app.errors import ConfigError
from app.logging import configure_logging, get_logger
from app.rate_limit import ClientRateLimiter, load_ip_secret

log = get_logger(__name__)

_ERROR_NAMES = {400: "bad_request", 401: "unauthorized", 404: "not_found", 405: "method_not_allowed",
                413: "payload_too_large", 415: "unsupported_media_type", 429: "rate_limited", 503: "unavailable"}


def _http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[dict[str, Any]]:
    status = exc.status_code
    detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
    if status == 413:
        detail = f"request body is larger than {MAX_BODY_BYTES} bytes"
    return Response({"error": _ERROR_NAMES.get(status, "http_error"), "detail": detail}, status_code=status,
                    headers=getattr(exc, "headers", None))


def _database_unavailable(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, Any]]:
    """The database could not be reached: 503, and one recovery attempt is set going."""
    log.warning("database_unavailable", path=request.url.path, error=type(exc).__name__)
    recovery = getattr(request.app.state, "db_recovery", None)
    if recovery is not None:
        recovery.notice_failure()
    return Response({"error": "database_unavailable",
                     "detail": "the database is unreachable right now; please try again in a few seconds"},
                    status_code=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def _internal_error(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, Any]]:
    log.error("unhandled_error", path=request.url.path, error=type(exc).__name__)
    return Response({"error": "internal_error", "detail": "unexpected server error"},
                    status_code=HTTP_500_INTERNAL_SERVER_ERROR)


def cors_config(origins: list[str]) -> CORSConfig | None:
    """CORS for the listed docs-site origins, with credentials (the session cookie).

    `*` is refused: a wildcard with credentials would let any site read a visitor's chat, and
    browsers reject `*` for credentialed requests anyway, so the widget would not work either.
    """
    if not origins:
        return None
    if any("*" in origin for origin in origins):
        raise ConfigError(
            "CORS_ORIGINS may not contain '*': the chat API sends a session cookie, which may only be "
            "shared with named origins. List your docs sites, e.g. CORS_ORIGINS=https://docs.example.com"
        )
    return CORSConfig(allow_origins=origins, allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
                      allow_headers=["content-type"], allow_credentials=True)


def prepare_serving(settings: Settings) -> None:
    """Before workers start: the database reachable and at head. (The IP secret needs nothing here:
    it is created once in the database by whichever worker asks first.)"""
    import asyncio

    from app.db.migrate import ensure_schema
    from app.db.url import resolve_database_url

    asyncio.run(ensure_schema(resolve_database_url(settings)))


class Readiness:
    """Whether the server has loaded what the first question needs (the embedding model)."""

    def __init__(self) -> None:
        self.ready = asyncio.Event()
        self.error: str | None = None

    async def run(self, warm_up: Coroutine[Any, Any, None]) -> None:
        try:
            await warm_up
        except Exception as exc:  # noqa: BLE001 - reported by /healthz, questions go keyword-only
            self.error = f"{type(exc).__name__}: the embedding model could not be loaded"
            log.error("warm_up_failed", error=type(exc).__name__)
        self.ready.set()

    async def wait(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self.ready.wait(), timeout)
        except TimeoutError:
            return False
        return True


def create_app(settings: Settings | None = None) -> Litestar:
    """The application; the database pool is opened at startup, never at import."""
    settings = settings or get_settings()
    configure_logging(settings.log_level)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        from app.admin.lifecycle import start_operations
        from app.chat.services import build_chat_services
        from app.db.migrate import ensure_schema
        from app.db.pool import create_pool, open_read_pool
        from app.db.recovery import DatabaseRecovery
        from app.db.url import resolve_database_url
        from app.doors.routes import open_doors
        from app.web.search_routes import search_cache, search_gate, search_rate_limiter

        url = resolve_database_url(settings)
        await ensure_schema(url)
        pool = await create_pool(url, min_size=1, max_size=settings.db_pool_size)
        read_pool = await open_read_pool(settings, min_size=1, max_size=settings.db_pool_size) \
            if settings.database_read_url else None
        state: State = app.state
        state.settings = settings
        state.services = build_chat_services(pool, settings, read_pool)
        state.rate_limiter = ClientRateLimiter(pool, settings.rate_limit_per_hour, settings.rate_limit_per_day)
        state.feedback_limiter = ClientRateLimiter(pool, settings.feedback_per_hour, settings.feedback_per_day, "feedback")
        state.search_limiter = search_rate_limiter(pool, settings.search_rate_limit)
        state.search_cache = search_cache(settings.search_cache_size)
        state.search_gate = search_gate(settings.search_concurrency)
        state.db_recovery = DatabaseRecovery(pool, None if settings.database_url else settings.docschat_home)
        state.ip_secret = await load_ip_secret(
            pool, settings.ip_hash_secret.get_secret_value() if settings.ip_hash_secret else None,
            settings.docschat_home,
        )
        # The schema is checked above; the embedding model loads next (seconds). Until it has,
        # /healthz says "ready": false and questions wait for it instead of going keyword-only.
        state.readiness = Readiness()
        retriever = state.services.retriever
        if retriever.needs_warm_up:
            warm_up = asyncio.create_task(state.readiness.run(retriever.warm_up()))
        else:
            state.readiness.ready.set()
            warm_up = None
        operations = start_operations(state, pool, settings)
        doors = AsyncExitStack()  # /llms.txt's cache and the MCP session manager (app/doors/routes.py)
        await doors.enter_async_context(open_doors(state, settings))
        try:
            yield
        finally:
            await doors.aclose()
            await operations.stop()
            if warm_up is not None:
                warm_up.cancel()
            if state.services.background:  # replies being stored
                await asyncio.gather(*state.services.background, return_exceptions=True)
            await state.db_recovery.close()
            if read_pool is not None:
                await read_pool.close()
            await pool.close()

    from app.admin.routes import admin_routes
    from app.doors.routes import DOORS_ROUTES
    from app.web.routes import WEB_ROUTES
    from app.web.search_routes import SEARCH_ROUTES

    cors = cors_config(settings.cors_origins)
    handlers: list[Any] = [*CHAT_ROUTES, *SEARCH_ROUTES, *WEB_ROUTES, *DOORS_ROUTES]
    middleware: list[Any] = []
    if settings.metrics_enabled:
        from app.metrics import metrics_middleware
        from app.web.metrics import metrics_endpoint

        handlers.append(metrics_endpoint)
        middleware.append(metrics_middleware)
    return Litestar(
        route_handlers=[*handlers, *admin_routes(settings)],
        middleware=middleware,
        lifespan=[lifespan],
        cors_config=cors,
        # The schema as JSON at /schema and /schema/openapi.json: Litestar's default /schema page
        # (Redoc) loads its script and fonts from CDNs, so it could carry no CSP of ours.
        openapi_config=OpenAPIConfig(title="docschat", version="0.1.0", path="/schema",
                                     render_plugins=[JsonRenderPlugin(path=["/", "/openapi.json"])]),
        exception_handlers={HTTPException: _http_error, Exception: _internal_error,
                            **{error: _database_unavailable for error in UNAVAILABLE_ERRORS}},
        request_max_body_size=MAX_BODY_BYTES,
        debug=False,
    )
