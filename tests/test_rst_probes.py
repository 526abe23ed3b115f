"""reStructuredText probes (tests/data/rst-probes: comments in every spelling, `only`/`ifconfig`,
raw HTML and LaTeX, theme-hidden classes, Sphinx's directives, decoration, tables, doctest flags,
directives Sphinx refuses, a page with severe errors), each hidden construct carrying a
`marker-…`, compared with what the real build shows with each of three themes: recorded by
scripts/record_rst_probes.py (sphinx-build 9.0.4, docutils 0.22.4, Chromium innerText of the main
part) into rst-probes.shown.json. Issue 46: no marker a build hides is indexed."""

from __future__ import annotations

import http.server
import json
import sys
import threading
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.myst import Build
from app.corpus.rst import render_rst
from app.corpus.rst_metadata import rst_metadata
from app.corpus.sources import Source

PROBES = Path(__file__).parent / "data" / "rst-probes"
RECORDED = json.loads((PROBES.parent / "rst-probes.shown.json").read_text())["themes"]
FILES = {path.relative_to(PROBES).as_posix(): path.read_text() for path in PROBES.rglob("*") if path.is_file()}

# Hidden by innerText, indexed on purpose (as on every site, design/page-reader.md): an image's alt
# text and a link's address (the chunk keeps the link), a textarea's text (drawn in its box).
DECIDED = frozenset({"marker-h-image-alt", "marker-h-figure-alt", "marker-h-image-target", "marker-h-link-url",
                     "marker-h-textarea-raw"})
# Shown by the build, not indexed (losses, never leaks): the reader hides the class `hidden` on
# every site (Tailwind's); a tag conf.py adds and a true `ifconfig` are not evaluated; `math` and
# `productionlist` are not read; a literalinclude's caption; an `only` whose option line Sphinx
# reads as part of its expression.
LOST = {"alabaster": {"marker-h-code-block-class-hidden", "marker-h-compound-hidden", "marker-h-container-hidden-rtd",
                      "marker-h-container-invisible-rtd", "marker-h-figure-caption-hidden", "marker-h-line-block-hidden",
                      "marker-h-literalinclude-prepend", "marker-h-math-hidden", "marker-h-note-class-hidden",
                      "marker-h-parsed-literal-hidden", "marker-h-role-class-hidden", "marker-h-rst-class-hidden-rtd",
                      "marker-h-rst-class-indented-content", "marker-h-rst-class-list", "marker-h-table-class-hidden",
                      "marker-h-table-title", "marker-h-topic-body", "marker-h-topic-title",
                      "marker-s-cssclass-paragraph"}}
LOST["furo"] = LOST["alabaster"] - {"marker-h-rst-class-indented-content"}
LOST["sphinx_rtd_theme"] = set()
for _theme in LOST:
    LOST[_theme] |= {"marker-s-ifconfig-true", "marker-s-only-beta-tag-from-conf",
                     "marker-s-math", "marker-s-production", "marker-h-only-unknown-option"}


def _composed(theme: str):
    files = {**FILES, "conf.py": FILES["conf.py"].replace('html_theme = "alabaster"', f'html_theme = "{theme}"')}
    return compose_files(files, Settings())


@pytest.fixture(scope="module", params=sorted(RECORDED))
def themed(request):
    return request.param, _composed(request.param)


def test_no_marker_the_build_hides_is_indexed(themed) -> None:
    theme, composed = themed
    assert not composed.skipped_pages
    for path, built in RECORDED[theme].items():
        indexed = " ".join(c.embed_text for c in composed.chunks if c.page == path)
        assert [m for m in built["hidden"] if m in indexed and m not in DECIDED] == [], (theme, path)


def test_the_markers_the_build_shows_are_indexed(themed) -> None:
    theme, composed = themed
    lost = set()
    for path, built in RECORDED[theme].items():
        indexed = " ".join(c.embed_text for c in composed.chunks if c.page == path)
        lost |= {m for m in built["shown"] if m not in indexed}
    assert lost == LOST[theme]


def test_the_probes_hide_enough() -> None:
    assert {theme: sum(len(p["hidden"]) for p in pages.values()) >= 100 for theme, pages in RECORDED.items()} == {
        theme: True for theme in RECORDED}


@pytest.mark.parametrize("text", [
    ".. comment\r\n\r\n:audience: internal\r\n\r\nTitle\r\n=====\r\n",  # Windows line ends
    ".. comment\r\r:audience: internal\r\rTitle\r=====\r",  # old Mac line ends
    "..\x85:audience: internal\n\nTitle\n=====\n",  # NEL: a line end to docutils (str.splitlines)
    ":orphan:\u2028:audience: internal\n\nTitle\n=====\n",
])
def test_metadata_is_read_on_the_lines_docutils_reads(text: str) -> None:
    """docutils reads `:audience: internal` as the page's metadata with any line end Python's
    splitlines knows; before, a `\\r` line end left it unread and the page public."""
    assert rst_metadata(text).get("audience") == "internal"
    public = Source(name="s", repo=Path("."), dir=".", audiences=("public",))
    result = compose_files({"conf.py": "", "index.rst": text + "\nmarker-x\n"}, Settings(), public)
    assert [page.audiences for page in result.pages] == [("internal",)]


class _Recording(http.server.BaseHTTPRequestHandler):
    asked: list[str] = []

    def do_GET(self) -> None:
        self.asked.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"a,b\nmarker-fetched,x\n")

    def log_message(self, *args: object) -> None:
        pass


def test_a_page_reads_no_file_outside_the_repository_and_nothing_from_the_network() -> None:
    """include, literalinclude, csv-table and raw with `:file:`/`:url:`, an image's size, an
    include's `:parser:` (docutils imports the module it names): none reads outside the repository,
    fetches, or imports."""
    server = http.server.HTTPServer(("127.0.0.1", 0), _Recording)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    page = (f"Page\n====\n\n.. include:: ../../../outside.rst\n\n.. include:: /etc/passwd\n\n"
            f".. literalinclude:: /etc/passwd\n\n.. literalinclude:: ../../../outside.rst\n\n"
            f".. literalinclude:: /proc/self/environ\n\n.. csv-table:: t\n   :file: /etc/passwd\n\n"
            f".. csv-table:: t\n   :url: {url}/csv\n\n.. raw:: html\n   :file: /etc/passwd\n\n"
            f".. raw:: html\n   :url: {url}/raw\n\n.. image:: {url}/i.png\n   :scale: 50\n\n"
            f".. figure:: /etc/passwd\n   :figwidth: image\n   :scale: 50\n\n"
            f".. include:: x.rst\n   :parser: this\n\nmarker-page\n")
    imported = "this" in sys.modules
    try:
        result = compose_files({"conf.py": "", "index.rst": ":orphan:\n\nHome\n====\n", "docs/page.rst": page,
                                "docs/x.rst": "marker-x\n"}, Settings())
    finally:
        server.shutdown()
    indexed = " ".join(c.embed_text for c in result.chunks)
    assert "marker-page" in indexed and "root:" not in indexed and "marker-fetched" not in indexed
    assert "PATH=" not in indexed and _Recording.asked == []
    assert ("this" in sys.modules) == imported
    assert sum("leads out of the repository" in warning for warning in result.warnings) == 2


def test_a_directives_last_argument_reads_as_one_line() -> None:
    """Sphinx's spec lets a version note's text run on under its version (Flask's config.rst): read
    as one line, as before the spec (the Flask corpus composes the same)."""
    html, _ = render_rst(".. versionchanged:: 3.1\n   Does not restrict\n   requests.\n", Build())
    assert "Changed in version 3.1: Does not restrict requests." in html
