"""A Nextra site's pages as its real build shows them (tests/data/site-nav/nextra.shown.json, recorded by
scripts/record_nextra_html.py from `next build` of tests/data/site-nav/nextra with nextra 4.6.1 and
nextra-theme-docs 4.6.1: Chromium's innerText of each page's content, tabs, details and file tree
folders opened). Every marker (`zz…`) the build shows is indexed, none it hides is: Nextra's
components (`nextra/components`) show their Tabs' `items` as the tab names, not a Tab's `title`; a
Callout's `emoji`; a Card's icon and title; a file tree's names; math (`latex: true`) as KaTeX shows it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files

SITE = Path(__file__).parent / "data" / "site-nav" / "nextra"
RECORDED = json.loads((SITE.parent / "nextra.shown.json").read_text(encoding="utf-8"))["pages"]
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")
FENCE_INFO = re.compile(r"^ *(`{3,}|~{3,}).*$", re.MULTILINE)  # a chunk's fence lines: markup, not text


def _indexed() -> dict[str, str]:
    files = {path.relative_to(SITE).as_posix(): path.read_text(encoding="utf-8") for path in SITE.rglob("*") if path.is_file()}
    result = compose_files(files, Settings())
    # The chunks' text: a page's title is shown in the sidebar and `<title>`, not in its content.
    return {page.path: "\n".join(c.text for c in result.chunks if c.page == page.path) for page in result.pages}


def test_every_marker_the_build_shows_is_indexed_and_none_it_hides() -> None:
    indexed = _indexed()
    assert "content/docs/components.mdx" in RECORDED
    for page, record in RECORDED.items():
        if page not in indexed:
            continue  # left out (searchable: false): test_site_nextra checks which
        text = indexed[page]
        assert [m for m in record["hidden"] if m in text] == [], (page, text)
        assert [m for m in record["shown"] if m not in text] == [], (page, text)


def test_every_word_indexed_is_shown() -> None:
    """Beyond the markers: no word of a page's indexed text that its build does not show (a leak of
    an attribute, a comment, code the page runs)."""
    indexed = _indexed()
    for page, record in RECORDED.items():
        if page not in indexed:
            continue
        shown = {w.lower() for w in WORD.findall(record["text"])}
        extra = sorted({w.lower() for w in WORD.findall(FENCE_INFO.sub("", indexed[page]))} - shown)
        assert extra == [], (page, extra)
