"""A plain view of the indexed pages the chat's audiences may see, so the demo's guide links lead somewhere;
and the synced code files the chat links to (a code source without a `link` template).

Page bodies are Markdown rendered with raw HTML off and images off; a link is kept only when it stays
on the docs site (then written as the path the browser would follow) or is an http(s) URL spelled as
scheme://host (`safe_href`).
"""

from __future__ import annotations

import asyncio
import html
import re
from urllib.parse import urljoin, urlsplit

import asyncpg
from markdown_it import MarkdownIt

from app.chat.code_tools import visible_code_trees
from app.chat.turn import ChatServices
from app.config import Settings
from app.corpus.chunker import section_part
from app.corpus.code_tree import CodePathError, CodeTree
from app.errors import DocschatError
from app.search.indexed_pages import first_page_sections, indexed_pages
from app.search.urls import absolute_url
from app.setting_values import URL_TRICKS  # what a browser's URL parser drops: a link holding one is not drawn

_MARKDOWN_PAGE = re.compile(r"\.mdx?(?=$|#|\?)")
# Sent with every page: only our own script (the widget), no plugin, no base, no form target.
PAGE_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
}


def safe_href(raw: str, page_url: str) -> str | None:
    """`raw` as a link on the page at `page_url`: an http(s) URL spelled out as scheme://host as it
    is; a link that stays on the site as the root-relative path a browser would follow; None
    otherwise (scheme-relative //host, javascript:, https:host, backslashes, control characters)."""
    text = raw.strip()
    if not text or URL_TRICKS.search(text):
        return None
    parts = urlsplit(text)
    if parts.scheme:
        if parts.scheme.lower() not in ("http", "https") or not re.match(r"(?i)^https?://[^/]", text):
            return None
        return text if parts.hostname and not parts.username and not parts.password else None
    if text.startswith("//"):
        return None
    if not text.startswith(("/", "#", "?")):
        text = _MARKDOWN_PAGE.sub("", text)  # a link to a sibling page file: the page's route
    base = urlsplit(page_url)
    target = urlsplit(urljoin(page_url, text))
    if (target.scheme, target.netloc) != (base.scheme, base.netloc):
        return None
    # Root-relative, so that it works on whichever host serves the page; a path that starts with
    # "//" is written "/.//…", which a browser resolves to that path, never to a host.
    path = ("/." if target.path.startswith("//") else "") + (target.path or "/")
    return path + (f"?{target.query}" if target.query else "") + (f"#{target.fragment}" if target.fragment else "")


def render_markdown(text: str, page_url: str) -> str:
    """Markdown as HTML: raw HTML is shown as text, no images, links through `safe_href`."""
    md = MarkdownIt("commonmark", {"html": False}).disable("image")
    md.validateLink = lambda url: safe_href(url, page_url) is not None  # type: ignore[method-assign]
    tokens = md.parse(text)
    for token in tokens:
        for child in token.children or []:
            if child.type == "link_open":
                child.attrSet("href", safe_href(str(child.attrGet("href") or ""), page_url) or "#")
    return md.renderer.render(tokens, md.options, {})


async def render_docs_page(pool: asyncpg.Pool, settings: Settings, route: str) -> str | None:
    """The page whose href is `route`, for CHAT_AUDIENCES, as simple HTML (None when there is none):
    its sections in the page's order (their stored positions), each heading once."""
    prefix = settings.docs_url_prefix.rstrip("/")
    page_href = (prefix + "/" + route.strip("/")).rstrip("/") or "/"
    rows = await first_page_sections(pool, [page_href], settings.anonymous_audiences)
    if not rows:
        return None
    page_url = absolute_url(settings.docs_base_url, page_href)
    title = html.escape(rows[0]["title"])
    sections: list[list[str]] = []
    for row in rows:
        body = render_markdown(re.sub(r"^#{1,3} .*\n?", "", row["content"]), page_url)
        if section_part(row["id"])[1] > 1 and sections:  # a further part of a long section: it goes on
            sections[-1].append(body)
            continue
        anchor = row["href"].split("#", 1)[1] if "#" in row["href"] else ""
        heading = f"<h2>{html.escape(row['heading'])}</h2>" if row["heading"] else ""
        sections.append([f'<section id="{html.escape(anchor)}">{heading}', body])
    return _layout(title, "".join("".join(parts) + "</section>" for parts in sections))


