"""The search box: pages with their best sections for a query as it is typed (GET /docs/search).

One statement, public.docs_search_box (sql/functions/docs_search_box.sql): the audience rules, the prefix
reading of the last word, typo tolerance and the snippet are all in SQL. This module parses the
request, answers one-letter and empty queries without the database, embeds the query on submit
(`mode=hybrid`), and makes each snippet: the section's plain text (made from its Markdown's tokens,
app/search/plain_text.py) around the words Postgres marked, with their offsets, so that no text of
a page is ever markup.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Literal

import asyncpg

from app.db.pool import acquire_stateless
from app.errors import DocschatError
from app.judge.question_terms import everyday_words
from app.logging import get_logger
from app.search.plain_text import snippet as plain_snippet
from app.search.query_embedding import QueryEmbedder
from app.search.urls import absolute_url
from app.text import storable_text

log = get_logger(__name__)

SearchMode = Literal["keyword", "hybrid"]
SEARCH_MODES: tuple[SearchMode, ...] = ("keyword", "hybrid")
DEFAULT_LIMIT = 8
MAX_LIMIT = 20
MAX_QUERY_CHARS = 200
# Fewer letters or digits than this: no result, and no round trip (a one-letter prefix matches
# nearly everything and says nothing).
MIN_QUERY_CHARS = 2
# Sections per page at most (the default); the widget asks for 1, the one it shows, and so spares
# the snippets of the others (a fifth of the statement's time).
SECTIONS_PER_PAGE = 3
# What docs_search_box puts around a matched word; removed from the page text before, so a page
# cannot forge a match.
MARK_START, MARK_END = "\ue000", "\ue001"
# ...and what it swaps `<` and `>` for while ts_headline reads (sql/functions/docs_search_box.sql).
_NO_MARKS = str.maketrans("", "", "\ue000\ue001\ue002\ue003")
_MARKED = re.compile(f"{MARK_START}([^{MARK_START}{MARK_END}]+){MARK_END}")

# $8: the query's everyday words, never taken for typos (question_terms.everyday_words, as the
# chat's keyword leg passes them: app/search/legs.py).
SEARCH_SQL = "select * from public.docs_search_box($1, $2, $3, $4, $5, $6, $7, everyday_words => $8)"
# The same search with a cache (SearchCache): the index's state first (docs_index_state: any
# write to docs_section moves it, a hand-made one included), and the search only when $9, the
# state a cached answer was computed on, is not that one. State and rows come from one statement,
# i.e. one snapshot: an answer is never stored under a state it was not read at.
CACHED_SEARCH_SQL = """
select v.version, b.*
from (select public.docs_index_state() as version) v
left join lateral (
  select * from public.docs_search_box($1, $2, $3, $4, $5, $6, $7, everyday_words => $8) with ordinality as r
  where v.version is distinct from $9::text
  offset 0  -- kept a subquery: the test gates the function (a one-time filter), not its rows
) b on true
order by b.ordinality
"""


class BadSearch(DocschatError):
    """A search request that cannot be answered as asked (400)."""


class SearchTimedOut(DocschatError):
    """The search did not finish in time, its wait for a place in the gate included (503): the
    tables locked (`docschat index clear`), or the database swamped. Its statement is cancelled."""


@dataclass(frozen=True)
class SearchRequest:
    query: str
    limit: int = DEFAULT_LIMIT
    mode: SearchMode = "keyword"
    sections: int = SECTIONS_PER_PAGE


def _whole_number(params: Mapping[str, str], name: str, default: int, most: int) -> int:
    raw = params.get(name)
    if raw is None:
        return default
    try:  # given, even empty: it must be a number
        value = int(raw)
    except ValueError:
        value = 0
    if not 1 <= value <= most:
        raise BadSearch(f"{name} must be a whole number from 1 to {most}")
    return value


def parse_search(params: Mapping[str, str]) -> SearchRequest:
    """`q` (missing = empty), `limit` 1–20 (default 8), `mode` keyword (default) or hybrid,
    `sections` per page 1–3 (default 3); a `limit`, `mode` or `sections` given empty is an error,
    as /schema says."""
    query = params.get("q") or ""
    if len(query) > MAX_QUERY_CHARS:
        raise BadSearch(f"q is longer than {MAX_QUERY_CHARS} characters")
    limit = _whole_number(params, "limit", DEFAULT_LIMIT, MAX_LIMIT)
    sections = _whole_number(params, "sections", SECTIONS_PER_PAGE, SECTIONS_PER_PAGE)
    mode = params.get("mode", "keyword")
    if mode not in SEARCH_MODES:
        raise BadSearch("mode must be keyword or hybrid")
    return SearchRequest(storable_text(query), limit, mode, sections)


def is_too_short(query: str) -> bool:
    """Whether the query has fewer than MIN_QUERY_CHARS letters or digits."""
    return sum(ch.isalnum() for ch in query) < MIN_QUERY_CHARS


def marked_words(marked: str) -> list[str]:
    """The words ts_headline put between MARK_START and MARK_END."""
    return _MARKED.findall(marked)


@dataclass
class SearchResult:
    query: str
    mode: SearchMode
    degraded: str | None = None  # "keyword_only" when the vector leg could not join
    pages: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "mode": self.mode, "degraded": self.degraded, "results": self.pages}


def _pages(rows: list[asyncpg.Record], base_url: str) -> list[dict[str, Any]]:
    pages: dict[int, dict[str, Any]] = {}
    for row in rows:
        content = (row["content"] or "").translate(_NO_MARKS)  # as docs_search_box reads it: no forged marker
        snippet, spans = plain_snippet(content, row["heading"], marked_words(row["snippet"] or ""))
        page = pages.get(row["page_rank"])
        if page is None:
            page = pages[row["page_rank"]] = {
                "title": row["title"],
                "url": absolute_url(base_url, row["href"].split("#", 1)[0]),
                "source": row["source"],
                "score": round(float(row["score"]), 6),
                "sections": [],
                "place": list(row["place"] or ()),  # in the site's navigation: tab, group
            }
        path = [part for part in (row["breadcrumb"] or "").split(" › ") if part]
        page["sections"].append({
            "heading": row["heading"],
            "path": path or [row["title"]],
            "url": absolute_url(base_url, row["href"]),
            "snippet": snippet,
            "highlights": spans,
            "score": round(float(row["score"]), 6),
        })
    return [pages[rank] for rank in sorted(pages)]


CacheKey = tuple[str, int, int, bool, tuple[str, ...], str]


class SearchCache:
    """The pages of recent keyword searches in this process, least recently used dropped first,
    each with the index version it was read at. Keyed by all that makes the answer: the query as
    received (so whether the last word is a prefix), limit, sections, the audiences and the base
    URL; a hybrid search is never kept. An entry is only served after the database has said, in
    the request's own round trip, that the index is still at its version (CACHED_SEARCH_SQL): a
    write to docs_section (a sync, a clear, an update typed in psql) makes every older entry a
    miss at once, in every process and replica."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[CacheKey, tuple[str, list[dict[str, Any]]]] = OrderedDict()

    def get(self, key: CacheKey) -> tuple[str, list[dict[str, Any]]] | None:
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
        return entry

    def put(self, key: CacheKey, version: str, pages: list[dict[str, Any]]) -> None:
        self._entries[key] = (version, pages)
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)


