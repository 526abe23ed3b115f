"""docusaurus-remark-plugin-tab-blocks as the real build shows it (tests/data/docusaurus-tab-blocks.shown.json,
recorded by scripts/record_docusaurus_tab_blocks_site.py with Docusaurus 3.10.2 and the plugin
4.0.0): a run of ```` ```js tab ```` fences is tabs labelled JavaScript, TypeScript, the site's own
labels, a fence's `label`, or its language. Jest's docs have 598 such fences: docschat indexed
their code without the labels (session 35's compare of Jest's build)."""

from __future__ import annotations

import json
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files
from tests.helpers import composed_page_lines

SITE = Path(__file__).parent / "data" / "docusaurus-tab-blocks"
RECORDED = json.loads((SITE.parent / "docusaurus-tab-blocks.shown.json").read_text(encoding="utf-8"))["pages"]


def _page_lines(files: dict[str, str] | None = None) -> dict[str, list[str]]:
    return composed_page_lines(SITE, files)


def test_tab_blocks_show_each_label_and_fence_the_build_shows() -> None:
    indexed = _page_lines()
    assert set(indexed) == set(RECORDED)
    for page, shown in RECORDED.items():
        # Each tab's label is indexed as often as the page shows it, and every line of code.
        missing = [label for label in set(shown["tabs"]) if indexed[page].count(label) < shown["tabs"].count(label)]
        assert missing == [], (page, indexed[page])
        code = [line for line in shown["lines"] if "'" in line or "{" in line or "(" in line]
        assert [line for line in code if line not in indexed[page]] == [], page
        # No label the page does not show (a fence not in a run is no tab).
        labels = {"JavaScript", "TypeScript", "Python", "Typed Config", "bash"}
        assert [line for line in indexed[page] if line in labels and indexed[page].count(line) > shown["lines"].count(line)] == []


def test_the_labels_are_the_sites_and_only_its_docs_have_tabs() -> None:
    config = (SITE / "docusaurus.config.js").read_text(encoding="utf-8").replace("pages: false", "pages: {}")
    page = "# P\n\n```py tab\nx = 1\n```\n\n```js tab\ny = 2\n```\n"
    lines = _page_lines({"docusaurus.config.js": config, "docs/p.md": page, "src/pages/q.md": page})
    assert {"Python", "JavaScript"} <= set(lines["docs/p.md"])
    assert not {"Python", "JavaScript"} & set(lines["src/pages/q.md"])
    # Without the plugin, the fences are code alone.
    plain = config.replace("[require('docusaurus-remark-plugin-tab-blocks').default, {labels: [['py', 'Python']]}],", "")
    assert not {"Python", "JavaScript"} & set(_page_lines({"docusaurus.config.js": plain, "docs/p.md": page})["docs/p.md"])


def test_a_tab_meta_the_plugin_cannot_read_refuses_the_page() -> None:
    config = (SITE / "docusaurus.config.js").read_text(encoding="utf-8")
    files = {"docusaurus.config.js": config, "docs/p.md": '# P\n\n```js tab={"span":0}\nx\n```\n',
             "docs/q.md": "# Q\n\n```js tab={label}\nx\n```\n"}
    result = compose_files(files, Settings())
    assert not [chunk for chunk in result.chunks if chunk.page in ("docs/p.md", "docs/q.md")]
