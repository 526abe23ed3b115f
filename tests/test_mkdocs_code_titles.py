"""A code fence's title (`title="…"`, pymdownx.highlight): with Pygments, which a site highlights
with unless its `use_pygments` is false, the title shows over the code (`title_mode: html` its
HTML); without, superfences refuses such a fence and the site shows its text as written. docschat
reads code without Pygments and writes the title as pymdownx.highlight's Pygments branch gives it.
Compared with the real builds (tests/data/site-nav/mkdocs-code-titles, -pygments-off: MkDocs
1.6.1, Material 9.8.2, pymdown-extensions 13.1.2, recorded by scripts/record_mkdocs_site.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.sources import Source

SITES = Path(__file__).parent / "data" / "site-nav"


@pytest.mark.parametrize("site", ["mkdocs-code-titles", "mkdocs-code-titles-pygments-off"])
def test_a_fences_title_shows_as_the_build_shows_it(site: str) -> None:
    folder = SITES / site
    recorded = json.loads((SITES / f"{site}.shown.json").read_text())["pages"]["docs/index.md"]
    files = {path.relative_to(folder).as_posix(): path.read_text() for path in folder.rglob("*") if path.is_file()}
    result = compose_files(files, Settings(), Source(name="site", repo=Path("."), audiences=("public",)))
    indexed = set(re.findall(r"marker-[a-z0-9-]+", " ".join(c.embed_text for c in result.chunks)))
    assert [m for m in recorded["shown"] if m not in indexed] == []
    assert [m for m in recorded["hidden"] if m in indexed] == []
    assert recorded["hidden"]  # the HTML title's hidden span


def test_auto_title_shows_the_lexers_name() -> None:
    files = {"mkdocs.yml": "site_name: s\nmarkdown_extensions:\n  - pymdownx.highlight:\n      auto_title: true\n"
                           "  - pymdownx.superfences\n",
             "docs/index.md": "# A\n\n```python\nx = 1\n```\n\n```python title=\"given\"\ny = 2\n```\n"}
    result = compose_files(files, Settings(), Source(name="site", repo=Path("."), audiences=("public",)))
    assert [c.text for c in result.chunks] == ["# A\n\nPython\n\n```python\nx = 1\n```\n\ngiven\n\n```python\ny = 2\n```"]
