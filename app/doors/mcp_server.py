"""The MCP server on the official `mcp` SDK: `docschat mcp` (stdio) and /mcp (streamable HTTP).

Three tools (`read_file` only when a code source is configured), each held to the caller's audiences:

- `search_docs(query, limit)`: the chat's own retrieval (retrieve_in_conversation with no history:
  the same audiences, ranking, answer floor and answer check as a chat question), the sections the
  chat would give its model, each with title, place in the site (tab › group), URL, heading path and text.
- `get_page(url)`: a page's text from the index. A page that does not exist and a page the caller
  may not see get the same error, so existence does not leak.
- `read_file(path, start_line, source)`: a file of a code source the caller may see, at its synced
  commit, with numbered lines (what the chat model's read_file reads).

Who calls: on stdio the audiences given to `docschat mcp` (default CHAT_AUDIENCES); over HTTP the
audiences mcp_http (app/doors/routes.py) put in the request's scope: CHAT_AUDIENCES without a token,
a token's audiences from MCP_TOKENS. A tool never falls back to anything wider.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any
from urllib.parse import urlsplit

import asyncpg
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import ToolAnnotations
from pydantic import Field

from app.chat.code_tools import visible_code_trees
from app.chat.excerpts import ExcerptBounds, select_excerpts
from app.chat.turn import ChatServices
from app.config import Settings
from app.corpus.code_tree import CodePathError
from app.errors import DocschatError
from app.logging import get_logger
from app.search.conversation import retrieve_in_conversation
from app.search.hits import place_text
from app.search.indexed_pages import first_page_sections
from app.search.retrieve import RetrievalError
from app.search.urls import absolute_url, normalize_url
from app.text import storable_text

log = get_logger(__name__)

# The key under which mcp_http leaves the caller's audiences in the ASGI scope.
SCOPE_AUDIENCES = "docschat.mcp_audiences"
MAX_LIMIT = 10
NO_PAGE = "no page at that URL that you may read"
NO_FILE = "no code file at that path that you may read"
MAX_URL_CHARS = 2000


def token_matches(provided: str, expected: str) -> bool:
    """Equal digests, compared in constant time (the lengths of the tokens do not leak either)."""
    return hmac.compare_digest(hashlib.sha256(provided.encode()).digest(), hashlib.sha256(expected.encode()).digest())


def audiences_for_authorization(header: str | None, settings: Settings) -> list[str] | None:
    """Who an HTTP caller is: no Authorization header → CHAT_AUDIENCES; `Bearer <token>` of
    MCP_TOKENS → that token's audiences; anything else (a wrong token, another scheme, a token
    while MCP_TOKENS is unset) → None, refused: never a silent downgrade. Every known token is
    compared, whichever matches, in constant time."""
    if header is None:
        return settings.anonymous_audiences
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    found: list[str] | None = None
    for known, audiences in settings.mcp_token_audiences:
        if token_matches(token, known) and found is None:
            found = audiences
    return found


def page_href_of(url: str, settings: Settings) -> list[str]:
    """The hrefs (without anchor) a caller's URL may name: as given (a source with its own base URL
    stores absolute hrefs), and as a path under DOCS_BASE_URL or PUBLIC_URL, the server's own page
    URLs (`https://docs…/docs/x`, `/docs/x`)."""
    text = url.strip().split("#", 1)[0].split("?", 1)[0]
    candidates = [normalize_url(text)]
    bases = {(b.scheme, b.netloc) for b in map(urlsplit, filter(None, (settings.docs_base_url, settings.public_url)))}
    parts = urlsplit(text)
    if parts.scheme in ("http", "https"):
        if (parts.scheme, parts.netloc) in bases:
            candidates.append(normalize_url(parts.path) or "/")
    elif text.startswith("/"):
        candidates.append(normalize_url(text) or "/")
    return [c for i, c in enumerate(candidates) if c and c not in candidates[:i]]


class DocsTools:
    """The tools' work, transport aside: `audiences` is always given by the caller."""

    def __init__(self, services: ChatServices, ready: Callable[[], Awaitable[bool]] | None = None) -> None:
        self.services = services
        self.settings = services.settings
        self.ready = ready

    async def search_docs(self, query: str, limit: int, audiences: list[str]) -> dict[str, Any]:
        query = storable_text(query).strip()
        if not query:
            raise ToolError("query must not be empty")
        if self.ready is not None and not await self.ready():
            raise ToolError("the server is still loading its embedding model; try again in a moment")
        services, settings = self.services, self.settings
        try:
            retrieval = await retrieve_in_conversation(services.retriever, query, [], rewriter=None, audiences=audiences)
        except (RetrievalError, asyncpg.PostgresError, OSError) as exc:
            log.warning("mcp_search_unavailable", error=type(exc).__name__)
            raise ToolError("the documentation index cannot be searched right now") from None
        results: list[dict[str, Any]] = []
        if retrieval.would_answer and retrieval.pages:
            bounds = ExcerptBounds(limit, settings.chat_excerpt_min_score, settings.chat_max_excerpt_chars)
            for excerpt in select_excerpts(retrieval, bounds, settings.docs_base_url, {}, services.retriever.model):
                results.append({"title": excerpt.title, "place": place_text(excerpt.place), "url": excerpt.url,
                                "heading_path": excerpt.breadcrumb or excerpt.title, "text": excerpt.text})
        log.info("mcp_search", results=len(results), would_answer=retrieval.would_answer)
        return {
            "results": results,
            "confidence": round(retrieval.confidence, 3),
            "note": None if results else "nothing in the documentation answers this query well enough",
        }

    async def get_page(self, url: str, audiences: list[str]) -> dict[str, Any]:
        url = storable_text(url)
        if not url.strip() or len(url) > MAX_URL_CHARS:
            raise ToolError(NO_PAGE)
        rows = await first_page_sections(self.services.read_pool, page_href_of(url, self.settings), audiences)
        if not rows:
            raise ToolError(NO_PAGE)
        page_href = str(rows[0]["href"]).split("#", 1)[0]
        text = "\n\n".join(str(r["content"]).strip() for r in rows if str(r["content"]).strip())
        return {"title": rows[0]["title"], "place": place_text(rows[0]["place"]),
                "url": absolute_url(self.settings.docs_base_url, page_href), "text": text}

    async def read_file(self, path: str, start_line: int, source: str | None, audiences: list[str]) -> dict[str, Any]:
        services = self.services
        trees = await visible_code_trees(services.pool, services.code_sources, audiences, services.code_trees)
        names = sorted(trees) if not source else [source] if source in trees else []
        for name in names:
            try:
                result = await asyncio.to_thread(trees[name].read_file, path, start_line)
            except CodePathError as exc:
                if "start_line" in str(exc):
                    raise ToolError(str(exc)) from None
                continue
            except DocschatError:  # the repository cannot be read any more
                raise ToolError("the code repository cannot be read right now") from None
            return {"source": name, **result}
        raise ToolError(NO_FILE)


