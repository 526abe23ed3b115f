"""A Nextra site: which files are its pages, where it publishes them, where its navigation places them.

Nextra (a Next.js docs framework) builds its navigation from `_meta` files, one a folder, each an
object keyed by the folder's pages and sub-folders. As nextra 4.6 reads them
(packages/nextra/src/server/page-map: find-meta-and-page-file-paths.ts, to-page-map.ts,
normalize.ts; src/client/normalize-pages.ts; recorded against a build: tests/data/site-nav/nextra,
scripts/record_nextra_site.mjs):

- Pages: every `.md`/`.mdx` of the content folder (`content/` or `src/content/`, Nextra 4), published
  at its path (`index` is its folder's page); `page.md`/`page.mdx` of the app folder (`app/` or
  `src/app/`), at its folder, route groups `(x)` dropped, folders named `_x` or `[x` skipped; every
  `.md`/`.mdx` of `pages/` (Nextra 2 and 3). Another Markdown file of the project (a README, an MDX
  file a page imports) is never built. A folder read alone that holds `_meta` files is a content
  folder: its pages at their paths. With Next.js's `i18n` in next.config (Nextra 4: each locale's
  pages in `content/<locale>/`, at `/<locale>/…`), the default locale's pages are indexed, under
  their locale's `_meta` titles; the other locales' are left out as translations.
- Order, per folder: `index` first unless `_meta` names it, then `_meta`'s keys in order, then the
  rest by name. A folder's label: its `_meta` title (a string, or `{title}`), else
  the `sidebarTitle` or title of its `index` page when that page's front matter says `asIndexPage`
  (the page then stands where its folder does), else its name title-cased (`pageTitleFromFilename`).
- Place (the theme's activePath, its breadcrumb): the labels of the folders above the page, a
  `type: 'page'` (or `'menu'`) folder being a navbar tab; a folder shown as its children
  (`display: 'children'`) or hidden (`display: 'hidden'`) is left out of it. Hidden pages are built
  and searched (Pagefind reads every page's `<main>`): they stay pages, as on VitePress; a page
  whose front matter says `searchable: false` has no `data-pagefind-body`: left out, as Starlight's
  `pagefind: false`. `'*'` gives every entry of its folder its `type` and `display`; separators and
  links (`href`) are no pages. `_meta.global` (the app folder's) holds every folder's under `items`.

A `_meta` file is code: it is never run. Its default export is read from its literals (acorn, as
Docusaurus sidebars are); a `_meta` that is a function or else not a literal object is reported,
and its folder's pages then go by name, labelled by their file names. Titles of pages are their own
(front matter `title`, else the first heading), as Nextra's `<title>` and heading show them; the
navigation's labels (`sidebarTitle`, a page's `_meta` title) are the sidebar's short forms.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.corpus.frontmatter import front_matter_data
from app.corpus.reader import read_module_value
from app.corpus.site_model import FRONT_MATTER, HIDDEN, NOT_BUILT, Exclusion, NavPage, Site, stem

NEXT_CONFIGS = tuple(f"next.config.{ext}" for ext in ("js", "mjs", "cjs", "ts", "mts"))
_META = re.compile(r"(?:^|/)_meta\.(?:jsx?|tsx?|json)$")
_META_SUFFIXES = (".ts", ".tsx", ".js", ".jsx", ".json")  # tried in this order for a folder's `_meta`
_PAGES = (".md", ".mdx")
_MAX_DEPTH = 30
# The `title` package's words kept lower case inside a title, and pageTitleFromFilename's specials.
_SMALL = frozenset("a an and as at but by en for if in nor of on or per the to v vs via with".split())
_SPECIAL = {"ssr": "SSR", "cors": "CORS", "eslint": "ESLint"}
# next.config's `i18n: {locales: [...], defaultLocale: '...'}`, read from its text (code, never run).
_LOCALES = re.compile(r"\blocales\s*:\s*\[([^\]]*)\]")
_DEFAULT_LOCALE = re.compile(r"\bdefaultLocale\s*:\s*['\"]([^'\"]+)['\"]")


@dataclass
class _Folder:
    pages: dict[str, str] = field(default_factory=dict)  # child name ("index" for the folder's own) → file
    folders: dict[str, _Folder] = field(default_factory=dict)
    meta: list[str] = field(default_factory=list)  # its `_meta` files (content's, app's)


def nextra_folders(files: Mapping[str, str]) -> tuple[str, ...] | None:
    """The folders a Nextra site at the source's root builds pages from ("" : the source is a
    content folder itself), None when the source is no Nextra site: a Next.js project (`next.config.*`)
    with `_meta` files in its content, app or pages folder, or a folder holding `_meta` files and no
    Next.js project."""
    metas = [path for path in files if _META.search(path)]
    if not metas:
        return None
    if not any(name in files for name in NEXT_CONFIGS):
        return ("",)
    folders = tuple(f for f in ("src/content", "content", "src/app", "app", "src/pages", "pages")
                    if any(path.startswith(f + "/") for path in files))
    if not any(path.startswith(f + "/") for path in metas for f in folders):
        return None
    # Next.js reads `src/app` and `src/pages` only when the root's folder is absent; Nextra likewise.
    return tuple(f for f in folders if not (f.startswith("src/") and f[len("src/"):] in folders))


def nextra_site(files: Mapping[str, str], folders: tuple[str, ...]) -> Site:
    config = next((name for name in NEXT_CONFIGS if name in files), None)
    site = Site("nextra", config or sorted(p for p in files if _META.search(p))[0])
    if folders == ("",):  # the navbar's tabs and the snippets pages import are in the app folder beside it
        site.warnings.append("read as a Nextra content folder, without its Next.js project: what the project "
                             "holds outside it (Nextra 4's app folder: the navbar's tabs, snippets) is not read; "
                             "make the project's folder the source's")
    locale, others = _locales(files.get(config or "", ""))
    root = _Folder()
    slugs: list[tuple[str, str]] = []
    for path in sorted(files):
        if _META.search(path):
            folder = _in(path, folders)
            # `_meta.json` is Nextra 2's (its `pages/`); Nextra 4 globs `_meta.{js,jsx,ts,tsx}` only.
            if folder is not None and (not path.endswith(".json") or folder in ("", "pages", "src/pages")):
                _node(root, _route_dir(posixpath.dirname(path)[len(folder):].strip("/"), folder)).meta.append(path)
            continue
        if not path.endswith(_PAGES):
            continue
        folder = _in(path, folders)
        route = None if folder is None else _route(path, folder)
        if locale and folder is not None and not folder.endswith("app"):
            # Nextra 4 with Next.js's `i18n`: each locale's pages are `content/<locale>/`, served at
            # `/<locale>/…` (find-meta-and-page-file-paths.ts globs that folder alone); a reader opening
            # the site in its default locale searches that locale's: the others are translations.
            first = path[len(folder):].lstrip("/").split("/", 1)[0]
            if first in others:
                site.left_out[path] = Exclusion(HIDDEN, f"a translation for the locale {first!r} ({folder}/{first}/): "
                                                        f"the default locale's, {locale!r}, is indexed")
                continue
            if first != locale:
                route = None
        if folder is None or route is None:
            site.left_out[path] = Exclusion(NOT_BUILT, "not a page of the Next.js project's content, app or pages "
                                                       "folder (Nextra builds no page of it): never built")
            continue
        if front_matter_data(files[path], javascript=True).get("searchable") is False:
            site.left_out[path] = Exclusion(FRONT_MATTER, "its front matter says searchable: false (Nextra leaves "
                                                          "it out of its search)")
        if folder.endswith("app"):
            slugs.append((path, f"{folder}/{route or 'index'}.md"))
            parent, name = route, "index"  # `docs/page.mdx`: the folder `docs`'s own page
        else:
            relative = path[len(folder):].lstrip("/")
            parent, name = posixpath.dirname(relative), posixpath.basename(relative).rsplit(".", 1)[0]
        _node(root, parent).pages[name] = path
    for route, page in _folder_pages(root):  # `x.mdx` beside a folder `x/`: that folder's page (to-page-map.ts)
        _node(root, route).pages.setdefault("index", page)
    site.slugs = tuple(slugs)
    site.routes = tuple((f, "") for f in folders if f)
    global_meta = next((f"{f}/_meta.global{s}" for f in folders if f.endswith("app") for s in _META_SUFFIXES
                        if f"{f}/_meta.global{s}" in files), None)
    meta = _read_meta(files, global_meta, site.warnings) if global_meta else None
    # With locales, a locale's folder is its page map's root (getPageMap(`/${lang}`)): no place of its own.
    _walk(root.folders.get(locale, _Folder()) if locale else root, files, site, meta, (), 0)
    if locale:
        _walk(_Folder(dict(root.pages), {k: v for k, v in root.folders.items() if k != locale}), files, site, meta, (), 0)
    site.every_page_listed = not site.listed  # the navigation orders and places; it decides nothing
    return site


def _locales(config: str) -> tuple[str, frozenset[str]]:
    """next.config's default locale ("" without `i18n`) and its other locales."""
    default, listed = _DEFAULT_LOCALE.search(config), _LOCALES.search(config)
    if not default or not listed:
        return "", frozenset()
    locales = frozenset(re.findall(r"['\"]([^'\"]+)['\"]", listed.group(1)))
    return default.group(1), locales - {default.group(1)}


