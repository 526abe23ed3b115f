"""A Jupyter Book (v1: `_config.yml` and `_toc.yml` at its root), which jupyter-book builds with
Sphinx from the configuration it writes: its `exclude_patterns` are never built, and with
`only_build_toc_files: true` (sphinx-external-toc's `external_toc_exclude_missing`) neither is a
page its table of contents does not name. Every other page is a page (Sphinx builds it, in the
table of contents or not)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import yaml

from app.corpus.site_code import _sphinx_pattern
from app.corpus.site_model import Site
from app.corpus.theme_hiding import sphinx_extensions_css, sphinx_extensions_figure_classes, theme_css

JUPYTER_BOOK_FILES = ("_config.yml", "_toc.yml")
JUPYTER_BOOK_TOC = "_toc.yml"
# jupyter-book's default_config.yml `exclude_patterns`, kept beside a book's own.
_DEFAULT_EXCLUDED = ("_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints")
_SUFFIXES = r"\.(?:md|ipynb|rst)"


def _load(text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None


def _entries(node: Any, budget: list[int], depth: int = 0) -> Iterator[tuple[str, str]]:
    """Each ("file", path) and ("glob", pattern) of a table of contents (its root, parts, chapters,
    sections, at any depth), at most `budget[0]` nodes visited: YAML aliases can make a few lines
    a tree of billions of nodes."""
    budget[0] -= 1
    if depth > 30 or budget[0] < 0:
        return
    if isinstance(node, list):
        for item in node:
            yield from _entries(item, budget, depth + 1)
    elif isinstance(node, dict):
        for key in ("root", "file", "glob"):
            if isinstance(node.get(key), str):
                yield ("glob" if key == "glob" else "file", node[key])
        for key, value in node.items():
            if isinstance(value, (list, dict)) and key != "options":
                yield from _entries(value, budget, depth + 1)


def is_jupyter_book_toc(text: str) -> bool:
    """Whether a `_toc.yml` is sphinx-external-toc's (a mapping naming its `root`): a book's, found
    in a folder below a source's (app/corpus/site_root.py)."""
    return "root" in text and isinstance(toc := _load(text), dict) and isinstance(toc.get("root"), str)


def jupyter_book_site(files: Mapping[str, str]) -> Site:
    site = Site("sphinx", "_config.yml")  # jupyter-book runs Sphinx; every page it builds is a page
    config, toc = _load(files["_config.yml"]), _load(files["_toc.yml"])
    if not isinstance(config, dict):
        site.warnings.append("_config.yml cannot be read: every page stays a page")
        return site
    sphinx = config.get("sphinx")
    overrides = sphinx.get("config") if isinstance(sphinx, dict) else None  # `sphinx: config:` wins
    if not isinstance(overrides, dict):
        overrides = {}
    # jupyter-book's html_theme (config.py: sphinx_book_theme), unless `sphinx: config:` names another.
    theme = overrides.get("html_theme", "sphinx_book_theme")
    site.theme_css = theme_css("sphinx", theme) if isinstance(theme, str) else ""
    # Its extensions (jupyter-book's defaults load sphinx-design: `sd-d-none` hides).
    site.theme_css = "\n".join(filter(None, (site.theme_css, sphinx_extensions_css(("sphinx_design",)))))
    site.myst = replace(site.myst, figure_classes=sphinx_extensions_figure_classes(("sphinx_design",)))
    excluded = overrides.get("exclude_patterns", config.get("exclude_patterns"))
    patterns = [*_DEFAULT_EXCLUDED, *(str(p) for p in excluded if isinstance(p, str))] if isinstance(excluded, list) \
        else list(_DEFAULT_EXCLUDED)
    site.not_built = tuple(_sphinx_pattern(p) for p in patterns)
    if config.get("only_build_toc_files") is True:
        if not isinstance(toc, dict):
            site.warnings.append("_toc.yml cannot be read, and _config.yml builds only its files: every page stays a page")
            return site
        named, budget = [], [100_000]
        for kind, value in _entries(toc, budget):
            stem = re.sub(rf"{_SUFFIXES}$", "", value.strip().lstrip("/"))
            named.append(_sphinx_pattern(stem, folders=False).pattern[:-1] if kind == "glob" else re.escape(stem))
        site.not_built += (re.compile(f"(?!(?:{'|'.join(named) or '(?!)'}){_SUFFIXES}$)"),)
    return site