class McpDoor:
    """One MCPServer with the tools over `services` (read_file only with a code source). `stdio_audiences`: who a stdio caller
    is (no HTTP request); HTTP callers carry theirs in the request scope."""

    def __init__(self, services: ChatServices, *, stdio_audiences: list[str] | None = None,
                 ready: Callable[[], Awaitable[bool]] | None = None) -> None:
        settings = services.settings
        self.tools = DocsTools(services, ready)
        self.stdio_audiences = stdio_audiences
        # The SDK's routine lines (sessions, tool errors with the caller's arguments) are not ours to keep.
        logging.getLogger("mcp").setLevel(max(logging.getLogger().level, logging.WARNING))
        # read_file only where a code source is configured: without one every call would fail.
        self.reads_code = bool(services.code_sources)
        code = ", and code files with read_file" if self.reads_code else ""
        self.server: MCPServer[Any] = MCPServer(
            settings.site_name, instructions=f"{settings.site_summary} Search it with search_docs, read a page "
            f"with get_page (a URL from search_docs){code}.",
            version="0.1.0",
        )
        self._register()
        # The SDK's Starlette app is not used: its session manager is driven by mcp_http (routes.py).
        self.server.streamable_http_app(
            stateless_http=True,  # any worker answers any request: no session lives in one process
            json_response=True,
            # /mcp takes no cookie or other ambient credential; mcp_http checks Origin itself.
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        self.session_manager = self.server.session_manager

    def audiences(self, ctx: Context[Any]) -> list[str]:
        request = ctx.request_context.request
        if request is None:
            if self.stdio_audiences is None:
                raise ToolError("this server has no caller audiences")  # never reached: fail closed
            return self.stdio_audiences
        audiences = getattr(request, "scope", {}).get(SCOPE_AUDIENCES)
        if not audiences:
            raise ToolError("unauthenticated request")  # mcp_http always sets them: fail closed
        return list(audiences)

    def _register(self) -> None:
        tools, read_only = self.tools, ToolAnnotations(read_only_hint=True, open_world_hint=False)

        @self.server.tool(annotations=read_only)
        async def search_docs(
            query: Annotated[str, Field(description="What to look for, as a question or a few words.", max_length=4000)],
            ctx: Context[Any],
            limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="Sections to return (1-10).")] = 5,
        ) -> dict[str, Any]:
            """Search the documentation. Returns the best sections: title, place (where the page
            stands in the site's navigation, "Tab › Group"; "" when none), URL (with the section's
            anchor), heading path and text. Empty when nothing answers the query well enough."""
            return await tools.search_docs(query, limit, self.audiences(ctx))

        @self.server.tool(annotations=read_only)
        async def get_page(
            url: Annotated[str, Field(description="The page's URL, as search_docs returns it (an anchor is ignored).")],
            ctx: Context[Any],
        ) -> dict[str, Any]:
            """The whole text of one documentation page (Markdown), with its title, place in the
            site's navigation and URL."""
            return await tools.get_page(url, self.audiences(ctx))

        if not self.reads_code:
            return

        @self.server.tool(annotations=read_only)
        async def read_file(
            path: Annotated[str, Field(description="Path from the repository root, e.g. app/rate_limit.py")],
            ctx: Context[Any],
            start_line: Annotated[int, Field(ge=1, description="First line to read.")] = 1,
            source: Annotated[str | None, Field(description="The code source's name (optional).")] = None,
        ) -> dict[str, Any]:
            """Read a source file of an indexed code repository at the synced commit, with line
            numbers. Long files come in parts: call again from end_line + 1 while truncated is true."""
            return await tools.read_file(path, start_line, source, self.audiences(ctx))


