"""Sphinx pages written in reStructuredText, read by docutils (the parser Sphinx reads them with),
rendered to HTML by docutils' HTML writer, and that HTML read by the page reader's browser reading
(as MyST pages are: markdown.py).

docutils is run safely: no file is read (`file_insertion_enabled` off: an `include` pastes what
compose lets the page read, as MyST's `{include}` does), nothing is fetched, no configuration
file is read, and no message stops it or shows (`report_level`, `halt_level` past the highest).
Sphinx's own directives and roles, which docutils lacks, are registered here from the names
recorded from the real packages (sphinx_directives.json), each showing what Sphinx shows of it
by the tables MyST pages use (myst.py): nothing (page machinery, a hidden toctree, autodoc, which
would import the project), its text, or its code. A name the site's extensions do not define is
left unknown: docutils reports it (not shown) and shows nothing of it, as Sphinx does."""

from __future__ import annotations

import io
import re
from collections import defaultdict
from collections.abc import Callable
from contextvars import ContextVar
from functools import cache
from typing import Any

from docutils import nodes, utils
from docutils.core import publish_parts
from docutils.parsers.rst import Directive, directives, roles
from docutils.readers import standalone
from docutils.transforms import Transform

from app.corpus import myst, rst_hidden
from app.corpus.myst import Build
from app.corpus.rst_objects import described
from app.corpus.sphinx_directives import every_recorded_name
from app.corpus.sphinx_extlinks import extlink
from app.corpus.sphinx_roles import shown_role

__all__ = ["render_rst"]

# The page being read: its Build (compose's, with its include and xref callbacks), the directives
# it uses that Sphinx shows and docschat cannot (autodoc's), and where each included part was
# pasted from (its chain of includes: a cycle is refused as MyST's is).
_BUILD: ContextVar[Build] = ContextVar("rst_build")
_NOT_READ: ContextVar[list[str]] = ContextVar("rst_not_read")
_PASTED_IN: ContextVar[dict[str, str]] = ContextVar("rst_pasted_in")
_MODULE: ContextVar[tuple[str, tuple[str, ...]]] = ContextVar("rst_module", default=("", ()))  # and classes
_PROGRAM: ContextVar[str] = ContextVar("rst_program", default="")  # `.. program::`, its options' ids'

_MAX_INCLUDE_DEPTH = 8  # includes inside includes; deeper ones paste nothing (hostile pages)

# docutils' settings, as Sphinx sets them where it matters for what a page shows: its sections'
# titles stay headings (no document title taken out), curly quotes (Sphinx's smartquotes), and no
# syntax highlighting (the code's text alone).
_SETTINGS: dict[str, Any] = {
    "_disable_config": True, "file_insertion_enabled": False, "raw_enabled": True,
    "report_level": 5, "halt_level": 5, "warning_stream": False, "traceback": True,
    "doctitle_xform": False, "sectsubtitle_xform": False, "initial_header_level": 1,
    "smart_quotes": True, "syntax_highlight": "none", "section_self_link": False,
    "embed_stylesheet": False, "stylesheet_path": "", "output_encoding": "unicode",
    "input_encoding": "unicode", "math_output": "LaTeX", "image_loading": "link", "auto_id_prefix": "id",
}

# Directives that show nothing on a page built from reStructuredText: MyST's (myst.py), a Python
# module's declaration (its index entry and link target only), and autodoc's, whose text is the
# project's docstrings, read by importing it (docschat never runs a project's code).
_HIDDEN = myst.RST_NOT_SHOWN | myst.NOT_ON_THE_PAGE | {"module", "automodapi", "autoprogram", "autoexception",
                                                        "autodecorator", "autonewtypedata", "autoproperty"}
_AUTODOC = re.compile(r"auto[\w-]*$")
# Directives whose content Sphinx shows as code.
_CODE = myst.CODE_WITH_LANGUAGE_ARGUMENT | {"testcode", "testoutput", "doctest", "jupyter-execute", "ipython",
                                            "mermaid", "productionlist", "graphviz", "graph", "digraph"}