def _in(path: str, folders: tuple[str, ...]) -> str | None:
    return next((f for f in folders if f == "" or path.startswith(f + "/")), None)


def _route_dir(relative: str, folder: str) -> str:
    """The route of a folder of the app folder (route groups dropped), or of the content folder."""
    if not folder.endswith("app"):
        return relative
    return "/".join(part for part in relative.split("/") if part and not (part.startswith("(") and part.endswith(")")))


def _route(path: str, folder: str) -> str | None:
    """The route a page file is published at, no leading slash ("" the home page); None when its
    folder builds no page of it."""
    relative = path[len(folder):].lstrip("/")
    if folder.endswith("app"):
        parts = relative.split("/")
        if parts[-1] not in ("page.md", "page.mdx") or any(p.startswith(("_", "[")) for p in parts[:-1]):
            return None
        return _route_dir("/".join(parts[:-1]), folder)
    if any(part.startswith(".") for part in relative.split("/")):  # fast-glob skips dot files
        return None
    route = relative.rsplit(".", 1)[0]
    return route[: -len("index")].rstrip("/") if route == "index" or route.endswith("/index") else route


def _node(root: _Folder, route: str) -> _Folder:
    node = root
    for part in (p for p in route.split("/") if p):
        node = node.folders.setdefault(part, _Folder())
    return node


