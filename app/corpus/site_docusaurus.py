"""A Docusaurus site's pages, from `docusaurus.config.*` and its sidebars, read without running them
(app/corpus/site.py says what its navigation decides): JavaScript or TypeScript parsed by acorn in
the page reader's V8 (app/corpus/js/src/module-value.js), only their literals read.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.corpus.reader import DOCUSAURUS_ADMONITIONS, Admonitions, read_module_value
from app.corpus.site_docusaurus_versions import (
    CURRENT,
    built_versions,
    locale_folders,
    locales,
    other_versions,
    served_version,
    version_folder,
    version_names,
    version_sidebars,
)
from app.corpus.site_model import _MAX_DEPTH, _PAGE_SUFFIX, DOCUSAURUS_CONFIGS, NavPage, Site, stem
from app.corpus.theme_hiding import theme_css

_SIDEBARS = ("sidebars.json", "sidebars.js", "sidebars.ts", "sidebars.mjs", "sidebars.cjs", "sidebars.mts",
             "sidebars.cts")
_DOCUSAURUS_PRESETS = ("classic", "@docusaurus/preset-classic")
_CLASSIC_THEME = ("@docusaurus/theme-classic",)
_DOCUSAURUS_DOCS_PLUGIN = ("content-docs", "@docusaurus/plugin-content-docs")


def _code(value: Any) -> bool:
    """An option the config sets by code (read_module_value's `{"$code": …}`): not known."""
    return isinstance(value, dict) and "$code" in value


def _folder(value: Any, default: str) -> str:
    return posixpath.normpath(value if isinstance(value, str) else default).strip("/")


@dataclass(frozen=True)
class DocsInstance:
    """One docs plugin instance, as Docusaurus builds it: the classic preset's `docs`, or a
    `@docusaurus/plugin-content-docs` entry of `plugins` (each with its own `id`). Its folder
    (`path`), its URL (`routeBasePath`: "" for "/") and its sidebars: a file, False (`sidebarPath:
    false`: no sidebar), "" (not set: Docusaurus's default sidebar, every doc of the folder) or None
    (set by code docschat does not run: unknown)."""

    id: str = "default"
    path: str = "docs"
    route: str = "docs"
    sidebars: str | bool | None = None
    label: str = ""  # another instance's name in the navbar (a `docSidebar` or `doc` item's label)
    # Its `include` and `exclude` globs (relative to its folder), when given: globby lists the folder
    # with them, so a doc they leave out is never built (docusaurus build 3.10.2). A glob of more
    # than 6 wildcards is not read (its regex could backtrack without end).
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    # `includeCurrentVersion: false`: its folder (the unreleased "next" docs) is never built, only
    # its versioned_docs are.
    current: bool = True
    last_version: str | None = None  # its `lastVersion`, when written as a string
    versioning: str = "{}"  # its disableVersioning and onlyIncludeVersions (JSON)
    # The version its docs root serves (site_docusaurus_versions.py; `path` is that version's
    # folder), the versions it builds, and its own folder (the current version's).
    served: str = CURRENT
    versions: tuple[str, ...] = ()
    docs: str = "docs"
    admonitions: tuple[str, ...] = DOCUSAURUS_ADMONITIONS  # its `admonitions` keywords (false: none)

    @classmethod
    def read(cls, options: Any) -> DocsInstance:
        if not isinstance(options, dict) or _code(options):  # code: Docusaurus's defaults, sidebars unknown
            return cls()
        sidebars = options.get("sidebarPath")
        name = options.get("id", "default")
        include, exclude = _globs(options)
        return cls(name if isinstance(name, str) else "default", _folder(options.get("path"), "docs"),
                   _folder(options.get("routeBasePath"), "docs").strip("."),
                   None if _code(sidebars) else False if sidebars is False
                   else posixpath.normpath(sidebars) if isinstance(sidebars, str) and sidebars else "",
                   include=include, exclude=exclude, admonitions=_admonition_keywords(options.get("admonitions", True)),
                   current=options.get("includeCurrentVersion") is not False,
                   last_version=options["lastVersion"] if isinstance(options.get("lastVersion"), str) else None,
                   versioning=json.dumps({k: options[k] for k in ("disableVersioning", "onlyIncludeVersions")
                                          if isinstance(options.get(k), (bool, list))}, default=str))


def _globs(options: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A content plugin's `include` and `exclude` globs (relative to its folder), when given."""
    include, exclude = (tuple(str(g) for g in options[o][:100] if str(g).count("*") <= 6)
                        if isinstance(options.get(o), list) else () for o in ("include", "exclude"))
    return include, exclude


def _admonition_keywords(option: Any) -> tuple[str, ...]:
    """The keywords of a docs plugin's `admonitions` option, as @docusaurus/mdx-loader 3.10.2's
    normalizeAdmonitionOptions makes them: `true` its defaults, `false` none, `{keywords,
    extendDefaults}` its keywords after the defaults (extendDefaults, true when not said) or alone.
    Set by code: the defaults."""
    if option is False:
        return ()
    if not isinstance(option, dict) or _code(option):
        return DOCUSAURUS_ADMONITIONS
    given = option.get("keywords", DOCUSAURUS_ADMONITIONS)
    keywords = tuple(k for k in given if isinstance(k, str))[:100] if isinstance(given, list | tuple) else DOCUSAURUS_ADMONITIONS
    return (*DOCUSAURUS_ADMONITIONS, *keywords) if option.get("extendDefaults", True) is not False else keywords


@dataclass
class _DocusaurusConfig:
    """What docusaurus.config.* says of its pages, read from its literals: the docs instances, and
    the other folders whose Markdown it builds as pages (the blog, src/pages) with their URLs."""

    docs: list[DocsInstance] = field(default_factory=lambda: [DocsInstance()])
    others: list[tuple[str, str | None]] = field(default_factory=lambda: [("blog", None), ("src/pages", "")])
    # The classic theme's `customCss` (bundled into every page); set by code (`require.resolve(…)`):
    # the file Docusaurus's templates name, if there is one.
    css: list[str] = field(default_factory=lambda: ["src/css/custom.css"])
    # `stylesheets` and `headTags` links (`<link rel=stylesheet>` on every page): their URLs.
    linked: list[str] = field(default_factory=list)
    # The blog's and src/pages' `include` and `exclude` globs, when given: (folder, include, exclude).
    globs: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    # markdown.mdx1Compat.admonitions: `:::note Title` read as `:::note[Title]` (on unless turned
    # off there, or by future.v4's mdx1CompatDisabledByDefault).
    legacy_admonition_titles: bool = True
    magic_comments: tuple[str, ...] | None = None  # themeConfig.prism.magicComments' directives
    mermaid: bool = False  # markdown.mermaid: a ```mermaid fence is a diagram
    classic: bool = False  # the classic theme (Infima) is the site's: by the classic preset or theme
    i18n: tuple[str, str, bool] = ("i18n", "en", True)  # site_docusaurus_versions.locale_folders


def _docusaurus_config(name: str, text: str) -> _DocusaurusConfig:
    """The config read from its literals (never run). Its code (imports, theme objects) is not what
    decides the pages: an option set by code is left at Docusaurus's default; a config of which
    nothing can be read gets the default docs instance, its sidebars found by name."""
    found = _DocusaurusConfig()
    value = read_module_value(text, typescript=name.endswith("ts"), config=True).value
    if not isinstance(value, dict) or _code(value):
        return found
    docs: list[DocsInstance] = []
    blog: Any = None
    pages: Any = None
    said = False  # the config's own words name the docs instances
    found.classic = any((entry[0] if isinstance(entry, list) and entry else entry) in (*_DOCUSAURUS_PRESETS, *_CLASSIC_THEME)
                        for key in ("presets", "themes") if isinstance(value.get(key), list) for entry in value[key])
    for entry in value.get("presets") or []:
        if isinstance(entry, list) and len(entry) > 1 and entry[0] in _DOCUSAURUS_PRESETS and isinstance(entry[1], dict) \
                and not _code(entry[1]):
            said = True
            options = entry[1]
            blog, pages = options.get("blog"), options.get("pages")
            theme = options.get("theme")
            custom = theme.get("customCss") if isinstance(theme, dict) else None
            if isinstance(custom, (str, list)):
                found.css = [_folder(c, "") for c in ([custom] if isinstance(custom, str) else custom) if isinstance(c, str)]
            if options.get("docs") is not False:  # `docs: false`: no docs
                docs.append(DocsInstance.read(options.get("docs", {})))
    for entry in value.get("plugins") or []:
        if isinstance(entry, list) and len(entry) > 1 and entry[0] in _DOCUSAURUS_DOCS_PLUGIN:
            said = True
            instance = DocsInstance.read(entry[1])
            docs = [d for d in docs if d.id != instance.id] + [instance]
        elif entry in _DOCUSAURUS_DOCS_PLUGIN:  # `plugins: ['@docusaurus/plugin-content-docs']`: its defaults
            said = True
            docs = [d for d in docs if d.id != "default"] + [DocsInstance(sidebars="")]
    if said:
        found.docs = [replace(d, label=_navbar_labels(value).get(d.id, d.id)) for d in docs]
    others: list[tuple[str, str | None]] = []
    for option, folder, route in ((blog, "blog", None), (pages, "src/pages", "")):
        if option is not False:
            options = option if isinstance(option, dict) else {}
            # The blog's posts have their own URLs (a date, a slug): kept at their path.
            others.append((_folder(options.get("path"), folder),
                           None if route is None else _folder(options.get("routeBasePath"), "/").strip(".")))
            found.globs.append((others[-1][0], *_globs(options)))
    found.others = others
    found.i18n = locale_folders(value)
    found.linked = _linked_stylesheets(value)
    found.legacy_admonition_titles = _legacy_admonition_titles(value)
    found.magic_comments = _magic_comments(value)
    found.mermaid = isinstance(value.get("markdown"), dict) and value["markdown"].get("mermaid") is True
    return found


def _magic_comments(config: dict[str, Any]) -> tuple[str, ...] | None:
    """themeConfig.prism.magicComments' directives (each comment's `line`, `block.start`, `block.end`),
    which replace Docusaurus's default ones; None when the config does not set them as a list."""
    theme = config.get("themeConfig")
    prism = theme.get("prism") if isinstance(theme, dict) else None
    said = prism.get("magicComments") if isinstance(prism, dict) else None
    if not isinstance(said, list):
        return None
    blocks = [c.get("block") for c in said if isinstance(c, dict)]
    return tuple(d for d in [*(c.get("line") for c in said if isinstance(c, dict)),
                             *(b.get(k) for b in blocks if isinstance(b, dict) for k in ("start", "end"))]
                 if isinstance(d, str) and d)


def _legacy_admonition_titles(config: dict[str, Any]) -> bool:
    future = config.get("future")
    v4 = future.get("v4") if isinstance(future, dict) else None
    default = not (v4 is True or (isinstance(v4, dict) and v4.get("mdx1CompatDisabledByDefault") is True))
    markdown = config.get("markdown")
    compat = markdown.get("mdx1Compat") if isinstance(markdown, dict) else None
    said = compat.get("admonitions") if isinstance(compat, dict) else None
    return said if isinstance(said, bool) else default


def _linked_stylesheets(config: dict[str, Any]) -> list[str]:
    """The URLs of the stylesheets the config links from every page: `stylesheets` (a URL, or an
    object with `href`) and `headTags` naming `<link rel="stylesheet">`."""
    urls = [entry if isinstance(entry, str) else entry.get("href") if isinstance(entry, dict) else None
            for entry in config.get("stylesheets") or [] if isinstance(config.get("stylesheets"), list)]
    for tag in config.get("headTags") or [] if isinstance(config.get("headTags"), list) else []:
        attributes = tag.get("attributes") if isinstance(tag, dict) and tag.get("tagName") == "link" else None
        if isinstance(attributes, dict) and "stylesheet" in str(attributes.get("rel", "")).lower().split():
            urls.append(attributes.get("href"))
    return [url for url in urls if isinstance(url, str) and url]


def docusaurus_docs(name: str, text: str) -> list[DocsInstance]:
    """The docs instances of the config `name` (its text), read from its literals."""
    return _docusaurus_config(name, text).docs


def _navbar_labels(config: dict[str, Any]) -> dict[str, str]:
    """The navbar's label of each docs instance (`{type: 'docSidebar', docsPluginId, label}`): where a
    reader finds a second product's docs, as a Mintlify tab."""
    labels: dict[str, str] = {}
    theme = config.get("themeConfig")
    navbar = theme.get("navbar") if isinstance(theme, dict) else None
    for item in (navbar.get("items") if isinstance(navbar, dict) else None) or []:
        if isinstance(item, dict) and item.get("type") in ("docSidebar", "doc") and isinstance(item.get("label"), str):
            plugin = item.get("docsPluginId", "default")
            labels.setdefault(plugin if isinstance(plugin, str) else "default", item["label"])
    return labels


def docusaurus_site(files: Mapping[str, str]) -> Site:
    config = next(name for name in DOCUSAURUS_CONFIGS if name in files)
    site = Site("docusaurus", config)
    options = _docusaurus_config(config, files[config])
    options.docs = [_served(files, instance) for instance in options.docs]
    site.built_folders = (*(d.path for d in options.docs if d.current), *(folder for folder, _ in options.others))
    site.routes = (*((d.path, d.route) for d in options.docs),
                   *((folder, route) for folder, route in options.others if route is not None))
    site.versions = tuple(sorted({f"{version_folder(d.id, v)}/" for d in options.docs for v in version_names(files, d.id)}
                                 - {f"{d.path}/" for d in options.docs}))
    site.stylesheets = tuple(options.css)
    site.linked_stylesheets = tuple(options.linked)
    # The classes Infima, the classic theme's stylesheet, hides (app/corpus/theme_hiding.py).
    site.theme_css = theme_css("docusaurus", "classic") if options.classic else ""
    legacy, magic, mermaid = options.legacy_admonition_titles, options.magic_comments, options.mermaid
    site.admonitions = (("", Admonitions(legacy_titles=legacy, magic_comments=magic, mermaid=mermaid)), *(
        (folder, Admonitions(instance.admonitions, legacy, magic, mermaid)) for instance in options.docs for folder in (
            instance.path, "versioned_docs" if instance.id == "default" else f"{instance.id}_versioned_docs")))
    for instance in options.docs:
        if instance.path == ".." or instance.path.startswith("../"):
            site.warnings.append(f"{config}: docs instance {instance.id!r} builds its docs from {instance.path!r}, outside "
                                 "the source's folder: they are not indexed (set the source's folder to one holding "
                                 "both is not enough: docschat reads a site's configuration from its top folder)")
    # globby's include and ignore, of each docs instance, the blog and src/pages: a file they leave out is never built.
    for path, include, exclude in [*((d.path, d.include, d.exclude) for d in options.docs), *options.globs]:
        prefix = "" if path in ("", ".") else re.escape(path + "/")
        if include:
            site.not_built += (re.compile(f"{prefix}(?!(?:{'|'.join(map(_micromatch, include))})$)"),)
        if exclude:
            site.not_built += (re.compile(f"{prefix}(?:{'|'.join(map(_micromatch, exclude))})$"),)
    sidebar_folders = []
    slugs = []
    for instance in options.docs:
        identities = _doc_identities(files, instance)
        prefix = "" if instance.path in ("", ".") else instance.path + "/"
        for path, (_, slug) in identities.items():
            url = prefix + slug.lstrip("/") + ("index" if slug.endswith("/") else "") + ".md"
            if stem(url) != stem(path):
                slugs.append((path, url))
        if _read_instance(files, site, instance, {doc_id: path for path, (doc_id, _) in identities.items()}):
            sidebar_folders.append(instance.path)
    site.slugs = tuple(slugs)
    site.sidebar_folders = tuple(sidebar_folders)
    for instance in options.docs:  # the versions its docs root does not serve, and the other locales
        other_versions(site, files, instance.id, instance.docs, list(instance.versions), instance.served)
    i18n, default, translate = options.i18n
    plugin = "docusaurus-plugin-content-"
    locales(site, files, i18n, default, [] if not translate else [
        *((d.path, f"{plugin}docs{'' if d.id == 'default' else '-' + d.id}/"
                   f"{CURRENT if d.served == CURRENT else 'version-' + d.served}") for d in options.docs if d.current),
        *((folder, f"{plugin}{'blog' if route is None else 'pages'}") for folder, route in options.others)])
    site.every_page_listed = not site.sidebar_folders
    return site


# plugin-content-docs 3.10.2's DefaultNumberPrefixParser (numberPrefix.js): `01-intro` is `intro`,
# but a date or a version (`2021-11-notes`, `7.0-x`) keeps its number.
_IGNORED_PREFIX = re.compile(r"^\d+[-_.]\d+")
_NUMBER_PREFIX = re.compile(r"^\d+\s*[-_.]+\s*(?P<rest>[^-_.\s].*)$")


def _unprefixed(name: str) -> str:
    match = None if _IGNORED_PREFIX.match(name) else _NUMBER_PREFIX.match(name)
    return match.group("rest") if match else name


def doc_identity(relative: str, front: Mapping[str, Any]) -> tuple[str, str]:
    """A doc's id and its slug (its URL under the instance's route), from its path in the docs
    folder and its front matter, as plugin-content-docs 3.10.2 computes them (docs.js, slug.js)."""
    folder, _, file = relative.rpartition("/")
    name = file.rsplit(".", 1)[0]
    parse = front.get("parse_number_prefixes") is not False
    strip = _unprefixed if parse else str
    given_id, given_slug = front.get("id"), front.get("slug")
    base: str = given_id if isinstance(given_id, str) and given_id else strip(name)
    folder_id = "/".join(strip(part) for part in folder.split("/")) if folder else ""
    doc_id = f"{folder_id}/{base}" if folder_id else base
    folder_slug = f"/{folder_id}/" if folder_id else "/"
    slug: str | None = given_slug if isinstance(given_slug, str) and given_slug else None
    if slug is not None and slug.startswith("/"):
        return doc_id, slug
    if slug is None and name.lower() in ("index", "readme", folder.rpartition("/")[2].lower()):
        return doc_id, folder_slug  # a category's index doc: its folder's URL
    written = slug or base
    resolved = posixpath.normpath(posixpath.join(folder_slug, written))
    return doc_id, resolved + ("/" if written.endswith("/") and resolved != "/" else "")


def _doc_identities(files: Mapping[str, str], instance: DocsInstance) -> dict[str, tuple[str, str]]:
    """Each doc of the instance's folder: its path → (its id, its slug)."""
    from app.corpus.frontmatter import FrontMatterError, parse_front_matter

    prefix = "" if instance.path in ("", ".") else instance.path + "/"
    found = {}
    for path, text in files.items():
        if not path.startswith(prefix) or not path.endswith((".md", ".mdx")):
            continue
        front: Mapping[str, Any] = {}
        if text.lstrip("\ufeff").startswith("---"):
            try:
                front = parse_front_matter(text).data
            except (FrontMatterError, ValueError, RecursionError):
                front = {}
        found[path] = doc_identity(path[len(prefix):], front)
    return found


def _micromatch(glob: str) -> str:
    """A glob as Docusaurus's globby (micromatch) reads it, as a regex: `**` any folders, `*` and
    `?` within a name, `{a,b}` either, `[…]` a class."""
    out, i, braces = "", 0, 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
            continue
        if glob.startswith("**", i):
            out, i = out + ".*", i + 2
            continue
        if c == "{" and "}" in glob[i:]:
            out, braces = out + "(?:", braces + 1
        elif c == "}" and braces:
            out, braces = out + ")", braces - 1
        elif c == "," and braces:
            out += "|"
        elif c == "[" and (end := glob.find("]", i + 1)) > i + 1:
            out, i = out + "[" + glob[i + 1:end].replace("\\", "\\\\").replace("!", "^", 1) + "]", end
        else:
            out += "[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c)
        i += 1
    return out + ")" * braces


def _served(files: Mapping[str, str], instance: DocsInstance) -> DocsInstance:
    """The instance as its docs root serves it: from the folder of the version it serves (its
    `lastVersion`, else the first of versions.json: site_docusaurus_versions.py), with that
    version's sidebars (`versioned_sidebars/version-<v>-sidebars.json`; none: no sidebar, as
    plugin-content-docs 3.10.2's loadSidebarsFile). With no version it builds, as it is (never built)."""
    names = built_versions(files, instance.id, {"includeCurrentVersion": instance.current, **json.loads(instance.versioning)})
    served = served_version(names, instance.last_version)
    common = replace(instance, docs=instance.path, versions=tuple(names))
    if served is None or served == CURRENT:
        return common
    sidebars = version_sidebars(instance.id, served)
    return replace(common, path=version_folder(instance.id, served), current=True, served=served,
                   sidebars=sidebars if sidebars in files else False)


def _read_instance(files: Mapping[str, str], site: Site, instance: DocsInstance, ids: Mapping[str, str]) -> bool:
    """Reads the instance's sidebars into site.listed; False when none is read (every doc of its
    folder is a page: `sidebarPath: false`, no sidebars file, one that cannot be read)."""
    config = site.config
    if instance.sidebars is False:  # no sidebars: every doc is a page, reached by its links
        return False
    if instance.sidebars == "":
        # Not set: Docusaurus makes one sidebar of every doc of the folder (its DefaultSidebars, an
        # `autogenerated` item of the whole folder).
        return False
    if instance.sidebars is None:
        if instance.id != "default":  # set by code: nothing to go by
            site.warnings.append(f"{config}: the sidebarPath of docs instance {instance.id!r} is code, which docschat "
                                 "does not run; every doc of its folder stays a page")
            return False
        # Set by code, or the config read nothing: the sidebars file found by name (Docusaurus 2's
        # `require.resolve` spelled another way, a config that is all code).
    name = instance.sidebars if isinstance(instance.sidebars, str) else next((n for n in _SIDEBARS if n in files), None)
    if name is None:
        return False
    if name not in files:
        # Docusaurus then builds the docs with no sidebar (plugin-content-docs 3.10's
        # loadSidebarsFile): every doc is still a page.
        site.warnings.append(f"{config}: its sidebars file {name} is not in the source; every doc stays a page")
        return False
    sidebars = _read_sidebars(name, files[name], site)
    if not isinstance(sidebars, dict):
        return False
    before = len(site.listed)
    sidebar = _Sidebars(files, site, instance.path, ids)
    # Another instance's docs stand under its name (its navbar label, else its id), so that its
    # "Installation" is told apart from the main docs' (pnpm.io's pnpr); the main docs under none.
    top = (instance.label or instance.id,) if instance.id != "default" else ()
    for items in sidebars.values():
        sidebar.walk(items, top, 0)
    # Nothing could be read (or the sidebars list no doc): every doc of the folder stays a page.
    return len(site.listed) > before


def _read_sidebars(name: str, text: str, site: Site) -> Any:
    """The sidebars' object: JSON, or a sidebars.js/.ts module read from its literals, never run
    (a Docusaurus site's code is not docschat's to execute). What is code (a call, a spread, a
    variable) is left out with a warning naming its line; nothing read keeps every doc a page."""
    if name.endswith(".json"):
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as exc:  # nested past what json reads
            site.warnings.append(f"{name}: cannot be read ({exc}); every doc stays a page")
            return None
    read = read_module_value(text, typescript=name.endswith(("ts", "mts", "cts")))
    if read.error is not None:
        site.warnings.append(f"{name}: cannot be read ({read.error}); every doc stays a page")
        return None
    for line, what in read.skipped:
        site.warnings.append(f"{name}:{line}: {what} is code, which docschat does not run; the sidebar "
                             "items it makes are left out")
    return read.value


class _Sidebars:
    """Docusaurus sidebar items: doc ids, categories (with a doc link), autogenerated folders."""

    def __init__(self, files: Mapping[str, str], site: Site, docs: str, ids: Mapping[str, str]) -> None:
        self.files, self.site, self.ids = files, site, ids  # ids: doc id → its file
        self.prefix = "" if docs in ("", ".") else docs + "/"
        self.doc_stems: list[str] | None = None  # listed only for `autogenerated`: listing reads the whole tree

    def docs(self) -> list[str]:
        if self.doc_stems is None:
            self.doc_stems = [stem(p)[len(self.prefix):] for p in self.files
                              if p.startswith(self.prefix) and _PAGE_SUFFIX.search(p)]
        return self.doc_stems

    def add(self, doc_id: str, place: tuple[str, ...]) -> None:
        """`doc_id`: a doc's id (doc_identity), or (autogenerated) its file's stem in the folder."""
        path = self.ids.get(doc_id)
        self.site.listed.setdefault(stem(path if path is not None else self.prefix + doc_id), NavPage(place))

    def walk(self, node: Any, place: tuple[str, ...], depth: int) -> None:
        if depth > _MAX_DEPTH:
            return
        if isinstance(node, str):
            self.add(node, place)
        elif isinstance(node, list):
            for item in node:
                self.walk(item, place, depth + 1)
        elif isinstance(node, dict):
            self.item(node, place, depth)

    def item(self, node: dict[str, Any], place: tuple[str, ...], depth: int) -> None:
        kind = node.get("type")
        if kind in ("doc", "ref") and isinstance(node.get("id"), str):
            self.add(node["id"], place)
        elif kind == "autogenerated":
            folder = str(node.get("dirName", ".")).strip("/")
            for doc in self.docs():
                if folder in ("", ".") or doc.startswith(folder + "/"):
                    self.add(doc, place)
        elif kind == "category" or "items" in node:
            label = str(node.get("label", "")).strip()
            inner = (*place, label) if label else place
            link = node.get("link")
            if isinstance(link, dict) and link.get("type") == "doc" and isinstance(link.get("id"), str):
                self.add(link["id"], inner)
            self.walk(node.get("items"), inner, depth + 1)
        elif kind is None and all(isinstance(v, list) for v in node.values()):  # shorthand {"Label": [items]}
            for label, items in node.items():
                self.walk(items, (*place, str(label)), depth + 1)
