"""What docschat indexes of a Mintlify ```mermaid block against what Mermaid draws of it
(tests/data/mintlify-mermaid.shown.json, recorded by scripts/record_mermaid.py: mermaid 11.15.0, the
version @mintlify/components renders diagrams with, in Chromium). A diagram draws its labels; its
`%%` comments, directives and accessible title and description are not drawn, and were indexed;
nor are a flowchart's node ids its labels stand in for, its header and styling lines, or a sequence
diagram's participant ids an alias stands in for (11 indexed before). diagrams.mdx holds the other
types (class, state, ER, gantt, gitGraph, mindmap, quadrant, kanban, block, architecture, C4, radar,
treemap, …) and a front matter's `config`: 45 of their undrawn words were indexed (session 35)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files

DATA = Path(__file__).parent / "data"
SITE = DATA / "mintlify-mermaid"
RECORDED = json.loads((DATA / "mintlify-mermaid.shown.json").read_text())


def test_a_diagram_indexes_what_mermaid_draws() -> None:
    files = {str(path.relative_to(SITE)): path.read_text() for path in SITE.rglob("*") if path.is_file()}
    result = compose_files(files, Settings())
    assert not result.warnings and not result.skipped_pages, result.warnings
    indexed = "\n".join(chunk.text for chunk in result.chunks)
    assert "zzprose" in indexed
    assert [marker for marker in RECORDED["hidden"] if marker in indexed] == []
    assert [marker for marker in RECORDED["shown"] if marker not in indexed] == []


@pytest.mark.parametrize("mermaid", [True, False])
def test_a_docusaurus_diagram_with_markdown_mermaid(mermaid: bool) -> None:
    """Docusaurus 3.10.2's mdx-loader makes a ```mermaid fence a `<mermaid>` element (theme-mermaid draws
    it with mermaid 11) only when the config says `markdown: {mermaid: true}`; otherwise it is code,
    shown whole."""
    config = f"module.exports = {{markdown: {{mermaid: {'true' if mermaid else 'false'}}}, themes: ['@docusaurus/theme-mermaid']}};"
    pages = {f"docs/{path.stem}.md": path.read_text() for path in SITE.glob("*.mdx")}
    result = compose_files({"docusaurus.config.js": config, **pages}, Settings())
    assert not result.warnings and not result.skipped_pages, result.warnings
    indexed = "\n".join(chunk.text for chunk in result.chunks)
    leaked = [marker for marker in RECORDED["hidden"] if marker in indexed]
    assert leaked == ([] if mermaid else RECORDED["hidden"])
    assert [marker for marker in RECORDED["shown"] if marker not in indexed] == []