# docutils' own, replaced by Sphinx's (`code`; `class`, the Python domain's) or read here.
_DOCUTILS_OWN = frozenset({"code", "include", "class"})


class _AnyOptions(defaultdict[str, Callable[[str], Any]]):
    """Every option a Sphinx directive takes, each kept as written: docutils refuses a directive
    with an option it does not know, and Sphinx's options are too many to list (their values are
    not shown, but for a `:caption:`)."""

    def __init__(self) -> None:
        super().__init__(lambda: directives.unchanged, {"class": directives.unchanged})


class _SphinxDirective(Directive):
    optional_arguments = 64
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()  # any mapping is read (docutils' stubs type it None)

    def run(self) -> list[nodes.Node]:
        build = _BUILD.get()
        if not build.defined(self.name):
            return []  # Sphinx warns "Unknown directive type" and shows nothing
        # The arguments' words, one space apart (a last argument taking whitespace keeps its line
        # breaks: Sphinx's own spec, rst_hidden; read as before, as one line).
        return self.shown(build, myst.name(self.name), " ".join(" ".join(self.arguments).split()))

    def shown(self, build: Build, name: str, argument: str) -> list[nodes.Node]:
        raise NotImplementedError

    def parsed(self, into: nodes.Element) -> nodes.Element:
        self.state.nested_parse(self.content, self.content_offset, into)
        return into


class _Hidden(_SphinxDirective):
    def shown(self, build: Build, name: str, argument: str) -> list[nodes.Node]:
        if _AUTODOC.match(name):
            _NOT_READ.get().append(self.name)
        if name in ("module", "currentmodule"):  # the module the Python objects after it are of
            _MODULE.set((argument.strip() if argument.strip() not in ("", "None") else "", ()))
        if name == "program":  # the program the options after it are of
            _PROGRAM.set("-".join(argument.split()) if argument.strip() != "None" else "")
        if name == "todo":  # sphinx.ext.todo notes its node as a target: the next automatic id is one on
            self.state.document.set_id(nodes.Element())
            if build.todos:  # shown with conf.py's todo_include_todos, as an admonition
                return _Text.shown(self, build, name, argument)
        return []


class _Only(_SphinxDirective):
    def shown(self, build: Build, name: str, argument: str) -> list[nodes.Node]:
        return list(self.parsed(nodes.container()).children) if myst.only_built(argument, build) else []


class _Code(_SphinxDirective):
    def shown(self, build: Build, name: str, argument: str) -> list[nodes.Node]:
        if "hide" in self.options and name in ("testcode", "testoutput", "doctest"):
            return []
        language = argument.split()[0] if argument and name in myst.CODE_WITH_LANGUAGE_ARGUMENT else ""
        code = myst.shown_console(language, "\n".join(self.content))
        block = nodes.literal_block(code, code, classes=["code", *([language] if language else []), *_classes(self.options)])
        return [*self.caption(), block]

    def caption(self) -> list[nodes.Node]:
        """A code block's `:caption:` over it, its reStructuredText read as Sphinx reads it (``x`` is code)."""
        caption = str(self.options.get("caption") or "")
        return [nodes.paragraph(caption, "", *self.state.inline_text(caption, self.lineno)[0])] if caption.strip() else []


class _Version(_SphinxDirective):
    """`versionadded` and the others: "Added in version 2.0: " before its text (Sphinx 7.3+)."""

    def shown(self, build: Build, name: str, argument: str) -> list[nodes.Node]:
        version, _, text = argument.partition(" ")
        label = f"{myst.VERSION_NOTES[name]} {version}" + (": " if self.content or text else ".")
        box = nodes.container(classes=[name])
        box += nodes.paragraph(label + text, label + text)
        return [self.parsed(box)]


