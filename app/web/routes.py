"""Static web assets: the embeddable widget and a demo docs page."""

from __future__ import annotations

from pathlib import Path

from litestar import Response, get

STATIC = Path(__file__).resolve().parent / "static"


@get("/docs/chat/widget.js", include_in_schema=False)
async def widget_js() -> Response[bytes]:
    return Response(
        (STATIC / "widget.js").read_bytes(),
        media_type="text/javascript; charset=utf-8",
        headers={"cache-control": "public, max-age=300", "access-control-allow-origin": "*"},
    )


@get("/", include_in_schema=False)
async def demo_page() -> Response[bytes]:
    return Response((STATIC / "demo.html").read_bytes(), media_type="text/html; charset=utf-8")


WEB_ROUTES = [widget_js, demo_page]
