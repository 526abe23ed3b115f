"""What a Sphinx role shows, on a reStructuredText page (rst.py, docutils) and on a MyST page
(markdown.py, markdown-it-py) alike: Sphinx's roles are the same whichever parser read the page.

A cross-reference (`ref`, `doc`, `any`) shows the title of what it names (SiteTitles, or a local
intersphinx inventory) or its own explicit title (`Text <target>`); link roles their text; any
other role its text as code, less the Python domain's `~` (the last name alone) and with "()"
after a function's or method's name (Sphinx's add_function_parentheses, on by default), unless an
explicit title is given."""

from __future__ import annotations

import re
from typing import NamedTuple

from app.corpus import myst
from app.corpus.myst import Build
from app.corpus.sphinx_inventory import inventory_title

__all__ = ["RoleShown", "shown_role"]

# The roles after whose target Sphinx writes "()" (its add_function_parentheses, on by default).
_PARENTHESES = frozenset({"func", "meth", "py:func", "py:meth"})
# The Python domain's roles (the default domain's): a link to the object of that name documented
# on the site (Sphinx's find_obj, which matches by name whatever the object's type).
_PYTHON_ROLES = frozenset(f"{domain}{role}" for domain in ("", "py:")
                          for role in ("func", "meth", "class", "data", "attr", "exc", "obj", "const", "type"))


class RoleShown(NamedTuple):
    text: str  # "" with kind "text": nothing shown
    kind: str = "text"  # "text", "code", or "link" (to `link`)
    link: str | None = None


def shown_role(written: str, content: str, build: Build, *, links: bool,
               scope: tuple[str, tuple[str, ...]] = ("", ())) -> RoleShown:
    """What the role `written` (as written: `py:func`) shows of its `content` (unescaped) on a page
    of the site `build` describes; with `links`, a cross-reference found is a link to its page
    (build.xref_link: a page the reader may not see is neither linked nor titled), a Python
    object's name looked up in the page's current module and class (`scope`) too."""
    short = myst.name(written)
    if build.role_names is not None and written.lower() not in build.role_names:
        return RoleShown("")  # a role no extension of the site defines: nothing (Sphinx warns)
    if (replaced := myst.replaced_role(written, content, build.numfig)) is not None:
        return RoleShown(replaced)
    if written.lower() in myst.NUMBER_ROLES:
        return RoleShown("")  # Sphinx shows the target's title or number there, not the label written
    explicit = myst.explicit_title(content)
    if short in myst.TITLE_ROLES and build.xref is not None and (links or not explicit):
        target = content[content.rfind("<") + 1:-1].strip() if explicit else content.strip()
        title = build.xref(short, target) or inventory_title(build.inventory, short, target)
        if title is not None:  # the title of the section or document it names, as Sphinx shows it
            title = myst.role_text(content) if explicit else title
            link = build.xref_link(short, target) if links and build.xref_link else None
            return RoleShown(title, "link", link) if link else RoleShown(title)
    if short == "abbr":  # `LIFO (last-in, first-out)`: the explanation is the abbreviation's tooltip
        content = re.sub(r"\s*\([^()]*\)\s*$", "", content) or content
    shown = myst.role_text(content)
    if written.lower() in _PYTHON_ROLES and not explicit:  # `.name`: looked for in the current module first
        shown = shown.lstrip(".")
    if content.startswith("~") and not explicit:  # Sphinx's Python domain: the last name
        shown = shown.rsplit(".", 1)[-1]
    if written.lower() in _PARENTHESES and not explicit:
        shown = shown.removesuffix("()") + "()"
    if links and written.lower() in _PYTHON_ROLES:
        return RoleShown(shown, "code", _python_link(short, content, explicit, build, scope))
    return RoleShown(shown, "text" if short in myst.LINK_ROLES else "code")


def _python_link(short: str, content: str, explicit: bool, build: Build, scope: tuple[str, tuple[str, ...]]) -> str | None:
    """Where a Python role leads: the page documenting the object and its id, the name tried as
    Sphinx's find_obj tries it: as written, then in the current class, module, module and class;
    a name written `.name` the other way round, then any one object whose name ends so (`*.name`:
    recorded, `:func:`.run`` links `fixture.run` from another module)."""
    if build.xref is None or build.xref_link is None:
        return None
    target = (content[content.rfind("<") + 1:-1] if explicit else content).strip().lstrip("~")
    name, module, in_class = target.lstrip(".").removesuffix("()"), scope[0], ".".join(scope[1])
    scoped = [*([f"{in_class}.{name}"] if in_class else []), *([f"{module}.{name}"] if module else []),
              *([f"{module}.{in_class}.{name}"] if module and in_class else [])]
    candidates = [*reversed(scoped), name, f"*.{name}"] if target.startswith(".") else [name, *scoped]
    for candidate in dict.fromkeys(candidates):
        if (found := build.xref(f"py:{short}", candidate)) is not None:
            return build.xref_link(f"py:{short}", found)
    return None
