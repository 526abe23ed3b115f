"""The MyST differential probes (tests/data/myst-probes/): MyST pages holding marker words `zz…`,
and recorded.json saying which of them Sphinx shows (scripts/record_myst_probes.py built them with
sphinx-build and myst-parser and read each page's innerText in Chromium). Composed as pages of a
Sphinx site (a `conf.py` using myst_parser): a marker Sphinx hides must never be indexed; one it
shows should be, but for the readings kept on purpose below (hiding more than the site)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files

PROBES = Path(__file__).parent / "data" / "myst-probes"
RECORDED = json.loads((PROBES / "recorded.json").read_text())
# Shown markers the index leaves out on purpose, by probe, with why.
HIDDEN_ON_PURPOSE = {
    # `{only} html` is built in the HTML build; which builder a site uses is not known here, and
    # `{only}` is most often `{only} internal` (the safe reading: no `{only}` is ever shown).
    "only-html.md": "{only} content is never indexed",
    # Raw HTML is the site's own markup, not Markdown: read as text it could show comments and
    # hidden elements (`{raw}` and `.. raw::` show nothing).
    "raw-html.md": "raw output is never indexed",
    # Substitutions are defined in front matter or conf.py, which the reader does not apply.
    "substitution.md": "{{key}} substitutions are not applied",
    # Not on purpose, a known loss: mdit-py-plugins' footnote rule drops a definition nothing
    # references; Sphinx shows it (with a warning).
    "footnote-orphan.md": "an unreferenced footnote is dropped",
}


def _indexed(name: str) -> str:
    # The probe is the site's root document (its toctree, if any, names the rest).
    conf = f"extensions = ['myst_parser']\nroot_doc = {name.removesuffix('.md')!r}\n"
    files = {"conf.py": conf, name: (PROBES / name).read_text()}
    result = compose_files(files, Settings())
    assert not result.warnings and not result.skipped_pages, result.warnings
    return "\n".join(f"{c.title}\n{c.heading}\n{c.embed_text}" for c in result.chunks)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_no_marker_sphinx_hides_is_indexed(name: str) -> None:
    indexed = _indexed(name)
    leaked = [marker for marker in RECORDED[name]["hidden"] if marker in indexed]
    assert not leaked, f"{name}: {leaked} are hidden by {RECORDED[name]['renderer']} but indexed:\n{indexed}"


def test_markers_sphinx_shows_are_indexed() -> None:
    missing = {}
    for name, record in sorted(RECORDED.items()):
        indexed = _indexed(name)
        lost = [m for m in record["shown"] if m not in indexed]
        if lost and name not in HIDDEN_ON_PURPOSE:
            missing[name] = lost
    assert not missing, f"{sum(map(len, missing.values()))} shown markers not indexed: {missing}"


def test_every_probe_is_recorded() -> None:
    assert {p.name for p in PROBES.glob("*.md")} == set(RECORDED), "re-run scripts/record_myst_probes.py"
