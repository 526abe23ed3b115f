"""A plain view of the indexed pages the chat's audiences may see, so the demo's guide links lead somewhere."""

from __future__ import annotations

import html
import re

import asyncpg

from app.config import Settings
from app.search.indexed_pages import indexed_pages, page_sections


async def render_docs_page(conn: asyncpg.Connection, settings: Settings, route: str) -> str | None:
    """The page whose href is `route`, for CHAT_AUDIENCES, as simple HTML (None when there is none)."""
    prefix = settings.docs_url_prefix.rstrip("/")
    page_href = (prefix + "/" + route.strip("/")).rstrip("/") or "/"
    rows = await page_sections(conn, page_href, settings.anonymous_audiences)
    if not rows:
        return None
    title = html.escape(rows[0]["title"])
    sections = []
    for row in sorted(rows, key=lambda r: (r["heading"] != "", r["id"])):
        anchor = row["href"].split("#", 1)[1] if "#" in row["href"] else ""
        body = html.escape(re.sub(r"^#{2,3} .*\n?", "", row["content"]))
        heading = f"<h2>{html.escape(row['heading'])}</h2>" if row["heading"] else ""
        sections.append(f'<section id="{html.escape(anchor)}">{heading}<pre>{body}</pre></section>')
    return _layout(title, "".join(sections))


async def render_docs_index(conn: asyncpg.Connection, settings: Settings) -> str:
    rows = await indexed_pages(conn, settings.anonymous_audiences)
    items = "".join(f'<li><a href="{html.escape(r["href"])}">{html.escape(r["title"])}</a></li>' for r in rows)
    return _layout("Documentation", f"<ul>{items}</ul>")


def _layout(title: str, body: str) -> str:
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>body{{font-family:system-ui,sans-serif;max-width:760px;margin:24px auto;"
        "padding:0 16px}pre{white-space:pre-wrap;font:inherit}</style></head><body>"
        f'<p><a href="/">← demo</a></p><h1>{title}</h1>{body}'
        '<script src="/docs/chat/widget.js" data-endpoint="/docs/chat" defer></script></body></html>'
    )
