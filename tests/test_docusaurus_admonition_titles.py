"""Docusaurus's legacy admonition title, `:::note Title`, read as Docusaurus reads it.

remark-directive has no such syntax: Docusaurus rewrites the page before MDX parses it
(@docusaurus/utils' admonitionTitleToDirectiveLabel). The rewrites were recorded from the real
function (scripts/record_docusaurus_admonitions.cjs); reading a page as a Docusaurus page must give
what reading Docusaurus's rewrite gives. pnpm.io writes 12 callouts this way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.corpus.markdown import read_page

RECORDED = json.loads((Path(__file__).parent / "data" / "docusaurus-admonition-titles.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("mdx", [True, False], ids=["mdx", "md"])
@pytest.mark.parametrize("case", RECORDED["cases"], ids=lambda case: case["page"].split("\n")[0])
def test_a_legacy_admonition_title_reads_as_docusaurus_rewrites_it(case: dict[str, str], mdx: bool) -> None:
    def read(text: str) -> list[tuple[str, str]]:
        return [(block.kind, block.text) for block in read_page(text, mdx=mdx, myst=False, comments=mdx, docusaurus=True).blocks]

    assert read(case["page"]) == read(case["docusaurus"])


def test_a_titled_callout_is_one_callout_under_its_title() -> None:
    page = RECORDED["cases"][0]["page"]
    blocks = read_page(page, mdx=True, myst=False, comments=True, docusaurus=True).blocks
    assert ":::tip Standard error\nTo write to standard error, pass `sys.stderr`.\n:::" in [b.text for b in blocks]
    # Outside Docusaurus the same lines are text, as CommonMark reads them.
    assert "\\:::tip Standard error" in [b.text for b in read_page(page, mdx=False, myst=False).blocks]
