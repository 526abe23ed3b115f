"""Docusaurus's Tabs as the real build shows them (tests/data/docusaurus-tabs.shown.json, recorded by
scripts/record_docusaurus_tabs_site.py with Docusaurus 3.10.2): a tab is named `label ?? value` of
the Tabs' `values` prop when given, else of its TabItem. With `values`, a TabItem's own `label` is
not shown and was indexed (a leak); the values' labels and a TabItem's `value` where it has no
label were lost."""

from __future__ import annotations

import json
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files

SITE = Path(__file__).parent / "data" / "docusaurus-tabs"
RECORDED = json.loads((SITE.parent / "docusaurus-tabs.shown.json").read_text(encoding="utf-8"))["pages"]


def test_tabs_are_named_as_the_build_names_them() -> None:
    files = {path.relative_to(SITE).as_posix(): path.read_text(encoding="utf-8") for path in SITE.rglob("*") if path.is_file()}
    result = compose_files(files, Settings())
    assert not result.warnings and not result.skipped_pages, result.warnings
    for page, record in RECORDED.items():
        indexed = "\n".join(chunk.text for chunk in result.chunks if chunk.page == page)
        assert [marker for marker in record["hidden"] if marker in indexed] == [], indexed
        assert [marker for marker in record["shown"] if marker not in indexed] == [], indexed
