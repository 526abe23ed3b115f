"""A Sphinx conf.py that extends `exclude_patterns` by code (issue 46: a page the site never
builds is never indexed). Compared with the real build (tests/data/site-nav/myst-conf-code,
recorded by scripts/record_myst_site.py into myst-conf-code.shown.json): Sphinx builds none of the
pages its appended patterns name, and docschat indexes none of them."""

from __future__ import annotations

import json
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files

SITE = Path(__file__).parent / "data" / "site-nav" / "myst-conf-code"
RECORDED = json.loads((SITE.parent / "myst-conf-code.shown.json").read_text())["pages"]


def _files(conf: str | None = None) -> dict[str, str]:
    files = {path.relative_to(SITE).as_posix(): path.read_text() for path in SITE.rglob("*") if path.is_file()}
    return files if conf is None else {**files, "conf.py": conf}


def test_pages_exclude_patterns_gains_by_code_are_not_indexed() -> None:
    result = compose_files(_files(), Settings())
    indexed = " ".join(c.embed_text for c in result.chunks)
    never_built = [name for name, page in RECORDED.items() if not page["built"]]
    assert sorted(never_built) == ["drafts/notes.md", "internal/plan.md", "secret.md"]
    assert [m for name in never_built for m in RECORDED[name]["markers"] if m in indexed] == []
    assert [m for page in RECORDED.values() if page["built"] for m in page["shown"] if m not in indexed] == []
    assert {c.page for c in result.chunks} == {"index.md", "public.md"}
    assert not result.warnings


def test_a_pattern_code_computes_is_named_in_a_warning() -> None:
    conf = ("extensions = ['myst_parser']\nexclude_patterns = []\nimport glob\n"
            "exclude_patterns.append(glob.glob('secret*')[0])\nexclude_patterns.append('drafts/*')\n")
    result = compose_files(_files(conf), Settings())
    assert {c.page for c in result.chunks} == {"index.md", "public.md", "internal/plan.md", "secret.md"}
    assert any("conf.py:4: exclude_patterns is changed by code" in w for w in result.warnings), result.warnings


def test_front_matter_title_is_the_pages_title_only_with_title_to_header() -> None:
    # myst-parser keeps front matter as metadata Sphinx shows nowhere (myst-probes
    # `front-matter-title.md`); conf.py's myst_title_to_header makes `title` the first heading.
    page = "---\ntitle: Codename Falcon\n---\n\n# Launch plan\n\nBody.\n"
    for conf, title in (("", "Launch plan"), ("myst_title_to_header = True\n", "Codename Falcon")):
        result = compose_files({"conf.py": f"extensions = ['myst_parser']\n{conf}", "index.md": page}, Settings())
        assert {c.title for c in result.chunks} == {title}, conf
        assert ("Falcon" in " ".join(c.embed_text for c in result.chunks)) is bool(conf)
