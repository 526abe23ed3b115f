"""A Docusaurus docs plugin instance's options, as site_docusaurus.py reads them from the config's
literals: its folder, route, sidebars, globs, versions and admonition keywords.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass
from typing import Any

from app.corpus.reader import DOCUSAURUS_ADMONITIONS
from app.corpus.site_docusaurus_versions import CURRENT


def set_by_code(value: Any) -> bool:
    """An option the config sets by code (read_module_value's `{"$code": …}`): not known."""
    return isinstance(value, dict) and "$code" in value


def folder_option(value: Any, default: str) -> str:
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
    # `versions.<name>.path`: the URL segment a version is published under instead of its default
    # (the last version: none; the current: `next`; another: its name).
    version_paths: tuple[tuple[str, str], ...] = ()
    npm2yarn: tuple[str, ...] | None = None  # its remarkPlugins' npm2yarn converters (remark_npm2yarn)
    tab_blocks: tuple[tuple[str, str], ...] | None = None  # its remarkPlugins' tab-blocks labels (remark_tab_blocks)

    @classmethod
    def read(cls, options: Any) -> DocsInstance:
        if not isinstance(options, dict) or set_by_code(options):  # code: Docusaurus's defaults, sidebars unknown
            return cls()
        sidebars = options.get("sidebarPath")
        name = options.get("id", "default")
        include, exclude = content_globs(options)
        return cls(name if isinstance(name, str) else "default", folder_option(options.get("path"), "docs"),
                   folder_option(options.get("routeBasePath"), "docs").strip("."),
                   None if set_by_code(sidebars) else False if sidebars is False
                   else posixpath.normpath(sidebars) if isinstance(sidebars, str) and sidebars else "",
                   include=include, exclude=exclude, admonitions=_admonition_keywords(options.get("admonitions", True)),
                   current=options.get("includeCurrentVersion") is not False,
                   last_version=options["lastVersion"] if isinstance(options.get("lastVersion"), str) else None,
                   version_paths=_version_paths(options.get("versions")), npm2yarn=remark_npm2yarn(options),
                   tab_blocks=remark_tab_blocks(options),
                   versioning=json.dumps({k: options[k] for k in ("disableVersioning", "onlyIncludeVersions")
                                          if isinstance(options.get(k), (bool, list))}, default=str))


def content_globs(options: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A content plugin's `include` and `exclude` globs (relative to its folder), when given."""
    include, exclude = (tuple(str(g) for g in options[o][:100] if str(g).count("*") <= 6)
                        if isinstance(options.get(o), list) else () for o in ("include", "exclude"))
    return include, exclude


NPM2YARN = "@docusaurus/remark-plugin-npm2yarn"
NPM2YARN_CONVERTERS = ("yarn", "pnpm", "bun")  # its default converters (3.10.2's lib/index.js)


def remark_npm2yarn(options: dict[str, Any]) -> tuple[str, ...] | None:
    """The converters of @docusaurus/remark-plugin-npm2yarn when a content plugin's `remarkPlugins`
    add it (`require(…)` or an imported name: read_module_value's `module`), else None. A converter
    written as `[name, fn]` runs code docschat does not run: left out, its tab with it; converters
    set by code: none (the npm command alone, never a conversion the site may not show)."""
    plugins = options.get("remarkPlugins")
    for entry in plugins[:100] if isinstance(plugins, list) else ():
        plugin, given = (entry[0], entry[1] if len(entry) > 1 else {}) if isinstance(entry, list) and entry else (entry, {})
        if not (isinstance(plugin, dict) and plugin.get("module") == NPM2YARN):
            continue
        converters = given.get("converters", list(NPM2YARN_CONVERTERS)) if isinstance(given, dict) else []
        return tuple(c for c in converters[:20] if isinstance(c, str)) if isinstance(converters, list) else ()
    return None


TAB_BLOCKS = "docusaurus-remark-plugin-tab-blocks"


def remark_tab_blocks(options: dict[str, Any]) -> tuple[tuple[str, str], ...] | None:
    """The `labels` option of docusaurus-remark-plugin-tab-blocks ([language, label] pairs, after its
    own js and ts) when a content plugin's `remarkPlugins` add it, else None. Labels set by code:
    none (a tab without a label shows its language, as the plugin's own defaults still do)."""
    plugins = options.get("remarkPlugins")
    for entry in plugins[:100] if isinstance(plugins, list) else ():
        plugin, given = (entry[0], entry[1] if len(entry) > 1 else {}) if isinstance(entry, list) and entry else (entry, {})
        if not (isinstance(plugin, dict) and plugin.get("module") == TAB_BLOCKS):
            continue
        labels = given.get("labels", []) if isinstance(given, dict) else []
        return tuple((str(pair[0]), str(pair[1])) for pair in labels[:100] if isinstance(pair, list) and len(pair) == 2
                     and all(isinstance(part, str) for part in pair)) if isinstance(labels, list) else ()
    return None


def _admonition_keywords(option: Any) -> tuple[str, ...]:
    """The keywords of a docs plugin's `admonitions` option, as @docusaurus/mdx-loader 3.10.2's
    normalizeAdmonitionOptions makes them: `true` its defaults, `false` none, `{keywords,
    extendDefaults}` its keywords after the defaults (extendDefaults, true when not said) or alone.
    Set by code: the defaults."""
    if option is False:
        return ()
    if not isinstance(option, dict) or set_by_code(option):
        return DOCUSAURUS_ADMONITIONS
    given = option.get("keywords", DOCUSAURUS_ADMONITIONS)
    keywords = tuple(k for k in given if isinstance(k, str))[:100] if isinstance(given, list | tuple) else DOCUSAURUS_ADMONITIONS
    return (*DOCUSAURUS_ADMONITIONS, *keywords) if option.get("extendDefaults", True) is not False else keywords


def _version_paths(option: Any) -> tuple[tuple[str, str], ...]:
    """The `path` each version of the docs plugin's `versions` option gives (a string: the option's
    schema refuses any other; set by code: the version's default path)."""
    if not isinstance(option, dict) or set_by_code(option):
        return ()
    return tuple((name, value["path"]) for name, value in list(option.items())[:1000]
                 if isinstance(value, dict) and isinstance(value.get("path"), str))
