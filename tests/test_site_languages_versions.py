"""A site in several languages or versions is indexed as its default reader finds it: one language
(the default), one version (the one the site opens at); a page only another language or version
publishes is left out, and compose says why.

- Mintlify (app/corpus/site_mintlify.py): docs.json's `navigation.languages` and `versions`, the
  one marked `default` else the first (@mintlify/common 1.0.1183's prioritizeDefaultDivisionItem);
  mint.json's `versions` with each group's `version`. tests/data/site-nav/mintlify-languages.
- Docusaurus (app/corpus/site_docusaurus_versions.py): the default locale, and the version its docs
  root serves. tests/data/site-nav/docusaurus-versions is a small site in two locales and three
  versions; docusaurus-versions.built.json is where its real build publishes each file
  (scripts/record_docusaurus_versions_site.py, Docusaurus 3.10.2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_corpus
from app.corpus.site import HIDDEN, read_site
from app.corpus.sources import Source
from tests.helpers import commit_all, git

DATA = Path(__file__).parent / "data" / "site-nav"


def _composed(tmp_path: Path, site: str):
    repo = tmp_path / "repo"
    shutil.copytree(DATA / site, repo)
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    return compose_corpus(Source(name="s", repo=repo, dir="", audiences=("public",), url_prefix=""), Settings())


# --- Mintlify ------------------------------------------------------------------------------------

def test_mintlify_indexes_its_default_language_and_version(tmp_path: Path) -> None:
    """The French pages and the v1 pages were indexed beside the English v2 ones: a question about
    installing the client found both "npm" and "pip", and the same page twice in two languages."""
    result = _composed(tmp_path, "mintlify-languages")
    # (the default version's OpenAPI operation is generated, as before)
    assert sorted(page.path for page in result.pages) == [
        "api-reference/list-widgets.mdx", "index.mdx", "quickstart.mdx", "shared.mdx"]
    assert {page.path: page.place for page in result.pages}["shared.mdx"] == ("Guides", "Get started")
    excluded = dict(result.excluded)
    assert excluded["fr/index.mdx"] == (HIDDEN, "listed for the language 'fr' of docs.json, not its default 'en'")
    assert excluded["fr/quickstart.mdx"].kind == HIDDEN
    assert excluded["v1/index.mdx"] == (HIDDEN, "listed for the version 'v1' of docs.json, not its default 'v2'")
    assert result.warnings == []


def test_mintlify_default_is_the_first_unless_one_says_default() -> None:
    navigation = {"versions": [{"version": "v2", "pages": ["a"]}, {"version": "v1", "pages": ["b"]}]}
    files = {"a.mdx": "# A\n", "b.mdx": "# B\n"}
    site = read_site({"docs.json": json.dumps({"navigation": navigation}), **files})
    assert site.exclusion("a.mdx", {}) is None and site.exclusion("b.mdx", {}).kind == HIDDEN
    navigation["versions"][1]["default"] = True
    site = read_site({"docs.json": json.dumps({"navigation": navigation}), **files})
    assert site.exclusion("b.mdx", {}) is None and site.exclusion("a.mdx", {}).kind == HIDDEN


def test_mint_json_groups_of_another_version_are_left_out() -> None:
    """mint.json's older shape: top-level `versions` (names, or `{name, default}`), each group
    naming its `version`; a group naming none is in every version."""
    config = {"versions": ["v2", {"name": "v1"}], "navigation": [
        {"group": "Everywhere", "pages": ["intro"]}, {"group": "Old", "version": "v1", "pages": ["v1/setup", "intro"]},
        {"group": "New", "version": "v2", "pages": ["v2/setup"]}]}
    files = {"intro.mdx": "# I\n", "v1/setup.mdx": "# S\n", "v2/setup.mdx": "# S\n"}
    site = read_site({"mint.json": json.dumps(config), **files})
    assert {path: site.exclusion(path, {}) for path in files} == {
        "intro.mdx": None, "v2/setup.mdx": None,
        "v1/setup.mdx": (HIDDEN, "listed for the version 'v1' of mint.json, not its default 'v2'")}
    config["versions"] = ["v2", {"name": "v1", "default": True}]
    site = read_site({"mint.json": json.dumps(config), **files})
    assert site.exclusion("v2/setup.mdx", {}).kind == HIDDEN and site.exclusion("v1/setup.mdx", {}) is None