class _Text(_SphinxDirective):
    """A box of text (an admonition, a card, a tab): its argument, a title, then its content."""

    def shown(self, build: Build, name: str, argument: str) -> list[nodes.Node]:
        box = nodes.container(classes=myst.classes(name, argument, dict(self.options)) or [name])
        title = "See also" if name == "seealso" else "" if name in myst.ARGUMENT_NOT_SHOWN else argument
        if title:
            box += nodes.paragraph(title, "", *self.state.inline_text(title, self.lineno)[0])
        return [self.parsed(box)]


class _Described(_SphinxDirective):
    """An object's description (a function, a setting, an option): its signature, then its text;
    a section of its own, at the id Sphinx gives it (rst_objects), when directly in a section."""

    def shown(self, build: Build, name: str, argument: str) -> list[nodes.Node]:
        module, classes = _MODULE.get()
        found = described(self.name, argument, self.options, module, classes, _PROGRAM.get())
        if found is not None and isinstance(self.state.parent, nodes.section):
            section = nodes.section(ids=[found.ident])
            section += nodes.title(found.signature, "", nodes.literal(found.signature, found.signature, classes=["sig"]))
            if found.fields:  # a confval's Type and Default, as Sphinx puts them first in its content
                section += nodes.field_list("", *(nodes.field("", nodes.field_name(title, title), nodes.field_body(
                    "", nodes.paragraph("", "", *self.state.inline_text(value, self.lineno)[0]))) for title, value in found.fields))
            token = _MODULE.set((module, (*classes, found.scope) if found.scope else classes))
            try:
                return [self.parsed(section)]
            finally:
                _MODULE.reset(token)
        item = nodes.definition_list_item()
        item += nodes.term(argument, "", nodes.literal(argument, argument)) if argument else nodes.term()
        item += self.parsed(nodes.definition())
        return [nodes.definition_list("", item)]


class _Include(_SphinxDirective):
    """`include`: what compose lets the page read of the file (myst_include.PageIncludes), pasted
    as reStructuredText (or as code with `:literal:` or `:code:`)."""

    def shown(self, build: Build, name: str, argument: str) -> list[nodes.Node]:
        source, _ = self.state_machine.get_source_and_line(self.lineno)
        chain: list[str] = []
        pasted_in = _PASTED_IN.get()
        while source in pasted_in and len(chain) <= _MAX_INCLUDE_DEPTH:
            chain.append(source)
            source = pasted_in[source]
        if build.include is None or len(chain) >= _MAX_INCLUDE_DEPTH:
            return []
        options = {key: str(value or "") for key, value in self.options.items()}
        included = build.include(argument, options, tuple(reversed(chain)))
        if included is None:
            return []
        part, text = included
        if {"literal", "code"} & options.keys():
            return [nodes.literal_block(text, text)]
        pasted_in[part] = chain[0] if chain else ""
        self.state_machine.insert_input(text.splitlines(), part)
        return []


class _LiteralInclude(_Code):
    def shown(self, build: Build, name: str, argument: str) -> list[nodes.Node]:
        options = {key: str(value or "") for key, value in self.options.items()}
        code = build.literal_include(argument, options) if build.literal_include else None
        return [*self.caption(), nodes.literal_block(code, code, classes=_classes(self.options))] if code else []


def _classes(options: dict[str, Any]) -> list[str]:
    """A code block's `:class:` values: Sphinx puts them on the block, where a theme may hide it."""
    return list(directives.class_option(options["class"])) if options.get("class") else []


def _directive(name: str) -> type[Directive]:
    short = myst.name(name)
    if short == "only":
        return _Only
    if short == "include":
        return _Include
    if short == "literalinclude":
        return _LiteralInclude
    if short in _HIDDEN or _AUTODOC.match(short):
        return _Hidden
    if short in _CODE:
        return _Code
    if short in myst.VERSION_NOTES:
        return _Version
    return _Text if short in myst.TEXT else _Described


