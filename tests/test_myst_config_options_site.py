"""The recorded myst-config-options site (issue 46): sphinx-config-options' `{config:option}` is
drawn as the option's key and short description on one line, then a table of its fields (Key,
Type, Default, Scope, …) and its body; one without `:shortdesc:` draws nothing, a field the
directive does not know is dropped, and the `{config:option}` role shows the option's key. Read
as code, LXD's 913 options lost their names and their fields were `:defaultdesc:` lines (lxd-16,
-17, -18: design/answer-eval.md, the fifteenth stranger). Compared with the real build
(tests/data/site-nav/myst-config-options, recorded by scripts/record_myst_site.py into
myst-config-options.shown.json, every option's details opened)."""

from __future__ import annotations

import json
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files

SITE = Path(__file__).parent / "data" / "site-nav" / "myst-config-options"
RECORDED = json.loads((SITE.parent / "myst-config-options.shown.json").read_text())["pages"]["index.md"]


def _chunks() -> list:
    files = {name: (SITE / name).read_text() for name in ("conf.py", "index.md", "metadata.txt")}
    result = compose_files(files, Settings())
    assert not result.warnings, result.warnings
    return result.chunks


def test_config_options_are_read_as_the_site_shows_them() -> None:
    chunks = _chunks()
    indexed = "\n".join(f"{c.title}\n{c.heading}\n{c.embed_text}" for c in chunks)
    assert [m for m in RECORDED["shown"] if m not in indexed] == []
    assert [m for m in RECORDED["hidden"] if m in indexed] == []
    assert ":shortdesc:" not in indexed and ":defaultdesc:" not in indexed and "{config:option}" not in indexed
    # The option's key leads its short description, and its fields are a table, each named as the
    # build names it, in the directive's order (Type before Default, Scope last).
    text = "\n".join(c.text for c in chunks)
    assert "`images.marker-key-interval` Interval at which to look for updates" in text
    assert ("| **Key:** | `images.marker-key-interval` |\n|---|---|\n| **Type:** | integer marker-field-type |\n"
            "| **Default:** | `6` marker-field-defaultdesc |\n| **Scope:** | global marker-field-scope |") in text
    assert "| **Initial value:** | `snap%d` marker-field-initialvaluedesc |" in text
    assert "| **Live update:** | yes marker-field-liveupdate |" in text
    # The scope argument is not shown; the body is prose, not a code block.
    assert "server-images" not in indexed and "instance-snapshots" not in indexed
    assert any("Specifies a Pongo2 template string marker-body-pattern" in c.text and "```" not in c.text for c in chunks)
