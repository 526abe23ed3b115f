"""MkDocs plugins that decide what a page of the site is, read from mkdocs.yml (app/corpus/site.py
reads the rest of it; none of them is run):

- mkdocstrings: its `::: identifier` blocks show API reference docschat does not build.
- mkdocs-exclude-search: pages it removes from the site's search index are left out of the
  assistant too, as Material's `search: exclude` pages are (docs/guides/sources.mdx).
"""

from __future__ import annotations

import json
from fnmatch import fnmatchcase
from typing import Any

from app.corpus.python_markdown_extensions import AUTODOC


def mkdocstrings(plugin: Any, name: str, extensions: str, warnings: list[str]) -> str:
    """The site's Python-Markdown `extensions` (JSON), with the mkdocstrings plugin's block reader
    when `plugin` enables it: its `::: identifier` blocks show nothing docschat builds
    (python_markdown_extensions.py autodoc_left_out)."""
    options = plugin.get("mkdocstrings", None) if isinstance(plugin, dict) else {} if plugin == "mkdocstrings" else None
    if options is None or (isinstance(options, dict) and options.get("enabled") is False):
        return extensions
    warnings.append(f"{name}: the mkdocstrings plugin's `::: identifier` blocks show API reference generated "
                    "from the code, which docschat does not build: they are left out")
    return json.dumps([*json.loads(extensions), [AUTODOC, {}]])


def exclude_search(plugins: Any, config: dict[Any, Any]) -> tuple[tuple[str, str], ...]:
    """mkdocs-exclude-search 0.6.7's page exclusions, as ("search", pattern) or, without
    use_directory_urls, ("search-html", pattern): an `exclude` entry naming no section (`x.md`,
    `dir/*`; one with `#section` leaves the page in the search), and with `exclude_unreferenced`
    and no `nav` every page (its navigation list is then empty). An `ignore` entry's page keeps
    its record (the plugin adds it back for the section), as ("keep", page). The plugin does
    nothing unless the search plugin is on and it excludes something (its validate_config)."""
    plugins = [{k: v} for k, v in plugins.items()] if isinstance(plugins, dict) else plugins if isinstance(plugins, list) else []
    names = [next(iter(p)) if isinstance(p, dict) and len(p) == 1 else p for p in plugins]
    options: Any = next((p["exclude-search"] for p in plugins if isinstance(p, dict) and len(p) == 1
                    and "exclude-search" in p), {} if "exclude-search" in names else None)
    if not isinstance(options, dict) or not {"search", "material/search"} & {n for n in names if isinstance(n, str)}:
        return ()

    def listed(option: str) -> list[str]:
        value = options.get(option) or []
        return [v for v in ([value] if isinstance(value, str) else value if isinstance(value, list) else [])
                if isinstance(v, str)]

    kind = "search" if config.get("use_directory_urls") is not False else "search-html"
    found = [(kind, entry.removesuffix(".md")) for entry in listed("exclude") if "#" not in entry]
    if options.get("exclude_unreferenced") is True and config.get("nav") is None:
        found.append((kind, "*"))
    if not found:
        return ()
    return (*found, *(("keep", entry.partition("#")[0].removesuffix(".md")) for entry in listed("ignore") if "#" in entry))


def search_hidden(relative: str, excluded: tuple[tuple[str, str], ...]) -> bool:
    """Whether the page at `relative` (under docs_dir) is out of the site's search: its search
    record's location (`dir/page/`, `dir/` for an index or README; `dir/page.html`), less that
    suffix, matches an exclusion (fnmatch: `*` crosses folders) and no `ignore` entry. The home
    page always stays."""
    stem = relative.rsplit(".", 1)[0]
    name = stem.rsplit("/", 1)[-1]
    folder = stem[:len(stem) - len(name)]
    for kind, pattern in excluded:
        if not kind.startswith("search"):
            continue
        location = stem if name not in ("index", "README") else folder.rstrip("/") if kind == "search" else folder + "index"
        if location not in ("", "index") and fnmatchcase(location, pattern):
            return not any(other == "keep" and fnmatchcase(location, keep) for other, keep in excluded)
    return False
