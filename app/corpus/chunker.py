"""Chunker: a cleaned page → one overview chunk + one chunk per `##`/`###` section (with anchors)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field

from app.corpus.fences import split_fenced

# Bump when chunk text or boundaries change: every content_hash changes once, so sync re-embeds.
CHUNKER_VERSION = "1"

_HEADING = re.compile(r"^[ \t]*(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_EXPLICIT_ID = re.compile(r"[ \t]*\{#([A-Za-z0-9_:.\-]+)\}[ \t]*$")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_BREADCRUMB_SEPARATOR = " › "
SPLIT_LEVELS = (2, 3)


@dataclass(frozen=True)
class Page:
    path: str  # relative to the docs folder, e.g. guides/widget.mdx
    title: str
    description: str | None
    audiences: tuple[str, ...]  # who may see it: declared, else its source's default
    body: str  # cleaned Markdown, snippets pasted
    source: str = "docs"
    declared: bool = True  # False when the audiences are the source's default

    @property
    def public(self) -> bool:
        return "public" in self.audiences


@dataclass(frozen=True)
class Chunk:
    id: str  # <source>:<page path>[#anchor][~part]
    source: str
    page: str
    title: str
    heading: str
    breadcrumb: str
    href: str
    audiences: tuple[str, ...]
    text: str
    embed_text: str
    content_hash: str

    @property
    def public(self) -> bool:
        return "public" in self.audiences

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class _Section:
    level: int  # 0 for the overview
    heading: str
    anchor: str
    trail: list[str]
    lines: list[str] = field(default_factory=list)


def heading_text(raw: str) -> tuple[str, str | None]:
    """Heading text without an explicit `{#id}`, and that id."""
    explicit = _EXPLICIT_ID.search(raw)
    if explicit:
        return raw[: explicit.start()].strip(), explicit.group(1)
    return raw.strip(), None


def plain_heading(text: str) -> str:
    """Heading as rendered text: links become their label, code and emphasis markers go."""
    text = _LINK.sub(r"\1", text)
    return re.sub(r"[`*]|(?<!\w)_{1,2}|_{1,2}(?!\w)", "", text).strip()


def github_slug(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped (but - and _), spaces to hyphens."""
    slug = plain_heading(text).lower()
    slug = re.sub(r"[^\w\- ]", "", slug)
    return slug.replace(" ", "-")


class AnchorAllocator:
    """Repeated headings get -1, -2, … as GitHub numbers them; explicit ids are kept."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def allocate(self, base: str) -> str:
        base = base or "section"
        if base not in self._seen:
            self._seen[base] = 0
            return base
        while True:
            self._seen[base] += 1
            candidate = f"{base}-{self._seen[base]}"
            if candidate not in self._seen:
                self._seen[candidate] = 0
                return candidate


def page_route(path: str, prefix: str) -> str:
    """`guides/widget.mdx` → `/docs/guides/widget`; `guides/index.mdx` → `/docs/guides`."""
    route = re.sub(r"\.mdx?$", "", path)
    parts = [p for p in route.split("/") if p]
    if parts and parts[-1] == "index":
        parts = parts[:-1]
    prefix = prefix.rstrip("/")
    joined = "/".join(parts)
    if not joined:
        return prefix or "/"
    return f"{prefix}/{joined}"


def _sections(page: Page) -> list[_Section]:
    anchors = AnchorAllocator()
    overview = _Section(0, "", "", [])
    sections = [overview]
    current = overview
    for segment in split_fenced(page.body):
        lines = segment.text.splitlines()
        if segment.is_code:
            current.lines.extend(lines)
            continue
        for line in lines:
            match = _HEADING.match(line)
            if not match:
                current.lines.append(line)
                continue
            level = len(match.group(1))
            text, explicit = heading_text(match.group(2))
            anchor = anchors.allocate(explicit or github_slug(text))
            if level not in SPLIT_LEVELS:
                # Deeper (and #) headings stay inside their section; the line loses only its {#id}.
                current.lines.append(f"{match.group(1)} {text}")
                continue
            parents = [s.heading for s in sections if s.level == 2] if level == 3 else []
            trail = ([parents[-1]] if parents and current.level >= 2 else []) + [plain_heading(text)]
            current = _Section(level, plain_heading(text), anchor, trail, [f"{match.group(1)} {text}"])
            sections.append(current)
    return sections


def _blocks(text: str) -> list[str]:
    """Paragraphs and whole code fences: the units a long section may be split between."""
    blocks: list[str] = []
    for segment in split_fenced(text):
        if segment.is_code:
            blocks.append(segment.text.rstrip("\n"))
            continue
        blocks.extend(p.strip("\n") for p in re.split(r"\n[ \t]*\n", segment.text) if p.strip())
    return blocks


def split_text(text: str, max_chars: int) -> list[str]:
    """Pack blocks into parts of at most max_chars; a block longer than that stays whole."""
    if len(text) <= max_chars:
        return [text]
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for block in _blocks(text):
        added = len(block) + (2 if current else 0)
        if current and size + added > max_chars:
            parts.append("\n\n".join(current))
            current, size = [], 0
            added = len(block)
        current.append(block)
        size += added
    if current:
        parts.append("\n\n".join(current))
    return parts


def content_hash(embed_text: str) -> str:
    return hashlib.sha256((CHUNKER_VERSION + "\n" + embed_text).encode("utf-8")).hexdigest()


def chunk_page(
    page: Page, *, max_chars: int = 2400, url_prefix: str = "/docs", base_url: str | None = None
) -> list[Chunk]:
    """The page's chunks; hrefs are absolute when the source has its own base URL."""
    route = (base_url or "") + page_route(page.path, url_prefix)
    chunks: list[Chunk] = []
    for section in _sections(page):
        body = "\n".join(section.lines).strip("\n")
        if section.level == 0:
            body = "\n\n".join(part for part in (page.description or "", body) if part.strip())
            href, base_id, heading = route, page.path, ""
        else:
            href, base_id, heading = f"{route}#{section.anchor}", f"{page.path}#{section.anchor}", section.heading
        breadcrumb = _BREADCRUMB_SEPARATOR.join([page.title, *section.trail])
        for number, part in enumerate(split_text(body, max_chars), start=1):
            embed_text = f"{page.title} — {breadcrumb}\n\n{part}"
            chunks.append(
                Chunk(
                    id=f"{page.source}:{base_id}" if number == 1 else f"{page.source}:{base_id}~{number}",
                    source=page.source,
                    page=page.path,
                    title=page.title,
                    heading=heading,
                    breadcrumb=breadcrumb,
                    href=href,
                    audiences=page.audiences,
                    text=part,
                    embed_text=embed_text,
                    content_hash=content_hash(embed_text),
                )
            )
    return chunks
