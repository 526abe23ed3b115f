"""A Nextra site (app/corpus/site_nextra.py): its pages are the content folder's Markdown and the app
folder's `page.mdx` files (private `_x` folders and other MDX files never built), each linked at its
route, left out when its front matter says `searchable: false`, placed under the titles its `_meta`
files give the folders above it (a `type: 'page'` tab, `display: 'children'` and `'hidden'`
folders adding none), in the order normalize.ts sorts them; a `_meta` that is code is reported.

tests/data/site-nav/nextra is a small Nextra 4 project; nextra.recorded.json is what nextra 4.6.1's
own page-map code makes of it, and the routes `next build` (Next.js 15.5.29) lists for it
(scripts/record_nextra_site.mjs)."""

from __future__ import annotations

import json
from pathlib import Path

from app.corpus.site import FRONT_MATTER, HIDDEN, NOT_BUILT, read_site
from app.corpus.site_nextra import title_from_filename
from app.corpus.site_root import SiteChoiceError, SiteRoot, find_site
from tests.helpers import compose_fixture_repo

SITE = Path(__file__).parent / "data" / "site-nav" / "nextra"
RECORDED = json.loads((SITE.parent / "nextra.recorded.json").read_text())
# Code in the fixture's `content/docs/api/_meta.js`: Nextra runs it, docschat reads no value of it.
_API_META = "content/docs/api/_meta.js"


def _composed(tmp_path: Path, folder: Path = SITE, dir: str = ""):
    return compose_fixture_repo(tmp_path, folder, dir)


