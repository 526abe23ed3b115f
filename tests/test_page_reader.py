"""The page reader's shortcuts change no answer (design/page-reader.md, "Making it faster").

- micromark gets only the GFM constructs a page has the characters to start (an email needs `@`,
  a table a delimiter row, …): a construct that cannot match leaves no trace.
- GFM's autolink transform on the tree runs only when a text node holds `@`, `http://`,
  `https://` or `www.`: with none, it finds nothing.
- A tree the browser's parser would rebuild as it is (no raw HTML, elements nested as the parser
  nests them) is not written out and parsed again.

Every probe page, the fuzz test's pages and random pages built from GFM's constructs, HTML and
JSX nestings and their near misses are read both ways, in each dialect, and must read the same."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from app.corpus.reader import Reading, _call, _reading
from tests.test_markdown_fuzz import _pages as fuzz_pages

PROBES = Path(__file__).parent / "data" / "markdown-probes"
PAGES = int(os.environ.get("DOCSCHAT_READER_PAGES", "300"))
DIALECTS = [{"mdx": False, "directives": True}, {"mdx": False}, {"mdx": True, "math": True},
            {"mdx": True, "directives": True}]

# Inline pieces: GFM's autolinks, footnotes, strikethrough and task items, with what comes close
# (an entity or escape that becomes `@` or `www`, `~` beside emphasis, `![^`); HTML and JSX that
# the browser's parser nests otherwise than written (a block in a `p`, a link in a link, a `li`
# alone, a row without its table, a void element with content); characters it rewrites.
_INLINE = [
    "a@b.co", "x.y@ex-ample.com.", "mailto:a@b.c", "www.example.com", "WWW.x.org/a?b", "www.", "http://a.b/c",
    "https://x.y/(z)", "HTTP://A.B", "httpx", "&#64;", "a&#64;b.co", "&commat;", "\\@", "w\\ww.a.b", "~a~", "~~b~~",
    "*~c~*", "_~d~_", "**x**~", "[^1]", "![^1]", "[^ 1]", "[\\^1]", "[^x]: y", "[a](http://u)", "[www.a.b](x)",
    "<http://a.b>", "<a@b.c>", "`www.a.b`", "<b>x</b>", "<!-- c -->", "{1}", '{"s"}', '<Card title="t">c</Card>',
    '<a href="x">y</a>', "$x$", "$$y$$", ":x", "|", "\\|", ":", "-", "[ ]", "[x]", "word", "two words", "_u_", "*e*",
    "  ", "\\", "&amp;", "&#x77;ww.a.b", "a_b@c.d", "+1@x.y", ".a@b.c",
    "<p>p</p>", '<a href="u">[l](v)</a>', "[a [^1]](b)", "[a <Tooltip>[b](c)</Tooltip>](d)", "<span>x</span>",
    '<img src="a" alt="b" />', "<br />", "<br>x</br>", "<strong>**x**</strong>", "&#13;", "&#0;", "&#xD800;", "&#12;",
    "<code>\na</code>", "<div>d</div>", "<h2>t</h2>", "<li>i</li>", "<td>c</td>", "<tr><td>c</td></tr>",
    "<table><tr><td>x</td></tr></table>", "<pre>\nx</pre>", "<>frag</>", '<Card title="t">[l](u)</Card>', "<u>u</u>",
    '<a href="x">a <a href="y">b</a></a>', "<em><div>x</div></em>", "[x <b>[y](z)</b>](w)", "<h3><h4>x</h4></h3>",
    '<img src="a">x</img>', "<kbd>k</kbd>",
]
# Lines: tables (with pipes, with a colon only, in a quote), task lists, footnote definitions,
# containers, fences, HTML blocks, MDX, CR line ends.
_LINES = [
    "| a | b |", "|---|---|", "| - | :- |", "a | b", "--- | ---", ":-", "-:", "a", ":---:", "|-", "- [ ] task",
    "- [x] done", "* item", "1. one", "> quote", "> | a |", "> |---|", "   |-|", "    code", "```", "~~~", "# h",
    "Title", "===", "---", "***", "[^1]: note", "[^a]:", "[ref]: http://x", ":::note", ":::", "$$", "x^2", "<div>",
    "</div>", "<Note>", "</Note>", "{/* c */}", "export const a = 1", 'import x from "y"', "", "", "\t|\ta\t|", "a\r",
    "|a|\r", "|-|\r", "<p>", "</p>", "<table>", "<tr>", "<td>", "</td>", "</tr>", "</table>", "<ul>", "<li>x</li>",
    "</ul>", "<pre>", "</pre>", "<Card>", "</Card>", '<a href="x">', "</a>", "> <div>q</div>", "- <h3>h</h3>",
    "<section>", "</section>", "| <b>x</b> | <div>y</div> |", "a[^1] b\n\n[^1]: note",
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


def _read(text: str, options: dict[str, bool], shortcuts: bool = True) -> Reading:
    return _reading(_call("parse", text, {**options, "shortcuts": shortcuts}))


def _pages() -> list[tuple[str, str]]:
    rng = random.Random(46)
    probes = [(path.name, path.read_text()) for path in sorted(PROBES.glob("*.md*"))]
    assert len(probes) >= 289, "the probes are missing"
    return probes + [(f"random-{n}", _page(rng)) for n in range(PAGES)]


def test_a_page_reads_the_same_without_the_shortcuts() -> None:
    differ = []
    for name, text in _pages():
        for options in DIALECTS:
            if _read(text, options) != _read(text, options, shortcuts=False):
                differ.append((name, options))
    for name, text in fuzz_pages():
        options = {"mdx": name.endswith(".mdx"), "directives": True}
        if _read(text, options) != _read(text, options, shortcuts=False):
            differ.append((name, options))
    assert not differ, f"{len(differ)} readings differ, e.g. {differ[:5]}"


def test_the_random_pages_hold_what_the_left_out_constructs_read() -> None:
    """Else the comparison would prove nothing."""
    rng = random.Random(46)
    pages = [_page(rng) for _ in range(PAGES)]
    shown = "\n".join(block.text for page in pages for block in _read(page, {"mdx": False}, shortcuts=False).blocks)
    # (a protocol link whose text is its target reads as its text: nothing to see)
    for reading in ("](mailto:", "](http://www.", "(#user-content-fn-", "|---|---|"):
        assert reading in shown, reading


@pytest.mark.parametrize(("text", "shown"), [
    ("a@b.co www.x.org", "[a@b.co](mailto:a@b.co) [www.x.org](http://www.x.org)"),
    ("a ~~b~~ c", "a b c"),
    ("a\n:-\nb", "| a |\n|---|\n| b |"),  # a table with no pipe: the gate must see its colon
    ("> | a |\n> |---|", "> | a |\n> |---|"),
    # autolinks only the tree's transform finds (after raw HTML, from a character reference): the
    # gate that skips it must see them, in any case
    ("<b>WWW.x.org</b>", "[WWW.x.org](http://WWW.x.org)"), ("a&#64;b.co", "[a@b.co](mailto:a@b.co)"),
])
def test_pages_with_the_constructs_read_them(text: str, shown: str) -> None:
    assert [block.text for block in _read(text, {"mdx": False}).blocks] == [shown]


# (the options of `uses`, then those of the `parse` that follows it on the same text): the tree
# `uses` read is taken only by a parse of the same text and syntax (the first pair), else read again.
_USES_THEN_PARSE = [
    ({"math": True}, {"mdx": True, "math": True}), ({"directives": True, "comments": True},
                                                     {"mdx": True, "directives": True, "comments": True}),
    ({"math": True}, {"mdx": True}), ({"directives": True}, {"mdx": False, "directives": True}),
    ({}, {"mdx": True, "comments": True}), ({"math": True}, {"mdx": True, "math": True, "shortcuts": False}),
]


def test_a_page_read_after_its_snippets_reads_as_it_does_alone() -> None:
    """compose reads an MDX page's snippets (`uses`) before the page: the tree kept from that first
    reading must give the page's reading, and only where its syntax is the same."""
    differ = []
    for name, text in _pages()[:500]:
        for uses_options, options in _USES_THEN_PARSE:
            _call("parse", "", {})  # nothing kept
            alone = _reading(_call("parse", text, options))
            _call("uses", text, uses_options)
            if _reading(_call("parse", text, options)) != alone:
                differ.append((name, uses_options, options))
    assert not differ, f"{len(differ)} readings differ, e.g. {differ[:5]}"
