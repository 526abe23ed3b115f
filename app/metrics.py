"""Prometheus metrics: served at /metrics only with METRICS_ENABLED=true.

Labels are fixed, small sets (route templates, stages, outcomes): never a question, an IP, a
session or a raw path. The hooks are plain function calls, cheap enough to run whether or not the
endpoint is on. With several workers, set PROMETHEUS_MULTIPROC_DIR to an empty folder shared by
them (prometheus-client's multiprocess mode) and /metrics adds up every worker's numbers.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)

# Seconds: from a millisecond SQL call to a slow model's whole answer.
_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

HTTP_REQUESTS = Counter("docschat_http_requests_total", "HTTP requests by route template, method and status",
                        ["route", "method", "status"])
HTTP_SECONDS = Histogram("docschat_http_request_seconds", "Whole HTTP request, streamed body included",
                         ["route"], buckets=_BUCKETS)
STAGE_SECONDS = Histogram(
    "docschat_stage_seconds",
    "Latency per stage: question_embedding, keyword_leg, vector_leg, fusion (retrieval); first_guide, "
    "first_answer_token, turn (chat, from the start of the turn)",
    ["stage"], buckets=_BUCKETS,
)
CHAT_TURNS = Counter("docschat_chat_turns_total", "Chat turns by outcome", ["outcome"])
REFUSALS = Counter("docschat_chat_refusals_total", "Turns answered with a refusal instead of an answer", ["reason"])
RATE_LIMITED = Counter("docschat_rate_limit_rejections_total", "Questions refused by the rate limit", ["limit"])
SYNC_RUNS = Counter("docschat_sync_runs_total", "Sync runs by outcome", ["outcome"])
SYNC_SECONDS = Histogram("docschat_sync_seconds", "Duration of sync runs", buckets=(0.1, 0.5, 1, 5, 15, 60, 300, 900))

RETRIEVAL_STAGES = {"embed_question": "question_embedding", "keyword_sql": "keyword_leg",
                    "vector_sql": "vector_leg", "fusion": "fusion"}


def observe_stage(stage: str, seconds: float) -> None:
    STAGE_SECONDS.labels(stage=stage).observe(seconds)


def observe_retrieval(timings_ms: dict[str, float]) -> None:
    """The retrieval's own timings (milliseconds) under their stage names."""
    for key, stage in RETRIEVAL_STAGES.items():
        if key in timings_ms:
            observe_stage(stage, timings_ms[key] / 1000)


def record_rate_limited(limit: str) -> None:
    RATE_LIMITED.labels(limit=limit).inc()


def record_refusal(reason: str) -> None:
    REFUSALS.labels(reason=reason).inc()


def record_sync(outcome: str, seconds: float) -> None:
    SYNC_RUNS.labels(outcome=outcome).inc()
    SYNC_SECONDS.observe(seconds)


async def observe_turn(parts: AsyncIterator[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    """Pass a turn's stream parts through, timing the first guide, the first answer token and the turn.

    A turn that lists no guide is a refusal ("no_guides"), as is one whose finish part says
    `messageMetadata.would_answer` is false ("judgment").
    """
    started = time.perf_counter()
    seen: set[str] = set()
    outcome = "cancelled"  # the client went away before the end
    try:
        async for part in parts:
            kind = part.get("type")
            if kind == "source-url" and "guide" not in seen:
                seen.add("guide")
                observe_stage("first_guide", time.perf_counter() - started)
            elif kind == "text-delta" and "token" not in seen:
                seen.add("token")
                observe_stage("first_answer_token", time.perf_counter() - started)
            elif kind == "error":
                outcome = "error"
            elif kind == "finish":
                outcome = "answered"
                metadata = part.get("messageMetadata") or {}
                if metadata.get("would_answer") is False:  # below the answer floor: no guides either
                    record_refusal("judgment")
                elif "guide" not in seen:
                    record_refusal("no_guides")
            yield part
    finally:
        CHAT_TURNS.labels(outcome=outcome).inc()
        observe_stage("turn", time.perf_counter() - started)


ASGIApp = Callable[[dict[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


def metrics_middleware(app: ASGIApp) -> ASGIApp:
    """Counts every HTTP request by route template (never the raw path), method and status."""

    async def middleware(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        status = 500
        started = time.perf_counter()

        async def send_and_note(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await app(scope, receive, send_and_note)
        finally:
            route = scope.get("path_template") or "unmatched"
            HTTP_REQUESTS.labels(route=route, method=scope.get("method", ""), status=str(status)).inc()
            HTTP_SECONDS.labels(route=route).observe(time.perf_counter() - started)

    return middleware


def render_metrics() -> tuple[bytes, str]:
    """The exposition text and its content type; every worker's numbers in multiprocess mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST
