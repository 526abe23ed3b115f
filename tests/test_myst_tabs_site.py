"""The recorded myst-tabs site (issue 46): sphinx-tabs' `{tabs}` holds `{tab}`, `{group-tab}` and
`{code-tab}` panels, each drawn as a tab (its label the argument; a code tab's, its language) over its
body, every panel shown by a click. Read as code, the whole block was indexed with its MyST markup and
its labels and text lost (LXD's how-tos, 687 fences on 46 pages: design/answer-eval.md, the fifteenth
stranger). Compared with the real build (tests/data/site-nav/myst-tabs, recorded by
scripts/record_myst_site.py into myst-tabs.shown.json, every panel opened)."""

from __future__ import annotations

import json
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files

SITE = Path(__file__).parent / "data" / "site-nav" / "myst-tabs"
RECORDED = json.loads((SITE.parent / "myst-tabs.shown.json").read_text())["pages"]["index.md"]


def _chunks(conf: str) -> list:
    result = compose_files({"conf.py": conf, "index.md": (SITE / "index.md").read_text()}, Settings())
    assert not result.warnings, result.warnings
    return result.chunks


def test_sphinx_tabs_panels_are_read_as_the_site_shows_them() -> None:
    chunks = _chunks((SITE / "conf.py").read_text())
    indexed = "\n".join(f"{c.title}\n{c.heading}\n{c.embed_text}" for c in chunks)
    assert [m for m in RECORDED["shown"] if m not in indexed] == []
    assert [m for m in RECORDED["hidden"] if m in indexed] == []
    assert "{group-tab}" not in indexed and "{tab}" not in indexed and "{tabs}" not in indexed
    # A tab's text is prose, not one code block holding the whole tab set.
    assert any("Run `lxc launch` marker-tab-body-cli" in c.text and "```{" not in c.text for c in chunks)


def test_without_sphinx_tabs_its_directives_show_nothing() -> None:
    # Sphinx warns "Unknown directive type" and draws nothing (myst-probes `directive-unknown.md`).
    indexed = "\n".join(c.embed_text for c in _chunks("extensions = ['myst_parser']\nhtml_theme = 'basic'\n"))
    assert "marker-tab-body-cli" not in indexed and "marker-tabs-after" in indexed
