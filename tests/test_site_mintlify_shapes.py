"""Mintlify's docs.json navigation shapes (app/corpus/site_mintlify.py): `products`, `tabs` holding
`anchors` or a `menu`, `dropdowns`, and `navigation.global`'s links. tests/data/site-nav/mintlify-shapes
is one config of each; mintlify-shapes.navigation.json is what @mintlify/common 1.0.1183 itself
lists of it (getAllPathsInDocsNav) and the breadcrumbs it gives each page
(generatePathToBreadcrumbsMapForDocsConfig), after @mintlify/validation accepts the config
(scripts/record_mintlify_navigation.mjs)."""

from __future__ import annotations

import json
from pathlib import Path

from app.corpus.site import read_site

SITE = Path(__file__).parent / "data" / "site-nav" / "mintlify-shapes"
RECORDED = json.loads((SITE.parent / "mintlify-shapes.navigation.json").read_text())


def test_mintlify_navigation_shapes_list_and_place_pages_as_mintlify_does() -> None:
    """Every page Mintlify lists is a page, at the breadcrumbs Mintlify gives it: a product's
    display `name` (not its `product` key) heads its pages' place. A page only `global` would link
    (its anchors and tabs are external links) is not a page."""
    files = {path.relative_to(SITE).as_posix(): path.read_text() for path in SITE.rglob("*") if path.is_file()}
    site = read_site(files)
    pages = sorted(path for path in files if path.endswith(".mdx") and site.exclusion(path, {}) is None)
    assert pages == sorted(f"{page}.mdx" for page in RECORDED["pages"])
    assert {page: list(site.listed[page].place) for page in RECORDED["pages"]} == RECORDED["breadcrumbs"]
    assert site.exclusion("global-only.mdx", {}) is not None