def _folder_pages(root: _Folder, prefix: str = "") -> list[tuple[str, str]]:
    """(folder route, file) for each page `x.mdx` standing beside a folder `x/` of the same parent."""
    found: list[tuple[str, str]] = []
    for name, sub in list(root.folders.items()):
        route = f"{prefix}/{name}".strip("/")
        if name in root.pages and name != "index":
            found.append((route, root.pages.pop(name)))
        found.extend(_folder_pages(sub, route))
    return found


def _read_meta(files: Mapping[str, str], path: str, warnings: list[str]) -> dict[str, Any]:
    """A `_meta` file's object, from its literals; {} (with a warning) when it is code."""
    text = files[path]
    if path.endswith(".json"):
        try:
            value: Any = json.loads(text)
        except ValueError as error:
            warnings.append(f"{path}: not JSON ({error}): its folder's pages go by name")
            return {}
    else:
        read = read_module_value(text, typescript=path.endswith((".ts", ".tsx")))
        if read.error is not None or not isinstance(read.value, dict):
            why = read.error or "its default export is not an object literal"
            warnings.append(f"{path}: not read ({why}; it is code, never run): its folder's pages go by name")
            return {}
        warnings.extend(f"{path}:{line}: {what} is code, not read" for line, what in read.skipped)
        value = read.value
    return value if isinstance(value, dict) else {}


