"""A repository read from its root, its docs site in a subfolder (app/corpus/site_root.py): the
site is found and read as it builds itself; nothing outside its folder is indexed; several sites
fail the source unless its `site` says which."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import NoPagesError, compose_batches, compose_corpus, compose_files
from app.corpus.site import NOT_BUILT
from app.corpus.site_root import SiteChoiceError, SiteRoot, find_site
from app.corpus.sources import Source, parse_sources_config, source_from_settings
from tests.helpers import commit_all, git, make_docs_repo

REPOS = Path(__file__).parent / "data" / "site-root"
MARKER = re.compile(r"marker-[a-z0-9-]+-(?:shown|left-out)")


def _repo(name: str, tmp_path: Path) -> Path:
    """tests/data/site-root/<name> as the root of a git repository."""
    root = tmp_path / name
    shutil.copytree(REPOS / name, root)
    git(root, "init", "-q", "-b", "main")
    commit_all(root, "import")
    return root


def _source(repo: Path, dir: str = ".", site: str | None = None) -> Source:
    return Source(name="s", repo=repo, dir=dir, audiences=("public",), site=site)


@pytest.mark.parametrize("name", ["docusaurus", "mintlify", "mkdocs", "sphinx", "jupyter-book", "vitepress"])
def test_a_site_in_a_subfolder_publishes_only_its_pages(name: str, tmp_path: Path) -> None:
    result = compose_corpus(_source(_repo(name, tmp_path)), Settings())
    indexed = " ".join(chunk.text for chunk in result.chunks)
    markers = {m: p.relative_to(REPOS / name).as_posix() for p in (REPOS / name).rglob("*.md*")
               for m in MARKER.findall(p.read_text())}
    for marker, path in markers.items():
        if marker.endswith("-shown"):
            assert marker in indexed, f"{path} is published by the site, yet not indexed"
        else:
            assert marker not in indexed, f"{path} is not published by the site, yet indexed"
    # Each page file left out is named, with why; those outside the site's folder as never built.
    left_out = {path for marker, path in markers.items() if marker.endswith("-left-out")} - {
        path for marker, path in markers.items() if marker.endswith("-shown")}  # a page's comment
    assert left_out <= {path for path, _ in result.excluded}
    root = find_site({p.relative_to(REPOS / name).as_posix(): p.read_text(errors="replace")
                      for p in (REPOS / name).rglob("*") if p.is_file()})
    assert root.config is not None
    outside = {path: why for path, why in result.excluded if not path.startswith(root.prefix)}
    assert outside and all(why.kind == NOT_BUILT and root.config in why.reason for why in outside.values())
    assert any(f"holds a site at {root.folder}/" in warning for warning in result.warnings)


@pytest.mark.parametrize(("name", "folder", "page", "href"), [
    ("docusaurus", "website", "docs/guides/setup.md", "/docs/docs/guides/setup"),  # its routeBasePath, docs
    ("mintlify", "docs", "guides/setup.mdx", "/docs/guides/setup"),
    ("mkdocs", "docs", "content/guide/setup.md", "/docs/guide/setup"),  # its docs_dir, content
    ("sphinx", "docs", "guide/setup.md", "/docs/guide/setup"),
    ("vitepress", "docs", "guide/setup.md", "/docs/guide/setup.html"),  # docs/.vitepress/config.mts
])
def test_a_site_in_a_subfolder_composes_as_its_folder_does(name: str, folder: str, page: str, href: str,
                                                           tmp_path: Path) -> None:
    """The same chunks as a source set to the site's folder: texts, hrefs where the site publishes
    them; page paths stay in the source's terms (its folder: the repository's root)."""
    repo = _repo(name, tmp_path)
    whole = compose_corpus(_source(repo), Settings())
    site = compose_corpus(_source(repo, dir=folder), Settings())
    assert sorted((c.href, c.text, c.page) for c in whole.chunks) == sorted(
        (c.href, c.text, f"{folder}/{c.page}") for c in site.chunks)
    assert {c.href for c in whole.chunks if c.page == f"{folder}/{page}"} >= {href}


def test_a_synced_site_in_a_subfolder_keeps_its_unchanged_pages(tmp_path: Path) -> None:
    """Page keys name the source's paths: a second sync reads and composes no page."""
    source = _source(_repo("mintlify", tmp_path))
    first = list(compose_batches(source, Settings(), batch_chunks=1000))
    keys = {key.page: key for part in first for key in part.page_keys}
    assert set(keys) == {"docs/index.mdx", "docs/guides/setup.mdx"}
    assert "docs/snippets/tip.mdx" in keys["docs/index.mdx"].deps
    again = list(compose_batches(source, Settings(), batch_chunks=1000, known=keys))
    assert not any(part.pages for part in again)
    assert {key.page for part in again for key in part.kept} == set(keys)


