"""GET /docs/search: the search box's route, thin over app/search/search_box.py, and its /schema."""

from __future__ import annotations

import asyncio
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIType, Parameter, Schema

from app.chat.api_schema import ApiOperation, ErrorBody
from app.rate_limit import BlockRateLimiter, client_key
from app.search.search_box import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    MAX_QUERY_CHARS,
    MIN_QUERY_CHARS,
    SECTIONS_PER_PAGE,
    BadSearch,
    SearchCache,
    SearchResult,
    SearchTimedOut,
    is_too_short,
    parse_search,
    search_box,
)


def search_rate_limiter(pool: asyncpg.Pool, per_minute: int) -> BlockRateLimiter:
    """SEARCH_RATE_LIMIT searches a minute per client (hashed IP), in docs_chat_limits under their
    own namespace: shared by every worker and replica, apart from the chat's questions; counted in
    blocks (one round trip per per_minute // 30 searches), never more than the limit (BlockRateLimiter)."""
    return BlockRateLimiter(pool, per_minute, "search")


CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


def usable_cores(cpu_max: Path = CGROUP_CPU_MAX) -> int:
    """The cores this process may run on: its CPU affinity, lowered by a cgroup v2 CPU quota
    (`docker run --cpus 1.5`, a Kubernetes CPU limit: "150000 100000" in cpu.max), rounded up.
    os.cpu_count() alone gives the host's cores inside such a container."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        quota, period = cpu_max.read_text().split()
        if quota != "max":
            cores = min(cores, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError, ZeroDivisionError):  # no cgroup v2 file, or one not as documented
        pass
    return cores


def search_gate(concurrency: int | None) -> asyncio.Semaphore | None:
    """SEARCH_CONCURRENCY search-box statements of this process at once (unset: the cores it may
    use); 0: no limit. A search is a short CPU-bound statement: more of them at once than the
    database has cores only share the cores, so each takes longer and the costly ones longest
    (design/search-box-serving.md, the gate); waiting in line, each
    costs its own time."""
    if concurrency is None:
        concurrency = usable_cores()
    return asyncio.Semaphore(concurrency) if concurrency > 0 else None


def search_cache(size: int) -> SearchCache | None:
    """SEARCH_CACHE_SIZE recent keyword searches of this process (SearchCache); 0: none."""
    return SearchCache(size) if size > 0 else None


@dataclass
class SearchSection:
    """One section of a page: `url` carries its anchor; `highlights` are [start, end) offsets in
    `snippet`, counted in Unicode code points, of the words that matched. Everything is plain text."""

    heading: str
    path: list[str]
    url: str
    snippet: str
    highlights: list[list[int]]
    score: float


@dataclass
class SearchPage:
    """A page. `place`: where the site's navigation shows it, outermost first (["Get started",
    "Setup"]: a tab, then a group); [] for a site without such navigation."""

    title: str
    url: str
    source: str
    score: float
    sections: list[SearchSection]
    place: list[str]


@dataclass
class SearchResponse:
    """Pages best first. `score`: higher is better, comparable within one response only.
    `degraded`: "keyword_only" when `mode=hybrid` could not embed the query."""

    query: str
    mode: str
    degraded: str | None
    results: list[SearchPage]


@dataclass
class SearchOperation(ApiOperation):
    """The query parameters, which the handler reads itself (so that any input gets a clear 400)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.parameters = [
            Parameter(name="q", param_in="query", required=False, schema=Schema(
                type=OpenAPIType.STRING, max_length=MAX_QUERY_CHARS),
                description=f"What is typed. The last word matches as a prefix unless a space follows it; "
                f"typos are tolerated. Fewer than {MIN_QUERY_CHARS} letters or digits: no results."),
            Parameter(name="limit", param_in="query", required=False, schema=Schema(
                type=OpenAPIType.INTEGER, minimum=1, maximum=MAX_LIMIT, default=DEFAULT_LIMIT),
                description="Pages returned (each with up to 3 sections)."),
            Parameter(name="sections", param_in="query", required=False, schema=Schema(
                type=OpenAPIType.INTEGER, minimum=1, maximum=SECTIONS_PER_PAGE, default=SECTIONS_PER_PAGE),
                description="Sections per page at most, best first (a box that shows one asks for 1)."),
            Parameter(name="mode", param_in="query", required=False, schema=Schema(
                type=OpenAPIType.STRING, enum=["keyword", "hybrid"], default="keyword"),
                description="keyword while typing; hybrid (on submit) adds the vector leg."),
        ]


SEARCH_RESPONSES = {
    200: ResponseSpec(data_container=SearchResponse, description="Pages with their best sections.",
                      generate_examples=False),
    400: ResponseSpec(data_container=ErrorBody, generate_examples=False,
                      description="A bad parameter (q too long, limit or sections out of range, unknown mode)."),
    429: ResponseSpec(data_container=ErrorBody, generate_examples=False,
                      description="Too many searches from this client; `Retry-After` says when to come back."),
    503: ResponseSpec(data_container=ErrorBody, generate_examples=False,
                      description="The database is unreachable, or the search took longer than "
                      "LEG_TIMEOUT_SECONDS (`search_timed_out`); retry after the `Retry-After` seconds."),
}


def _error(status: int, error: str, detail: str, headers: dict[str, str] | None = None) -> Response[Any]:
    return Response({"error": error, "detail": detail}, status_code=status, headers=headers)


@get("/docs/search", summary="Search the docs as you type: pages with their best sections",
     operation_class=SearchOperation, responses=SEARCH_RESPONSES)
async def docs_search(request: Request[Any, Any, Any], state: State) -> Response[Any]:
    try:
        search = parse_search(request.query_params)
    except BadSearch as exc:
        return _error(400, "bad_request", str(exc))
    settings = state.settings
    if is_too_short(search.query):  # answered before any round trip, rate limit included
        return Response(SearchResult(search.query, search.mode).to_dict(), headers={"cache-control": "no-store"})
    decision = await state.search_limiter.hit(client_key(
        request.client.host if request.client else None, request.headers.get("x-forwarded-for"),
        settings.trusted_proxies, state.ip_secret))
    if not decision.allowed:
        return _error(429, "rate_limited", f"Too many searches from this address; please try again in "
                      f"{decision.retry_after_seconds} seconds.",
                      headers={"Retry-After": str(decision.retry_after_seconds)})
    retriever = state.services.retriever
    try:
        result = await search_box(
            state.services.read_pool, search, settings.anonymous_audiences, settings.docs_base_url,
            retriever.embedder if state.readiness.ready.is_set() else None,
            settings.query_embedding_timeout_seconds, state.search_cache, state.search_gate,
            settings.leg_timeout_seconds,
        )
    except SearchTimedOut as exc:
        return _error(503, "search_timed_out", str(exc), headers={"Retry-After": "1"})
    state.insights.search(search.query, search.mode, len(result.pages))  # in memory (app/insights/record.py)
    return Response(result.to_dict(), headers={"cache-control": "no-store"})


SEARCH_ROUTES = [docs_search]
