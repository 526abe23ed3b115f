"""mkdocstrings' `::: identifier` blocks (issue 46: what the site shows is what is indexed): the
plugin shows API reference generated from the code there, which docschat does not build; the
identifier and its YAML options, which no built page shows, are not indexed either. Compared with
the real build (mkdocs 1.6 + mkdocstrings-python, recorded by scripts/record_mkdocs_site.py into
tests/data/site-nav/mkdocs-autodoc.shown.json)."""

from __future__ import annotations

import json
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_corpus, compose_files
from app.corpus.sources import Source
from tests.helpers import copy_tree_as_repo

SITE = Path(__file__).parent / "data" / "site-nav" / "mkdocs-autodoc"


def test_autodoc_blocks_show_what_the_mkdocstrings_build_shows(tmp_path: Path) -> None:
    recorded = json.loads((SITE.parent / "mkdocs-autodoc.shown.json").read_text())
    assert "mkdocstrings" in recorded["renderer"]
    repo = copy_tree_as_repo(SITE, tmp_path / "site", docs_dir="site")
    result = compose_corpus(Source(name="site", repo=repo, dir="site", audiences=("public",)), Settings())
    indexed = " ".join(c.embed_text for c in result.chunks)
    page = recorded["pages"]["docs/index.md"]
    assert len(page["hidden"]) == 2 and len(page["shown"]) == 5
    assert [m for m in page["shown"] if m not in indexed] == []
    assert [m for m in page["hidden"] if m in indexed] == []
    assert ":::" not in indexed.replace("Some text ::: acme.client", "")  # the inline one is text
    assert [w for w in result.warnings if "mkdocstrings" in w]


def test_without_the_plugin_the_block_is_text() -> None:
    page = "# API\n\n::: acme.client\n    options:\n      members: [connect]\n\nAfter.\n"
    source = Source(name="site", repo=Path("."), audiences=("public",))
    for plugins, shown in (("[search]", True), ("[search, {mkdocstrings: {enabled: false}}]", True),
                           ("[search, mkdocstrings]", False)):
        result = compose_files({"mkdocs.yml": f"site_name: A\nplugins: {plugins}\n", "docs/index.md": page},
                               Settings(), source)
        text = " ".join(c.text for c in result.chunks)
        assert ("acme.client" in text) is shown and "After." in text, (plugins, text)
