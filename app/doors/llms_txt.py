"""/llms.txt and /llms-full.txt (https://llmstxt.org) built from the index, for CHAT_AUDIENCES only.

`/llms.txt` is the site name (`# SITE_NAME`), its summary (`> SITE_SUMMARY`), then `## sections`,
one per place in the site's navigation (tab › group), in its order (docs.json, mkdocs.yml, sidebars,
toctrees: as compose read it, app/corpus/site.py, and sync stored it with each row: place,
page_order), the source named when several are visible; each page a `- [title](url): first
sentence` line. Pages the navigation does not list (a site without one, hidden pages) follow the
listed ones by path, a folder's index page first, under their folder.
`/llms-full.txt` is every visible page's text, page after page in the same order. Code sources are left out (their files are read through MCP's
read_file or /code/<path>).

Both texts are built once per state of the index and kept until the next sync: the key is read from
`docs_search_stats`, which every write to the index (a sync that changes rows, `index clear`)
refreshes, in the same snapshot as the rows, so a text can never be filed under a newer key than
its content. Each text carries a strong ETag (a hash of its bytes).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from urllib.parse import quote

import asyncpg

from app.config import Settings
from app.corpus.chunker import section_sort_key
from app.corpus.site import stem
from app.corpus.sources import Source
from app.search.urls import absolute_url

# Where the index is at: changes whenever anything writes docs_section (sql/functions/docs_index_state.sql).
_INDEX_VERSION = "select public.docs_index_state()"
# The sections as a reader sees them, hrefs filled in this statement (sql/functions/docs_section_shown.sql).
_VISIBLE_SECTIONS = (
    "select s.id, s.source, s.page, s.title, s.heading, s.href, s.content, s.place, s.page_order, s.section_order"
    " from public.docs_section_shown($1::text[]) s where not (s.source = any($2::text[]))"
)
DESCRIPTION_CHARS = 160


@dataclass
class DocPage:
    source: str
    page: str  # the file path inside its source (guides/widget.mdx)
    title: str
    url: str
    sections: list[dict[str, str]] = field(default_factory=list)  # id, heading, content; in page order
    place: tuple[str, ...] = ()  # the labels the site's navigation shows it under (tab, group)
    page_order: int | None = None  # its position in the site's navigation; None: not listed there

    @property
    def folder(self) -> str:
        return self.page.rsplit("/", 1)[0] if "/" in self.page else ""

    def text(self) -> str:
        """The page's text: its overview, then its sections (parts of a long section in order)."""
        return "\n\n".join(s["content"].strip() for s in self.sections if s["content"].strip())


@dataclass(frozen=True)
class LlmsTexts:
    index: str  # /llms.txt
    full: str  # /llms-full.txt
    index_etag: str
    full_etag: str


def page_sort_key(page: DocPage) -> tuple[object, ...]:
    """The navigation's order (stored: page_order), then the pages it does not list: folders after
    the pages at the root, in a folder its index page first, then by path. Rows synced before
    page_order was stored (2026_12_06_0028) have none: by path too, until the next sync."""
    if page.page_order is not None:
        return (page.source, 0, page.page_order)
    parts = stem(page.page).split("/")
    return (page.source, 1, tuple(parts[:-1]), parts[-1] != "index", parts[-1], page.page)