def test_the_pages_are_those_the_build_publishes_and_searches(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    built = set(RECORDED["next_build_routes"])
    searched = {name for name, page in RECORDED["pages"].items() if page["route"] in built and page["searchable"]}
    assert sorted(page.path for page in result.pages) == sorted(searched)
    excluded = dict(result.excluded)
    assert excluded["content/docs/no-search.mdx"].kind == FRONT_MATTER  # built, not in the search
    assert excluded["app/_drafts/x/page.mdx"].kind == NOT_BUILT  # in Nextra's page map, not built by Next.js
    assert excluded["app/snippet.mdx"].kind == NOT_BUILT  # an app folder's MDX that is no page.mdx
    assert result.warnings == [f"{_API_META}: not read (its default export is not an object literal; it is "
                                "code, never run): its folder's pages go by name"]


def test_each_page_is_linked_at_its_route_with_its_title(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    for page in result.pages:
        recorded = RECORDED["pages"][page.path]
        hrefs = {chunk.href.partition("#")[0] for chunk in result.chunks if chunk.page == page.path}
        assert hrefs == {recorded["route"]}, page.path
        assert page.title == recorded["title"], page.path


def test_each_page_stands_under_its_breadcrumb(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    for page in result.pages:
        # The theme's breadcrumb ends with the page itself; its place is what stands above it.
        assert page.place == tuple(RECORDED["pages"][page.path]["breadcrumb"][:-1]), page.path


def test_pages_go_in_the_page_map_order_where_meta_is_literal(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    routes = {page.path: RECORDED["pages"][page.path]["route"] for page in result.pages}
    ordered = [routes[p.path] for p in sorted(result.pages, key=lambda p: p.page_order if p.page_order is not None else 1e9)]
    # The api folder's `_meta.js` is code (zeta first when run): docschat orders its pages by name.
    api = ["/docs/api/zeta", "/docs/api/alpha"]
    assert [r for r in RECORDED["order"] if r not in api and r in ordered] == [r for r in ordered if r not in api]
    assert [r for r in ordered if r in api] == sorted(api)


def test_a_content_folder_read_alone_is_a_nextra_site(tmp_path: Path) -> None:
    result = _composed(tmp_path, SITE / "content")
    pages = {page.path: page for page in result.pages}
    # The tabs' titles are in app/_meta; `advanced/index.mdx` says asIndexPage: its title is its folder's.
    assert pages["docs/advanced/caching.mdx"].place == ("Docs", "Advanced topics")
    assert result.warnings[0].startswith("read as a Nextra content folder, without its Next.js project")
    assert {chunk.href.partition("#")[0] for chunk in result.chunks if chunk.page == "docs/beside.mdx"} == {"/docs/beside"}


def test_a_next_project_without_meta_files_is_no_nextra_site() -> None:
    files = {"next.config.js": "module.exports = {}\n", "pages/index.mdx": "# Home\n"}
    assert read_site(files).framework == "files"
    assert read_site({"pages/_meta.json": '{"index": "Home"}', "next.config.js": "", "pages/index.mdx": "# Home\n"}
                     ).framework == "nextra"


def test_nextra_2_meta_json_orders_and_titles_folders() -> None:
    files = {"next.config.js": "", "pages/_meta.json": '{"guide": "The Guide", "index": "Home"}',
             "pages/index.mdx": "# Home\n", "pages/guide/b.mdx": "# B\n", "pages/guide/a.mdx": "# A\n",
             "pages/guide/_meta.json": "{not json"}
    site = read_site(files)
    assert site.place("pages/guide/a.mdx") == ("The Guide",)
    assert site.page_orders() == {"pages/guide/a": 0, "pages/guide/b": 1, "pages/index": 2}
    assert site.warnings and site.warnings[0].startswith("pages/guide/_meta.json: not JSON")


def test_file_names_are_title_cased_as_nextra_does() -> None:
    assert title_from_filename("getting-started") == "Getting Started"
    assert title_from_filename("cors_and-ssr") == "CORS and SSR"
    assert title_from_filename("api") == "Api"


def test_a_nextra_project_below_the_source_is_its_site() -> None:
    files = {"README.md": "# Repo\n", "website/next.config.ts": "export default {}\n",
             "website/src/content/docs/_meta.ts": "export default {}\n", "website/src/content/docs/a.mdx": "# A\n",
             "examples/app/next.config.js": "module.exports = {}\n", "examples/app/pages/index.mdx": "# Example\n"}
    # A Next.js project without `_meta` files (an example app) is no docs site.
    assert find_site(files) == SiteRoot("website", "website/next.config.ts")
    files |= {"envelop/next.config.js": "module.exports = {}\n", "envelop/src/pages/_meta.ts": "export default {}\n"}
    try:
        find_site(files)
    except SiteChoiceError as error:  # yoga's repository holds two Nextra sites: one source reads one
        assert "2 sites (envelop/next.config.js, website/next.config.ts)" in str(error)
    else:
        raise AssertionError("two Nextra projects found as one site")


def test_a_site_in_several_languages_indexes_its_default_locale() -> None:
    """Nextra 4 with Next.js's `i18n` (next.config): each locale's pages in `content/<locale>/`,
    served at `/<locale>/…`; the default locale's are indexed, the others are translations."""
    config = "import nextra from 'nextra'\nexport default nextra({})({ i18n: { locales: ['en', 'de'], defaultLocale: 'en' } })\n"
    files = {"next.config.mjs": config, "content/en/_meta.js": "export default { docs: 'Documentation' }\n",
             "content/en/index.mdx": "# Home\n", "content/en/docs/a.mdx": "# A\n",
             "content/de/_meta.js": "export default { docs: 'Dokumentation' }\n",
             "content/de/index.mdx": "# Start\n", "content/de/docs/a.mdx": "# A auf Deutsch\n", "content/stray.mdx": "# S\n"}
    site = read_site(files)
    assert site.framework == "nextra"
    assert site.left_out["content/de/docs/a.mdx"].kind == HIDDEN
    assert "content/en/docs/a.mdx" not in site.left_out and "content/stray.mdx" in site.left_out
    assert site.place("content/en/docs/a.mdx") == ("Documentation",)  # the locale's folder is its page map's root
    assert site.url_path("content/en/docs/a.mdx") == "en/docs/a.mdx"  # published at /en/docs/a
    # Without `i18n` the folders are plain folders.
    plain = read_site({**files, "next.config.mjs": "export default {}\n"})
    assert "content/de/docs/a.mdx" not in plain.left_out


def test_the_default_locale_is_indexed_where_the_build_publishes_it(tmp_path: Path) -> None:
    """tests/data/site-nav/nextra-i18n built (nextra-i18n.built.json): `/en/…` and `/de/…`; the
    English pages are indexed at their routes under their breadcrumbs, the German ones left out."""
    built = json.loads((SITE.parent / "nextra-i18n.built.json").read_text())["routes"]
    result = _composed(tmp_path, SITE.parent / "nextra-i18n")
    hrefs = {page.path: {c.href.partition("#")[0] for c in result.chunks if c.page == page.path} for page in result.pages}
    assert sorted(route for routes in hrefs.values() for route in routes) == sorted(r for r in built if r.startswith("/en"))
    for page in result.pages:
        assert page.place == tuple(built[next(iter(hrefs[page.path]))][:-1]), page.path
    assert {path for path, why in result.excluded if why.kind == HIDDEN} == {"content/de/index.mdx", "content/de/docs/install.mdx"}
