"""The site's navigation decides what is a page (app/corpus/site.py), and front matter that docschat
cannot read never leaves a page to a public default.

tests/data/site-nav holds a small Mintlify, Docusaurus, MkDocs and MyST (Sphinx) site, each with its
navigation configuration, pages left out of it, redirects and front-matter flags. Every page's text carries a
marker saying whether the site shows it to its search and assistant (`-shown`) or not
(`-left-out`), as each framework's documentation says (Mintlify: organize/hidden-pages in
../shared/corpora/mintlify-docs; Docusaurus: sidebars, `draft`, `unlisted`; MkDocs: `nav`, the
redirects plugin).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import ComposeResult, compose_corpus, compose_files, iter_compose_files
from app.corpus.frontmatter import parse_front_matter, undeclared_audience
from app.corpus.site import FRONT_MATTER, KINDS, NOT_BUILT, OUTSIDE, REDIRECT, read_site
from app.corpus.sources import Source
from tests.conftest import SHARED
from tests.helpers import copy_tree_as_repo, docschat_in_process

SITES = Path(__file__).parent / "data" / "site-nav"
MARKER = re.compile(r"marker-[a-z0-9-]+-(?:shown|left-out)")


def _compose_site(name: str, tmp_path: Path):
    repo = copy_tree_as_repo(SITES / name, tmp_path / name, docs_dir="site")
    source = Source(name="site", repo=repo, dir="site", audiences=("public",))
    return compose_corpus(source, Settings())


def _markers(folder: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for path in folder.rglob("*.md*"):
        for marker in MARKER.findall(path.read_text()):
            found[marker] = str(path.relative_to(folder))
    return found


@pytest.mark.parametrize("site", ["mintlify", "docusaurus", "mkdocs", "myst", "myst-nb"])
def test_only_the_pages_the_site_publishes_are_indexed(site: str, tmp_path: Path) -> None:
    result = _compose_site(site, tmp_path)
    indexed = " ".join(chunk.text for chunk in result.chunks)
    markers = _markers(SITES / site)
    assert markers, "the site has markers"
    for marker, path in markers.items():
        if marker.endswith("-shown"):
            assert marker in indexed, f"{path} is published by the site, yet not indexed"
        else:
            assert marker not in indexed, f"{path} is not published by the site, yet indexed"
    # Each page left out is named with why (compose --verbose prints them).
    left_out = {path for path, _ in result.excluded}
    assert left_out == {path for marker, path in markers.items() if marker.endswith("-left-out")}
    assert all(exclusion.reason and exclusion.kind in KINDS for _, exclusion in result.excluded)


def test_the_place_in_the_navigation_tells_same_titled_pages_apart(tmp_path: Path) -> None:
    result = _compose_site("mintlify", tmp_path)
    overviews = {page.path: page.place for page in result.pages if page.title == "Overview"}
    assert overviews == {
        "integrations/analytics/overview.mdx": ("Documentation", "Analytics"),
        "integrations/storage/overview.mdx": ("Documentation", "Storage"),
    }
    deploy = next(page for page in result.pages if page.path == "guides/deploy.mdx")
    assert deploy.place == ("Learn", "Guides", "How-to")  # a tab's menu item is a level of the place
    # The place counts in what is embedded: the two Overviews are no longer the same text.
    first = {c.page: c.embed_text for c in result.chunks if c.page in overviews}
    assert first["integrations/analytics/overview.mdx"].startswith("Documentation › Analytics › Overview")


def test_redirect_sources_are_not_pages(tmp_path: Path) -> None:
    result = _compose_site("mintlify", tmp_path)
    reasons = dict(result.excluded)
    assert reasons["legacy/old-deploy.mdx"] == (REDIRECT, "a redirect to /guides/deploy")
    assert reasons["legacy/v1/setup.mdx"] == (REDIRECT, "a redirect to /guides/:slug*")
    assert reasons["README.md"] == (OUTSIDE, "outside the navigation of docs.json")


def test_seo_indexing_all_brings_hidden_pages_back_but_not_noindex() -> None:
    files = {p.relative_to(SITES / "mintlify").as_posix(): p.read_text()
             for p in (SITES / "mintlify").rglob("*") if p.is_file()}
    config = json.loads(files["docs.json"])
    files["docs.json"] = json.dumps({**config, "seo": {"indexing": "all"}})
    result = compose_files(files, Settings(), Source(name="s", repo=Path("."), dir="", audiences=("public",)))
    left_out = {path for path, _ in result.excluded}
    assert "guides/unlisted.mdx" not in left_out and "guides/frontmatter-hidden.mdx" not in left_out
    assert "guides/hidden-group-page.mdx" not in left_out
    assert {"guides/noindexed.mdx", "guides/unsearchable.mdx", "legacy/old-deploy.mdx"} <= left_out


def test_a_missing_ref_file_is_a_warning_not_an_error() -> None:
    site = read_site({"docs.json": json.dumps({"navigation": {"languages": [
        {"language": "en", "groups": [{"group": "G", "pages": ["a"]}]}, {"$ref": "./fr.json"}]}})})
    assert site.listed.keys() == {"a"}
    assert site.warnings == ["fr.json: named by a $ref of docs.json, and not in the source; what it holds is left out"]


def test_a_ref_cycle_ends() -> None:
    site = read_site({"docs.json": json.dumps({"navigation": {"$ref": "./a.json"}}),
                      "a.json": json.dumps({"$ref": "./a.json"})})
    assert any("$ref" in w for w in site.warnings)


def test_without_a_site_configuration_every_page_is_a_page() -> None:
    result = compose_files({"a.md": "# A\n\nText.\n", "README.md": "# R\n\nText.\n"}, Settings(),
                           Source(name="s", repo=Path("."), dir="", audiences=("public",)))
    assert sorted(p.path for p in result.pages) == ["README.md", "a.md"]
    assert result.excluded == []


def test_the_shared_mintlify_corpus_follows_its_navigation() -> None:
    corpus = SHARED / "corpora" / "mintlify-docs"
    if not corpus.is_dir():
        pytest.skip("../shared/corpora/mintlify-docs is not here")
    files = {p.relative_to(corpus).as_posix(): p.read_text(errors="replace")
             for p in corpus.rglob("*") if p.is_file() and p.suffix in (".md", ".mdx", ".json")}
    result = compose_files(files, Settings(), Source(name="m", repo=corpus, dir="", audiences=("public",)))
    left_out = dict(result.excluded)
    assert {"README.md", "CONTRIBUTING.md", "api/agent/create-agent-job.mdx"} <= left_out.keys()
    assert "guides/claude-code.mdx" not in left_out  # listed under the Learn tab's menu
    assert all(page.place for page in result.pages)  # every page indexed is one the navigation lists


# --- front matter docschat cannot read ------------------------------------------------------------

PUBLIC_DEFAULT = Source(name="s", repo=Path("."), dir="", audiences=("public",))


@pytest.mark.parametrize("text", [
    "\n---\ntitle: T\naudience: internal\n---\n\nSecret text.\n",  # a leading blank line
    "\ufeff\n---\ntitle: T\naudience: internal\n---\n\nSecret text.\n",  # a BOM and a blank line
    '+++\ntitle = "T"\naudience = "internal"\n+++\n\nSecret text.\n',  # TOML front matter
    "\u200b---\ntitle: T\naudience: internal\n---\n\nSecret text.\n",  # a zero-width space
    "---\ntitle: T\n\u0430udience: internal\n---\n\nSecret text.\n",  # a Cyrillic а in `audience`
    "---\ntitle: T\naudeince: internal\n---\n\nSecret text.\n",  # a typo
    "---\ntitle: T\npub\u200blic: false\n---\n\nSecret text.\n",  # a zero-width space in `public`
], ids=["blank-line", "bom-blank", "toml", "zero-width", "cyrillic", "typo", "zero-width-key"])
def test_an_unread_audience_declaration_makes_the_page_internal(text: str) -> None:
    result = compose_files({"page.md": text}, Settings(), PUBLIC_DEFAULT)
    assert [p.audiences for p in result.pages] == [("internal",)]
    assert any("the page is internal" in w for w in result.warnings), result.warnings


@pytest.mark.parametrize("text", [
    "---\ntitle: T\n---\n\nThe audience of this talk: developers.\n",
    "# Config\n\naudience: public\n",  # a heading first: the page's text, not front matter
    "Intro paragraph.\n\n```yaml\naudience: public\n```\n",
    "---\ntitle: T\naudience: public\n---\n\nText.\n",
])
def test_pages_that_declare_nothing_unreadable_keep_their_audience(text: str) -> None:
    front = parse_front_matter(text)
    assert undeclared_audience(text, front) is None


# --- Docusaurus sidebars written as code, read without running them -------------------------------

def _docusaurus_with(sidebars: str, text: str) -> dict[str, str]:
    files = {p.relative_to(SITES / "docusaurus").as_posix(): p.read_text()
             for p in (SITES / "docusaurus").rglob("*") if p.is_file()}
    del files["sidebars.json"]
    files["docusaurus.config.js"] = files["docusaurus.config.js"].replace("./sidebars.json", f"./{sidebars}")
    return {**files, sidebars: text}


@pytest.mark.parametrize("name", ["sidebars.ts", "sidebars.js"])
def test_sidebars_code_is_read_from_its_literals_as_the_json_is(name: str) -> None:
    text = (SITES / "docusaurus-sidebars" / name).read_text()
    as_code = compose_files(_docusaurus_with(name, text), Settings(), PUBLIC_DEFAULT)
    as_json = compose_files(_docusaurus_with("sidebars.json", (SITES / "docusaurus" / "sidebars.json").read_text()),
                            Settings(), PUBLIC_DEFAULT)
    assert sorted(as_code.excluded) == sorted(as_json.excluded)
    assert {p.path: p.place for p in as_code.pages} == {p.path: p.place for p in as_json.pages}
    assert "docs/guides/orphan.md" in dict(as_code.excluded)
    if name == "sidebars.ts":  # its two parts that are code are named with their lines, and left out
        assert [w for w in as_code.warnings if w.startswith(name)] == [
            f"{name}:18: a spread is code, which docschat does not run; the sidebar items it makes are left out",
            f"{name}:20: a function call is code, which docschat does not run; the sidebar items it makes are left out",
        ]
    else:
        assert as_code.warnings == as_json.warnings


@pytest.mark.parametrize("text", [
    "module.exports = require('./generated-sidebars');",  # nothing is a literal
    "export default function sidebars() { return {docs: ['intro']}; }",
    "const sidebars = {docs: ['intro'];",  # does not parse
    "module.exports = {docs: [...generated]};",  # an object, but every item is code
])
def test_sidebars_of_which_nothing_can_be_read_keep_every_doc_a_page(text: str) -> None:
    result = compose_files(_docusaurus_with("sidebars.js", text), Settings(), PUBLIC_DEFAULT)
    assert not any(exclusion.kind == OUTSIDE for _, exclusion in result.excluded)
    assert "docs/guides/orphan.md" in {p.path for p in result.pages}
    assert any(w.startswith("sidebars.js") for w in result.warnings), result.warnings


def test_sidebars_code_never_runs() -> None:
    # Were the module run, the getter or the IIFE would throw, or list `ran`; read, they are skipped.
    text = ("module.exports = {docs: ['intro', (() => { throw new Error('ran') })(), "
            "{get x() { throw new Error('ran') }}, ['ran'].map(x => x)]};")
    site = read_site({"docusaurus.config.js": "", "sidebars.js": text})
    assert set(site.listed) == {"docs/intro"}
    assert len([w for w in site.warnings if w.startswith("sidebars.js:1:")]) == 3, site.warnings


# --- Sphinx (MyST): toctrees, exclude_patterns, redirects, and what the built pages show ---------

@pytest.mark.parametrize("site", ["myst", "myst-nb", "docusaurus"])
def test_chunks_show_what_the_sites_build_shows(site: str, tmp_path: Path) -> None:
    """tests/data/site-nav/<site>.shown.json is what the real build shows of each page, Chromium's
    innerText of it: scripts/record_myst_site.py (Sphinx, myst-parser, MyST-NB) and
    scripts/record_docusaurus_site.py (Docusaurus 3). Mintlify's renderer is not run here (its CLI
    downloads its site client from releases.mintlify.com at run time)."""
    recorded = json.loads((SITES / f"{site}.shown.json").read_text())["pages"]
    result = _compose_site(site, tmp_path)
    assert result.pages and not result.skipped_pages
    for page in result.pages:
        built = recorded[page.path]
        assert built["built"] and not built.get("redirect"), f"{page.path} is indexed, yet the site publishes no page"
        indexed = " ".join(c.embed_text for c in result.chunks if c.page == page.path)
        assert [m for m in built["shown"] if m not in indexed] == [], page.path
        assert [m for m in built["hidden"] if m in indexed] == [], page.path
    hidden = sum(len(p.get("hidden", [])) for p in recorded.values())
    assert hidden >= {"myst": 7, "myst-nb": 2, "docusaurus": 5}[site]  # the hidden blocks are there to be checked


def test_myst_pages_are_placed_as_the_sphinx_sidebar_places_them(tmp_path: Path) -> None:
    result = _compose_site("myst", tmp_path)
    assert {p.path: p.place for p in result.pages} == {
        "index.md": (),
        "guides/install.md": ("Guides",),
        "guides/configure.md": ("Guides",),
        "api/client.md": (),  # from a toctree with no caption (hidden)
        "api/reference.md": ("Client",),
        "standalone.md": (),
    }
    reasons = dict(result.excluded)
    assert reasons["old/setup.md"] == (REDIRECT, "a redirect to ../guides/install.html")
    assert reasons["drafts/plan.md"] == (NOT_BUILT, "matched by exclude_patterns of conf.py: never built")
    assert reasons["orphan.md"] == (OUTSIDE, "outside the navigation of conf.py")


@pytest.mark.parametrize(("conf", "warning"), [
    ("root_doc = 'start'\n", "conf.py: its root document 'start' is not in the source; every page stays a page"),
    ("import os\nexclude_patterns = os.environ['X'].split()\n",
     "conf.py:2: exclude_patterns is not a literal, and docschat does not run conf.py; its default is used"),
    ("def broken(:\n", None),
])
def test_a_conf_py_docschat_cannot_read_keeps_pages(conf: str, warning: str | None) -> None:
    files = {"conf.py": conf, "index.md": "# I\n\n```{toctree}\na\n```\n", "a.md": "# A\n", "b.md": "# B\n"}
    site = read_site(files)
    if warning is None:
        assert site.warnings[0].startswith("conf.py: cannot be read")
    else:
        assert warning in site.warnings
    if "root_doc" in conf or "def" in conf:
        assert site.exclusion("b.md", {}) is None


def test_redirects_are_sphinx_reredirects_only_when_it_is_an_extension() -> None:
    pages = {"index.md": "# I\n\n```{toctree}\nold\n```\n", "old.md": "# Old\n"}
    without = read_site({"conf.py": "extensions = ['myst_parser']\nredirects = {'old': 'new.html'}\n", **pages})
    assert without.exclusion("old.md", {}) is None
    with_it = read_site({"conf.py": "extensions = ['myst_parser']\nextensions += ['sphinx_reredirects']\n"
                                    "redirects = {'ol*': 'new.html'}\n", **pages})
    assert with_it.exclusion("old.md", {}) == (REDIRECT, "a redirect to new.html")


def test_rst_toctrees_and_glob_entries() -> None:
    files = {"conf.py": "extensions = ['myst_parser']\n",
             "index.rst": "Acme\n====\n\n.. toctree::\n   :caption: Start\n   :glob:\n\n   guides/*\n   Other </ref/x>\n",
             "guides/a.md": "# A\n", "guides/deep/b.md": "# B\n", "ref/x.md": "# X\n", "c.md": "# C\n"}
    site = read_site(files)
    assert site.listed.keys() == {"index", "guides/a", "ref/x"}  # `*` stays in its folder, as in Sphinx
    assert site.place("guides/a.md") == ("Start",)
    assert site.exclusion("c.md", {}) == (OUTSIDE, "outside the navigation of conf.py")
    assert site.exclusion("c.md", {"orphan": True}) is None


# --- what compose reports of what it left out or did not understand -------------------------------

def test_compose_reports_what_it_left_out_and_what_it_did_not_understand(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(SITES / "mintlify", site)
    (site / "widgets.mdx").write_text('# Widgets\n\n<Hero title="x">Big hello</Hero>\n\n<Hero>Again</Hero>\n\n'
                                      "<Acme.Chart data={[1]} />\n\n<Note>A known one.</Note>\n\nBroken <Card>\n")
    (site / "charts.mdx").write_text("# Charts\n\n<Acme.Chart />\n\n<Snippet file=\"no-such.mdx\" />\n")
    config = json.loads((site / "docs.json").read_text())
    config["navigation"]["tabs"][0]["groups"][0]["pages"] += ["widgets", "charts"]
    (site / "docs.json").write_text(json.dumps(config))
    repo = copy_tree_as_repo(site, tmp_path / "repo", docs_dir="site")

    run = docschat_in_process("compose", "--repo", str(repo), "--branch", "main", "--docs-dir", "site", "--json")
    summary = json.loads(run.stdout.splitlines()[-1])["summary"]
    assert summary["excluded"] == {"hidden by front matter": 3, "redirect": 2, "hidden in the navigation": 1,
                                   "outside the navigation": 1}
    assert summary["rejected_pages"] == 1  # widgets.mdx: MDX refuses its unclosed <Card>
    assert summary["unknown_components"] == {"Acme.Chart": 1}  # a rejected page's components are not counted
    assert summary["snippets_unresolved"] == 1

    (site / "widgets.mdx").write_text((site / "widgets.mdx").read_text().replace("Broken <Card>\n", ""))
    repo = copy_tree_as_repo(site, tmp_path / "repo2", docs_dir="site")
    run = docschat_in_process("compose", "--repo", str(repo), "--branch", "main", "--docs-dir", "site", "--verbose")
    assert run.returncode == 0, run.stderr
    assert "left out: legacy/old-deploy.mdx: a redirect to /guides/deploy" in run.stderr
    assert "unknown component: Acme.Chart ×2 in charts.mdx, widgets.mdx" in run.stderr
    assert "unknown component: Hero ×2 in widgets.mdx" in run.stderr
    assert "Note" not in run.stderr  # Mintlify's callouts are known: they show their children
    assert "snippets pasted (1 not found)," in run.stdout
    assert ("2 components docschat has no rule for (their text is indexed, their attributes are not): "
            "Acme.Chart\u00a0×2, Hero\u00a0×2") in re.sub(r"[ \n]+", " ", run.stdout)


DOCUSAURUS_TS_CONFIG = """import {themes as prismThemes} from 'prism-react-renderer';
import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';

