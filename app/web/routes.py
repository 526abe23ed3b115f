"""Static web assets: the embeddable widget, a demo docs page and the favicon; the synced pages and
code files. HTML is sent as MediaType.HTML, to which Litestar adds the charset (a media type that
names one already would carry it twice)."""

from __future__ import annotations

from pathlib import Path

from litestar import MediaType, Response, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from app.web.pages import PAGE_HEADERS, render_code_file, render_docs_index, render_docs_page

STATIC = Path(__file__).resolve().parent / "static"


@get("/docs/chat/widget.js", include_in_schema=False)
async def widget_js() -> Response[bytes]:
    return Response(
        (STATIC / "widget.js").read_bytes(),
        media_type="text/javascript",
        headers={"cache-control": "public, max-age=300", "access-control-allow-origin": "*"},
    )


@get("/docs/chat/code.js", include_in_schema=False)
async def code_js() -> Response[bytes]:
    return Response((STATIC / "code.js").read_bytes(), media_type="text/javascript",
                    headers={"cache-control": "public, max-age=300"})


@get("/", include_in_schema=False)
async def demo_page() -> Response[bytes]:
    return Response((STATIC / "demo.html").read_bytes(), media_type=MediaType.HTML, headers=PAGE_HEADERS)


@get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response[bytes]:
    return Response((STATIC / "favicon.ico").read_bytes(), media_type="image/x-icon",
                    headers={"cache-control": "public, max-age=86400", "x-content-type-options": "nosniff"})


@get("/docs", include_in_schema=False)
async def docs_index(state: State) -> Response[str]:
    """The list of indexed public pages."""
    async with state.services.pool.acquire() as conn:
        return Response(await render_docs_index(conn, state.settings), media_type=MediaType.HTML,
                        headers=PAGE_HEADERS)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@get("/docs/{route:path}", include_in_schema=False)
async def docs_page(state: State, route: FromPath[str]) -> Response[str]:
    """An indexed public page as plain HTML: where the demo's guide links lead."""
    if "\x00" in route or not route.isprintable() or not _encodable(route):
        # No page has such a path, and Postgres would refuse the text: a 404, not a 500.
        raise NotFoundException("no public page at that path")
    page = await render_docs_page(state.services.pool, state.settings, route)
    if page is None:
        raise NotFoundException(f"no public page at /docs/{route.strip('/')}")
    return Response(page, media_type=MediaType.HTML, headers=PAGE_HEADERS)


@get("/code/{path:path}", include_in_schema=False)
async def code_file(state: State, path: FromPath[str]) -> Response[str]:
    """A synced file of a code source the chat's audiences may see: where a code chunk links
    when its source has no `link` template."""
    if "\x00" in path or not path.isprintable() or not _encodable(path):
        raise NotFoundException("no code file at that path")
    page = await render_code_file(state.services, path)
    if page is None:
        raise NotFoundException(f"no code file at /code/{path.strip('/')} that this chat may show")
    return Response(page, media_type=MediaType.HTML, headers=PAGE_HEADERS)


WEB_ROUTES = [widget_js, code_js, demo_page, favicon, docs_index, docs_page, code_file]
