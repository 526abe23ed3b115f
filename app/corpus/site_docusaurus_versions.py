"""Which of a Docusaurus site's docs versions and locales its reader is served (site_docusaurus.py
reads the rest of the site): the default locale, and the version its docs root serves.

As @docusaurus/plugin-content-docs 3.10.2 builds them (tests/data/site-nav/docusaurus-versions,
recorded by scripts/record_docusaurus_versions_site.py):
- Versions: the docs root (`/docs/`) serves the instance's last version, its `lastVersion`, else
  the first of versions.json (getLastVersionName), read from `versioned_docs/version-<v>/` with
  `versioned_sidebars/version-<v>-sidebars.json` (no such file: no sidebar). The `docs/` folder
  is then the unreleased "current" version, published under `/docs/next/`; every other version
  under `/docs/<v>/`. Only the root's version is indexed, as a reader opening the docs reads it.
- Locales: each other locale is a site of its own (`/fr/…`), built from `i18n/<locale>/`: not
  indexed. The default locale's own folder (`i18n/<defaultLocale>/docusaurus-plugin-content-docs/
  <current|version-v>/`, `…-blog/`, `…-pages/`) is read before the content folder: a file there
  is published in place of the content file of the same path (and one with no such content file
  is never built).
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from typing import Any

from app.corpus.site_model import _PAGE_SUFFIX, HIDDEN, NOT_BUILT, Exclusion, NavPage, Site, stem

CURRENT = "current"  # plugin-content-docs' name of the docs folder's own (unreleased) version


def _prefix(plugin_id: str) -> str:
    return "" if plugin_id == "default" else plugin_id + "_"


def version_names(files: Mapping[str, str], plugin_id: str) -> list[str]:
    """The versions its versions.json (`<id>_versions.json`) lists, newest first."""
    try:
        versions = json.loads(files.get(f"{_prefix(plugin_id)}versions.json", "[]"))
    except (ValueError, RecursionError):
        return []
    return [v for v in versions if isinstance(v, str)] if isinstance(versions, list) else []


def version_folder(plugin_id: str, name: str) -> str:
    return f"{_prefix(plugin_id)}versioned_docs/version-{name}"


def version_sidebars(plugin_id: str, name: str) -> str:
    return f"{_prefix(plugin_id)}versioned_sidebars/version-{name}-sidebars.json"


def built_versions(files: Mapping[str, str], plugin_id: str, options: Mapping[str, Any]) -> list[str]:
    """The versions the instance builds (readVersionNames, filterVersions): versions.json's (none
    with `disableVersioning`), `current` first unless `includeCurrentVersion: false`, those of
    `onlyIncludeVersions` when it lists them."""
    names = [] if options.get("disableVersioning") is True else version_names(files, plugin_id)
    if options.get("includeCurrentVersion") is not False and CURRENT not in names:
        names = [CURRENT, *names]
    only = options.get("onlyIncludeVersions")
    if isinstance(only, list) and any(isinstance(v, str) for v in only):
        names = [v for v in names if v in only]
    return names


def served_version(names: list[str], last_version: Any) -> str | None:
    """The version the docs root serves (getLastVersionName): `lastVersion` when it is one of
    `names`, else the first released one, else `current`; None when none is built."""
    if isinstance(last_version, str) and last_version in names:
        return last_version
    return next((v for v in names if v != CURRENT), CURRENT if CURRENT in names else None)


def other_versions(site: Site, files: Mapping[str, str], plugin_id: str, docs: str, names: list[str],
                   served: str) -> None:
    """Leaves out the pages of the instance's versions other than `served` (`docs`: its own folder)."""
    config = site.config
    for name in dict.fromkeys([CURRENT, *version_names(files, plugin_id)]):
        if name == served:
            continue
        folder = docs if name == CURRENT else version_folder(plugin_id, name)
        if name not in names:
            why = Exclusion(NOT_BUILT, f"in {folder}, a version of the docs {config} does not build "
                                       "(includeCurrentVersion, onlyIncludeVersions): never built")
        elif name == CURRENT:
            why = Exclusion(HIDDEN, f"in {folder}, the unreleased docs (published under …/next/): the docs root "
                                    f"serves version {served} (versions.json, lastVersion); only it is indexed")
        else:
            why = Exclusion(HIDDEN, f"in {folder}, version {name} of the docs: the docs root serves "
                                    f"{'version ' + served if served != CURRENT else 'the current docs'}; "
                                    "only it is indexed")
        prefix = "" if folder in ("", ".") else folder + "/"
        # Docs at the site's root (`path: '.'`) hold the other folders it builds: those are not its.
        inner = tuple(f"{f}/" for f in (*(site.built_folders or ()), f"{_prefix(plugin_id)}versioned_docs")
                      if f not in ("", ".", folder) and f.startswith(prefix))
        for path in files:
            if path.startswith(prefix) and not path.startswith(inner) and _PAGE_SUFFIX.search(path) \
                    and path not in site.left_out:
                site.left_out[path] = why