def test_two_sites_in_one_source_fail_it_unless_its_site_says_which(tmp_path: Path) -> None:
    repo = _repo("two-sites", tmp_path)
    with pytest.raises(SiteChoiceError, match=r"2 sites \(docs/mkdocs.yml, website/docusaurus.config.js\)"):
        compose_corpus(_source(repo), Settings())
    website = compose_corpus(_source(repo, site="website"), Settings())
    assert [p.path for p in website.pages] == ["website/docs/a.md"]
    assert ("docs/docs/b.md", "never built") in [(p, why.kind) for p, why in website.excluded]
    every = compose_corpus(_source(repo, site="."), Settings())  # as the user asks: every file a page
    assert sorted(p.path for p in every.pages) == ["docs/docs/b.md", "website/docs/a.md"]
    with pytest.raises(SiteChoiceError, match="no site configuration there"):
        compose_corpus(_source(repo, site="website/docs"), Settings())


@pytest.mark.parametrize(("files", "found"), [
    ({"docs/docs.json": '{"navigation": []}', "a.md": ""}, SiteRoot("docs", "docs/docs.json")),
    ({"apps/web/docs/mkdocs.yml": "", "a.md": ""}, SiteRoot("apps/web/docs", "apps/web/docs/mkdocs.yml")),
    ({"a/b/c/d/mkdocs.yml": ""}, SiteRoot()),  # deeper than MAX_DEPTH: a fixture, a template
    ({"node_modules/x/docs.json": '{"navigation": []}'}, SiteRoot()),  # installed packages
    ({"vendor/x/mkdocs.yml": "", "site/mkdocs.yml": ""}, SiteRoot("site", "site/mkdocs.yml")),
    ({".github/x/mkdocs.yml": ""}, SiteRoot()),  # hidden folders
    ({"tools/docs.json": '{"name": "another tool"}'}, SiteRoot()),  # no navigation: no Mintlify site
    ({"server/conf.py": "bind = '0.0.0.0'\n"}, SiteRoot()),  # gunicorn's, not Sphinx's
    ({"doc/source/conf.py": "extensions = []\n"}, SiteRoot("doc/source", "doc/source/conf.py")),
    ({"mkdocs.yml": "", "website/docusaurus.config.js": ""}, SiteRoot()),  # at the root: the root's, as before
    ({"docs/.vitepress/config.ts": "", "README.md": ""}, SiteRoot("docs", "docs/.vitepress/config.ts")),
    ({".vitepress/config.ts": "", "docs/mkdocs.yml": ""}, SiteRoot()),  # VitePress at the root
    ({"docs/.vitepress/theme/config.ts": ""}, SiteRoot()),  # not the config
    ({"node_modules/x/.vitepress/config.js": ""}, SiteRoot()),
])
def test_where_a_site_is_found(files: dict[str, str], found: SiteRoot) -> None:
    assert find_site(files) == found


def test_without_a_site_every_file_stays_a_page() -> None:
    result = compose_files({"README.md": "# R\n\nroot words", "guide/a.md": "# A\n\nguide words"}, Settings(),
                           Source(name="s", repo=Path("."), dir="."))
    assert sorted(p.path for p in result.pages) == ["README.md", "guide/a.md"]


