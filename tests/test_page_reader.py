"""The page reader's shortcuts change no answer (design/page-reader.md, "Making it faster").

The reader gives micromark only the GFM constructs a page has the characters to start (an email
needs `@`, a table a delimiter row, …); a construct that cannot match leaves no trace. Here every
probe page and random pages built from GFM's constructs and their near misses are read both ways,
with each dialect's options, and must read the same."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from app.corpus.reader import Reading, _call

PROBES = Path(__file__).parent / "data" / "markdown-probes"
PAGES = int(os.environ.get("DOCSCHAT_READER_PAGES", "300"))
DIALECTS = [{"mdx": False, "directives": True}, {"mdx": False}, {"mdx": True, "math": True},
            {"mdx": True, "directives": True}]

# Inline pieces: GFM's autolinks, footnotes, strikethrough and task items, with what comes close
# (an entity or escape that becomes `@` or `www`, `~` beside emphasis, `![^`), and other syntax.
_INLINE = [
    "a@b.co", "x.y@ex-ample.com.", "mailto:a@b.c", "www.example.com", "WWW.x.org/a?b", "www.", "http://a.b/c",
    "https://x.y/(z)", "HTTP://A.B", "httpx", "&#64;", "a&#64;b.co", "&commat;", "\\@", "w\\ww.a.b", "~a~", "~~b~~",
    "*~c~*", "_~d~_", "**x**~", "[^1]", "![^1]", "[^ 1]", "[\\^1]", "[^x]: y", "[a](http://u)", "[www.a.b](x)",
    "<http://a.b>", "<a@b.c>", "`www.a.b`", "<b>x</b>", "<!-- c -->", "{1}", '{"s"}', '<Card title="t">c</Card>',
    '<a href="x">y</a>', "$x$", "$$y$$", ":x", "|", "\\|", ":", "-", "[ ]", "[x]", "word", "two words", "_u_", "*e*",
    "  ", "\\", "&amp;", "&#x77;ww.a.b", "a_b@c.d", "+1@x.y", ".a@b.c",
]
# Lines: tables (with pipes, with a colon only, in a quote), task lists, footnote definitions,
# containers, fences, MDX, CR line ends.
_LINES = [
    "| a | b |", "|---|---|", "| - | :- |", "a | b", "--- | ---", ":-", "-:", "a", ":---:", "|-", "- [ ] task",
    "- [x] done", "* item", "1. one", "> quote", "> | a |", "> |---|", "   |-|", "    code", "```", "~~~", "# h",
    "Title", "===", "---", "***", "[^1]: note", "[^a]:", "[ref]: http://x", ":::note", ":::", "$$", "x^2", "<div>",
    "</div>", "<Note>", "</Note>", "{/* c */}", "export const a = 1", 'import x from "y"', "", "", "\t|\ta\t|", "a\r",
    "|a|\r", "|-|\r",
]


def _page(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(1, 12)):
        if rng.random() < 0.5:
            lines.append(rng.choice(_LINES))
        else:
            joint = rng.choice([" ", "", " x "])
            lines.append(joint.join(rng.choice(_INLINE) for _ in range(rng.randint(1, 5))))
    return rng.choice(["\n", "\n", "\n\n", "\r\n"]).join(lines)


def _read(text: str, options: dict[str, bool], every: bool) -> Reading:
    return _call("parse", text, {**options, "everyGfmConstruct": every})


def _pages() -> list[tuple[str, str]]:
    rng = random.Random(46)
    probes = [(path.name, path.read_text()) for path in sorted(PROBES.glob("*.md*"))]
    assert len(probes) >= 289, "the probes are missing"
    return probes + [(f"random-{n}", _page(rng)) for n in range(PAGES)]


def test_a_page_reads_the_same_with_only_the_gfm_constructs_it_can_start() -> None:
    differ = []
    for name, text in _pages():
        for options in DIALECTS:
            if _read(text, options, every=False) != _read(text, options, every=True):
                differ.append((name, options))
    assert not differ, f"{len(differ)} readings differ, e.g. {differ[:5]}"


def test_the_comparison_holds_pages_where_the_left_out_constructs_match() -> None:
    """The random pages hold what each left-out construct reads (else the comparison proves nothing)."""
    rng = random.Random(46)
    pages = [_page(rng) for _ in range(PAGES)]
    shown = "\n".join(block.text for page in pages for block in _read(page, {"mdx": False}, every=True).blocks)
    for reading in ("](mailto:", "](http://www.", "](HTTP://A.B", "(#user-content-fn-", "|---|---|"):
        assert reading in shown, reading


@pytest.mark.parametrize(("text", "shown"), [
    ("a@b.co www.x.org", "[a@b.co](mailto:a@b.co) [www.x.org](http://www.x.org)"),
    ("a ~~b~~ c", "a b c"),
    ("a\n:-\nb", "| a |\n|---|\n| b |"),  # a table with no pipe: the gate must see its colon
    ("> | a |\n> |---|", "> | a |\n> |---|"),
])
def test_pages_with_the_constructs_read_them(text: str, shown: str) -> None:
    assert [block.text for block in _read(text, {"mdx": False}, every=False).blocks] == [shown]
