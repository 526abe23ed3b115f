"""Sphinx's version notes (`{versionadded}`, `{versionchanged}`, `{deprecated}`, `{versionremoved}`)
read as Sphinx shows them: compared with tests/data/myst-version-notes.shown.json, what Sphinx 9.0.4
and myst-parser 5.2.0 built of tests/data/myst-version-notes (scripts/record_myst_xref.py).

docschat showed a note's version alone ("23.1.0", a paragraph of its own in structlog's answers)
and `{versionremoved}` as a code block."""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files

SITE = Path(__file__).parent / "data" / "myst-version-notes"
RECORDED = json.loads((SITE.parent / "myst-version-notes.shown.json").read_text())["shown"]


def test_version_notes_show_what_sphinx_shows() -> None:
    files = {p.name: p.read_text() for p in SITE.iterdir()}
    chunks = compose_files(files, Settings(docs_default_audience="public")).chunks
    # The chunk is Markdown: its `code` and *emphasis* are the built page's plain text.
    text = re.sub(r"[`*]", "", " ".join(" ".join(chunk.text.split()) for chunk in chunks))
    assert dict(re.findall(r"(vn\d\d)a (.*?) \1b", text)) == RECORDED
