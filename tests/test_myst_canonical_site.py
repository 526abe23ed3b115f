"""The recorded myst-canonical site (issue 46): a Sphinx site on Canonical's starter pack, as LXD's
docs are. canonical_sphinx switches MyST's substitution extension on (conf.py does not list it), and
conf.py fills `myst_substitutions` by code from YAML files beside it: `{{current_lts_track}}` leaked
as written on about 80 of LXD's chunks where the site shows "5.21" (design/answer-eval.md, the
fifteenth stranger). Compared with the real build (tests/data/site-nav/myst-canonical, recorded by
scripts/record_myst_site.py into myst-canonical.shown.json)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_corpus, compose_files
from app.corpus.sources import Source
from tests.helpers import commit_all, git

SITE = Path(__file__).parent / "data" / "site-nav" / "myst-canonical"
RECORDED = json.loads((SITE.parent / "myst-canonical.shown.json").read_text())["pages"]
TEXT = ("conf.py", "substitutions.yaml", "related_topics.yaml", "index.md", "other.md")


def _indexed(files: dict[str, str]) -> dict[str, str]:
    result = compose_files(files, Settings())
    by_page: dict[str, str] = {}
    for chunk in result.chunks:
        by_page[chunk.page] = by_page.get(chunk.page, "") + f"\n{chunk.title}\n{chunk.heading}\n{chunk.embed_text}"
    return by_page


def _site() -> dict[str, str]:
    return {name: (SITE / name).read_text() for name in TEXT}


def test_substitutions_conf_py_loads_from_yaml_are_shown() -> None:
    indexed = _indexed(_site())
    for page in ("index.md", "other.md"):
        shown = [m for m in RECORDED[page]["shown"] if m.startswith("marker-sub")]
        assert [m for m in shown if m not in indexed[page]] == [], page
        assert [m for m in RECORDED[page]["hidden"] if m.startswith("marker-sub") and m in indexed[page]] == [], page
    assert "{{" not in indexed["index.md"] and "current_lts_track" not in indexed["index.md"]
    # A substitution's `{ref}` shows the section's title, as any other on the page.
    assert "Guide section marker-guide-heading marker-sub-related" in indexed["index.md"]


def test_a_yaml_file_that_is_not_there_adds_nothing() -> None:
    # `if os.path.exists(...)`: without the file Sphinx adds nothing, and the build goes on.
    files = {k: v for k, v in _site().items() if k != "substitutions.yaml"}
    indexed = _indexed(files)
    assert "marker-sub-lts" not in indexed["index.md"] and "marker-sub-related" in indexed["index.md"]
    assert "current_lts_track" not in indexed["index.md"]


@pytest.mark.parametrize(("written", "instead"), [
    ('open("./substitutions.yaml", "r")', 'open(os.environ["SUBS"], "r")'),  # a path made by code
    ('open("./substitutions.yaml", "r")', 'open("../substitutions.yaml", "r")'),  # outside the site
    ('if os.path.exists("./substitutions.yaml"):', 'if os.environ.get("SUBS"):'),  # a condition of the build's
    ('yaml.safe_load(fd.read())', 'yaml.safe_load(fd.read().upper())'),  # the text changed first
    ('with open("./substitutions.yaml", "r") as fd:', 'with open("./substitutions.yaml", "w") as fd:'),
])
def test_a_load_docschat_cannot_read_shows_no_substitution(written: str, instead: str) -> None:
    # Its values are unknown: none is shown, and compose says why.
    conf = _site()["conf.py"].replace(written, instead, 1)
    assert conf != _site()["conf.py"]
    result = compose_files({**_site(), "conf.py": conf}, Settings())
    indexed = "\n".join(c.embed_text for c in result.chunks)
    assert "marker-sub-lts" not in indexed and "current_lts_track" not in indexed
    assert any("myst_substitutions" in w for w in result.warnings)


def test_a_file_that_is_not_a_mapping_shows_no_substitution() -> None:
    # `.update(None)` or `.update([…])` fails the build: nothing docschat could show for sure.
    result = compose_files({**_site(), "substitutions.yaml": "- a\n- b\n"}, Settings())
    indexed = "\n".join(c.embed_text for c in result.chunks)
    assert "marker-sub-related" not in indexed and any("myst_substitutions" in w for w in result.warnings)


def test_a_youtube_link_shows_none_of_its_address() -> None:
    # sphinx-youtube-links draws a link labelled "▶ Watch on YouTube" (the video's title only in a
    # tooltip); sphinxcontrib-youtube an iframe: the page's text is what comes after it.
    indexed = _indexed(_site())["index.md"]
    assert "marker-after-youtube" in indexed
    assert [m for m in RECORDED["index.md"]["hidden"] if m.startswith("marker-youtube") and m in indexed] == []
    assert "{youtube}" not in indexed and "youtube.com" not in indexed


def _synced(tmp_path: Path) -> str:
    repo = tmp_path / "repo"
    shutil.copytree(SITE, repo / "doc")
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    result = compose_corpus(Source(name="s", repo=repo, dir="doc", audiences=("public",)), Settings())
    return "\n".join(c.embed_text for c in result.chunks if c.page == "index.md")


def test_an_intersphinx_reference_shows_the_title_its_committed_inventory_gives(tmp_path: Path) -> None:
    # The inventory (.sphinx/intersphinx/snap-objects.inv) is binary: read from git as bytes.
    indexed = _synced(tmp_path)
    assert [m for m in RECORDED["index.md"]["shown"] if m not in indexed] == []
    assert "Manage updates marker-inv-label-title page says" in indexed
    assert "Channels marker-inv-doc-title marker-after-inventory-doc" in indexed
    # An explicit title shows; a label no inventory holds shows as written, as Sphinx shows it.
    assert "the snap docs" in indexed and "snap:marker-missing-label" in indexed
    assert "snap:how-to-guides-manage-updates" not in indexed and "snap:explain/channels" not in indexed


def test_without_its_inventory_the_target_shows_as_written(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    shutil.copytree(SITE, tmp_path / "site" / "doc")
    (tmp_path / "site" / "doc" / ".sphinx" / "intersphinx" / "snap-objects.inv").write_bytes(b"not an inventory")
    repo = tmp_path / "site"
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    result = compose_corpus(Source(name="s", repo=repo, dir="doc", audiences=("public",)), Settings())
    indexed = "\n".join(c.embed_text for c in result.chunks if c.page == "index.md")
    assert "snap:how-to-guides-manage-updates" in indexed and "marker-inv-label-title" not in indexed