const config: Config = {
  title: 'Acme',
  url: 'https://acme.example',
  baseUrl: '/',
  presets: [
    ['classic', {
      docs: {path: 'documentation', sidebarPath: './sidebars.ts', editUrl: `https://github.com/acme/docs/${'edit'}`},
      blog: {showReadingTime: true},
      theme: {customCss: './src/css/custom.css'},
    } satisfies Preset.Options],
  ],
  themeConfig: {prism: {theme: prismThemes.github}} satisfies Preset.ThemeConfig,
};

export default config;
"""


def test_the_docusaurus_config_names_the_docs_folder_and_sidebars_and_what_else_is_built() -> None:
    files = {
        "docusaurus.config.ts": DOCUSAURUS_TS_CONFIG,
        "sidebars.json": '{"docs": ["other"]}',  # not the one the config names
        "sidebars.ts": "export default {docs: ['intro', {type: 'category', label: 'Guides', items: ['guides/a']}]};",
        "documentation/intro.md": "# Intro\n", "documentation/guides/a.md": "# A\n", "documentation/other.md": "# O\n",
        "blog/2024-01-01-launch.md": "# Launch\n", "blog/draft.md": "---\ndraft: true\n---\n# D\n",
        "src/pages/about.md": "# About\n", "README.md": "# Readme\n", "docs/old.md": "# Old\n",
    }
    site = read_site(files)
    assert site.listed.keys() == {"documentation/intro", "documentation/guides/a"}
    assert site.place("documentation/guides/a.md") == ("Guides",)
    decided = {path: site.exclusion(path, parse_front_matter(text).data) for path, text in files.items()
               if path.endswith(".md")}
    assert decided == {
        "documentation/intro.md": None, "documentation/guides/a.md": None,
        "documentation/other.md": (OUTSIDE, "outside the navigation of docusaurus.config.ts"),
        "blog/2024-01-01-launch.md": None, "src/pages/about.md": None,  # pages the sidebars do not list
        "blog/draft.md": (FRONT_MATTER, "its front matter says draft: true"),
        "README.md": (NOT_BUILT, "outside the folders docusaurus.config.ts builds (documentation, blog, src/pages): "
                                 "never built"),
        "docs/old.md": (NOT_BUILT, "outside the folders docusaurus.config.ts builds (documentation, blog, src/pages): "
                                   "never built"),
    }
    assert site.warnings == []  # the config's code (imports, a template with a placeholder) decides nothing here


@pytest.mark.parametrize(("sidebar_path", "listed"), [
    ("require.resolve('./sidebars.js')", {"docs/intro"}),  # Docusaurus 2's way: code, so the file is found by name
    ("false", None),  # no sidebars: every doc is a page
])
def test_a_sidebar_path_that_is_code_or_false(sidebar_path: str, listed: set[str] | None) -> None:
    config = f"module.exports = {{presets: [['classic', {{docs: {{sidebarPath: {sidebar_path}}}}}]]}};"
    site = read_site({"docusaurus.config.js": config, "sidebars.js": "module.exports = {docs: ['intro']};",
                      "docs/intro.md": "# I\n", "docs/b.md": "# B\n"})
    if listed is None:
        assert site.every_page_listed and site.exclusion("docs/b.md", {}) is None
    else:
        assert site.listed.keys() == listed and site.exclusion("docs/b.md", {}) is not None


def test_a_page_edit_that_keeps_the_navigation_recomposes_that_page_only() -> None:
    """Page keys (app/corpus/compose.py) hold what the site's configuration decided, not every file
    it read: a Sphinx site's toctrees are in its pages, and a page edit would recompose them all."""
    files = {p.relative_to(SITES / "myst").as_posix(): p.read_text() for p in (SITES / "myst").rglob("*") if p.is_file()}
    blobs = {path: f"blob-{path}" for path in files}

    def compose(tree: dict[str, str], known=None):
        return compose_files_keyed(tree, Settings(), PUBLIC_DEFAULT, blob_id=blobs.get, known=known)

    first = compose(files)
    keys = {key.page: key for key in first.page_keys}
    assert len(keys) == 6 and not first.kept
    files["guides/install.md"] += "\nOne more line.\n"
    blobs["guides/install.md"] = "blob-edited"
    second = compose(files, keys)
    assert [p.path for p in second.pages] == ["guides/install.md"]
    assert len(second.kept) == 5
    files["index.md"] = files["index.md"].replace("guides/install\n", "")  # the navigation changes
    blobs["index.md"] = "blob-edited"
    third = compose(files, {key.page: key for key in [*second.page_keys, *second.kept]})
    assert "guides/install.md" in dict(third.excluded) and not third.kept  # every page decided again


