"""MkDocs matches `exclude_docs` (with its own `.*` and `/templates/`) and `draft_docs` apart
(mkdocs.structure.files.set_exclusions): a `!` line of draft_docs never re-includes a file
exclude_docs names. Compared with the real build (tests/data/site-nav/mkdocs-drafts, recorded by
scripts/record_mkdocs_site.py into mkdocs-drafts.shown.json)."""

from __future__ import annotations

import json
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.sources import Source

SITE = Path(__file__).parent / "data" / "site-nav" / "mkdocs-drafts"
RECORDED = json.loads((SITE.parent / "mkdocs-drafts.shown.json").read_text())["pages"]


def test_a_draft_negation_never_re_includes_an_excluded_page() -> None:
    files = {path.relative_to(SITE).as_posix(): path.read_text() for path in SITE.rglob("*") if path.is_file()}
    result = compose_files(files, Settings(), Source(name="site", repo=Path("."), audiences=("public",)))
    indexed = " ".join(c.embed_text for c in result.chunks)
    assert not RECORDED["docs/internal/public.md"]["built"]  # `!internal/public.md` of draft_docs
    assert [m for page in RECORDED.values() if not page["built"] for m in page["markers"] if m in indexed] == []
    assert [m for page in RECORDED.values() if page["built"] for m in page["shown"] if m not in indexed] == []
    assert {c.page for c in result.chunks} == {"docs/index.md"}
