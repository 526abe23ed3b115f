"""A site in several languages or versions is indexed as its default reader finds it: one language
(the default), one version (the one the site opens at); a page only another language or version
publishes is left out, and compose says why.

- Mintlify (app/corpus/site_mintlify.py): docs.json's `navigation.languages` and `versions`, the
  one marked `default` else the first (@mintlify/common 1.0.1183's prioritizeDefaultDivisionItem);
  mint.json's `versions` with each group's `version`. tests/data/site-nav/mintlify-languages, and
  the page Mintlify's own code lands a reader on (mintlify-languages.first-page.json).
- Docusaurus (app/corpus/site_docusaurus_versions.py): the default locale, and the version its docs
  root serves. tests/data/site-nav/docusaurus-versions is a small site in two locales and three
  versions; docusaurus-versions.built.json is where its real build publishes each file
  (scripts/record_docusaurus_versions_site.py, Docusaurus 3.10.2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

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
    # The page a reader lands on, by @mintlify/common's getFirstPageFromNavigation (which orders
    # languages and versions as the reader does: scripts/record_mintlify_default_division.mjs), is one
    # of the default language's and version's (`fr/index` comes first, `v1/index` before it).
    landing = json.loads((DATA / "mintlify-languages.first-page.json").read_text())["first"]
    assert landing == {"tests/data/site-nav/mintlify-languages": "index"}
    assert "index.mdx" in {page.path for page in result.pages}
    excluded = dict(result.excluded)
    assert excluded["fr/index.mdx"] == (HIDDEN, "listed for the language 'fr' of docs.json, not its default 'en'")
    assert excluded["fr/quickstart.mdx"].kind == HIDDEN
    assert excluded["v1/index.mdx"] == (HIDDEN, "listed for the version 'v1' of docs.json, not its default 'v2'")
    assert result.warnings == []


def test_mintlify_default_is_the_first_unless_one_says_default() -> None:
    navigation: dict[str, list[dict[str, object]]] = {
        "versions": [{"version": "v2", "pages": ["a"]}, {"version": "v1", "pages": ["b"]}]}
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


# --- Docusaurus ----------------------------------------------------------------------------------

BUILT = json.loads((DATA / "docusaurus-versions.built.json").read_text())["urls"]


def _default_reader_url(urls: list[str]) -> str | None:
    """Where a reader of the default locale, at the docs root's version, finds a file: a URL not
    under another locale (`/fr/`), the unreleased docs (`/docs/next/`) or an older version."""
    return next((u for u in urls if not u.startswith(("/fr/", "/docs/next/", "/docs/1.0/")) and u != "/blog/"), None)


def test_docusaurus_indexes_the_default_locale_at_the_docs_roots_version(tmp_path: Path) -> None:
    """docs/ (the unreleased version, at /docs/next/), version 1.0 and the French translations were
    indexed beside (or instead of) what the docs root serves, version 2.0; and the default locale's
    own copy of a doc (i18n/en/…), which the build publishes in place of the doc, was not."""
    result = _composed(tmp_path, "docusaurus-versions")
    served = {path: url for path, urls in BUILT.items() if (url := _default_reader_url(urls))}
    assert sorted(page.path for page in result.pages) == sorted(served)
    for page in result.pages:  # the blog's post too, at its date (app/corpus/site_docusaurus_blog.py)
        hrefs = {chunk.href.partition("#")[0] for chunk in result.chunks if chunk.page == page.path}
        assert hrefs == {served[page.path].rstrip("/")}, page.path
    excluded = dict(result.excluded)
    assert {path for path, urls in BUILT.items() if path not in served} <= excluded.keys()
    assert excluded["docs/intro.md"].kind == HIDDEN and "unreleased" in excluded["docs/intro.md"].reason
    assert excluded["versioned_docs/version-1.0/intro.md"].reason.startswith("in versioned_docs/version-1.0, version 1.0")
    assert "locale 'fr'" in excluded["i18n/fr/docusaurus-plugin-content-docs/version-2.0/intro.md"].reason
    assert excluded["versioned_docs/version-2.0/v2-only.md"].reason.startswith("the default locale's copy")
    places = {page.path: page.place for page in result.pages}
    assert places["versioned_docs/version-2.0/guides/setup.md"] == ("Guides",)  # its versioned sidebar's
    assert result.warnings == []


def _docusaurus(docs_options: str, **files: str):
    config = f"module.exports = {{presets: [['classic', {{docs: {docs_options}}}]]}};"
    return read_site({"docusaurus.config.js": config, "versions.json": '["2.0", "1.0"]', "docs/a.md": "# A\n",
                      "versioned_docs/version-2.0/a.md": "# A\n", "versioned_docs/version-1.0/a.md": "# A\n", **files})


@pytest.mark.parametrize(("docs_options", "indexed"), [
    ("{}", "versioned_docs/version-2.0/a.md"),  # the first of versions.json
    ("{lastVersion: 'current'}", "docs/a.md"),
    ("{lastVersion: '1.0'}", "versioned_docs/version-1.0/a.md"),
    ("{onlyIncludeVersions: ['current', '1.0']}", "versioned_docs/version-1.0/a.md"),
    ("{onlyIncludeVersions: ['current']}", "docs/a.md"),
    ("{disableVersioning: true}", "docs/a.md"),
])
def test_docusaurus_docs_root_serves_its_last_version(docs_options: str, indexed: str) -> None:
    """plugin-content-docs 3.10.2's getLastVersionName: `lastVersion`, else the first version it
    builds (versions.json's, as onlyIncludeVersions and disableVersioning leave them), else current."""
    site = _docusaurus(docs_options)
    pages = ["docs/a.md", "versioned_docs/version-2.0/a.md", "versioned_docs/version-1.0/a.md"]
    assert [path for path in pages if site.exclusion(path, {}) is None] == [indexed]
    assert site.url_path(indexed) == "docs/a.md"


def test_docusaurus_docs_at_the_sites_root_leave_out_only_their_own_files() -> None:
    """Docs at the site's root (`path: '.'`): the unreleased docs are its files outside the
    versions' and the blog's folders; those are not left out with them."""
    site = read_site({"docusaurus.config.js": "module.exports = {presets: [['classic', {docs: {path: '.'}}]]};",
                      "versions.json": '["2.0"]', "a.md": "# A\n", "versioned_docs/version-2.0/a.md": "# A\n",
                      "blog/post.md": "# P\n"})
    assert {path: site.exclusion(path, {}) is None for path in ("a.md", "versioned_docs/version-2.0/a.md",
                                                               "blog/post.md")} == {
        "a.md": False, "versioned_docs/version-2.0/a.md": True, "blog/post.md": True}


def test_docusaurus_version_without_sidebars_file_has_no_sidebar() -> None:
    """A versioned_sidebars file that is not there: the version has no sidebar (loadSidebarsFile's
    DisabledSidebars), every doc a page; the current docs' sidebars do not stand in for it."""
    site = _docusaurus("{sidebarPath: './sidebars.json'}", **{"sidebars.json": '{"s": ["a"]}',
                                                             "versioned_docs/version-2.0/b.md": "# B\n"})
    assert site.exclusion("versioned_docs/version-2.0/b.md", {}) is None


def test_docusaurus_locale_folders_follow_i18n_config() -> None:
    """`i18n.defaultLocale` names the default locale's folder; another one's files are left out,
    and `translate: false` reads no copy of the default locale."""
    config = ("module.exports = {i18n: {defaultLocale: 'fr', locales: ['fr', 'en']%s}, presets: [['classic', {}]]};")
    files = {"docs/a.md": "# A\n", "i18n/fr/docusaurus-plugin-content-docs/current/a.md": "# A (fr)\n",
             "i18n/en/docusaurus-plugin-content-docs/current/a.md": "# A (en)\n"}
    site = read_site({"docusaurus.config.js": config % "", **files})
    assert {path: site.exclusion(path, {}) is None for path in files} == {
        "docs/a.md": False, "i18n/fr/docusaurus-plugin-content-docs/current/a.md": True,
        "i18n/en/docusaurus-plugin-content-docs/current/a.md": False}
    assert site.url_path("i18n/fr/docusaurus-plugin-content-docs/current/a.md") == "docs/a.md"
    site = read_site({"docusaurus.config.js": config % ", localeConfigs: {fr: {translate: false}}", **files})
    assert [path for path in files if site.exclusion(path, {}) is None] == ["docs/a.md"]


PATHS_BUILT = json.loads((DATA / "docusaurus-version-paths.built.json").read_text())["urls"]


def test_docusaurus_publishes_versions_and_copies_at_their_own_paths(tmp_path: Path) -> None:
    """docusaurus-version-paths' version 2.0 is published at /docs/stable/ (`versions.<v>.path`),
    not the docs root, and the default locale's copies in `translations/english/` (i18n.path and
    localeConfigs' path) at the `slug` and `id` their own front matter gives (/docs/stable/install/,
    /docs/stable/renamed-by-copy/), as the real build publishes them; their content files' slug and
    id were used, and the version's path was left out."""
    result = _composed(tmp_path, "docusaurus-version-paths")
    served = {path: url for path, urls in PATHS_BUILT.items()
              if (url := next((u for u in urls if u.startswith("/docs/stable/")), None))}
    assert sorted(page.path for page in result.pages) == sorted(served)
    for page in result.pages:
        hrefs = {chunk.href.partition("#")[0] for chunk in result.chunks if chunk.page == page.path}
        assert hrefs == {served[page.path].rstrip("/")}, page.path
    places = {page.path: page.place for page in result.pages}
    assert places["translations/english/docusaurus-plugin-content-docs/version-2.0/guides/setup.md"] == ("Guides",)
    assert "translations/english/docusaurus-plugin-content-docs/version-2.0/old-name.md" in places
    excluded = dict(result.excluded)
    assert "locale 'fr'" in excluded["translations/francais/docusaurus-plugin-content-docs/version-2.0/intro.md"].reason
    assert result.warnings == []
