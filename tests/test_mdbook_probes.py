"""The mdBook reader's first adversary (design/site-navigation.md, "Session 37: the first adversary
of the mdBook reader"): tests/data/mdbook-probes is a repository holding a book (`book/`) of probe
pages: HTML comments of every spelling, raw HTML a browser hides, hidden code lines, `{{#include}}`
edge cases (a missing anchor, a range past the end, a file outside the book, paths out of the
repository, an absolute path), escapes, `{{#title}}`, SUMMARY.md's separators, parts, nesting, link
titles and a draft, and what pulldown-cmark adds (footnotes, tables, definition lists, math).
recorded.json is what `mdbook build` 0.5.4 made of it, each page's innerText in Chromium
(scripts/record_mdbook_site.py). Issue #46's rule: a marker the built page hides must not be indexed,
one it shows must be."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_corpus
from app.corpus.sources import Source
from tests.helpers import commit_all, git

PROBES = Path(__file__).parent / "data" / "mdbook-probes"
RECORDED = json.loads((PROBES / "recorded.json").read_text())
MARKER = re.compile(r"marker[-_][a-z_-]*[a-z]")


def _composed(tmp_path: Path):
    repo = tmp_path / "repo"
    shutil.copytree(PROBES, repo, ignore=shutil.ignore_patterns("recorded.json"))
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    return compose_corpus(Source(name="s", repo=repo, dir="", audiences=("public",), url_prefix=""), Settings())


def _markers() -> set[str]:
    return {marker for path in PROBES.rglob("*") if path.is_file() and path.name != "recorded.json"
            for marker in MARKER.findall(path.read_text())}


def test_every_probe_marker_is_indexed_exactly_when_the_built_page_shows_it(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    built = {f"book/{name}": page for name, page in RECORDED["pages"].items() if page["built"]}
    assert sorted(page.path for page in result.pages) == sorted(built)
    wrong = []
    for page in result.pages:
        text = "\n".join(chunk.text for chunk in result.chunks if chunk.page == page.path)
        recorded = built[page.path]["text"]
        wrong += [(page.path, marker, marker in text) for marker in sorted(_markers())
                  if (marker in text) != (marker in recorded)]
    assert wrong == []  # (page, marker, indexed): a leak when indexed, a loss when not
    for page in result.pages:  # every anchor is an id of the built page (same, same-1, ünïcode--symbols)
        anchors = {chunk.href.partition("#")[2] for chunk in result.chunks if chunk.page == page.path} - {""}
        assert anchors <= set(built[page.path]["heading_ids"]), page.path


def test_the_probe_sidebar_places_and_orders_the_chapters(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    href_of = {page.path: RECORDED["pages"][page.path[len("book/"):]]["href"] for page in result.pages}
    ordered = sorted(result.pages, key=lambda p: p.page_order if p.page_order is not None else 1e9)
    assert [[href_of[p.path], list(p.place)] for p in ordered] == RECORDED["sidebar"]


def test_an_editable_playground_shows_every_line_of_an_editable_block(tmp_path: Path) -> None:
    # tests/data/mdbook-editable: `[output.html.playground] editable = true`; Ace shows hidden lines.
    book = PROBES.parent / "mdbook-editable"
    recorded = json.loads((book.parent / "mdbook-editable.recorded.json").read_text())["pages"]["src/a.md"]["text"]
    repo = tmp_path / "repo"
    shutil.copytree(book, repo)
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    result = compose_corpus(Source(name="s", repo=repo, dir="", audiences=("public",), url_prefix=""), Settings())
    text = "\n".join(chunk.text for chunk in result.chunks)
    for marker in ("marker_editable_hidden", "marker_editable_shown", "marker_plain_hidden"):
        assert (marker in text) == (marker in recorded), marker
    assert "marker_editable_hidden" in recorded and "marker_plain_hidden" not in recorded