def compose_files_keyed(files, settings, source, *, blob_id, known):
    result = ComposeResult()
    for part in iter_compose_files(files, settings, source, blob_id=blob_id, known=known):
        result.extend(part)
    return result


def test_statements_that_would_change_the_sidebars_are_named() -> None:
    text = "const sidebars = {docs: ['intro']};\nsidebars.docs.push('secret');\nmodule.exports = sidebars;\n"
    site = read_site({"docusaurus.config.js": "", "sidebars.js": text})
    assert set(site.listed) == {"docs/intro"}
    assert site.warnings == ["sidebars.js:2: a statement is code, which docschat does not run; the sidebar items "
                             "it makes are left out"]


def test_a_category_whose_type_and_items_are_code_lists_nothing() -> None:
    """As in a real sidebars.ts: `type` comes from a spread and `items` from a require, both code;
    what is left ({label, link}) is not the shorthand `{label: [items]}`, and lists no doc."""
    text = ("const CATEGORY = {type: 'category'};\nexport default {api: [{label: 'API Reference', ...CATEGORY,\n"
            "  link: {type: 'generated-index'}, items: require('./api-sidebar.js')}, 'intro']};\n")
    site = read_site({"docusaurus.config.js": "", "sidebars.js": text})
    assert set(site.listed) == {"docs/intro"}
    assert [w.split(":")[1] for w in site.warnings] == ["2", "3"]