def _entry(value: Any) -> dict[str, Any]:
    """A `_meta` entry as an object: a string is its title."""
    return {"title": value} if isinstance(value, str) else value if isinstance(value, dict) else {}


def title_from_filename(name: str) -> str:
    """pageTitleFromFilename: `-` and `_` to spaces, then the `title` package's capitals (small
    words lower case but the first and last)."""
    words = re.sub(r"[-_]", " ", name).split()
    shown = []
    for number, word in enumerate(words):
        lower = word.lower()
        if lower in _SPECIAL:
            shown.append(_SPECIAL[lower])
        elif 0 < number < len(words) - 1 and lower in _SMALL:
            shown.append(lower)
        else:
            shown.append(word[:1].upper() + word[1:])
    return " ".join(shown)


def _index_title(folder: _Folder, files: Mapping[str, str]) -> str | None:
    """The title a folder takes from its index page when that page's front matter says `asIndexPage`
    (normalize.ts's sortFolder gives the folder the page's front matter; titlize reads its
    `sidebarTitle`, else its `title`, which compile-metadata defaults to the first heading)."""
    index = folder.pages.get("index")
    data = front_matter_data(files[index], javascript=True) if index else {}
    if data.get("asIndexPage") is not True:
        return None
    for key in ("sidebarTitle", "title"):
        if isinstance(data.get(key), str) and data[key]:
            return str(data[key])
    body = re.sub(r"\A---\n.*?\n---\n", "", files[index] if index else "", flags=re.DOTALL)
    heading = re.search(r"^# +(.+?)\s*#*\s*$", body, re.MULTILINE)
    return heading.group(1) if heading else None


def _order(names: list[str], meta: dict[str, Any]) -> list[str]:
    """normalize.ts's sortFolder: `index` first unless `_meta` names it, `_meta`'s keys, the rest by name."""
    keys = [k for k in meta if k != "*"]
    has_index = "index" in meta
    return sorted(names, key=lambda n: (not (n == "index" and not has_index), n not in keys,
                                        keys.index(n) if n in keys else 0, n))


def _walk(folder: _Folder, files: Mapping[str, str], site: Site, given: dict[str, Any] | None,
          place: tuple[str, ...], depth: int, outer: tuple[str, ...] | None = None) -> None:
    """Lists `folder`'s pages under `place` (`outer`: the place of the folder itself)."""
    if depth > _MAX_DEPTH:
        return
    meta: dict[str, Any] = {}
    for path in sorted(folder.meta, key=lambda p: not p.endswith(_META_SUFFIXES[:2])):
        meta = {**_read_meta(files, path, site.warnings), **meta}  # content's and app's, merged
    if given and not folder.meta:
        meta = given
    fallback = _entry(meta.get("*"))
    for name in _order([*folder.pages, *(n for n in folder.folders if n not in folder.pages)], meta):
        entry = _entry(meta.get(name))
        sub = folder.folders.get(name)
        # A folder holding its own page only, and no `_meta`, is that page (to-page-map.ts's isFolder).
        page = folder.pages.get(name) or (sub.pages.get("index") if sub and not sub.folders and not sub.meta
                                          and list(sub.pages) == ["index"] else None)
        if page is not None:
            # An `asIndexPage` index is its folder's own page: it stands where the folder does.
            own = name == "index" and outer is not None and _index_title(folder, files) is not None
            site.listed.setdefault(stem(page), NavPage(outer if own and outer is not None else place))
            continue
        if sub is None:
            continue
        display = entry.get("display") or fallback.get("display")
        label = entry.get("title") if isinstance(entry.get("title"), str) and entry.get("title") else _index_title(sub, files)
        shown = place if display in ("children", "hidden") else (*place, label or title_from_filename(name))
        items = entry.get("items") if isinstance(entry.get("items"), dict) else None
        _walk(sub, files, site, items, shown, depth + 1, place)
