"""A section's text read back into its blocks, by markdown-it-py: never a line scanner.

The page reader writes a section as Markdown (app/corpus/js/src/reader.js): headings, paragraphs,
lists, tables, code fences, with shown text escaped so that it reads as text. Search and the chat
read it back (a section that is a list of links, an excerpt cut between blocks, the passages the
offline answer quotes) with CommonMark and GFM tables, the parser compose already ships.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

from markdown_it import MarkdownIt

# Block structure only: no block's inline content is looked at.
_PARSER = MarkdownIt("commonmark", {"maxNesting": 20}).enable("table").disable(["inline", "text_join"])
_NEWLINE = re.compile(r"\r\n?|\n")  # the line ends markdown-it counts lines by
_KINDS = {
    "heading_open": "heading", "paragraph_open": "paragraph", "fence": "code", "bullet_list_open": "list",
    "ordered_list_open": "list", "table_open": "table", "blockquote_open": "quote", "html_block": "paragraph",
    # The reader fences every code block: an indented run is shown text that kept its indentation
    # (raw HTML's, or a long list's continuation cut at a line end), one paragraph a run of lines.
    "code_block": "indented",
}


@dataclass(frozen=True)
class Block:
    text: str  # its lines as written, without the blank lines around it
    kind: str  # heading, paragraph, code, list, table or quote
    items: tuple[str, ...] = ()  # a list's items, each with its continuation lines


@functools.lru_cache(maxsize=2048)  # the chat and page selection read the same sections turn after turn
def chunk_blocks(text: str) -> tuple[Block, ...]:
    """The top-level blocks of `text`, in order; a list is cut around the code blocks in its items
    (the steps of a guide and their commands). A thematic break has no text and is left out."""
    lines = _NEWLINE.split(text)
    blocks: list[Block] = []
    done = 0  # lines before this one are in a block or blank

    def add(start: int, end: int, kind: str, item_starts: list[int] | None = None) -> None:
        if not (written := "\n".join(lines[start:end]).strip("\n")):
            return
        items: tuple[str, ...] = ()
        if item_starts is not None:  # a run that does not start at an item starts with a continuation
            bounds = sorted({start, *(at for at in item_starts if start < at < end)}) + [end]
            items = tuple(item for a, b in itertools.pairwise(bounds) if (item := "\n".join(lines[a:b]).strip("\n")))
        blocks.append(Block(written, kind, items))

    tokens = _PARSER.parse(text)
    for at, token in enumerate(tokens):
        kind = _KINDS.get(token.type)
        if token.level != 0 or token.map is None:
            continue
        start, end = token.map
        # A line in no block is one CommonMark reads as a link reference definition ("[1]: x"); the
        # page showed it, so it stays, as a paragraph.
        add(done, start, "paragraph")
        if kind == "list":
            inner = list(itertools.takewhile(lambda t: t.level > 0, tokens[at + 1:]))
            item_starts = [t.map[0] for t in inner if t.type == "list_item_open" and t.level == 1 and t.map]
            for fence_start, fence_end in (t.map for t in inner if t.type == "fence" and t.map):
                add(start, fence_start, "list", item_starts)
                add(fence_start, fence_end, "code")
                start = fence_end
            add(start, end, "list", item_starts)
        elif kind == "indented":
            for run_start, run_end in _runs(lines, start, end):
                add(run_start, run_end, "paragraph")
        elif kind:  # not a thematic break
            add(start, end, kind)
        done = end
    add(done, len(lines), "paragraph")
    return tuple(blocks)


def _runs(lines: list[str], start: int, end: int) -> list[tuple[int, int]]:
    """The runs of non-blank lines among lines[start:end]."""
    blank = [start - 1] + [at for at in range(start, end) if not lines[at].strip()] + [end]
    return [(a + 1, b) for a, b in itertools.pairwise(blank) if b > a + 1]


def prose_lines(text: str) -> list[str]:
    """The lines of `text` outside its code blocks and headings."""
    return [line for b in chunk_blocks(text) if b.kind not in ("code", "heading") for line in b.text.split("\n")]
