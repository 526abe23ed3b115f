"""A section's text read back into blocks by markdown-it-py (app/search/chunk_text.py): what the
chat quotes and cuts, and what page selection counts as prose."""

from __future__ import annotations

from app.chat.excerpts import CUT_MARK, cut_at_boundaries
from app.search.chunk_text import chunk_blocks, prose_lines
from app.search.pages import is_navigation


def kinds(text: str) -> list[tuple[str, str]]:
    return [(block.kind, block.text) for block in chunk_blocks(text)]


def test_blocks_are_the_parsers_top_level_blocks() -> None:
    text = "# Install\n\nRun this:\n```bash\npip install x\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n---\n\nEnd."
    assert kinds(text) == [
        ("heading", "# Install"), ("paragraph", "Run this:"), ("code", "```bash\npip install x\n```"),
        ("table", "| a | b |\n|---|---|\n| 1 | 2 |"), ("quote", "> quoted"), ("paragraph", "End."),
    ]


def test_a_line_that_only_looks_like_a_fence_is_text() -> None:
    # A backtick fence's info string may not hold a backtick; the reader escapes a shown fence line.
    assert kinds("```a`b\nstill text") == [("paragraph", "```a`b\nstill text")]
    assert kinds("\\```\nnot code\n\\```") == [("paragraph", "\\```\nnot code\n\\```")]
    # A longer fence is closed only by a run at least as long: the inner ``` is code.
    assert kinds("````\n```\ninner\n```\n````\nafter") == [("code", "````\n```\ninner\n```\n````"), ("paragraph", "after")]
    # An unclosed fence runs to the end, as Markdown renders it.
    assert kinds("Text.\n\n```\ncode\n\n# not a heading") == [("paragraph", "Text."), ("code", "```\ncode\n\n# not a heading")]


def test_a_list_is_cut_around_the_code_in_its_items() -> None:
    text = "1. Install:\n   ```bash\n   pip install x\n   ```\n2. Run it\n   twice.\n3. Done"
    blocks = chunk_blocks(text)
    assert [(b.kind, b.text) for b in blocks] == [
        ("list", "1. Install:"), ("code", "   ```bash\n   pip install x\n   ```"),
        ("list", "2. Run it\n   twice.\n3. Done"),
    ]
    assert blocks[2].items == ("2. Run it\n   twice.", "3. Done")


def test_no_shown_line_is_lost() -> None:
    # CommonMark reads "[1]: x" as a link reference definition (no block): it was shown, it stays.
    assert kinds("Intro.\n\n[1]: https://example.com\n\nOutro.") == [
        ("paragraph", "Intro."), ("paragraph", "[1]: https://example.com"), ("paragraph", "Outro."),
    ]
    # An indented run (raw HTML's indentation kept) is prose, a paragraph per run of lines.
    assert kinds("file.txt\n\n      {{A}}\n\n    other.txt") == [
        ("paragraph", "file.txt"), ("paragraph", "      {{A}}"), ("paragraph", "    other.txt"),
    ]
    # Lone CRs end lines, as markdown-it counts them.
    assert prose_lines("# Title\r- [a](/a)\r```\n[b](/b)\n```\r\n- [c](/c)") == ["- [a](/a)", "- [c](/c)"]


def test_links_in_code_do_not_make_a_section_navigation() -> None:
    assert is_navigation("- [Guide](/docs/guide)\n- [Setup](/docs/setup)\n")
    assert not is_navigation("Call it so:\n\n```md\n- [Guide](/docs/guide)\n- [Setup](/docs/setup)\n```\n")


def test_an_excerpt_is_cut_between_list_items_never_inside_a_fence() -> None:
    items = [f"- Item {n} says something about the widget." for n in range(10)]
    text = "Intro.\n\n" + "\n".join(items) + "\n\n```\n" + "code line\n" * 20 + "```\n\nLast."
    cut = cut_at_boundaries(text, 150)
    assert cut.endswith(CUT_MARK) and len(cut) <= 150
    assert cut.startswith("Intro.\n\n- Item 0") and "code line" not in cut
    assert all(line in items for line in cut.removesuffix(CUT_MARK).split("\n\n")[1].split("\n"))
    listed = "Intro.\n\n" + "\n".join(items)
    assert cut_at_boundaries(text, len(listed) + 20) == listed + CUT_MARK  # the fence does not fit: left out
