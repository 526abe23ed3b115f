"""The classes a site's theme hides, as scripts/record_theme_hiding.py recorded them in Chromium
from each theme's own stylesheets (theme_hiding.json): pydata-sphinx-theme's `d-none`, Material's
`md-toggle`. A page's `<div class="d-none">` shows nothing on that theme's site; the reader is
given a rule per class (`.d-none{display:none}`) beside the site's own stylesheets, so it is read
as any site rule is. A theme with no record (or one named by code) adds nothing."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

# A desktop reader's window: a class hidden at one of these widths is hidden (at 1024 px or more;
# one hidden only on a phone or tablet, such as sphinx_rtd_theme's `tablet-hide`, is not).
DESKTOP = 1024
# Classes the reader reads on every site already (reader.js classHides, classVisible): Tailwind's
# `hidden` is shown again by a variant (`hidden md:block`, shown on a desktop), which a rule here
# would not know.
_READ_BY_THE_READER = frozenset({"hidden", "invisible"})


@cache
def _recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(__file__).with_name("theme_hiding.json").read_text())
    return data


def _escaped(name: str) -> str:
    """A class name as a CSS selector writes it (`xl:hidden` is `.xl\\:hidden`)."""
    return re.sub(r"([^\w-])", r"\\\1", name)


def theme_css(framework: str, theme: str) -> str:
    """Rules hiding what the `theme` of a `framework` site ("sphinx", "mkdocs", "docusaurus",
    "mintlify"; "sphinx_extensions" for a Sphinx extension's stylesheet) hides at a desktop width,
    by the style that hides it ('' for a theme not recorded). A style that is not one of these (a
    class whose probe a script replaced) is read as `display: none` (more hidden, never less)."""
    record = _recorded().get(framework, {}).get(theme)
    if not isinstance(record, dict):
        return ""
    rules = []
    for name, styles in sorted(record["hidden"].items()):
        if name in _READ_BY_THE_READER:
            continue
        hiding = [style for style, widths in styles.items() if any(width >= DESKTOP for width in widths)]
        if hiding:
            declarations = ";".join(style if style != "?" else "display: none" for style in hiding)
            # Not with a class that shows it again (VitePress's `.vp-block.active`), where recorded.
            again = "".join(f":not(.{_escaped(other)})" for other in record.get("shown_with", {}).get(name, ()))
            rules.append(f".{_escaped(name)}{again}{{{declarations}}}")
    return "\n".join(rules)


def sphinx_extensions_css(extensions: object) -> str:
    """The rules of the recorded Sphinx extensions among conf.py's `extensions` (sphinx-design's
    `sd-d-none`, `sd-d-md-none`, … which a page names in a `:class:`); all of them when the list
    is not known (changed by code: more hidden, never less). A class that shows again at a width
    (`sd-d-none sd-d-md-block`) is hidden still: the reader keeps no showing rule."""
    known = _recorded().get("sphinx_extensions", {})
    loaded = extensions if isinstance(extensions, (list, tuple)) else list(known)
    return "\n".join(filter(None, (theme_css("sphinx_extensions", name) for name in known if name in loaded)))


def sphinx_extensions_figure_classes(extensions: object) -> frozenset[str]:
    """Of the classes sphinx_extensions_css hides, those that hide a Sphinx figure too (a
    `:figclass:`; sphinx-design's `sd-d-none` is `!important`, which beats basic.css's
    `figure.align-default {display: block}`), at a desktop width: recorded on a figure."""
    known = _recorded().get("sphinx_extensions", {})
    loaded = extensions if isinstance(extensions, (list, tuple)) else list(known)
    return frozenset(name for module, record in known.items() if module in loaded for name in record.get("figure", ())
                     if any(width >= DESKTOP for widths in record["hidden"].get(name, {}).values() for width in widths))


def mkdocs_theme_css(config: dict[str, Any]) -> str:
    """The rules for an MkDocs site's theme: `theme: material` or `theme: {name: material}`
    (MkDocs' own `mkdocs` when none is named; a `custom_dir` theme without a name: none)."""
    theme = config.get("theme", "mkdocs")
    theme = theme.get("name") if isinstance(theme, dict) else theme
    return theme_css("mkdocs", theme) if isinstance(theme, str) else ""
