"""What docschat indexes of a Mintlify ```mermaid block against what Mermaid draws of it
(tests/data/mintlify-mermaid.shown.json, recorded by scripts/record_mermaid.py: mermaid 11.15.0, the
version @mintlify/components renders diagrams with, in Chromium). A diagram draws its labels; its
`%%` comments, directives and accessible title and description are not drawn, and were indexed."""

from __future__ import annotations

import json
from pathlib import Path

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