def locale_folders(config: Mapping[str, Any]) -> tuple[str, str, bool]:
    """The i18n folder (`i18n.path`, `i18n` by default), the default locale's folder in it
    (`i18n.localeConfigs.<defaultLocale>.path`, else the locale's name; `en` by default), and
    whether its translations are read (its `translate`, true unless it says false)."""
    def mapping(value: Any) -> Mapping[str, Any]:
        return value if isinstance(value, dict) else {}

    def text(value: Any, default: str) -> str:
        return value if isinstance(value, str) and value.strip("/. ") else default

    i18n = mapping(config.get("i18n"))
    default = text(i18n.get("defaultLocale"), "en")
    own = mapping(mapping(i18n.get("localeConfigs")).get(default))
    return (posixpath.normpath(text(i18n.get("path"), "i18n")).strip("/"),
            posixpath.normpath(text(own.get("path"), default)).strip("/"), own.get("translate") is not False)


def locale_codes(config: Mapping[str, Any]) -> dict[str, str]:
    """Each locale's folder (its `i18n.localeConfigs.<code>.path`, when it gives one) → its code."""
    i18n = config.get("i18n")
    configs = i18n.get("localeConfigs") if isinstance(i18n, dict) else None
    return {posixpath.normpath(own["path"]).strip("/"): code for code, own in list(configs.items())[:1000]
            if isinstance(own, dict) and isinstance(own.get("path"), str) and own["path"].strip("/. ")} \
        if isinstance(configs, dict) else {}


def locales(site: Site, files: Mapping[str, str], i18n: str, default: str, names: Mapping[str, str],
            localized: list[tuple[str, str]]) -> None:
    """Leaves out every other locale's files under the i18n folder (`names`: a folder → its locale's
    code, when they differ); reads the default locale's
    `localized` folders ((content folder, its folder under `i18n/<default>/`)): a file there is
    published in place of the content file of its path, at its URL and sidebar place."""
    config = site.config
    own = f"{i18n}/{default}/"
    for path in files:
        if path.startswith(i18n + "/") and _PAGE_SUFFIX.search(path) and not path.startswith(own):
            folder = path[len(i18n) + 1:].split("/", 1)[0]
            locale = names.get(folder, folder)
            site.left_out.setdefault(path, Exclusion(HIDDEN, f"a translation for the locale {locale!r} (in {i18n}/): "
                                                             f"only the default locale of {config} is indexed"))
    slugs, copies = dict(site.slugs), {}
    for content, folder in localized:  # `translate: false`: none (its files are never built)
        local = f"{own}{folder}/"
        placed = False
        for path in [p for p in files if p.startswith(local) and _PAGE_SUFFIX.search(p)]:
            original = f"{content}/{path[len(local):]}" if content not in ("", ".") else path[len(local):]
            if original not in files:
                site.left_out[path] = Exclusion(NOT_BUILT, f"a translation in {own.rstrip('/')} of {original}, which "
                                                           "is not in the source: never built")
                continue
            site.left_out.setdefault(original, Exclusion(HIDDEN, f"the default locale's copy, {path}, is published "
                                                                 "in its place"))
            site.slugs += ((path, slugs.get(original, original)),)
            copies[stem(original)] = stem(path)
            placed = True
        if placed:  # the folder is built as its content folder is: its plugin's boxes, its sidebars
            site.built_folders = (*(site.built_folders or ()), local.rstrip("/"))
            admonitions = dict(site.admonitions)
            if content in admonitions:
                site.admonitions += ((local.rstrip("/"), admonitions[content]),)
            if content in site.sidebar_folders and local.rstrip("/") not in site.sidebar_folders:
                site.sidebar_folders += (local.rstrip("/"),)
    if copies:  # placed where its content file stands in the sidebars, in its order
        listed: dict[str, NavPage] = {}
        for page, entry in site.listed.items():
            listed[page] = entry
            if page in copies:
                listed.setdefault(copies[page], entry)
        site.listed = listed
    site.built_folders = tuple(dict.fromkeys(site.built_folders)) if site.built_folders is not None else None
    site.admonitions = tuple(dict(site.admonitions).items())
