"""A Mintlify site's pages, from `docs.json` (or the older `mint.json`), read as Mintlify reads
it (app/corpus/site.py says what its navigation decides)."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from typing import Any

from app.corpus.site_model import (
    _MAX_DEPTH,
    HIDDEN,
    Exclusion,
    NavPage,
    OpenApiEntry,
    Site,
    _gitignore,
    _js_truthy,
    stem,
)
from app.corpus.site_openapi import openapi_files, openapi_sources, parse_operation
from app.corpus.snippets import imported_markdown
from app.corpus.theme_hiding import theme_css

MINTLIFY_FILES = ("docs.json", "mint.json")
# Files Mintlify never builds, beside `.mintignore`'s (DEFAULT_MINT_IGNORES, @mintlify/common 1.0.1183).
MINTLIFY_IGNORED = (".git", ".github", ".claude", ".agents", ".idea", ".vscode", ".cursor", ".mintlify/**",
                    "!.mintlify/**/", "!.mintlify/skills/**", "!.mintlify/**/*.json", "!.mintlify/**/*.yaml",
                    "!.mintlify/**/*.yml", "node_modules", "README.md", "LICENSE.md", "CHANGELOG.md", "CONTRIBUTING.md")
_MAX_REFS = 200  # `$ref` files read for one navigation: a cycle or a fan-out stops here
# Mintlify's navigation containers, and the key naming each one's label in the place.
_MINTLIFY_CONTAINERS = ("languages", "versions", "tabs", "anchors", "dropdowns", "products", "menu", "groups",
                        "pages", "navigation")
_MINTLIFY_LABELS = ("tab", "anchor", "dropdown", "product", "item", "group")  # language, version: not a place


def mintlify_site(name: str, files: Mapping[str, str]) -> Site:
    """The site `name` (docs.json or mint.json) of `files` says."""
    return _Mintlify(name, files).read()


class _Mintlify:
    """docs.json read as Mintlify reads it; `$ref` files resolved within the source."""

    def __init__(self, name: str, files: Mapping[str, str]) -> None:
        self.name, self.files, self.refs = name, files, 0
        self.openapi: list[OpenApiEntry] = []  # pages generated from OpenAPI (app/corpus/site_openapi.py)
        self.site = Site("mintlify", name, every_page_listed=False)
        # While walking a language or version other than the default: why its pages are left out.
        self.elsewhere: str | None = None
        self.other: dict[str, str] = {}  # page stem → why (a page listed only under other languages or versions)
        self.mint_version: str | None = None  # mint.json: its default version (groups name theirs by `version`)

    def read(self) -> Site:
        site = self.site
        site.gitignored = (*MINTLIFY_IGNORED, *self.files.get(".mintignore", "").splitlines())
        # Mintlify applies every CSS file of the repository to every page (guides/custom-layouts in its docs).
        site.stylesheets = tuple(sorted(p for p in self.files if p.endswith(".css") and not _gitignore(site.gitignored, ignore_case=True).match_file(p)))
        site.imported = imported_markdown(self.files)
        site.theme_css = theme_css("mintlify", "components")  # the classes its components' stylesheet hides
        data = self.load(self.name)
        if not isinstance(data, dict):
            site.every_page_listed = True
            return site
        seo, _ = self.resolve(data.get("seo"), "")
        site.index_hidden = isinstance(seo, dict) and seo.get("indexing") == "all"
        # The site's own specs (docs.json `api.openapi`, mint.json `openapi`): an operation names one of them.
        api = data.get("api")
        specs = openapi_sources(api.get("openapi") if isinstance(api, dict) else data.get("openapi"), ((), None))
        self.mint_version = _mint_json_default_version(data.get("versions")) if self.name == "mint.json" else None
        self.walk(data.get("navigation"), (), False, "", 0, specs)
        # Pages only another language or version lists: Mintlify publishes them under its own path
        # (`/fr/…`, `/v1/…`), and a reader of the default one neither sees nor searches them.
        for page, why in self.other.items():
            for path in (page + ".mdx", page + ".md") if page not in site.listed else ():
                if path in self.files:
                    site.left_out[path] = Exclusion(HIDDEN, why)
        redirects, _ = self.resolve(data.get("redirects"), "")
        for item in redirects if isinstance(redirects, list) else []:
            if isinstance(item, dict) and isinstance(item.get("source"), str):
                site.redirects.append((item["source"], str(item.get("destination", ""))))
        site.openapi = tuple(self.openapi)
        named = [*specs[0], *(spec for entry in self.openapi for spec in entry.specs)]
        site.openapi_files = openapi_files(self.files, named)
        if not site.listed and not self.openapi:  # a navigation listing nothing (OpenAPI only, unreadable): keep every page
            site.every_page_listed = True
        return site

    def load(self, path: str) -> Any:
        if path not in self.files:
            self.site.warnings.append(
                f"{path}: named by a $ref of {self.name}, and not in the source; what it holds is left out")
            return None
        try:
            return json.loads(self.files[path])
        except (ValueError, RecursionError) as exc:  # nested past what json reads
            self.site.warnings.append(f"{path}: not JSON ({exc}); what it holds is left out")
            return None

    def resolve(self, node: Any, base: str) -> tuple[Any, str]:
        """A `{"$ref": "./file.json", …}` object replaced by the file's JSON (its own keys kept)."""
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            self.refs += 1
            if self.refs > _MAX_REFS:
                self.site.warnings.append(f"{self.name}: more than {_MAX_REFS} $ref files; the rest are not read")
                return None, base
            target = posixpath.normpath(posixpath.join(base, node["$ref"]))
            loaded = self.load(target)
            base = posixpath.dirname(target)
            rest = {k: v for k, v in node.items() if k != "$ref"}
            node = {**loaded, **rest} if isinstance(loaded, dict) else loaded if not rest else rest
        return node, base

    def walk(self, node: Any, place: tuple[str, ...], hidden: bool, base: str, depth: int,
             spec: tuple[tuple[str, ...], str | None]) -> None:
        """`spec`: the `openapi` sources in effect (a tab's or group's, inherited) and their directory."""
        node, base = self.resolve(node, base)
        if depth > _MAX_DEPTH or node is None:
            return
        if isinstance(node, str):
            self.add(node, place, hidden, spec)
        elif isinstance(node, list):
            for item in node:
                self.walk(item, place, hidden, base, depth + 1, spec)
        elif isinstance(node, dict):
            version = node.get("version")  # mint.json: a group (or anchor) of one version
            if self.mint_version is not None and isinstance(version, str) and version != self.mint_version:
                self.walk_elsewhere(f"listed for the version {version!r} of {self.name}, not its default "
                                    f"{self.mint_version!r}", {k: v for k, v in node.items() if k != "version"},
                                    place, hidden, base, depth, spec)
                return
            # A product shows its display `name` over its `product` key (@mintlify/common 1.0.1183's
            # getDivisionTitle, recorded in tests/data/site-nav/mintlify-shapes.navigation.json).
            named = "product" in node and isinstance(node.get("name"), str) and node["name"].strip()
            label = node["name"].strip() if named else next(
                (node[k].strip() for k in _MINTLIFY_LABELS if isinstance(node.get(k), str)), "")
            inner = (*place, label) if label and (not place or place[-1] != label) else place
            # JavaScript's truthiness (`"hidden": "true"` or `1` hides, as a value docs.json's schema
            # refuses may still be read so; or the site does not build): hiding more, never less.
            if node.get("hidden") not in (None, False, ""):  # 0 == False
                hidden = True
            if node.get("searchable") is True:
                hidden = False  # a searchable tab or group brings its descendants back
            if "openapi" in node:
                spec = openapi_sources(node["openapi"], spec)
                # every operation of it (not of another language or version: left out with its pages)
                if spec[0] and self.elsewhere is None and not any(key in node for key in _MINTLIFY_CONTAINERS):
                    self.openapi.append(OpenApiEntry("", spec[0], inner, hidden, spec[1]))
            if isinstance(node.get("root"), str):
                self.add(node["root"], inner, hidden, spec)
            for key in _MINTLIFY_CONTAINERS:
                if key in ("languages", "versions") and isinstance(node.get(key), list):
                    self.divisions(key, node[key], inner, hidden, base, depth, spec)
                elif key in node:
                    self.walk(node[key], inner, hidden, base, depth + 1, spec)

    def divisions(self, key: str, items: list[Any], place: tuple[str, ...], hidden: bool, base: str, depth: int,
                  spec: tuple[tuple[str, ...], str | None]) -> None:
        """`languages` or `versions`: the default one (`default: true`, else the first, as
        @mintlify/common 1.0.1183's prioritizeDefaultDivisionItem orders them) is the site a reader
        opens and searches, walked as the rest; the others' pages are left out (`self.other`)."""
        resolved = [self.resolve(item, base) for item in items[:1000]]
        found = [(item, at) for item, at in resolved if isinstance(item, dict)]
        if not found:
            return
        first = next(((i, a) for i, a in found if _js_truthy(i.get("default"))), found[0])
        name = key[:-1]  # language, version
        self.walk(first[0], place, hidden, first[1], depth + 1, spec)
        for item, at in found:
            if item is not first[0]:
                self.walk_elsewhere(f"listed for the {name} {str(item.get(name, ''))!r} of {self.name}, not its "
                                    f"default {str(first[0].get(name, ''))!r}", item, place, hidden, at, depth, spec)

    def walk_elsewhere(self, why: str, node: Any, place: tuple[str, ...], hidden: bool, base: str, depth: int,
                       spec: tuple[tuple[str, ...], str | None]) -> None:
        outer, self.elsewhere = self.elsewhere, self.elsewhere or why
        try:
            self.walk(node, place, hidden, base, depth + 1, spec)
        finally:
            self.elsewhere = outer

    def add(self, page: str, place: tuple[str, ...], hidden: bool, spec: tuple[tuple[str, ...], str | None]) -> None:
        if "://" in page:
            return
        if self.elsewhere is not None:  # a page (or an operation) of another language or version
            self.other.setdefault(stem(page), self.elsewhere)
            return
        # A navigation entry naming an OpenAPI operation, from which Mintlify generates the page:
        # `GET /users`, `openapi.json post /users`, `v3-openapi GET /runs`, `webhook name`.
        if parse_operation(page) is not None:
            self.openapi.append(OpenApiEntry(page.strip(), spec[0], place, hidden, spec[1]))
            return
        key = stem(page)
        current = self.site.listed.get(key)
        # A page listed twice keeps its first place; listed once where it shows, it is not hidden.
        if current is None:
            self.site.listed[key] = NavPage(place, hidden)
        elif current.hidden and not hidden:
            self.site.listed[key] = NavPage(current.place, False)


def _mint_json_default_version(versions: Any) -> str | None:
    """mint.json's `versions` (names, or `{"name", "default"}` objects): the one marked default,
    else the first; None when it lists none."""
    named = [(v, False) if isinstance(v, str) else (v.get("name"), _js_truthy(v.get("default")))
             for v in versions if isinstance(v, (str, dict))] if isinstance(versions, list) else []
    names = [(n, d) for n, d in named if isinstance(n, str)]
    return next((n for n, d in names if d), names[0][0] if names else None)
