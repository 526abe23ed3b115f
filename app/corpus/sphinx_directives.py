"""The directive and role names a Sphinx site's MyST pages can use: Sphinx's and docutils' own, and
those of the extensions and theme its conf.py names, as scripts/record_sphinx_directives.py recorded
them from the real packages (sphinx_directives.json). Sphinx shows nothing of a directive none of
them defines (it warns "Unknown directive type"), nor of a role ("Unknown interpreted text role":
myst-probes `role-unknown.md`), so neither does the index; where conf.py does not say all of what
is loaded, any name may be defined (None), and a directive or role is read as before."""

from __future__ import annotations

import ast
import json
from functools import cache
from pathlib import Path
from typing import Any

# conf.py code that may register directives of its own (a `setup(app)`, `app.add_directive(…)`).
_REGISTERING = frozenset({"setup", "add_directive", "add_directive_to_domain", "add_generic_directive",
                          "register_directive", "add_domain"})
# And roles of its own.
_REGISTERING_ROLES = _REGISTERING | {"add_role", "add_role_to_domain", "register_local_role", "register_canonical_role",
                                     "add_generic_role", "add_crossref_type", "add_object_type"}


@cache
def _recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((Path(__file__).with_name("sphinx_directives.json")).read_text())
    return data


def every_recorded_name() -> tuple[frozenset[str], frozenset[str]]:
    """Every directive name and every role name recorded: Sphinx's own, and those of each recorded
    extension and theme (what a reader of Sphinx's pages registers once, for every site)."""
    def every(table: dict[str, Any]) -> frozenset[str]:
        return frozenset({*table["base"], *(n for each in table["extensions"].values() for n in each),
                          *(n for each in table["themes"].values() for n in each)})

    return every(_recorded()), every(_recorded()["roles"])


def _registers(tree: ast.Module, names: frozenset[str]) -> bool:
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in names
               or isinstance(node, ast.Attribute) and node.attr in names
               or isinstance(node, ast.Name) and node.id in names for node in ast.walk(tree))


def site_directives(tree: ast.Module, values: dict[str, Any], extensions_by_code: bool) -> frozenset[str] | None:
    """The directive names (lower case) the site whose conf.py is `tree` (its literal `values`)
    defines; None when not known: its `extensions` or `html_theme` set by code
    (`extensions_by_code`) or naming one not recorded, a `language` other than English (docutils
    reads its directive names translated), or code of conf.py that may register directives."""
    # myst-parser's renderer reads `{eval-rst}` itself: no directive is registered for it.
    return _site_names(_recorded(), values, extensions_by_code or _registers(tree, _REGISTERING), {"eval-rst"})


def site_roles(tree: ast.Module, values: dict[str, Any], extensions_by_code: bool) -> frozenset[str] | None:
    """The role names (lower case) that site defines, None when not known, as site_directives
    (a `primary_domain` other than `py` too: its roles are the bare names then)."""
    if values.get("primary_domain", "py") != "py" or "roles" not in _recorded():
        return None
    return _site_names(_recorded()["roles"], values, extensions_by_code or _registers(tree, _REGISTERING_ROLES), set())


def _site_names(recorded: dict[str, Any], values: dict[str, Any], unknown: bool, own: set[str]) -> frozenset[str] | None:
    extensions, theme = values.get("extensions", []), values.get("html_theme", "alabaster")
    if unknown or "html_theme.code" in values or "language.code" in values:
        return None
    if not isinstance(extensions, list) or not all(isinstance(e, str) for e in extensions) \
            or not all(e in recorded["extensions"] for e in extensions) or theme not in recorded["themes"]:
        return None
    if values.get("language") not in (None, "", "en") and not str(values.get("language")).startswith("en_"):
        return None
    names = {*recorded["base"], *recorded["themes"][theme], *own}
    for extension in extensions:
        names.update(recorded["extensions"][extension])
    return frozenset(names)
