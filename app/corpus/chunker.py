"""Chunker: a cleaned page → one overview chunk + one chunk per `#`/`##`/`###` section (with anchors).

Code fences and `:::` callouts are atoms: no heading is looked for inside them and no split cuts them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field

from app.corpus.fences import Segment, split_fenced

# Bump when chunk text or boundaries change: every content_hash changes once, so sync re-embeds.
CHUNKER_VERSION = "3"

_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+(.*)")  # the text's closing #s: match_heading
_EXPLICIT_ID = re.compile(r"\{#([A-Za-z0-9_:.\-]+)\}\Z")
# No bracket inside a label or a target: a run of `[` or of `[x](` is then read in linear time.
_LINK = re.compile(r"!?\[([^\[\]\n]*)\]\([^()\[\]\n]*\)")
_BREADCRUMB_SEPARATOR = " › "
SPLIT_LEVELS = (1, 2, 3)
# A callout opens with 3+ colons and a name (`:::note`, `:::{note}`, `::::{tab-set}`); a line of
# colons alone closes the innermost one.
_CALLOUT_OPEN = re.compile(r"^[ \t]*:{3,}[ \t]*[{\w]")
_CALLOUT_CLOSE = re.compile(r"^[ \t]*:{3,}[ \t]*$")


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


def match_heading(line: str) -> tuple[int, str] | None:
    """An ATX heading line's level and text (without a closing `#` sequence), or None. Parsed
    in two linear steps: one regex with a lazy text and optional closings took minutes on a
    line of 5,000 spaces and tabs."""
    match = _HEADING.fullmatch(line)
    if match is None:
        return None
    text = match.group(2).strip(" \t")
    unclosed = text.rstrip("#")
    if unclosed == "" or unclosed.endswith((" ", "\t")):  # a closing sequence: `## Title ##`
        text = unclosed.rstrip(" \t")
    return (len(match.group(1)), text) if text else None


def heading_text(raw: str) -> tuple[str, str | None]:
    """Heading text without an explicit `{#id}`, and that id."""
    raw = raw.strip()
    explicit = _EXPLICIT_ID.search(raw)
    if explicit:
        return raw[: explicit.start()].strip(), explicit.group(1)
    return raw, None


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
        # A heading of punctuation or emoji alone slugs to "": GitHub gives it the anchor "" (its
        # link is the page) and the next such heading "-1".
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


def split_atoms(text: str) -> list[Segment]:
    """`text` as prose and atoms (`is_code`: a code fence or a whole `:::` callout, fences inside
    included); joining them gives `text` back. An unclosed callout stays prose and code as it was,
    so it cannot swallow the rest of the page."""
    out: list[Segment] = []
    prose: list[str] = []  # prose lines not yet in `out`: joined once (line by line is quadratic)
    held: list[Segment] = []  # an open callout's text so far, as prose lines and fences
    depth = 0

    def emit(segment: Segment) -> None:
        if not segment.is_code:
            prose.append(segment.text)
            return
        flush()
        out.append(segment)

    def flush() -> None:
        if prose:
            out.append(Segment("".join(prose), False))
            prose.clear()

    for segment in split_fenced(text):
        if segment.is_code:
            (held.append if depth else emit)(segment)
            continue
        for line in segment.text.splitlines(keepends=True):
            if depth == 0:
                if _CALLOUT_OPEN.match(line):
                    depth, held = 1, [Segment(line, False)]
                else:
                    emit(Segment(line, False))
                continue
            held.append(Segment(line, False))
            if _CALLOUT_OPEN.match(line):
                depth += 1
            elif _CALLOUT_CLOSE.match(line):
                depth -= 1
                if depth == 0:
                    flush()
                    out.append(Segment("".join(s.text for s in held), True))
                    held = []
    for segment in held:  # unclosed
        emit(segment)
    flush()
    return out


def _is_title_heading(line: str, title: str) -> bool:
    """A `#` heading that only repeats the page title."""
    heading = match_heading(line)
    return heading is not None and _repeats_title(heading[0], heading_text(heading[1])[0], title)


def _repeats_title(level: int, text: str, title: str) -> bool:
    return level == 1 and plain_heading(text) == title


def _sections(page: Page) -> list[_Section]:
    anchors = AnchorAllocator()
    overview = _Section(0, "", "", [])
    sections = [overview]
    current = overview
    open_headings: list[tuple[int, str]] = []  # the split headings enclosing the current line
    for segment in split_atoms(page.body):
        lines = segment.text.splitlines()
        if segment.is_code:
            current.lines.extend(lines)
            continue
        for line in lines:
            heading = match_heading(line)
            if heading is None:
                current.lines.append(line)
                continue
            level = heading[0]
            text, explicit = heading_text(heading[1])
            anchor = anchors.allocate(explicit or github_slug(text))  # every heading counts, as on GitHub
            if level not in SPLIT_LEVELS or _repeats_title(level, text, page.title):
                # Deeper headings, and a `#` repeating the page title, stay inside their section;
                # the line loses only its {#id}.
                current.lines.append(f"{'#' * level} {text}")
                continue
            open_headings = [(lv, h) for lv, h in open_headings if lv < level] + [(level, plain_heading(text))]
            trail = [h for _, h in open_headings]
            current = _Section(level, plain_heading(text), anchor, trail, [f"{'#' * level} {text}"])
            sections.append(current)
    return sections


# A block (paragraph, fence, callout) longer than this is cut after all, at line ends: a chunk is
# stored whole in a tsvector (Postgres refuses one over 1 MB, failing the sync of its source) and
# sent whole to the embedding provider, and no model reads past a few thousand characters anyway.
MAX_BLOCK_CHARS = 16_000
_FENCE_LINE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def _blocks(text: str) -> list[str]:
    """Paragraphs, whole code fences and whole callouts: the units a long section may be split between."""
    blocks: list[str] = []
    for segment in split_atoms(text):
        if segment.is_code:
            blocks.extend(cut_block(segment.text.rstrip("\n")))
            continue
        blocks.extend(piece for p in re.split(r"\n[ \t]*\n", segment.text) if p.strip()
                      for piece in cut_block(p.strip("\n")))
    return blocks


def cut_block(block: str, limit: int = MAX_BLOCK_CHARS) -> list[str]:
    """`block` whole, or, when longer than `limit`, in pieces of at most `limit` cut at line ends
    (a longer line at its last space, or at the limit). A fenced block's pieces are each fenced,
    with its opening line, so each still shows as code. Nothing is lost: the pieces hold every
    character of the block but the line breaks they were cut at."""
    if len(block) <= limit:
        return [block]
    lines = block.split("\n")
    # A fence's pieces repeat its opening line; one that long (hostile) is cut as text instead.
    fence = _FENCE_LINE.match(lines[0]) if len(lines[0]) <= limit // 4 else None
    opening = closing = ""
    if fence:
        opening = lines[0]
        closing = fence.group(1) if lines[-1].strip().startswith(fence.group(1)[0]) and len(lines) > 1 else ""
        lines = lines[1:-1] if closing else lines[1:]
        closing = closing or fence.group(1)
    room = max(1, limit - len(opening) - len(closing) - 2)
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        while len(line) > room:  # one line longer than a piece: cut at a space, else at the limit
            cut = line.rfind(" ", 0, room)
            cut = cut if cut > room // 2 else room
            lines_of_line, line = line[:cut], line[cut:].lstrip(" ")
            if current:
                pieces.append("\n".join(current))
                current, size = [], 0
            pieces.append(lines_of_line)
        if current and size + len(line) + 1 > room:
            pieces.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current:
        pieces.append("\n".join(current))
    return [f"{opening}\n{piece}\n{closing}" for piece in pieces] if fence else pieces


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


# Postgres indexes a key of at most 2,704 bytes: a chunk id (source, page path, anchor from the
# heading) or a page path longer than that failed the sync of the whole source. Ids are kept
# under this size with a hash of the rest (still unique, still stable); longer paths are skipped.
MAX_KEY_BYTES = 1000


def bounded_id(chunk_id: str) -> str:
    """`chunk_id`, or when longer than MAX_KEY_BYTES its start and a hash of the whole."""
    raw = chunk_id.encode("utf-8")
    if len(raw) <= MAX_KEY_BYTES:
        return chunk_id
    digest = hashlib.sha256(raw).hexdigest()[:16]
    return raw[: MAX_KEY_BYTES - 17].decode("utf-8", "ignore") + "~" + digest


def path_unusable(path: str) -> str | None:
    """Why `path` cannot be indexed (a warning), or None. A '#' or '?' in a file name cannot be
    linked to (the link would end at it), and `a.md#b` is also the id of a section of `a.md`."""
    size = len(path.encode("utf-8", "replace"))
    if size > MAX_KEY_BYTES:
        return f"{path[:80]}…: a path of {size} bytes (at most {MAX_KEY_BYTES}); file skipped"
    if "#" in path or "?" in path:
        return f"{path[:200]}: a path with '#' or '?' cannot be linked to; file skipped"
    return None


def drop_duplicate_ids(chunks: list[Chunk]) -> tuple[list[Chunk], list[str]]:
    """The chunks with each id once (the first), and a warning for each one dropped. Two chunks
    with one id would share a row: one's text under the other's audiences."""
    first: dict[str, Chunk] = {}
    warnings: list[str] = []
    for chunk in chunks:
        if chunk.id in first:
            warnings.append(f"{chunk.page}: a chunk with the id {chunk.id[:200]!r} of {first[chunk.id].page[:200]!r}; skipped")
        else:
            first[chunk.id] = chunk
    return list(first.values()), warnings


def content_hash(embed_text: str) -> str:
    return hashlib.sha256((CHUNKER_VERSION + "\n" + embed_text).encode("utf-8")).hexdigest()


def chunk_page(
    page: Page, *, max_chars: int = 800, url_prefix: str = "/docs", base_url: str | None = None
) -> list[Chunk]:
    """The page's chunks; hrefs are absolute when the source has its own base URL."""
    route = (base_url or "") + page_route(page.path, url_prefix)
    chunks: list[Chunk] = []
    for section in _sections(page):
        body = "\n".join(section.lines).strip("\n")
        if section.level == 0:
            body = "\n\n".join(part for part in (page.description or "", body) if part.strip())
            if all(not line.strip() or _is_title_heading(line, page.title) for line in body.splitlines()):
                continue  # no text before the first section (a title heading at most): nothing to index
            href, base_id, heading = route, page.path, ""
        else:
            fragment = f"#{section.anchor}" if section.anchor else ""  # "": no anchor to link to
            href, base_id, heading = f"{route}{fragment}", f"{page.path}#{section.anchor}", section.heading
        breadcrumb = _BREADCRUMB_SEPARATOR.join([page.title, *section.trail])
        for number, part in enumerate(split_text(body, max_chars), start=1):
            # The breadcrumb starts with the page title: it is said once.
            embed_text = f"{breadcrumb}\n\n{part}"
            chunks.append(
                Chunk(
                    id=bounded_id(f"{page.source}:{base_id}" if number == 1 else f"{page.source}:{base_id}~{number}"),
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