async def run_stdio(settings: Settings, audiences: list[str] | None) -> None:
    """`docschat mcp`: the MCP server on stdin/stdout until the client closes it. `audiences`:
    what the caller may see (None: CHAT_AUDIENCES, as an anonymous /mcp caller)."""
    from app.chat.services import build_chat_services
    from app.db.pool import create_pool, open_read_pool
    from app.db.url import resolve_database_url

    who = settings.anonymous_audiences if audiences is None else (["public"] if settings.flag_public else audiences)
    pool = await create_pool(resolve_database_url(settings), min_size=1, max_size=4)
    read_pool = await open_read_pool(settings, min_size=1, max_size=4) if settings.database_read_url else None
    try:
        services = build_chat_services(pool, settings, read_pool)
        # The model loads while the client initializes and lists tools (a client may give up on a
        # handshake that waits 40 s for it); a search waits for it, up to STARTUP_WAIT_SECONDS.
        warm_up = asyncio.create_task(services.retriever.warm_up())

        async def ready() -> bool:
            try:
                await asyncio.wait_for(asyncio.shield(warm_up), settings.startup_wait_seconds)
            except TimeoutError:
                return False
            except Exception:  # noqa: BLE001 - the search then goes keyword-only, as the server's does
                log.error("warm_up_failed")
            return True

        door = McpDoor(services, stdio_audiences=who, ready=ready)
        log.info("mcp_stdio_started", audiences=who)
        try:
            await door.server.run_stdio_async()
        finally:
            warm_up.cancel()
    finally:
        if read_pool is not None:
            await read_pool.close()
        await pool.close()
