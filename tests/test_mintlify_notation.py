"""What docschat indexes of a Mintlify code block's Shiki notation (`// [!code ++]`, `focus`,
`highlight`) and of a `twoslash` block's cuts, flags and queries, against what Mintlify's renderer
shows (tests/data/mintlify-notation.shown.json, recorded by scripts/record_mintlify_notation.py with
@mintlify/mdx 4.0.6 and Chromium). Mintlify takes the notation out of a language Shiki highlights
and twoslash the code before a `// ---cut---`; docschat indexed both."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files

DATA = Path(__file__).parent / "data"
SITE = DATA / "mintlify-notation"
RECORDED = json.loads((DATA / "mintlify-notation.shown.json").read_text())
NOTATION = re.compile(r"\[!code [^\]]*\]|---cut[a-z-]*---|//\s?@\w+|//\s*\^[?|^]", re.IGNORECASE)  # the recorder's


def _indexed() -> str:
    files = {str(path.relative_to(SITE)): path.read_text() for path in SITE.rglob("*") if path.is_file()}
    result = compose_files(files, Settings())
    assert not result.warnings and not result.skipped_pages, result.warnings
    return "\n".join(chunk.text for chunk in result.chunks)


def test_no_marker_mintlify_hides_in_code_is_indexed() -> None:
    indexed = _indexed()
    assert [marker for marker in RECORDED["hidden"] if marker in indexed] == []
    assert [marker for marker in RECORDED["shown"] if marker not in indexed] == []


def test_the_notation_indexed_is_the_notation_mintlify_shows() -> None:
    assert Counter(NOTATION.findall(_indexed())) == Counter(RECORDED["notation"])
