"""MkDocs pages of a site using mkdocs-macros-plugin (`plugins: [macros]`): before Python-Markdown
reads a page, the plugin renders it as a Jinja2 template (`{# a comment #}`, `{% if flag %}…{%
endif %}`, `{{ extra_value }}`), so what a comment or a false branch holds is never on the site.

The page is parsed by Jinja2 itself, with the delimiters and Jinja extensions the plugin's options
name, and its template tree rendered here without running anything: the plugin's macros come from
the site's Python (`main.py`, pluglets), which docschat never runs. A value is known only when
mkdocs.yml's `extra` or the page's front matter writes it as a literal (the page's wins, as in the
plugin); an `{% if %}` shows its branch only when its test is decided from known values (`not`,
`and`, `or`, comparisons, `is defined` of a known name), and nothing when it is not. Loops, macros,
calls, includes and assignments show nothing (a name assigned anywhere in the page is unknown).
An expression shows its value when known, else nothing. A page Jinja cannot parse shows only the
plugin's error message on the site: it is refused. Checked with mkdocs-macros-plugin 1.5.0.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.corpus.site_model import Site

_OPTIONS = ("j2_block_start_string", "j2_block_end_string", "j2_variable_start_string", "j2_variable_end_string",
            "j2_comment_start_string", "j2_comment_end_string")
_UNKNOWN = object()
_SCALARS = (str, int, float, bool, type(None))


def macros_config(plugins: Any, config: Mapping[Any, Any]) -> str:
    """The plugin's options that decide how a page renders, and mkdocs.yml's literal `extra`, as
    JSON (a Site's field: part of every page key); "" when the plugin is not on."""
    entries = plugins.items() if isinstance(plugins, dict) else [
        next(iter(p.items())) if isinstance(p, dict) and len(p) == 1 else (p, {}) for p in plugins or []]
    for name, options in entries:
        if name == "macros":
            options = options if isinstance(options, dict) else {}
            if options.get("enabled", True) is False:
                return ""
            extra = config.get("extra")
            return json.dumps({"options": {k: v for k, v in options.items() if isinstance(v, _SCALARS)
                                           or isinstance(v, list) and all(isinstance(i, str) for i in v)},
                               "extra": json_literal(extra) if isinstance(extra, dict) else {}}, sort_keys=True, default=str)
    return ""


def json_literal(value: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """A YAML value as JSON data; a tagged one (`!ENV`: its type is a subclass), a date, or what
    lies past 10,000 values (YAML aliases make billions in a few lines) or 20 levels is unknown."""
    budget = [10_000] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0 or depth > 20:
        return {"__unknown__": True}
    if type(value) is dict:
        return {k: json_literal(v, budget, depth + 1) for k, v in value.items() if type(k) is str}
    if type(value) is list:
        return [json_literal(v, budget, depth + 1) for v in value]
    return value if type(value) in _SCALARS else {"__unknown__": True}


class MacrosError(ValueError):
    pass


def render_macros(text: str, site: Site, path: str, front: Mapping[str, Any]) -> str:
    """The page at `path` as the plugin renders it when the site uses it (`site.macros`: macros_config's
    JSON), with its front matter. Raises MacrosError for a page the site shows only an error for."""
    if not site.macros:
        return text
    import jinja2
    from pathspec import GitIgnoreSpec

    settings, path = json.loads(site.macros), path[len(site.docs_prefix):]
    options, extra = settings["options"], settings["extra"]
    render = front.get("render_macros")
    try:
        forced = GitIgnoreSpec.from_lines(str(options.get("force_render_paths") or "").splitlines()).match_file(path)
    except (ValueError, re.error):  # a line no gitignore reader compiles: none forced
        forced = False
    if render is False or (options.get("render_by_default", True) is False and render is not True and not forced):
        return text
    delimiters = {key[3:]: options[key] for key in _OPTIONS if isinstance(options.get(key), str) and options[key]}
    named = options.get("j2_extensions") or []
    extensions = [name for name in (named.split() if isinstance(named, str) else named) if name.startswith("jinja2.ext.")]
    try:
        tree = jinja2.Environment(extensions=extensions, **delimiters).parse(text)
    except (jinja2.TemplateSyntaxError, RecursionError, ValueError, TypeError, ImportError) as exc:
        raise MacrosError(f"mkdocs-macros cannot read it as a template ({str(exc)[:200]}); the site shows "
                          "an error message instead") from None
    page = json_literal(dict(front))
    try:
        if any(True for _ in tree.find_all(jinja2.nodes.Extends)):  # only its blocks, placed by a template unread here
            raise MacrosError("the page extends a template, which docschat does not read; the site shows that "
                              "template with the page's blocks in it, nothing else of the page")
        return _Template({**extra, "extra": extra, **(page if "__unknown__" not in page else {})}, tree).shown(tree.body)
    except RecursionError:
        raise MacrosError("mkdocs-macros: the template nests too deeply") from None


class _Template:
    """A parsed page's text, its values known from `known` (less every name the page assigns)."""

    def __init__(self, known: dict[str, Any], tree: Any) -> None:
        from jinja2 import nodes

        self.nodes, self.known = nodes, known
        for node in tree.find_all((nodes.Name, nodes.Macro, nodes.Import, nodes.FromImport)):
            if isinstance(node, nodes.Name) and node.ctx in ("store", "param"):
                known.pop(node.name, None)
            elif isinstance(node, (nodes.Macro, nodes.Import)):
                known.pop(node.name if isinstance(node, nodes.Macro) else node.target, None)
            elif isinstance(node, nodes.FromImport):
                for name in node.names:
                    known.pop(name if isinstance(name, str) else name[-1], None)

    def value(self, node: Any) -> Any:
        """The expression's value, _UNKNOWN unless decided from known values."""
        nodes = self.nodes
        if isinstance(node, nodes.Const) and isinstance(node.value, _SCALARS):
            return node.value
        if isinstance(node, nodes.Not):
            inner = self.value(node.node)
            return _UNKNOWN if inner is _UNKNOWN else not inner
        if isinstance(node, (nodes.And, nodes.Or)):  # Python's `and`/`or`, when the left is known
            left = self.value(node.left)
            if left is _UNKNOWN:
                return _UNKNOWN
            return self.value(node.right) if bool(left) is isinstance(node, nodes.And) else left
        if isinstance(node, nodes.Compare) and len(node.ops) == 1 and node.ops[0].op in ("eq", "ne"):
            left, right = self.value(node.expr), self.value(node.ops[0].expr)
            if _UNKNOWN in (left, right) or not isinstance(left, _SCALARS) or not isinstance(right, _SCALARS):
                return _UNKNOWN
            return (left == right) is (node.ops[0].op == "eq")
        if isinstance(node, nodes.Test) and node.name == "defined" and not node.args and not node.kwargs:
            return True if self.value(node.node) is not _UNKNOWN else _UNKNOWN  # main.py may define it
        found: Any = _UNKNOWN
        if isinstance(node, nodes.Name):
            found = self.known.get(node.name, _UNKNOWN)
        elif isinstance(node, (nodes.Getattr, nodes.Getitem)):
            parent = self.value(node.node)
            key = node.attr if isinstance(node, nodes.Getattr) else self.value(node.arg)
            found = parent.get(key, _UNKNOWN) if isinstance(parent, dict) and isinstance(key, str) else _UNKNOWN
        return _UNKNOWN if isinstance(found, dict) and found.get("__unknown__") else found

    def shown(self, body: list[Any]) -> str:
        nodes, out = self.nodes, []
        for node in body:
            if isinstance(node, nodes.Output):
                for child in node.nodes:
                    if isinstance(child, nodes.TemplateData):
                        out.append(child.data)
                    elif (found := self.value(child)) is not _UNKNOWN and isinstance(found, _SCALARS):
                        out.append(str(found))
            elif isinstance(node, nodes.If):
                test = self.value(node.test)
                while test is not _UNKNOWN and not test and node.elif_:  # the elif chain, in order
                    node = nodes.If(node.elif_[0].test, node.elif_[0].body, node.elif_[1:], node.else_)
                    test = self.value(node.test)
                if test is not _UNKNOWN:
                    out.append(self.shown(node.body if test else node.else_))
            elif isinstance(node, (nodes.With, nodes.Scope, nodes.ScopedEvalContextModifier, nodes.Block)):
                out.append(self.shown(node.body))
        return "".join(out)
