"""Docusaurus's legacy admonition title, `:::note Title`, read as Docusaurus reads it.

remark-directive has no such syntax: Docusaurus rewrites the page before MDX parses it
(@docusaurus/utils' admonitionTitleToDirectiveLabel). The rewrites were recorded from the real
function (scripts/record_docusaurus_admonitions.cjs); reading a page as a Docusaurus page must give
what reading Docusaurus's rewrite gives. pnpm.io writes 12 callouts this way.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.chunker import Chunk
from app.corpus.compose import compose_files
from app.corpus.markdown import read_page
from app.corpus.sources import Source

RECORDED = json.loads((Path(__file__).parent / "data" / "docusaurus-admonition-titles.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("mdx", [True, False], ids=["mdx", "md"])
@pytest.mark.parametrize("case", RECORDED["cases"], ids=lambda case: case["page"].split("\n")[0])
def test_a_legacy_admonition_title_reads_as_docusaurus_rewrites_it(case: dict[str, str], mdx: bool) -> None:
    def read(text: str) -> list[tuple[str, str]]:
        return [(block.kind, block.text) for block in read_page(text, mdx=mdx, myst=False, comments=mdx, docusaurus=True).blocks]

    assert read(case["page"]) == read(case["docusaurus"])


def test_a_titled_callout_is_one_callout_under_its_title() -> None:
    page = RECORDED["cases"][0]["page"]
    blocks = read_page(page, mdx=True, myst=False, comments=True, docusaurus=True).blocks
    assert ":::tip Standard error\nTo write to standard error, pass `sys.stderr`.\n:::" in [b.text for b in blocks]
    # Outside Docusaurus the same lines are text, as CommonMark reads them.
    assert "\\:::tip Standard error" in [b.text for b in read_page(page, mdx=False, myst=False).blocks]


# --- The docs plugin's `admonitions` option, against the real build ------------------------------

SITE = Path(__file__).parent / "data" / "docusaurus-admonitions"
BUILT = json.loads((SITE.parent / "docusaurus-admonitions.shown.json").read_text(encoding="utf-8"))["pages"]
_CALLOUT_OPENING = re.compile(r"^:::[\w-]+(?: (?P<title>.*))?$")


def _composed() -> dict[str, list[Chunk]]:
    files = {path.relative_to(SITE).as_posix(): path.read_text(encoding="utf-8") for path in SITE.rglob("*") if path.is_file()}
    result = compose_files(files, Settings(), Source(name="s", repo=Path("."), dir="", audiences=("public",)))
    assert not result.warnings
    pages: dict[str, list[Chunk]] = {}
    for chunk in result.chunks:
        pages.setdefault(chunk.page, []).append(chunk)
    return pages


def _shown(chunks: list[Chunk]) -> str:
    """The page's text as the site shows it: a callout's `:::name Title` opening is its title, its
    closing `:::` nothing (docschat's markup of a box), its headings' `**` and `#` nothing."""
    lines = []
    for line in "\n".join(chunk.text for chunk in chunks).split("\n"):
        if (opening := _CALLOUT_OPENING.match(line)) is not None:
            line = opening["title"] or ""
        lines.append("" if line == ":::" else line)
    return "\n".join(lines)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


@pytest.mark.parametrize("page", sorted(page for page in BUILT if "text" in BUILT[page]))
def test_a_docs_instance_s_admonitions_read_as_its_build_shows_them(page: str) -> None:
    """Custom keywords are boxes (their legacy `:::release Title` too), a directive no keyword names
    is a `<div>` (its label a paragraph, its headings sections), `admonitions: false` leaves every
    `:::note` a `<div>` and every legacy title text, `extendDefaults: false` takes the default
    keywords away; `{title="…"}` is a box's title."""
    chunks = _composed()[page]
    assert _words(_shown(chunks)) == _words(BUILT[page]["text"])
    sections = [line.lstrip("#").strip() for chunk in chunks for line in chunk.text.split("\n") if re.match(r"#{1,6} ", line)]
    assert sections == BUILT[page]["sections"]


@pytest.mark.parametrize(("config", "rewritten"), [
    ("module.exports = {};", True),
    ("module.exports = {markdown: {mdx1Compat: {admonitions: false}}};", False),
    ("module.exports = {future: {v4: true}};", False),
    ("module.exports = {future: {v4: true}, markdown: {mdx1Compat: {admonitions: true}}};", True),
])
def test_legacy_titles_follow_mdx1compat(config: str, rewritten: bool) -> None:
    """@docusaurus/mdx-loader's preprocessor rewrites `:::note Title` only while the site's
    markdown.mdx1Compat.admonitions holds (true unless future.v4 turns the MDX 1 compatibility off)."""
    files = {"docusaurus.config.js": config, "docs/a.md": "# A\n\n:::note Legacy title\n\nBody.\n\n:::\n"}
    result = compose_files(files, Settings(), Source(name="s", repo=Path("."), dir="", audiences=("public",)))
    text = "\n".join(chunk.text for chunk in result.chunks)
    assert (":::note Legacy title\nBody.\n:::" in text) is rewritten
    assert ("\\:::note Legacy title" in text) is not rewritten


def test_a_class_the_site_hides_hides_a_component_where_docusaurus_puts_it() -> None:
    """The site's stylesheet hides `.secret` (its customCss): a box's `{.secret}` or `class`, an
    `<Admonition>`'s or `<Details>`' `className` hide all they show, a `<TabItem>`'s its panel (its
    label stands in the tab list), a `<Tabs>`' its labels; a directive no keyword names has no
    class. As the built site shows them (markers recorded with every tab panel and details open)."""
    text = " ".join(chunk.text for chunk in _composed()["classes/classes.mdx"])
    built = BUILT["classes/classes.mdx"]
    assert [m for m in built["shown"] if m not in text] == []
    assert [m for m in built["hidden"] if m in text] == []
