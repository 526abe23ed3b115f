"""docschat's VitePress Markdown (app/corpus/vitepress_markdown.py, vitepress_attrs.py) against
VitePress's own renderer: each case of tests/data/vitepress-markdown.json (recorded by
scripts/record_vitepress_markdown.mjs from vitepress 2.0.0-alpha.19's createMarkdownRenderer) read by
the same page reader from both HTMLs: the same blocks, the same text shown."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.corpus.reader import read_html
from app.corpus.vitepress_markdown import render_vitepress

CASES = json.loads((Path(__file__).parent / "data" / "vitepress-markdown.json").read_text())["cases"]


def _shown(html: str) -> list[str]:
    # The heading's permalink (a zero-width space, and its link) and the task box's `<input>` are the theme's;
    # a heading's ` {#id}` is docschat's, for the chunker's anchor (vitepress_markdown._heading_ids).
    return [re.sub(r" (?:\[\]\(#[^)]*\)|\{#[^}]*\})$", "", " ".join(block.text.replace("\u200b", "").split()))
            for block in read_html(html, vue=True).blocks]


@pytest.mark.parametrize("case", CASES, ids=[case["markdown"][:40] for case in CASES])
def test_a_page_shows_what_vitepress_renders(case: dict[str, str]) -> None:
    assert _shown(render_vitepress(case["markdown"])) == _shown(case["html"])