_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")
_MARKUP = re.compile(r"[*_`]+|<[^>\n]+>")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def describe(text: str) -> str:
    """One line about a page: the first sentence of its first paragraph of prose (no heading, list,
    table, code or callout), Markdown removed, at most DESCRIPTION_CHARS characters."""
    in_fence = False
    for block in re.split(r"\n[ \t]*\n", text):
        stripped = block.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = stripped.count("```") % 2 == 1 or stripped.count("~~~") % 2 == 1
            continue
        if in_fence or not stripped or stripped[0] in "#|-*>:<!+0123456789[" or stripped.startswith("import "):
            continue
        line = _MARKUP.sub("", _LINK.sub(r"\1", " ".join(stripped.split()))).strip()
        if not line:
            continue
        sentence = _SENTENCE_END.split(line, 1)[0]
        if len(sentence) > DESCRIPTION_CHARS:
            sentence = sentence[: DESCRIPTION_CHARS - 1].rsplit(" ", 1)[0] + "…"
        return sentence
    return ""


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _link_text(text: str) -> str:
    """A title inside [..]: brackets escaped so that it cannot end the link."""
    return _one_line(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _markdown_url(url: str) -> str:
    """A URL that cannot end a Markdown link early: spaces, parentheses, brackets, angle brackets
    and control characters percent-encoded (a hostile file name makes a hostile URL)."""
    return quote(url, safe=":/?#@!$&'*+,;=%~")


def section_title(page: DocPage, several_sources: bool) -> str:
    """The page's groups in the navigation (a listed page under none: "Docs"), else its folder."""
    if page.page_order is not None:
        name = " › ".join(page.place) or "Docs"
    elif page.folder:
        name = " › ".join(part.replace("-", " ").replace("_", " ").capitalize() for part in page.folder.split("/"))
    else:
        name = "Docs"
    return _link_text(f"{page.source}: {name}" if several_sources else name)  # a folder's name is a file name


def _etag(text: str) -> str:
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def render(pages: list[DocPage], settings: Settings) -> LlmsTexts:
    """Both texts for `pages` (already in page order)."""
    header = f"# {_one_line(settings.site_name)}\n\n> {_one_line(settings.site_summary)}\n"
    several = len({p.source for p in pages}) > 1
    # A group's pages under one heading, the groups in order of their first page: a docs.json group
    # whose pages come before and after a nested group would otherwise be headed twice.
    sections: dict[str, list[str]] = {}
    for page in pages:
        description = describe(page.text())
        link = f"- [{_link_text(page.title)}]({_markdown_url(page.url)})"
        sections.setdefault(section_title(page, several), []).append(link + (f": {description}" if description else ""))
    index_lines = [header] + [f"\n## {title}\n\n" + "".join(f"{line}\n" for line in lines)
                              for title, lines in sections.items()]
    full_parts = [header]
    for page in pages:
        full_parts.append(f"\n# {_one_line(page.title)}\n\nSource: {_markdown_url(page.url)}\n\n{page.text()}\n")
    index, full = "".join(index_lines), "".join(full_parts)
    return LlmsTexts(index, full, _etag(index), _etag(full))


async def visible_pages(conn: asyncpg.Connection, settings: Settings, sources: tuple[Source, ...]) -> list[DocPage]:
    """Every page CHAT_AUDIENCES may see (code sources left out), in page order, each page's
    sections in its order: all from the rows, as sync stored them (place, page_order, section_order)."""
    code = sorted(s.name for s in sources if s.kind == "code")
    pages: dict[tuple[str, str], DocPage] = {}
    orders: dict[str, int | None] = {}
    for row in await conn.fetch(_VISIBLE_SECTIONS, settings.anonymous_audiences, code):
        key = (row["source"], row["page"])
        page = pages.get(key)
        if page is None:
            url = absolute_url(settings.docs_base_url, row["href"].split("#", 1)[0])
            page = pages[key] = DocPage(row["source"], row["page"], row["title"], url, place=tuple(row["place"]),
                                        page_order=row["page_order"])
        page.sections.append({"id": row["id"], "heading": row["heading"], "content": row["content"]})
        orders[row["id"]] = row["section_order"]
    for page in pages.values():
        page.sections.sort(key=lambda section: section_sort_key(section["id"], orders[section["id"]]))
    return sorted(pages.values(), key=page_sort_key)


class LlmsTxtCache:
    """The texts of the index as it was at the last sync; rebuilt when a sync has written since."""

    def __init__(self, settings: Settings, sources: tuple[Source, ...] = ()) -> None:
        self.settings = settings
        self.sources = sources
        self.version: str | None = None
        self.texts: LlmsTexts | None = None
        self.builds = 0  # how many times the texts were built (tests, design/doors.md)

    async def get(self, pool: asyncpg.Pool) -> LlmsTexts:
        async with pool.acquire() as conn:
            version = await conn.fetchval(_INDEX_VERSION)
            if self.texts is not None and version == self.version:
                return self.texts
            # The key and the rows from one snapshot: a sync that commits in between is seen by neither.
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                version = await conn.fetchval(_INDEX_VERSION)
                pages = await visible_pages(conn, self.settings, self.sources)
        texts = render(pages, self.settings)
        self.version, self.texts = version, texts
        self.builds += 1
        return texts


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """Whether an If-None-Match header names `etag` (weak or strong) or is `*`."""
    if not if_none_match:
        return False
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == etag:
            return True
    return False
