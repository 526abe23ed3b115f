"""Chunker: a page's shown blocks → one overview chunk + one chunk per `#`/`##`/`###` section (with anchors).

The blocks are markdown.py's (the page reader's): sections start at its heading blocks, and a `code` block (a fence or a
whole `:::` callout) is never cut; no Markdown is read here.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field

from app.corpus.markdown import Block, read_page
from app.corpus.site_model import MKDOCS_SUFFIXES
from app.corpus.vitepress_markdown import vitepress_slug

# Bump when chunk text or boundaries change: every content_hash changes once, so sync re-embeds.
CHUNKER_VERSION = "8"  # 8: nor is a part a title alone (7: never ends on a title line)

_EXPLICIT_ID = re.compile(r"\{#([A-Za-z0-9_:.\-]+)\}\Z")
_BREADCRUMB_SEPARATOR = " › "
SPLIT_LEVELS = (1, 2, 3)


@dataclass(frozen=True)
class Page:
    path: str  # relative to the docs folder, e.g. guides/widget.mdx
    title: str
    description: str | None
    audiences: tuple[str, ...]  # who may see it: declared, else its source's default
    body: str  # what the page shows, as Markdown (its blocks), snippets pasted
    source: str = "docs"
    declared: bool = True  # False when the audiences are the source's default
    blocks: tuple[Block, ...] = ()  # the shown blocks; when empty, read from `body`
    place: tuple[str, ...] = ()  # where the site's navigation shows it: tab › group (app/corpus/site.py)
    page_order: int | None = None  # its position in the site's navigation order; None: not listed there
    # The path the site publishes it at, when not its own (a Docusaurus docs instance's
    # routeBasePath: Site.url_path); its route is made of it (page_route).
    url_path: str | None = None
    # How its site makes a heading's anchor: "github", "vitepress" (slug_of), or "astro": GitHub's,
    # and a `{#id}` is text (Astro's Markdown has no heading ids: shown, and slugged with the rest).
    anchor_style: str = "github"

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
    place: tuple[str, ...] = ()  # the page's place in its site's navigation (Page.place), stored with each row
    # Where the row reads among the others (stored, docs_section.page_order and section_order):
    # its page's position in the site's navigation (Page.page_order; None: not listed, the page
    # goes by its path), and its own position in its page (0 first; a long section's parts right
    # after it). Not in the embedded text: a page moved, or a section added above, embeds nothing.
    page_order: int | None = None
    section_order: int | None = None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class _Section:
    level: int  # 0 for the overview
    heading: str
    anchor: str
    trail: list[str]
    blocks: list[Block] = field(default_factory=list)


def heading_text(raw: str, explicit_ids: bool = True) -> tuple[str, str | None]:
    """Heading text without an explicit `{#id}`, and that id (none read without `explicit_ids`)."""
    raw = raw.strip()
    explicit = _EXPLICIT_ID.search(raw) if explicit_ids else None
    if explicit:
        return raw[: explicit.start()].strip(), explicit.group(1)
    return raw, None


def shown_heading(block: Block, explicit_ids: bool = True) -> tuple[str, str | None]:
    """A heading block's text as the page shows it (the page reader's: no code span, link or
    emphasis Markdown left to read), without an explicit `{#id}`, and that id."""
    return heading_text(block.shown or block.text[block.level + 1:], explicit_ids)


def github_slug(text: str, strip: bool = True) -> str:
    """GitHub's anchor of a heading's shown text: lower case, punctuation dropped (but - and _),
    spaces to hyphens. `strip=False`: the text as written, as github-slugger takes it (Astro's
    "A heading " gives `a-heading-`)."""
    return re.sub(r"[^\w\- ]", "", (text.strip() if strip else text).lower()).replace(" ", "-")


def heading_anchor(page: Page, block: Block, shown: str, explicit: str | None) -> str:
    """A heading's anchor before numbering: its explicit id, the slug of the text its site makes it
    from (Astro's, unstripped as github-slugger takes it: `a-heading-`), or of its shown text."""
    if explicit:
        return explicit
    if block.slugged is not None:
        return github_slug(block.slugged, strip=False)
    return slug_of(page, shown)


def slug_of(page: Page, shown: str) -> str:
    """A heading's anchor as the page's site makes it from its shown text: GitHub's, or on a VitePress
    site its slugify (`coverage.provider` → `coverage-provider`, not GitHub's `coverageprovider`)."""
    return github_slug(shown) if page.anchor_style != "vitepress" else vitepress_slug(shown)


class AnchorAllocator:
    """Repeated headings get -1, -2, … as GitHub numbers them; explicit ids are kept."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def allocate(self, base: str) -> str:
        # A heading of punctuation or emoji alone slugs to "": GitHub gives it the anchor "" (its
        # link is the page) and the next such heading "-1".
        candidate = base
        while candidate in self._seen:
            self._seen[base] += 1
            candidate = f"{base}-{self._seen[base]}"
        self._seen[candidate] = 0
        return candidate


def page_route(path: str, prefix: str) -> str:
    """`guides/widget.mdx` → `/docs/guides/widget`; `guides/index.mdx` → `/docs/guides` (and
    MkDocs' `.markdown`, `.mdown`, `.mkdn`, `.mkd` pages, and Sphinx's `.rst`, likewise)."""
    suffix = next((s for s in (".mdx", *MKDOCS_SUFFIXES, ".rst") if path.endswith(s)), "")
    parts = [p for p in path[: len(path) - len(suffix)].split("/") if p]
    if parts and parts[-1] == "index":
        parts.pop()
    return "/".join([prefix.rstrip("/"), *parts]) or "/"


def _repeats_title(block: Block, title: str) -> bool:
    return block.level == 1 and shown_heading(block)[0] == title


def _sections(page: Page) -> list[_Section]:
    anchors = AnchorAllocator()
    overview = _Section(0, "", "", [])
    sections = [overview]
    current = overview
    open_headings: list[tuple[int, str]] = []  # the split headings enclosing the current block
    # A page made by hand (tests) has its body only: read once here.
    blocks = page.blocks or read_page(page.body, mdx=page.path.endswith(".mdx")).blocks
    for block in blocks:
        if block.kind != "heading":
            current.blocks.append(block)
            continue
        level = block.level
        explicit_ids = page.anchor_style != "astro"
        text = heading_text(block.text[level + 1:], explicit_ids)[0]  # the Markdown, for the section's text
        shown, explicit = shown_heading(block, explicit_ids)  # its name and anchor
        anchor = anchors.allocate(heading_anchor(page, block, shown, explicit))  # every heading counts, as on GitHub
        written = Block(f"{'#' * level} {text}", "heading", level, shown)
        if level not in SPLIT_LEVELS or _repeats_title(block, page.title):
            # Deeper headings, and a `#` repeating the page title, stay inside their section;
            # the line loses only its {#id}.
            current.blocks.append(written)
            continue
        open_headings = [(lv, h) for lv, h in open_headings if lv < level] + [(level, shown)]
        trail = [h for _, h in open_headings]
        current = _Section(level, shown, anchor, trail, [written])
        sections.append(current)
    return sections


# A block (paragraph, fence, callout) longer than this is cut after all, at line ends: a chunk is
# stored whole in a tsvector (Postgres refuses one over 1 MB, failing the sync of its source) and
# sent whole to the embedding provider, and no model reads past a few thousand characters anyway.
MAX_BLOCK_CHARS = 16_000
_FENCE_LINE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def _pieces(blocks: list[Block]) -> list[str]:
    """Paragraphs, whole code fences and whole callouts: the units a long section may be split between."""
    pieces: list[str] = []
    for block in blocks:
        paragraphs = [block.text] if block.kind == "code" else re.split(r"\n[ \t]*\n", block.text)
        pieces.extend(piece for p in paragraphs if p.strip() for piece in cut_block(p.strip("\n")))
    return pieces


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
    if fence:  # its closing line, when it has one, is written again under each piece
        opening, closing = lines[0], fence.group(1)
        lines = lines[1:-1] if len(lines) > 1 and lines[-1].strip().startswith(closing[0]) else lines[1:]
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


TITLE_CHARS = 120  # a title is a line of a few words; a longer one is a paragraph that lost its full stop
_ITEM_LINE = re.compile(r"(?:[-*+]|\d+[.)])\s|[>|]")  # a loose list's item, a quote, a table row: no title


def is_title_line(text: str) -> bool:
    """A one-line paragraph that ends as no sentence does: the title of what follows it (an
    accordion's, a field's, a bold `**STRICT_PACK**`), which the page shows as a heading of its
    body. A rule, since neither Markdown nor the shown text marks such a title."""
    text = text.strip()
    return (0 < len(text) <= TITLE_CHARS and "\n" not in text and not re.search(r"[.!?:;,]$", text)
            and not _ITEM_LINE.match(text))


def _lone_title(piece: str) -> bool:
    # A section's heading alone stays a part: on claude-docs, whose questions name sections, joining
    # it to a long body cost 2 of 43 facts and 0.016 of MRR (design/retrieval-rejected.md).
    return is_title_line(piece) and not piece.startswith("#")


def split_text(blocks: list[Block], max_chars: int) -> list[str]:
    """The blocks as parts of at most max_chars, packed between blocks (a text block between its
    paragraphs); a block longer than that stays whole. Short blocks make one part. A part never
    ends on a title line: the title goes with its body, into the next part. Nor is a part a title
    alone (a code block's `TypeScript`): it joins the block after it, past max_chars if that block
    is long, as a long block stays whole (a stranger's site had 40 such parts, each a search result
    with nothing in it)."""
    text = "\n\n".join(block.text for block in blocks)
    if len(text) <= max_chars:
        return [text] if text.strip() else []
    parts: list[str] = []
    current: list[str] = []
    for piece in _pieces(blocks):
        if current and len("\n\n".join([*current, piece])) > max_chars and not all(map(_lone_title, current)):
            title = current.pop() if len(current) > 1 and is_title_line(current[-1]) else None
            parts.append("\n\n".join(current))
            current = [title] if title is not None else []
        current.append(piece)
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


# A further part of a long section has the section's id and "~N" (chunk_page). A page's path may
# hold "~" too, and an over-long id ends in "~" and 16 hex digits of a hash (bounded_id): only a
# short number at the very end is a part's.
_PART = re.compile(r"(.*)~([0-9]{1,9})", re.DOTALL)


def section_part(section_id: str) -> tuple[str, int]:
    """The id of the section `section_id` belongs to, and which part of it it is (1: the first)."""
    match = _PART.fullmatch(section_id)
    return (match.group(1), int(match.group(2))) if match else (section_id, 1)


def section_sort_key(section_id: str, section_order: int | None) -> tuple[object, ...]:
    """A sort key that reads a page's rows in its order: by their stored position (Chunk.section_order).
    A row synced before positions were stored (migration 2026_12_06_0028) has none: such rows come
    after the others, by id, a section's parts after it, until the next sync writes their positions."""
    return (section_order is None, section_order or 0, *section_part(section_id))


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
    route = (base_url or "") + page_route(page.url_path or page.path, url_prefix)
    place = _BREADCRUMB_SEPARATOR.join(page.place) + _BREADCRUMB_SEPARATOR if page.place else ""
    chunks: list[Chunk] = []
    for section in _sections(page):
        blocks = section.blocks
        if section.level == 0:
            blocks = [Block(page.description), *blocks] if page.description and page.description.strip() else blocks
            if all(block.kind == "heading" and _repeats_title(block, page.title)
                   for block in blocks):
                continue  # no text before the first section (a title heading at most): nothing to index
            href, base_id, heading = route, page.path, ""
        else:
            fragment = f"#{section.anchor}" if section.anchor else ""  # "": no anchor to link to
            href, base_id, heading = f"{route}{fragment}", f"{page.path}#{section.anchor}", section.heading
        breadcrumb = _BREADCRUMB_SEPARATOR.join([page.title, *section.trail])
        for number, part in enumerate(split_text(blocks, max_chars), start=1):
            # The breadcrumb starts with the page title: it is said once. The page's place in the
            # site's navigation comes first: it tells apart the site's many pages titled "Overview".
            embed_text = f"{place}{breadcrumb}\n\n{part}"
            chunk_id = f"{page.source}:{base_id}" if number == 1 else f"{page.source}:{base_id}~{number}"
            chunks.append(Chunk(
                id=bounded_id(chunk_id), source=page.source, page=page.path, title=page.title, heading=heading,
                breadcrumb=breadcrumb, href=href, audiences=page.audiences, text=part, embed_text=embed_text,
                content_hash=content_hash(embed_text), place=page.place, page_order=page.page_order,
                section_order=len(chunks)))
    return chunks