async def render_docs_index(conn: asyncpg.Connection, settings: Settings) -> str:
    rows = await indexed_pages(conn, settings.anonymous_audiences)
    base = absolute_url(settings.docs_base_url, settings.docs_url_prefix)
    items = []
    for r in rows:
        href = safe_href(r["href"], base)
        title = html.escape(r["title"])
        items.append(f'<li><a href="{html.escape(href)}">{title}</a></li>' if href else f"<li>{title}</li>")
    return _layout(html.escape(settings.site_name), f"<ul>{''.join(items)}</ul>")  # SITE_NAME, as /llms.txt


async def render_code_file(services: ChatServices, path: str) -> str | None:
    """The synced file at `path` (repository-relative) of a code source CHAT_AUDIENCES may see, at
    its synced commit, with numbered lines: exactly what the model's read_file may read (the
    source's include/exclude globs, never a secret-looking file). None when no such source has it."""
    trees = await visible_code_trees(services.pool, services.code_sources, services.settings.anonymous_audiences,
                                     services.code_trees)
    for name in sorted(trees):
        tree = trees[name]
        try:
            shown, lines = await asyncio.to_thread(_read_whole_file, tree, path)
        except CodePathError:
            continue
        except DocschatError:  # the repository cannot be read any more
            return None
        rows = []
        for line in lines:
            number, _, code = line.partition(": ")
            rows.append(f'<tr id="L{html.escape(number)}"><td class=n><a href="#L{html.escape(number)}">'
                        f"{html.escape(number)}</a></td><td><pre>{html.escape(code)}</pre></td></tr>")
        meta = f"<p class=meta>{html.escape(name)} at <code>{html.escape(tree.commit[:12])}</code></p>"
        table = f'<div class=scroll><table class=code><tbody>{"".join(rows)}</tbody></table></div>'
        return _layout(html.escape(shown), meta + table, extra_script="/docs/chat/code.js")
    return None


def _read_whole_file(tree: CodeTree, path: str) -> tuple[str, list[str]]:
    """Every numbered line ("12: text") of `path`, read through read_file page by page."""
    lines: list[str] = []
    start = 1
    while True:
        part = tree.read_file(path, start)
        content = str(part["content"])
        lines.extend(content.split("\n") if content else [])
        end = int(part["end_line"])  # type: ignore[call-overload]
        if not part["truncated"] or end < start:
            return str(part["path"]), lines
        start = end + 1


_STYLE = (
    # A word longer than the line (a title or a URL without spaces) breaks, rather than making a
    # phone's screen scroll sideways; code keeps its own horizontal scroll (pre, .scroll).
    "body{font-family:system-ui,sans-serif;max-width:760px;margin:24px auto;padding:0 16px;line-height:1.5;"
    "overflow-wrap:anywhere}"
    "pre{background:#f4f5f7;padding:8px;border-radius:6px;overflow-x:auto}code{font-family:ui-monospace,Menlo,monospace}"
    "p code,li code{background:#f4f5f7;padding:1px 4px;border-radius:4px;font-size:.92em}"
    ".scroll{overflow-x:auto}table.code{border-collapse:collapse;font-size:13px;min-width:100%}table.code pre{margin:0;padding:0 8px;"
    "background:none;white-space:pre}td.n{text-align:right;color:#777;user-select:none;vertical-align:top}"
    "td.n a{color:inherit;text-decoration:none}tr.hl{background:#fff6bf}.meta{color:#555}"
    "@media (prefers-color-scheme:dark){body{background:#17181c;color:#e8eaed}pre{background:#24262c}"
    "p code,li code{background:#24262c}a{color:#8ab4f8}tr.hl{background:#3d3a1a}.meta{color:#a0a4ab}}"
)


def _layout(title: str, body: str, extra_script: str | None = None) -> str:
    script = f'<script src="{extra_script}" defer></script>' if extra_script else ""
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>{_STYLE}</style></head><body>"
        f'<p><a href="/">← demo</a> · <a href="/docs">all pages</a></p><h1>{title}</h1>{body}{script}'
        '<script src="/docs/chat/widget.js" data-endpoint="/docs/chat" defer></script></body></html>'
    )
