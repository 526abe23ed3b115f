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

from app.corpus.reader import Admonitions, read_module_value
from app.corpus.site_docusaurus_blog import blog_post_paths
from app.corpus.site_docusaurus_instance import DocsInstance, content_globs, folder_option, remark_npm2yarn, set_by_code
from app.corpus.site_docusaurus_routes import doc_identities
from app.corpus.site_docusaurus_sidebars import read_instance_sidebars
from app.corpus.site_docusaurus_versions import (
    CURRENT,
    built_versions,
    locale_codes,
    locale_folders,
    locales,
    other_versions,
    served_version,
    version_folder,
    version_names,
    version_sidebars,
)
from app.corpus.site_model import DOCUSAURUS_CONFIGS, Site, stem
from app.corpus.theme_hiding import theme_css

_DOCUSAURUS_PRESETS = ("classic", "@docusaurus/preset-classic")
_CLASSIC_THEME = ("@docusaurus/theme-classic",)
_DOCUSAURUS_DOCS_PLUGIN = ("content-docs", "@docusaurus/plugin-content-docs")


@dataclass
class _DocusaurusConfig:
    """What docusaurus.config.* says of its pages, read from its literals: the docs instances, and
    the other folders whose Markdown it builds as pages (the blog, src/pages) with their URLs."""

    docs: list[DocsInstance] = field(default_factory=lambda: [DocsInstance()])
    others: list[tuple[str, str | None]] = field(default_factory=lambda: [("blog", None), ("src/pages", "")])
    blog_route: str = "blog"  # the blog's routeBasePath: its posts' URLs (site_docusaurus_blog.py)
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
    # The blog's and src/pages' npm2yarn converters, where their remarkPlugins add it: (folder, converters).
    npm2yarn: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    classic: bool = False  # the classic theme (Infima) is the site's: by the classic preset or theme
    i18n: tuple[str, str, bool] = ("i18n", "en", True)  # site_docusaurus_versions.locale_folders
    locale_names: dict[str, str] = field(default_factory=dict)  # a locale's folder → its code (locale_codes)


def _docusaurus_config(name: str, text: str) -> _DocusaurusConfig:
    """The config read from its literals (never run). Its code (imports, theme objects) is not what
    decides the pages: an option set by code is left at Docusaurus's default; a config of which
    nothing can be read gets the default docs instance, its sidebars found by name."""
    found = _DocusaurusConfig()
    value = read_module_value(text, typescript=name.endswith("ts"), config=True).value
    if not isinstance(value, dict) or set_by_code(value):
        return found
    docs: list[DocsInstance] = []
    blog: Any = None
    pages: Any = None
    said = False  # the config's own words name the docs instances
    found.classic = any((entry[0] if isinstance(entry, list) and entry else entry) in (*_DOCUSAURUS_PRESETS, *_CLASSIC_THEME)
                        for key in ("presets", "themes") if isinstance(value.get(key), list) for entry in value[key])
    for entry in value.get("presets") or []:
        if isinstance(entry, list) and len(entry) > 1 and entry[0] in _DOCUSAURUS_PRESETS and isinstance(entry[1], dict) \
                and not set_by_code(entry[1]):
            said = True
            options = entry[1]
            blog, pages = options.get("blog"), options.get("pages")
            theme = options.get("theme")
            custom = theme.get("customCss") if isinstance(theme, dict) else None
            if isinstance(custom, (str, list)):
                found.css = [folder_option(c, "") for c in ([custom] if isinstance(custom, str) else custom) if isinstance(c, str)]
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
            # The blog's posts have their own URLs (a date, a slug): site_docusaurus_blog.py.
            others.append((folder_option(options.get("path"), folder),
                           None if route is None else folder_option(options.get("routeBasePath"), "/").strip(".")))
            if route is None:
                found.blog_route = folder_option(options.get("routeBasePath"), "blog").strip(".")
            found.globs.append((others[-1][0], *content_globs(options)))
            if (converters := remark_npm2yarn(options)) is not None:
                found.npm2yarn.append((others[-1][0], converters))
    found.others = others
    found.i18n = locale_folders(value)
    found.locale_names = locale_codes(value)
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


def docusaurus_served_docs(name: str, text: str, files: Mapping[str, str]) -> list[DocsInstance]:
    """The docs instances of the config `name` as their docs roots serve them (`path` the served
    version's folder, `docs` the instance's own), `files` holding the site's versions.json files."""
    return [_served(files, instance) for instance in _docusaurus_config(name, text).docs]


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
        (folder, Admonitions(legacy_titles=legacy, magic_comments=magic, mermaid=mermaid, npm2yarn=converters))
        for folder, converters in options.npm2yarn), *(
        (folder, Admonitions(instance.admonitions, legacy, magic, mermaid, instance.npm2yarn, instance.tab_blocks))
        for instance in options.docs
        for folder in (instance.path, "versioned_docs" if instance.id == "default" else f"{instance.id}_versioned_docs")))
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
    i18n, default, translate = options.i18n
    for instance in options.docs:
        # The default locale's copy of a doc is what is built, so its front matter gives the doc's
        # id and slug (plugin-content-docs 3.10.2's processDocMetadata reads the localized file).
        copies = f"{i18n}/{default}/{_localized_docs(instance)}/" if translate else ""
        identities = doc_identities(files, instance.path, copies)
        prefix = "" if instance.path in ("", ".") else instance.path + "/"
        for path, (_, slug) in identities.items():
            url = prefix + slug.lstrip("/") + ("index" if slug.endswith("/") else "") + ".md"
            if stem(url) != stem(path):
                slugs.append((path, url))
        if read_instance_sidebars(files, site, instance, {doc_id: path for path, (doc_id, _) in identities.items()}):
            sidebar_folders.append(instance.path)
    for folder, route in options.others:
        if route is None:  # the blog: each post at its permalink
            slugs.extend(blog_post_paths(files, folder, options.blog_route))
    site.slugs = tuple(slugs)
    site.sidebar_folders = tuple(sidebar_folders)
    for instance in options.docs:  # the versions its docs root does not serve, and the other locales
        other_versions(site, files, instance.id, instance.docs, list(instance.versions), instance.served)
    locales(site, files, i18n, default, options.locale_names, [] if not translate else [
        *((d.path, _localized_docs(d)) for d in options.docs if d.current),
        *((folder, f"docusaurus-plugin-content-{'blog' if route is None else 'pages'}") for folder, route in options.others)])
    site.every_page_listed = not site.sidebar_folders
    return site


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
    # Published under its `versions.<v>.path` when it gives one (plugin-content-docs 3.10.2's
    # getVersionPathPart: normalizeUrl of the route base and it), else at the docs root.
    part = dict(instance.version_paths).get(served or CURRENT, "")
    route = posixpath.normpath(f"{instance.route}/{part}").strip("/").strip(".") if part.strip("/") else instance.route
    common = replace(instance, docs=instance.path, versions=tuple(names), route=route)
    if served is None or served == CURRENT:
        return common
    sidebars = version_sidebars(instance.id, served)
    return replace(common, path=version_folder(instance.id, served), current=True, served=served,
                   sidebars=sidebars if sidebars in files else False)


def _localized_docs(instance: DocsInstance) -> str:
    """The folder, under a locale's, of the instance's served version's translations."""
    return (f"docusaurus-plugin-content-docs{'' if instance.id == 'default' else '-' + instance.id}/"
            f"{CURRENT if instance.served == CURRENT else 'version-' + instance.served}")