def test_the_site_is_a_setting_of_each_source(tmp_path: Path) -> None:
    config = parse_sources_config({"sources": [{"name": "a", "site": "website"}, {"name": "b"}]},
                                  tmp_path / "docschat.toml", Settings())
    assert [s.site for s in config.sources] == ["website", None]
    assert source_from_settings(Settings(docs_site="docs")).site == "docs"
    assert source_from_settings(Settings()).site is None


def test_a_site_found_that_publishes_nothing_fails_the_source_saying_why() -> None:
    """A Python project read from its root, its Sphinx docs in reStructuredText that conf.py's
    source_suffix leaves out: none of its Markdown is a page of that site, and an empty source
    would delete every row."""
    files = {"README.md": "# R\n\nroot words\n",
             "docs/conf.py": 'extensions = ["sphinx.ext.autodoc"]\nsource_suffix = {".txt": "restructuredtext"}\n',
             "docs/index.rst": "Home\n====\n", "docs/notes.md": "# Notes\n\nnot built\n"}
    with pytest.raises(SiteChoiceError, match=r"site found at docs/ \(docs/conf.py\) publishes no page.*1 page file"):
        compose_files(files, Settings(), Source(name="s", repo=Path("."), dir="."))
    every = compose_files(files, Settings(), Source(name="s", repo=Path("."), dir=".", site="."))
    assert sorted(p.path for p in every.pages) == ["README.md", "docs/notes.md"]


# A Sphinx site in reStructuredText, as Flask's docs/ is (design/answer-eval.md, the seventeenth
# stranger): its `.rst` pages are read (app/corpus/rst.py); the same files with no conf.py are no
# site's, and no glob or `site` makes them pages.
RST_SITE = {"conf.py": 'extensions = ["sphinx.ext.autodoc"]\n', "index.rst": "Flask\n=====\n\n.. toctree::\n\n   config\n",
            "config.rst": "Configuration\n=============\n\n.. py:data:: SECRET_KEY\n"}


@pytest.mark.parametrize("include", [None, ("**/*.rst",)])
def test_a_folder_of_restructured_text_without_conf_py_fails_saying_why(
        include: tuple[str, ...] | None, tmp_path: Path) -> None:
    """The folder holds `.rst` files but no Sphinx site: the message used to say "fix the globs",
    and with `**/*.rst` included said the same again. Both ways of reading a source say why."""
    repo = make_docs_repo(tmp_path / "repo", {path: text for path, text in RST_SITE.items() if path != "conf.py"})
    source = Source(name="s", repo=repo, dir="docs", audiences=("public",))
    source = replace(source, include=include) if include else source
    why = r"its 2 \.rst file\(s\) are reStructuredText, which docschat reads as the pages of a Sphinx site only"
    with pytest.raises(NoPagesError, match=why) as raised:
        compose_corpus(source, Settings())
    assert "fix the globs" not in str(raised.value)
    with pytest.raises(NoPagesError, match=why):
        list(compose_batches(source, Settings(), batch_chunks=100))


def test_a_sphinx_site_found_in_restructured_text_is_read(tmp_path: Path) -> None:
    """Read from the repository's root, the site found at docs/ publishes its `.rst` pages."""
    repo = make_docs_repo(tmp_path / "repo", RST_SITE)
    result = compose_corpus(_source(repo), Settings())
    assert sorted(page.path for page in result.pages) == ["docs/config.rst", "docs/index.rst"]
    assert any(chunk.title == "Configuration" and "SECRET_KEY" in chunk.text for chunk in result.chunks)


def test_a_sphinx_site_of_markdown_without_a_parser_says_it_builds_none() -> None:
    markdown_only = {"README.md": "# R\n", "docs/conf.py": "extensions = []\n", "docs/notes.md": "# N\n"}
    with pytest.raises(SiteChoiceError, match=r"reads \(a Sphinx site without a Markdown parser"):
        compose_files(markdown_only, Settings(), Source(name="s", repo=Path("."), dir="."))
