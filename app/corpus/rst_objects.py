"""An object description on a Sphinx page of reStructuredText (`.. py:function::`, `.. confval::`,
`.. option::` …): the id Sphinx gives its `<dt>` and the signature text it shows there, so that
rst.py makes each a section of its own (docschat's unit of search), headed by that signature and
anchored at that id, as a result then links to the object on the built page.

Sphinx's domains are not a docschat dependency (they would run the site's extensions): the ids are
made here as its domains make them, and compared with the real build (tests/data/site-nav/rst,
scripts/record_rst_site.py). An object whose id is not made here (C++'s mangled `_CPPv4…`, a
nested C declaration) or that has none (`describe`, `object`) is None: it stays a definition list
in its section."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Described", "described", "sphinx_id"]

# The Python domain's objects (and the JavaScript domain's, whose ids are made alike: the module's
# and class's names before the object's), whose id is the full name: `config#DEBUG`, `api#flask.url_for`.
_PYTHON_OBJECTS = frozenset({"data", "function", "class", "method", "attribute", "exception", "decorator",
                             "classmethod", "staticmethod", "property", "type"})
_JS_OBJECTS = frozenset({"function", "class", "method", "attribute", "data"})
# The standard domain's: id `confval-NAME`, `envvar-NAME` (sphinx.util.nodes.make_id with the
# object type as prefix), an option's `cmdoption-PROGRAM-NAME`.
_STANDARD = frozenset({"confval", "envvar"})
# The C domain's, whose id is `c.` and the declared name (a top-level one: a nested declaration's
# id holds its parents', not read here).
_C_OBJECTS = frozenset({"function", "macro", "struct", "union", "enum", "enumerator", "type", "var", "member"})
_NAME = re.compile(r"[\w.]+")
_C_NAME = re.compile(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$")
# Sphinx's option_desc_re: an option's name, then its arguments.
_OPTION = re.compile(r"((?:/|--|-|\+)?[^\s=]+)(=?\s*.*)")


@dataclass(frozen=True)
class Described:
    ident: str  # the `<dt id>` Sphinx gives it
    signature: str  # the `<dt>`'s text
    fields: tuple[tuple[str, str], ...] = ()  # shown first in its content (a confval's Type, Default), as written
    scope: str = ""  # a class's name, which the objects inside it are named under


def sphinx_id(text: str) -> str:
    """sphinx.util.nodes._make_id: docutils' make_id keeping capitals, dots and underscores. (Its
    table folding a few letters, `ø` → `o`, is left to NFKD: such names are rare in ids.)"""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"^[-0-9._]+|-+$", "", re.sub(r"[^a-zA-Z0-9._]+", "-", " ".join(ascii_text.split())))


def described(written: str, argument: str, options: Mapping[str, Any], module: str, classes: tuple[str, ...],
              program: str) -> Described | None:
    """The object `.. written:: argument` describes, with the Python (and JavaScript) module and
    classes it is inside and the current `.. program::`; None when Sphinx gives it no id read here."""
    domain, _, short = written.lower().rpartition(":")
    signature = " ".join(argument.split())
    if not signature:
        return None
    if domain in ("", "py", "js") and short in (_PYTHON_OBJECTS if domain != "js" else _JS_OBJECTS):
        return _python(short, argument, options, module, classes)
    if domain in ("", "std") and short in _STANDARD:
        fields = tuple((title, str(options[key])) for key, title in (("type", "Type"), ("default", "Default"))
                       if short == "confval" and options.get(key))
        return Described(sphinx_id(f"{short}-{signature}"), signature, fields)
    if domain in ("", "std") and short == "option":
        return _option(signature, program)
    if domain == "c" and short in _C_OBJECTS and "(*" not in signature.replace(" ", ""):
        declared = signature.split("(")[0] if short in ("function", "macro") else signature.split("=")[0]
        if (found := _C_NAME.search(declared.strip())) is not None:
            return Described(f"c.{found.group(1)}", signature)
    return None


def _python(short: str, argument: str, options: Mapping[str, Any], module: str, classes: tuple[str, ...]) -> Described | None:
    found = _NAME.search(argument.split("(")[0].split("=")[0].split(":")[0].split()[-1])
    if found is None:
        return None
    ident = ".".join(filter(None, [module, *classes, found.group()]))
    return Described(ident, _signature(short, argument, module if not classes else "", options),
                     scope=found.group().rsplit(".", 1)[-1] if short == "class" else "")


def _signature(name: str, argument: str, module: str, options: Mapping[str, Any]) -> str:
    """A Python object's signature as Sphinx writes it: its keyword (`class`), its module's name
    before a module-level one's (add_module_names), its `:type:` and `:value:`."""
    keyword = {"class": "class ", "exception": "exception ", "classmethod": "classmethod ",
               "staticmethod": "static ", "property": "property "}.get(name, "")
    typed = f": {options['type']}" if options.get("type") else ""
    valued = f" = {options['value']}" if options.get("value") else ""
    return f"{keyword}{module + '.' if module else ''}{argument}{typed}{valued}"


def _option(signature: str, program: str) -> Described | None:
    """A command-line option (`--port <port>, -p <port>`): Sphinx's id of its first name, under the
    current program (`cmdoption-flask-run-port`; a name without a dash is an argument, `arg-`)."""
    for written in signature.split(", "):
        if (found := _OPTION.match(written.strip())) is not None:
            name = found.group(1)[:-1] if found.group(1).endswith("[") and found.group(2).endswith("]") else found.group(1)
            prefix = "-".join(["cmdoption", *([program] if program else []), *([] if name.startswith(("-", "/")) else ["arg"])])
            return Described(sphinx_id(f"{prefix}-{name}"), signature)
    return None


# A directive's first line: its indentation, its name, its argument.
_DIRECTIVE_LINE = re.compile(r"^([ \t]*)\.\.[ \t]+([\w:-]+)::[ \t]*(.*)$", re.MULTILINE)


def python_object_ids(text: str) -> list[str]:
    """The ids (full names) of the Python objects a reStructuredText page describes, at their
    module and class as rst.py names them, read from the page's lines: a role on one page would
    otherwise parse every page of the site. An object indented under a class is the class's."""
    found: list[str] = []
    module, scopes = "", list[tuple[int, str]]()  # the classes open, each at its indentation
    for match in _DIRECTIVE_LINE.finditer(text):
        indent, written, argument = len(match.group(1).expandtabs()), match.group(2).lower(), match.group(3)
        while scopes and scopes[-1][0] >= indent:
            scopes.pop()
        domain, _, short = written.rpartition(":")
        if domain not in ("", "py"):
            continue
        if short in ("module", "currentmodule"):
            module, scopes = (argument.strip() if argument.strip() not in ("", "None") else ""), []
        elif short in _PYTHON_OBJECTS and (object_ := described(written, argument, {}, module,
                                                                tuple(name for _, name in scopes), "")) is not None:
            found.append(object_.ident)
            if object_.scope:
                scopes.append((indent, object_.scope))
    return found