async def _fetch(pool: asyncpg.Pool, gate: asyncio.Semaphore | None, timeout_seconds: float,
                 sql: str, *arguments: Any) -> list[asyncpg.Record]:
    """One search statement: a place in the gate first (no connection held while waiting), then a
    connection released without a reset (one select leaves nothing in the session). A timeout
    cancels the statement in Postgres (asyncpg sends the cancel request) and gives the place back."""
    try:
        async with asyncio.timeout(timeout_seconds), gate or nullcontext(), acquire_stateless(pool) as conn:
            return await conn.fetch(sql, *arguments)
    except TimeoutError as exc:
        raise SearchTimedOut(f"The search took longer than {timeout_seconds:g} s; please try again.") from exc


async def search_box(
    pool: asyncpg.Pool, request: SearchRequest, audiences: list[str], base_url: str,
    embedder: QueryEmbedder | None = None, embed_timeout_seconds: float = 3.0,
    cache: SearchCache | None = None, gate: asyncio.Semaphore | None = None, timeout_seconds: float = 2.0,
) -> SearchResult:
    """What `audiences` may see of `request`, pages best first. Empty `audiences` find nothing.
    With `cache`, a keyword search asked before on the same index costs one short round trip.
    With `gate`, the statement waits for one of its places before it takes a connection. The wait
    and the statement together get `timeout_seconds` (SearchTimedOut after it)."""
    result = SearchResult(request.query, request.mode)
    if is_too_short(request.query) or not audiences:
        return result
    embedding, model = None, None
    if request.mode == "hybrid":
        if embedder is None:
            result.degraded = "keyword_only"
        else:
            try:
                embedding = await asyncio.wait_for(embedder.embed(pool, request.query), embed_timeout_seconds)
                model = embedder.provider.model
            except Exception as exc:  # noqa: BLE001 - any failure of the provider: keyword results still come
                log.warning("search_box_embedding_failed", error=type(exc).__name__)
                result.degraded = "keyword_only"
    # The last word is a prefix unless a space follows it (on submit too: `embe` then Enter).
    prefix = not request.query[-1:].isspace()
    arguments = (request.query, audiences, request.limit, request.sections, prefix, embedding, model,
                 everyday_words(request.query))
    if cache is None or cache.size == 0 or request.mode != "keyword":
        rows = await _fetch(pool, gate, timeout_seconds, SEARCH_SQL, *arguments)
        result.pages = _pages(rows, base_url)
        return result
    key: CacheKey = (request.query, request.limit, request.sections, prefix, tuple(audiences), base_url)
    cached = cache.get(key)
    # A stale entry runs the search: the same gate and timeout.
    rows = await _fetch(pool, gate, timeout_seconds, CACHED_SEARCH_SQL, *arguments, cached[0] if cached else None)
    version = rows[0]["version"]
    if cached is not None and cached[0] == version:  # the search did not run: the index is as it was
        cache.hits += 1
        result.pages = cached[1]
        return result
    cache.misses += 1
    result.pages = _pages([row for row in rows if row["page_rank"] is not None], base_url)
    cache.put(key, version, result.pages)
    return result
