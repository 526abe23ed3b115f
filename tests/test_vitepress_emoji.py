"""VitePress draws emoji shortcodes (`:tada:` → 🎉) and shortcuts (`:)` → 😃 between spaces) with
@mdit/plugin-emoji (app/corpus/vitepress_emoji.py). tests/data/vitepress-emoji.rendered.json is how
VitePress 2.0.0-alpha.19's own renderer renders every shortcut and some edges (inside code, a link,
a word, escaped, upper case), recorded by scripts/record_vitepress_emoji.mjs, which also checked
every one of the 1,947 shortcodes of app/corpus/vitepress_emoji.json renders as its emoji."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from app.corpus.vitepress_markdown import render_vitepress

RECORDED = json.loads((Path(__file__).parent / "data" / "vitepress-emoji.rendered.json").read_text())["cases"]
# VitePress's linkify makes a bare URL a link, and a shortcode inside it stays: docschat has no linkify-it.
_LINKIFIED = "https://x.test/:tada:"


def _text(rendered: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", rendered)).strip()


def test_shortcodes_and_shortcuts_render_as_vitepress_renders_them() -> None:
    assert len(RECORDED) > 80
    differ = [(text, _text(vitepress), _text(render_vitepress(text))) for text, vitepress in RECORDED
              if text != _LINKIFIED and _text(render_vitepress(text)) != _text(vitepress)]
    assert differ == []


def test_every_shortcode_is_drawn() -> None:
    tables = json.loads((Path(__file__).parent.parent / "app" / "corpus" / "vitepress_emoji.json").read_text())
    text = " ".join(f":{name}:" for name in tables["definitions"])
    assert _text(render_vitepress(text)) == " ".join(tables["definitions"].values())


def test_a_bare_urls_shortcode_is_the_one_difference() -> None:
    """Written down, so that a linkify reader added later shows here."""
    assert _text(render_vitepress(_LINKIFIED)) == "https://x.test/🎉"
