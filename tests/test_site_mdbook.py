"""An mdBook site (app/corpus/site_mdbook.py, mdbook_markdown.py): its pages are SUMMARY.md's
chapters (a draft, a file SUMMARY.md leaves out, a file outside `[book] src`, a redirect's source are
none), each linked at `x.html` (`README.md` at `index.html`), placed under its part title and the
chapters it is nested in, in SUMMARY's order; its text is what mdBook shows: `{{#include}}` and the
like pasted, Rust's `# ` lines and `hidelines` prefixes hidden, heading attributes read, alerts titled.

tests/data/site-nav/mdbook is a small book; mdbook.recorded.json is what `mdbook build` (0.5.4) made
of it, read in Chromium (scripts/record_mdbook_site.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.corpus.mdbook_markdown import expand_links, render_mdbook
from app.corpus.site import NOT_BUILT, REDIRECT, enclosing_site, read_site
from app.corpus.site_mdbook import parse_summary
from app.corpus.site_root import SiteRoot, find_site
from tests.helpers import compose_fixture_repo

SITE = Path(__file__).parent / "data" / "site-nav" / "mdbook"
RECORDED = json.loads((SITE.parent / "mdbook.recorded.json").read_text())
MARKER = re.compile(r"marker[-_][a-z_-]*[a-z]")


def _composed(tmp_path: Path, folder: Path = SITE, dir: str = ""):
    return compose_fixture_repo(tmp_path, folder, dir)


def _built() -> dict[str, dict]:
    return {name: page for name, page in RECORDED["pages"].items() if page["built"] and not page.get("redirect")}


def test_the_pages_are_the_chapters_the_build_renders(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    assert sorted(page.path for page in result.pages) == sorted(_built())
    excluded = dict(result.excluded)
    assert {name for name, page in RECORDED["pages"].items() if not page["built"]} == {
        name for name, why in excluded.items() if why.kind == NOT_BUILT}
    assert excluded["src/old.md"].kind == REDIRECT  # the build wrote a redirect stub at old.html
    assert result.warnings == []


def test_each_page_is_linked_where_the_build_wrote_it(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    for page in result.pages:
        hrefs = {chunk.href.partition("#")[0] for chunk in result.chunks if chunk.page == page.path}
        assert hrefs == {"/" + RECORDED["pages"][page.path]["href"]}, page.path
        assert page.title == RECORDED["pages"][page.path]["text"].split("\n")[0], page.path  # its own heading
        anchors = {chunk.href.partition("#")[2] for chunk in result.chunks if chunk.page == page.path} - {""}
        assert anchors <= set(RECORDED["pages"][page.path]["heading_ids"]), page.path


def test_pages_stand_in_the_sidebar_order_and_place(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    href_of = {page.path: RECORDED["pages"][page.path]["href"] for page in result.pages}
    ordered = sorted(result.pages, key=lambda p: p.page_order if p.page_order is not None else 1e9)
    assert [[href_of[p.path], list(p.place)] for p in ordered] == RECORDED["sidebar"]


def test_a_page_shows_what_the_built_page_shows(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    for page in result.pages:
        text = "\n".join(chunk.text for chunk in result.chunks if chunk.page == page.path)
        recorded = RECORDED["pages"][page.path]["text"]
        written = (SITE / page.path).read_text() + "".join(p.read_text() for p in (SITE / "listings").iterdir())
        for marker in sorted(set(MARKER.findall(written))):
            assert (marker in text) == (marker in recorded), (page.path, marker)


def test_what_mdbook_makes_of_the_markdown_shows_as_it_does(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    text = "\n".join(chunk.text for chunk in result.chunks if chunk.page == "src/a.md")
    assert "{{#include marker-escaped-shown.md}}" in text and "\\{{#" not in text  # escaped: no backslash
    assert "#![marker_double_hash_shown]" in text and "##!" not in text  # `##` shows one `#`
    assert "#[derive(Debug)]" in text  # an attribute is no hidden line
    assert "Warning" in RECORDED["pages"]["src/a.md"]["text"] and "Warning" in text  # the alert's title
    assert "| marker-table-cell | 2 |" in text  # a table (GFM's, without outer pipes), read as one
    assert ": marker-definition-shown" not in text  # a definition list's `:` is no text
    assert "[!WARNING]" not in text and "{ #custom-setup" not in text and "{{#title" not in text
    anchors = {chunk.href.partition("#")[2] for chunk in result.chunks if chunk.page == "src/a.md"}
    assert "custom-setup" in anchors and "custom-setup" in RECORDED["pages"]["src/a.md"]["heading_ids"]


def test_parse_summary_reads_parts_nesting_drafts_and_affixes() -> None:
    chapters = parse_summary("# Summary\n<!-- [Hidden](hidden.md)\n- [Also](also.md) -->\n[Intro](intro.md)\n\n# Guide\n\n- [One](one.md)\n  - [Sub *x*](one/sub%20page.md)\n"
                             "    - [Deep](deep.md)\n  - [Draft]()\n- [Two](./two.md)\n\n---\n\n[End](end.md) [More](more.md)\n")
    assert [(c.path, c.name, c.place) for c in chapters] == [
        ("intro.md", "Intro", ()), ("one.md", "One", ("Guide",)), ("one/sub page.md", "Sub x", ("Guide", "One")),
        ("deep.md", "Deep", ("Guide", "One", "Sub x")), (None, "Draft", ("Guide", "One")), ("two.md", "Two", ("Guide",)),
        ("end.md", "End", ()), ("more.md", "More", ())]


def test_a_chapter_outside_the_source_folder_is_no_page() -> None:
    # `/a.md` is the build machine's file for mdBook, never src/a.md; `../b.md` is written outside the output.
    site = read_site({"book.toml": "", "src/SUMMARY.md": "- [A](/a.md)\n- [B](../b.md)\n- [C](c.md)\n",
                      "src/a.md": "# A", "b.md": "# B", "src/c.md": "# C"})
    assert list(site.listed) == ["src/c"] and len(site.warnings) == 2
    assert site.exclusion("src/a.md", {}) is not None and site.exclusion("b.md", {}) is not None


def test_a_setext_part_title_is_a_part_title() -> None:
    # Read as a paragraph it began the suffix chapters: the list below was refused, its pages lost.
    warnings: list[str] = []
    chapters = parse_summary("- [A](a.md)\n\nPart three\n==========\n\n- [B](b.md)\n- [C](c.md)\n===\n", warnings)
    assert [(c.path, c.place) for c in chapters] == [("a.md", ()), ("b.md", ("Part three",)), ("c.md", ("Part three",))]
    assert warnings == []


def test_a_list_after_the_suffix_chapters_is_reported() -> None:
    warnings: list[str] = []
    chapters = parse_summary("- [A](a.md)\n\n[B](b.md)\n\n- [C](c.md)\n", warnings)
    assert [c.path for c in chapters] == ["a.md", "b.md"]
    assert warnings and "Suffix chapters cannot be followed by a list" in warnings[0]


def test_include_ranges_and_anchors_take_the_lines_mdbook_takes() -> None:
    source = "one\ntwo\nthree\nfour\n"
    read = {"x.txt": source, "a.rs": "a\n// ANCHOR: k\nb\n// ANCHOR: other\nc\n// ANCHOR_END: other\n// ANCHOR_END: k\nd\n"}.get
    cases = {"x.txt": "one\ntwo\nthree\nfour", "x.txt:2": "two", "x.txt:2:3": "two\nthree", "x.txt:3:": "three\nfour",
             "x.txt::2": "one\ntwo", "x.txt:": "one\ntwo\nthree\nfour", "x.txt:2:3:9": "two\nthree", "a.rs:k": "b\nc",
             "a.rs:missing": "", "x.txt:+2": "two", "x.txt::+2": "one\ntwo", "x.txt:0": "one", "x.txt:3:1": "",
             # Rust's usize parse: no other digits (`int` takes them; `²` crashed it), overflow an anchor
             "x.txt:²": "", "x.txt:١": "", "x.txt:2:²": "two\nthree\nfour", "x.txt:99999999999999999999": ""}
    for where, expected in cases.items():
        assert expand_links("p.md", f"{{{{#include {where}}}}}", read, []) == expected, where
    assert expand_links("p.md", "{{#rustdoc_include x.txt:2:3}}", read, []) == "# one\ntwo\nthree\n# four"
    assert expand_links("p.md", "{{#rustdoc_include a.rs:other}}", read, []) == "# a\n# b\nc\n# d"
    assert expand_links("p.md", "{{#playground x.txt editable}}", read, []) == "```rust,editable\none\ntwo\nthree\nfour\n```"


def test_an_include_is_pasted_at_its_line_prefix_and_nested_includes_are_bounded() -> None:
    files = {"d/x.md": "first\n{{#include y.md}}\n", "d/y.md": "a\nb", "loop.md": "{{#include loop.md}}"}
    warnings: list[str] = []
    assert expand_links("p.md", "- item\n  {{#include d/x.md}}", files.get, warnings) == "- item\n  first\n  a\n  b"
    assert expand_links("p.md", "{{#include loop.md}}", files.get, warnings) == ""
    chain = {f"f{n}.md": f"{n} {{{{#include f{n + 1}.md}}}}" for n in range(11)}
    assert expand_links("p.md", "{{#include f0.md}}", chain.get, []) == "0 1 2 3 4 5 6 7 8 9 "  # 10 deep, as mdBook
    assert expand_links("p.md", "`\\{{#include x.md}}`", files.get, []) == "`{{#include x.md}}`"  # escaped
    assert any("nested more than 10" in w for w in warnings)
    assert expand_links("p.md", "{{#include nowhere.md}} {{#tabs }}", files.get, warnings) == "{{#include nowhere.md}} {{#tabs }}"
    assert any("nowhere.md" in w for w in warnings)


def test_includes_that_multiply_are_bounded() -> None:
    # Four includes of itself, ten deep: 1.4 million pastes (five: ten million; mdBook's build never ends).
    warnings: list[str] = []
    text = expand_links("p.md", "{{#include l.md}}", {"l.md": "x{{#include l.md}}" * 4}.get, warnings)
    assert text.count("x") <= 4 * 500 and len([w for w in warnings if "more than 500 includes" in w]) == 1


def test_an_absolute_include_reads_nothing() -> None:
    # mdBook reads an absolute path from the build machine's disk; docschat never does, and
    # `/repository/x` must not name the repository's file x (compose's key for a file above the book).
    files = {"/repository/secret.md": "marker-secret", "/etc/passwd": "root:x", "secret.md": "marker-secret"}
    warnings: list[str] = []
    for link in ("{{#include /repository/secret.md}}", "{{#include /etc/passwd}}", "{{#rustdoc_include /secret.md}}",
                 "{{#playground /repository/secret.md}}"):
        assert expand_links("p.md", link, files.get, warnings) == link
    assert len(warnings) == 4


def test_hidden_code_lines_follow_the_language_and_its_prefix() -> None:
    rendered = render_mdbook("```rust,ignore\n# hidden_a\n#\n  # hidden_b\n#[x]\n## shown\nshown_c\n```\n\n"
                             "```python\n~ hidden_p\nshown_p\n```\n\n```sh hidelines=%\n% hidden_s\nshown_s\n```\n\n"
                             "```\n# shown_plain\n```\n", json.dumps({"hidelines": {"python": "~"}}))
    for word in ("hidden_a", "hidden_b", "hidden_p", "hidden_s"):
        assert word not in rendered
    for word in ("#[x]", "# shown", "shown_c", "shown_p", "shown_s", "# shown_plain"):
        assert word in rendered
    assert "hidden_p" in render_mdbook("```python\n~ hidden_p\n```\n")  # no prefix configured: shown
    # `[output.html.playground] editable = true`: Ace shows an editable Rust block whole (recorded with mdbook 0.5.4).
    editable = "```rust,editable\n# shown_e\n```\n\n```rust\n# hidden_e\n```\n"
    assert "shown_e" in render_mdbook(editable, json.dumps({"editable": True})) and "hidden_e" not in render_mdbook(
        editable, json.dumps({"editable": True}))
    assert "shown_e" not in render_mdbook(editable)
    assert json.loads(read_site({"book.toml": "[output.html.playground]\neditable = true\n", "src/SUMMARY.md": ""}).mdbook)["editable"]


def test_raw_html_code_before_a_code_block_moves_no_hidden_line() -> None:
    # Raw `<pre><code>`s were counted as Markdown blocks: the Rust block after them lost its language.
    for raw in ("<pre><code>raw_shown</code></pre>\n\n", "a <pre><code>raw_shown</code></pre>\n\n",
                "<pre><code>raw_shown</code>\n</pre>\n\n"):
        rendered = render_mdbook(raw + "```rust\n# hidden_a\nshown_a\n```\n\n> ```rust\n> # hidden_b\n> shown_b\n> ```\n")
        assert "raw_shown" in rendered and "shown_a" in rendered and "shown_b" in rendered, raw
        assert "hidden_a" not in rendered and "hidden_b" not in rendered, raw
    # mdBook hides lines of raw HTML's `<code class="language-rust">` too (its tree, not the Markdown).
    rendered = render_mdbook('<pre><code class="language-rust"># hidden_r\nshown_r</code></pre>\n')
    assert "hidden_r" not in rendered and "shown_r" in rendered


def test_book_toml_decides_the_source_folder_and_reports_what_it_cannot_run() -> None:
    site = read_site({"book.toml": '[book]\nsrc = "pages"\n[preprocessor.tabs]\n[preprocessor.links]\n',
                      "pages/SUMMARY.md": "- [A](a.md)\n", "pages/a.md": "# A", "src/b.md": "# B"})
    assert site.framework == "mdbook" and list(site.listed) == ["pages/a"]
    assert site.url_path("pages/a.md") == "a.html"
    assert site.exclusion("src/b.md", {}) is not None and site.exclusion("pages/a.md", {}) is None
    assert site.warnings == ["book.toml runs preprocessors docschat does not (tabs): what they would write (their "
                             "`{{#…}}` text) is shown as written"]
    broken = read_site({"book.toml": "[book\n", "src/SUMMARY.md": "- [A](README.md)\n", "src/README.md": "# A"})
    assert broken.url_path("src/README.md") == "index.html" and "not TOML" in broken.warnings[0]


def test_a_book_is_found_below_the_repository_root_and_its_source_folder_is_not_read_alone() -> None:
    files = {"guide/book.toml": "[book]\n", "guide/src/SUMMARY.md": "- [A](a.md)\n", "guide/src/a.md": "# A", "README.md": "# R"}
    assert find_site(files) == SiteRoot("guide", "guide/book.toml")
    why = enclosing_site("guide/src", lambda paths: {p: files[p] for p in paths if p in files})
    assert why is not None and "'guide/book.toml'" in why and "'guide'" in why
