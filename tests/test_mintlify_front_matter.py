"""A Mintlify page's `hidden` and `noindex` as Mintlify reads them: tests/data/mintlify-front-matter.json,
recorded by scripts/record_mintlify_front_matter.mjs from @mintlify/common's front matter parser
(`front-matter`, js-yaml: YAML 1.2) and JavaScript's truthiness. PyYAML reads YAML 1.1, where
`hidden: no` is false: the page was indexed though Mintlify, reading the string "no", hides it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files

RECORDED = json.loads((Path(__file__).parent / "data" / "mintlify-front-matter.json").read_text())["values"]


def _indexed(front: str) -> bool:
    files = {"docs.json": '{"name": "P", "navigation": {"pages": ["a", "b"]}}',
             "a.mdx": f"---\ntitle: A\n{front}\n---\n\nSECRETWORD\n", "b.mdx": "# B\n\nshown words\n"}
    result = compose_files(files, Settings())
    text = "\n".join(chunk.embed_text for chunk in result.chunks)
    assert "shown words" in text, text
    return "SECRETWORD" in text


@pytest.mark.parametrize("key", ["hidden", "noindex"])
@pytest.mark.parametrize("value", sorted(RECORDED))
def test_a_page_is_left_out_as_mintlify_reads_its_front_matter(key: str, value: str) -> None:
    assert _indexed(f"{key}: {value}") is not RECORDED[value][key], (key, value, RECORDED[value])


def test_the_record_holds_what_yaml_1_1_reads_otherwise() -> None:
    """The values the test is for: false to PyYAML, true to Mintlify."""
    assert all(RECORDED[value]["hidden"] for value in ("no", "No", "NO", "off", "Off", "OFF"))


def test_a_title_spelled_as_a_yaml_1_1_boolean_is_the_title() -> None:
    """`title: No` is the title "No" on Mintlify (it was `False`, and no title)."""
    files = {"docs.json": '{"name": "P", "navigation": {"pages": ["a"]}}', "a.mdx": "---\ntitle: Off\n---\n\nwords\n"}
    assert [chunk.title for chunk in compose_files(files, Settings()).chunks] == ["Off"]
