"""An Astro Starlight site: which files are its pages, where it publishes them, where its sidebar
places them.

A Starlight site is an Astro project whose `astro.config.*` imports `@astrojs/starlight` (the source's
folder is the project's). As @astrojs/starlight 0.41.7 builds it (recorded:
tests/data/starlight-site, scripts/record_starlight_site.py):

- Its pages are the `docsLoader()` collection: `src/content/docs/**/[^_]*.{md,mdx,…}` (loaders.ts);
  any other Markdown of the project (a README, `src/pages`, a `_partial.md`) is no docs page.
- A page is published at its id: Astro's glob loader makes it of the file's path without extension,
  each folder and name slugged as github-slugger slugs (lower case, punctuation dropped, spaces to
  `-`), `index` dropped; a front matter `slug` replaces it (generateIdDefault).
- `draft: true` pages are left out of production builds (routing/index.ts). A page whose front
  matter says `pagefind: false`, and the 404 page (an id `404` or ending `/404`), are built without
  `data-pagefind-body` (Page.astro): left out of the site's search, as here.
- The sidebar (`starlight({sidebar: [...]})`) places pages, never decides what is published (a page
  outside it is still built and searched): groups' labels (a locale's `translations` on its pages),
  `autogenerate: {directory}` with its sub-folders as groups of their names; pages whose front
  matter says `sidebar: {hidden: true}` stand in no group.
- The pages of a locale other than the default one (`root`, else `defaultLocale`) are left out:
  Pagefind searches the reader's language, and docschat answers the default locale's reader.

The config is code: it is never run. The `sidebar` array is read where the config writes it as a
literal (by the page reader's JavaScript parser, acorn), and the locales' folders from a `locales`
object literal (inline, or a `const locales = {…}` of the same file); what is code is not read
(a warning), and pages then stand in no group. `srcDir` or a `docsLoader({generateId})` are not
read: a config setting `srcDir` gets a warning.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Mapping
from typing import Any

from app.corpus.chunker import github_slug
from app.corpus.frontmatter import front_matter_data
from app.corpus.reader import read_module_value
from app.corpus.site_model import FRONT_MATTER, HIDDEN, NOT_BUILT, Exclusion, NavPage, Site
from app.corpus.theme_hiding import theme_css
from app.corpus.vitepress_config import closing_bracket

ASTRO_CONFIGS = tuple(f"astro.config.{ext}" for ext in ("mjs", "js", "ts", "mts", "cjs", "cts"))
_STARLIGHT = re.compile(r"""(?:from|require\()\s*["']@astrojs/starlight["']""")
DOCS = "src/content/docs/"  # getCollectionPathFromRoot('docs'): the project's srcDir `src/`
# docsLoader's extensions (Astro's Markdown ones and MDX); docschat reads the `.md` and `.mdx` ones.
_EXTENSIONS = (".markdown", ".mdown", ".mkdn", ".mkd", ".mdwn", ".md", ".mdx")
_SIDEBAR = re.compile(r"""(?<![\w$])["']?sidebar["']?\s*:\s*""")
_LOCALES = re.compile(r"""(?<![\w$])(?:["']?locales["']?\s*:\s*|(?:const|let|var)\s+locales\s*=\s*)(?=\{)""")
_CUSTOM_CSS = re.compile(r"""(?<![\w$])["']?customCss["']?\s*:\s*""")
_SRC_DIR = re.compile(r"""(?<![\w$])["']?srcDir["']?\s*:""")
_MAX_ITEMS = 5000  # sidebar entries read at most (a fan-out stops here)


def starlight_config(files: Mapping[str, str]) -> str | None:
    """The Astro config at the source's root that adds Starlight, None when there is none."""
    return next((name for name in ASTRO_CONFIGS if name in files and _STARLIGHT.search(files[name])), None)


def starlight_site(files: Mapping[str, str], config: str) -> Site:
    text = files[config]
    site = Site("starlight", config)
    site.routes = ((DOCS.rstrip("/"), ""),)  # a page's URL is its path under the collection's folder
    if _SRC_DIR.search(text):
        site.warnings.append(f"{config}: srcDir is not read: pages are read from {DOCS}")
    pages: dict[str, Mapping[str, Any]] = {}  # path → front matter, of every docs page
    slugs: list[tuple[str, str]] = []
    for path in sorted(files):
        if not _is_docs_page(path):
            if path.endswith(_EXTENSIONS):
                site.left_out[path] = Exclusion(NOT_BUILT, f"not in Starlight's docs collection ({DOCS}, no `_` name): "
                                                          "never built")
            continue
        front = front_matter_data(files[path], javascript=True)
        if (excluded := _front_exclusion(path, front)) is not None:
            site.left_out[path] = Exclusion(*excluded)
        pages[path] = front
        url = DOCS + (page_id(path, front) or "index") + ".md"  # chunker.page_route drops the suffix
        if _stem(url) != _stem(path):
            slugs.append((path, url))
    site.slugs = tuple(slugs)
    locales = _locales(text)
    if (default := _default_locale(text, locales)) is not None:
        # Pagefind indexes each page under its language and searches the reader's: the default
        # locale's visitor, whom docschat answers, never finds another locale's page (as VitePress).
        for path in pages:
            folder = path[len(DOCS):].partition("/")[0]
            if folder in locales and folder != default and path not in site.left_out:
                site.left_out[path] = Exclusion(HIDDEN, f"a page of the locale {folder!r} of {config}: the "
                                                        "default locale's search leaves it out")
    # Starlight's own stylesheet hides `sl-hidden` (and at a desktop's width `md:`/`lg:sl-hidden`):
    # recorded in Chromium (scripts/record_theme_hiding.py --starlight). The config's `customCss`
    # files are on every page; a package's (`@fontsource/…`) is not the source's.
    site.theme_css = theme_css("starlight", "default")
    custom = _literal(text, _CUSTOM_CSS, "[")
    site.stylesheets = tuple(posixpath.normpath(path).lstrip("/") for path in (custom if isinstance(custom, list) else [])
                             if isinstance(path, str) and path.startswith(("./", "/", "src/")))
    sidebar = _literal(text, _SIDEBAR, "[")
    if sidebar is None:
        site.warnings.append(f"{config}: the sidebar is not an array written in the config (or is code): pages "
                             "stand in no group")
    elif sidebar:
        site.listed = _places(sidebar, pages, locales)
    return site


def _is_docs_page(path: str) -> bool:
    return path.startswith(DOCS) and path.endswith(_EXTENSIONS) and not posixpath.basename(path).startswith("_")


def page_id(path: str, front: Mapping[str, Any]) -> str:
    """The page's id (its URL path, no leading or trailing slash; "" for the home page), as Astro's
    glob loader makes it: the front matter `slug`, else each segment of the path slugged."""
    slug = front.get("slug")
    if isinstance(slug, str):
        return slug.strip("/")
    name = path[len(DOCS):].rsplit(".", 1)[0]
    segments = [github_slug(segment) for segment in name.split("/")]
    found = "/".join(segments)
    found = found[: -len("/index")] if found.endswith("/index") else found
    return "" if found == "index" else found


def _front_exclusion(path: str, front: Mapping[str, Any]) -> tuple[str, str] | None:
    """Why the docs page at `path` is not built, or left out of the site's search: (kind, reason)."""
    # The schema (zod) wants booleans: any other value fails the build; read as the safe side.
    if "draft" in front and front["draft"] is not False:
        return FRONT_MATTER, "its front matter says draft: true: left out of production builds"
    if "pagefind" in front and front["pagefind"] is not True:
        return FRONT_MATTER, "its front matter says pagefind: false: left out of the site's search"
    published = page_id(path, front)
    if published == "404" or published.endswith("/404"):
        return FRONT_MATTER, "the 404 page, which Starlight leaves out of the site's search"
    return None


def _literal(text: str, key: re.Pattern[str], opening: str) -> Any:
    """The literal written after `key` (an array or object opening with `opening`), read by acorn;
    None when it is code or cannot be read, [] when the config has no such key."""
    found = key.search(text)
    if found is None:
        return []
    start = found.end()
    if not text.startswith(opening, start):
        return None
    end = closing_bracket(text, start)
    if end is None:
        return None
    value = read_module_value(f"export default {text[start:end]}", typescript=True)
    return value.value if not value.skipped and value.error is None else None


def _locales(text: str) -> dict[str, str]:
    """Each locale's folder → its `lang` (the key of a label's `translations`); `root` has no folder."""
    value = _literal(text, _LOCALES, "{")
    if not isinstance(value, dict):
        return {}
    return {key: str(conf.get("lang") or key) for key, conf in value.items()
            if key != "root" and isinstance(conf, dict)}


_DEFAULT_LOCALE = re.compile(r"""(?<![\w$])["']?defaultLocale["']?\s*:\s*["']([^"']+)["']""")


def _default_locale(text: str, locales: Mapping[str, str]) -> str | None:
    """The default locale's folder ("" for `root`), None when the config has no locales or does not
    say which is the default (then every locale's pages are indexed)."""
    if not locales:
        return None
    value = _literal(text, _LOCALES, "{")
    if isinstance(value, dict) and "root" in value:
        return ""
    named = _DEFAULT_LOCALE.search(text)
    return named.group(1) if named and named.group(1) in locales else None


def _places(sidebar: list[Any], pages: Mapping[str, Mapping[str, Any]],
            locales: Mapping[str, str]) -> dict[str, NavPage]:
    """Page stem → the groups it stands under, for each locale's sidebar."""
    ids: dict[str, tuple[str, Mapping[str, Any]]] = {page_id(p, f): (p, f) for p, f in pages.items()}
    listed: dict[str, NavPage] = {}
    count = [0]

    def walk(items: Any, place: tuple[str, ...], locale: str | None, depth: int) -> None:
        if not isinstance(items, list) or depth > 30:
            return
        for item in items:
            count[0] += 1
            if count[0] > _MAX_ITEMS:
                return
            if isinstance(item, str):
                add(_localized(item.strip("/"), locale), place)
            elif not isinstance(item, dict):
                continue
            elif isinstance(item.get("slug"), str):
                add(_localized(item["slug"].strip("/"), locale), place)
            elif isinstance(item.get("link"), str):
                add(_localized(item["link"].split("#")[0].strip("/"), locale), place)
            elif isinstance(item.get("autogenerate"), dict):
                directory = item["autogenerate"].get("directory")
                inner = (*place, label) if (label := _label(item, locale, locales)) else place
                if isinstance(directory, str):
                    autogenerate(_localized(directory.strip("/"), locale), inner)
            elif isinstance(item.get("items"), list):
                label = _label(item, locale, locales)
                walk(item["items"], (*place, label) if label else place, locale, depth + 1)

    def add(page: str, place: tuple[str, ...]) -> None:
        if page in ids:
            listed.setdefault(_stem(ids[page][0]), NavPage(place))

    def autogenerate(directory: str, place: tuple[str, ...]) -> None:
        # Starlight matches file paths (from the collection's folder), not ids.
        for path, front in pages.items():
            relative = path[len(DOCS):].rsplit(".", 1)[0]
            if relative != directory and not relative.startswith(directory + "/"):
                continue
            sidebar = front.get("sidebar")
            if isinstance(sidebar, dict) and sidebar.get("hidden") is True:
                continue
            # Its sub-folders are groups named by the folder (treeify); `x/index` stands in `x`'s group.
            folders = tuple(relative[len(directory) + 1:].split("/")[:-1]) if relative != directory else ()
            listed.setdefault(_stem(path), NavPage((*place, *folders)))

    for locale in (None, *locales):
        walk(sidebar, (), locale, 0)
    return listed


def _localized(page: str, locale: str | None) -> str:
    return f"{locale}/{page}".rstrip("/") if locale else page


def _label(item: Mapping[str, Any], locale: str | None, locales: Mapping[str, str]) -> str:
    translations = item.get("translations")
    if locale and isinstance(translations, dict):
        lang = locales.get(locale, locale)
        found = translations.get(lang) or translations.get(lang.lower())
        if isinstance(found, str) and found.strip():
            return found.strip()
    label = item.get("label")
    return label.strip() if isinstance(label, str) else ""


def _stem(path: str) -> str:
    return path.rsplit(".", 1)[0]


def starlight_lead(front: Mapping[str, Any]) -> str:
    """What Starlight shows of a page's front matter above its text, as HTML for the page reader: the
    `banner`'s content (Banner.astro, `set:html`) and the `hero` (Hero.astro: its `title` where it
    replaces the page's as the `<h1>`, its `tagline`, both `set:html`, each action's `text`, escaped).
    The page's title stays its title (the browser tab's and the search result's)."""
    shown = []
    banner = front.get("banner")
    if isinstance(banner, dict) and isinstance(banner.get("content"), str):
        shown.append(f"<div>{banner['content']}</div>")
    hero = front.get("hero")
    if isinstance(hero, dict):
        title = hero.get("title")
        if isinstance(title, str) and title.strip() and title != front.get("title"):
            shown.append(f"<div>{title}</div>")
        if isinstance(hero.get("tagline"), str):
            shown.append(f"<div>{hero['tagline']}</div>")
        actions = hero.get("actions")
        shown += [f"<p>{html.escape(str(action['text']))}</p>" for action in (actions if isinstance(actions, list) else [])
                  if isinstance(action, dict) and isinstance(action.get("text"), (str, int, float))]
    return "".join(shown)
