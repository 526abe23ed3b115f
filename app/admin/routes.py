"""The admin API under /admin/api/ and the page at /admin: thin handlers over app.indexing and app.admin.tester."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from litestar import Request, Response, Router, delete, get, post
from litestar.datastructures import State
from litestar.handlers.base import BaseRouteHandler
from litestar.params import FromPath, FromQuery

from app.admin.auth import require_admin
from app.admin.tester import BadTesterRequest, explain_retrieval, tester_audiences
from app.chat.feedback import list_feedback, summarize
from app.chat.gaps import clear_gaps, list_gaps
from app.chat.sessions import questions_before
from app.chat.turn import RETRIEVAL_HISTORY_QUESTIONS
from app.config import Settings
from app.errors import ConfigError
from app.indexing.jobs import SyncJobBusy
from app.indexing.status import index_status
from app.insights.record import InsightsRecorder
from app.insights.report import BadWindow, parse_window, read_insights
from app.search.plain_text import plain_text
from app.search.retrieve import RetrievalError

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
NO_STORE = {"cache-control": "no-store"}
# The page loads only its own script and talks only to its own origin; data never becomes markup.
PAGE_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
        "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
}


def _error(status: int, error: str, detail: str, **extra: Any) -> Response[dict[str, Any]]:
    return Response({"error": error, "detail": detail, **extra}, status_code=status, headers=NO_STORE)


def _provider_model(state: State) -> str | None:
    embedder = state.services.retriever.embedder
    return embedder.provider.model if embedder else None


@get("/status", summary="Per source counts, last sync, provider, scheduler, gaps, database size")
async def admin_status(state: State) -> Response[dict[str, Any]]:
    scheduler = state.sync_scheduler.info() if state.sync_scheduler else None
    services = state.services
    status = await index_status(services.pool, state.settings, provider_model=_provider_model(state),
                                answerer=services.answerer, scheduler=scheduler,
                                read_pool=services.read_pool if services.read_pool is not services.pool else None)
    return Response(status, headers=NO_STORE)


@get("/test", summary="The retrieval tester: ranks, fused scores, pages kept and why, the model's excerpts")
async def admin_test(
    state: State, q: FromQuery[str | None] = None, audience: FromQuery[str | None] = None,
    message_id: FromQuery[int | None] = None,
) -> Response[dict[str, Any]]:
    """`message_id`: an answer of a visitor's conversation (a feedback row's). `q` (by default the
    question it answered) is asked after the conversation's earlier questions and, unless
    `audience` is given, with its audiences, as the chat asked it."""
    services = state.services
    try:
        audiences, history = tester_audiences(audience), None
        if message_id is not None:
            async with services.pool.acquire() as conn:
                found = await questions_before(conn, message_id, RETRIEVAL_HISTORY_QUESTIONS + 1)
            if found is None or not found[0]:
                return _error(404, "not_found", f"no conversation has an answer with message_id {message_id}")
            *history, answered = found[0]
            q = q if q and q.strip() else answered
            if audience is None or not audience.strip():
                audiences = found[1]
        result = await explain_retrieval(services.retriever, state.settings, q or "", audiences, history,
                                         services.rewriter if history else None)
    except BadTesterRequest as exc:
        return _error(400, "bad_request", str(exc))
    except RetrievalError as exc:
        return _error(503, "search_unavailable", str(exc))
    return Response(result, headers=NO_STORE)


@get("/gaps", summary="Questions the docs could not answer, grouped as `docschat gaps` groups them")
async def admin_gaps(state: State) -> Response[dict[str, Any]]:
    async with state.services.pool.acquire() as conn:
        gaps = await list_gaps(conn, state.settings.gap_retention_days, settings=state.settings)
    return Response({"gaps": [gap.to_dict() for gap in gaps]}, headers=NO_STORE)


@get("/feedback", summary="Visitors' Yes/No on answers, newest first, with the question each answered")
async def admin_feedback(state: State) -> Response[dict[str, Any]]:
    async with state.services.pool.acquire() as conn:
        items = await list_feedback(conn)
    # `answer_text`: the answer as the visitor read it, without its Markdown (fences, backticks).
    feedback = [{**f.to_dict(), "answer_text": plain_text(f.answer or "")} for f in items]
    return Response({"summary": summarize(items), "feedback": feedback}, headers=NO_STORE)


@get("/insights", summary="Per day questions, outcomes, ratings and requests per door; top questions, pages "
     "and no-result queries (since=7d, 30d, 90d)")
async def admin_insights(state: State, since: FromQuery[str | None] = None) -> Response[dict[str, Any]]:
    try:
        days = parse_window(since)
    except BadWindow as exc:
        return _error(400, "bad_request", str(exc))
    recorder: InsightsRecorder = state.insights
    await recorder.flush()  # this process's door counts, so what it just served shows
    async with state.services.pool.acquire() as conn:
        result = await read_insights(conn, state.settings, days)
    return Response(result, headers=NO_STORE)


@delete("/gaps", status_code=200, summary="Forget every recorded gap")
async def admin_clear_gaps(state: State) -> Response[dict[str, Any]]:
    async with state.services.pool.acquire() as conn:
        deleted = await clear_gaps(conn)
    return Response({"deleted": deleted}, headers=NO_STORE)


def _parse_reindex_body(raw: bytes) -> str | None:
    """`{}` or `{"source": "name"}` (an empty body is `{}`); the source name or None."""
    if not raw.strip():
        return None
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ValueError("the body must be JSON: {} or {\"source\": \"name\"}") from None
    if not isinstance(body, dict) or set(body) - {"source"}:
        raise ValueError("the body must be {} or {\"source\": \"name\"}")
    source = body.get("source")
    if source is not None and (not isinstance(source, str) or not source.strip()):
        raise ValueError("source must be a source name (a non-empty string)")
    return source.strip() if source else None


@post("/reindex", status_code=202, summary="Start a sync (all sources, or one): 202 + job; 409 while one runs")
async def admin_reindex(request: Request[Any, Any, Any], state: State) -> Response[dict[str, Any]]:
    try:
        source = _parse_reindex_body(await request.body())
    except ValueError as exc:
        return _error(400, "bad_request", str(exc))
    try:
        job = await state.sync_runner.start(source=source, trigger="admin")
    except ConfigError as exc:
        return _error(400, "bad_request", str(exc))
    except SyncJobBusy as exc:
        return _error(409, "sync_running", str(exc), job=exc.running)
    return Response({"job": job}, status_code=202,
                    headers={**NO_STORE, "location": f"/admin/api/reindex/{job['id']}"})


@get("/reindex/{job_id:str}", summary="A sync job's state, per-source progress and summary")
async def admin_reindex_job(state: State, job_id: FromPath[str]) -> Response[dict[str, Any]]:
    try:
        parsed = uuid.UUID(job_id)
    except ValueError:
        return _error(404, "not_found", "no sync job with that id")
    job = await state.sync_runner.view(parsed)
    if job is None:
        return _error(404, "not_found", "no sync job with that id")
    return Response({"job": job}, headers=NO_STORE)


@get("/admin", include_in_schema=False)
async def admin_page() -> Response[bytes]:
    return Response((STATIC / "admin.html").read_bytes(), media_type="text/html",
                    headers=PAGE_HEADERS)


@get("/admin/admin.js", include_in_schema=False)
async def admin_js() -> Response[bytes]:
    return Response((STATIC / "admin.js").read_bytes(), media_type="text/javascript",
                    headers={"cache-control": "no-store", "x-content-type-options": "nosniff"})


# uPlot (MIT, app/web/static/uPlot.LICENSE), vendored: the Insights charts (design/insights.md).
@get("/admin/uPlot.iife.min.js", include_in_schema=False)
async def admin_uplot_js() -> Response[bytes]:
    return Response((STATIC / "uPlot.iife.min.js").read_bytes(), media_type="text/javascript",
                    headers={"cache-control": "public, max-age=86400", "x-content-type-options": "nosniff"})


@get("/admin/uPlot.min.css", include_in_schema=False)
async def admin_uplot_css() -> Response[bytes]:
    return Response((STATIC / "uPlot.min.css").read_bytes(), media_type="text/css",
                    headers={"cache-control": "public, max-age=86400", "x-content-type-options": "nosniff"})


def admin_routes(settings: Settings) -> list[BaseRouteHandler | Router]:
    """Nothing without ADMIN_TOKEN: then every /admin path is a plain 404."""
    if settings.admin_token is None:
        return []
    api = Router(
        path="/admin/api",
        route_handlers=[admin_status, admin_test, admin_gaps, admin_feedback, admin_insights, admin_clear_gaps,
                        admin_reindex, admin_reindex_job],
        guards=[require_admin],
        tags=["admin"],
    )
    return [api, admin_page, admin_js, admin_uplot_js, admin_uplot_css]