def _role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
          options: dict[str, Any] | None = None, content: list[str] | None = None) -> tuple[list[nodes.Node], list[Any]]:
    """A Sphinx role, shown as a MyST page's is (sphinx_roles): a cross-reference a link to the
    page it names, a link role its text, anything else code."""
    shown = shown_role(name, utils.unescape(text), _BUILD.get(), links=True, scope=_MODULE.get())
    if shown.kind == "link":
        return [nodes.reference(rawtext, shown.text, refuri=shown.link)], []
    if shown.kind == "code":  # a Python object documented on the site: code in a link, as Sphinx writes it
        code = nodes.literal(rawtext, shown.text)
        return [nodes.reference(rawtext, "", code, refuri=shown.link) if shown.link else code], []
    return [nodes.Text(shown.text)] if shown.text else [], []


def _extlink_role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
                  options: dict[str, Any] | None = None, content: list[str] | None = None) -> tuple[list[nodes.Node], list[Any]]:
    """A role of conf.py's `extlinks`: a link, as Sphinx's extlinks makes it. Registered for the
    process (docutils' registry is global): on a site without it, the role Sphinx's own name is
    (`_role`), or the text as written, as docutils shows a role it does not know."""
    if (found := extlink(_BUILD.get().extlinks, name, utils.unescape(text))) is not None:
        return [nodes.reference(rawtext, found[0], refuri=found[1])], []
    if name.lower() in _registered():
        return _role(name, rawtext, text, lineno, inliner, options, content)
    return [nodes.Text(rawtext)], []


@cache
def _registered() -> frozenset[str]:
    """Sphinx's directives and roles, and its extensions' and themes', registered with docutils
    once (docutils' registry is the process's: only docschat's reading uses it)."""
    names, role_names = every_recorded_name()
    own = set(directives._directive_registry) - _DOCUTILS_OWN
    for name in sorted(names - own):
        directives.register_directive(name, rst_hidden.as_sphinx_declares(name, _directive(name)))
    rst_hidden.register()
    for name in sorted(role_names - set(roles._role_registry)):
        roles.register_local_role(name, _role)
    return frozenset(name.lower() for name in role_names - set(roles._role_registry))


class _AsSphinxWrites(Transform):
    """Each section's id (the one docutils made of its title, as Sphinx's HTML gives it) written
    after its title as `{#id}`, the explicit anchor the chunker reads; inline literals as `<code>`,
    as Sphinx's HTML writes them (docutils' writes a span): the reader keeps them as code spans."""

    default_priority = 990  # docutils' stubs type it None; it reads a number

    def apply(self, **kwargs: Any) -> None:
        for section in self.document.findall(nodes.section):
            if section["ids"] and section.children and isinstance(section[0], nodes.title):
                section[0] += nodes.Text(f" {{#{section['ids'][0]}}}")
        for literal in self.document.findall(nodes.literal):
            literal["classes"].append("code")


class _Reader(standalone.Reader):
    def get_transforms(self) -> list[type[Transform]]:
        return [*super().get_transforms(), rst_hidden.TrimDoctestFlags, _AsSphinxWrites]


def render_rst(text: str, build: Build) -> tuple[str, list[str]]:
    """The HTML body Sphinx's docutils makes of a reStructuredText page, and the directives on it
    Sphinx shows that docschat cannot read (autodoc's)."""
    _registered()
    for name, _, _ in build.extlinks:  # conf.py's, named by the site (not over docutils' own: shared by every site)
        if name not in roles._role_registry and roles._roles.get(name) is not _extlink_role:
            roles.register_local_role(name, _extlink_role)
    tokens = (_BUILD.set(build), _NOT_READ.set([]), _PASTED_IN.set({}), _MODULE.set(("", ())), _PROGRAM.set(""))
    try:
        parts = publish_parts(source=text, source_path="<page>", reader=_Reader(), writer="html5",
                              settings_overrides={**_SETTINGS, "warning_stream": io.StringIO()})
        return str(parts["body"]), _NOT_READ.get()
    finally:
        _PROGRAM.reset(tokens[4])
        _MODULE.reset(tokens[3])
        _PASTED_IN.reset(tokens[2])
        _NOT_READ.reset(tokens[1])
        _BUILD.reset(tokens[0])
