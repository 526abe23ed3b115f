"""Sites whose configuration is code, read without running it (app/corpus/site.py says what each
framework's navigation decides; Docusaurus's is app/corpus/site_docusaurus.py):

- Sphinx: `conf.py` is Python, parsed by `ast`, and only its assignments of literals are read; the
  toctrees are read from the pages (MyST fences by myst-parser's markdown-it, reStructuredText blocks
  by their indentation).
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from app.corpus.frontmatter import FrontMatterError, parse_front_matter
from app.corpus.markdown import myst_directives
from app.corpus.myst import DMATH_DEFAULTS, Build, directive_options, dmath_options
from app.corpus.site_model import _PAGE_SUFFIX, SPHINX_CONFIG, NavPage, Site
from app.corpus.sphinx_directives import site_directives, site_roles
from app.corpus.sphinx_extlinks import conf_extlinks
from app.corpus.sphinx_inventory import local_inventories
from app.corpus.sphinx_substitutions import substitutions_by_code
from app.corpus.theme_hiding import sphinx_extensions_css, sphinx_extensions_figure_classes, theme_css

# --- Sphinx ---------------------------------------------------------------------------------------

_SPHINX_SUFFIXES = (".md", ".rst", ".ipynb")
# Sphinx extensions that register a parser for `.md` (the MyST ones, and their predecessors).
_MARKDOWN_PARSERS = frozenset({"myst_parser", "myst_nb", "recommonmark", "m2r", "m2r2", "sphinx_markdown_parser",
                               "sphinx_mdinclude"})
# Canonical's starter pack (canonical_sphinx) adds these to myst_enable_extensions when conf.py is
# read (its config_inited), whatever conf.py lists.
_CANONICAL_MYST = ("substitution", "deflist", "linkify")
_TOCTREE_ENTRY = re.compile(r"^(.+?)\s*<(.+)>$", re.DOTALL)  # `Title <path>`, as Sphinx's toctree splits it
_RST_TOCTREE = re.compile(r"^([ \t]*)\.\.[ \t]+toctree::[ \t]*$")


def _sphinx_pattern(pattern: str, folders: bool = True) -> re.Pattern[str]:
    """A Sphinx glob (exclude_patterns, a `:glob:` toctree entry) as sphinx.util.matching's
    `_translate_pattern` reads it: `**` any path, `*`, `?` and `[!…]` within one segment. With
    `folders` (exclude_patterns), a pattern naming a folder matches what is in it: Sphinx's
    get_matching_files prunes the folder."""
    out, i = "", 0
    while i < len(pattern):
        c, i = pattern[i], i + 1
        if c == "*" and pattern[i:i + 1] == "*":
            out, i = out + ".*", i + 1
        elif c in "*?":
            out += "[^/]*" if c == "*" else "[^/]"
        elif c == "[" and (j := pattern.find("]", i + 1 if pattern[i:i + 1] in ("!", "]") else i)) != -1:
            stuff = pattern[i:j].replace("\\", "\\\\")
            stuff = "^/" + stuff[1:] if stuff.startswith("!") else "\\" + stuff if stuff.startswith("^") else stuff
            out, i = f"{out}[{stuff}]", j + 1
        else:
            out += re.escape(c)
    return re.compile(f"(?:{out})(?:/.*)?$" if folders else f"(?:{out})$")


def _conf_values(text: str, site: Site) -> tuple[ast.Module, dict[str, Any]] | None:
    """conf.py's tree and its top-level `name = <literal>` (and `name += <literal list>`), read with
    `ast`, never run."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:  # nested past what Python compiles
        site.warnings.append(f"{SPHINX_CONFIG}: cannot be read ({type(exc).__name__}: {exc}); every page stays a page")
        return None
    values: dict[str, Any] = {}
    unknown = object()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, expression = node.targets, node.value
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            targets, expression = [node.target], node.value
        else:
            continue
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            try:
                value = ast.literal_eval(expression)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                value = unknown
            if isinstance(node, ast.AugAssign):  # `extensions += [...]`: known only if both sides are lists
                before = values.get(target.id)
                value = before + value if isinstance(before, list) and isinstance(value, list) else unknown
            if value is unknown:  # not a literal: what it says is unknown
                values.pop(target.id, None)
                values[target.id + ".code"] = node.lineno
                if isinstance(expression, ast.Dict):  # its entries that are literals: `{"a": "b", "c": c}`
                    values[target.id + ".entries"] = dict(_literal_entries(expression))
            else:
                values[target.id] = value
                values.pop(target.id + ".code", None)
    return tree, values


def _literal_entries(expression: ast.Dict) -> Iterator[tuple[Any, Any]]:
    for key, value in zip(expression.keys, expression.values, strict=True):
        try:
            yield ast.literal_eval(key) if key is not None else None, ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue


def _myst_build(tree: ast.Module, values: dict[str, Any], extensions: Any,
                files: Mapping[str, str]) -> tuple[Build, str | None]:
    """What conf.py says of its MyST pages (myst.Build), and a warning when it is not all known:
    substitutions when it enables the extension with MyST's own `{{`/`}}` (other delimiters leave
    it off), those whose values are literals or read from a file named by a literal
    (app/corpus/sphinx_substitutions.py); the tags it may change."""
    tags = _changed_tags(tree)
    # dollarmath: `$…$` is math, and `$$ … $$ (label)`'s label shows nowhere (its options: literals
    # of conf.py, a value set by code left at its default).
    on = isinstance(extensions, (list, tuple, set)) and "dollarmath" in extensions
    dollarmath = dmath_options(values, DMATH_DEFAULTS if on else None, "myst_dmath_")
    if not isinstance(extensions, (list, tuple, set)) or "substitution" not in extensions \
            or any(name.startswith("myst_sub_delimiters") for name in values):
        return Build(None, tags, dollarmath), None
    changed = _changed_by_code(tree, "myst_substitutions")
    if changed is not None and isinstance(start := values.get("myst_substitutions"), dict):
        read, changed = substitutions_by_code(tree, files, start, _changed_by_code)  # `.update(yaml.safe_load(…))`
        values = {**values, "myst_substitutions": read}
    if changed is not None:  # `myst_substitutions["x"] = …`, `.update(f())`: its values are not known
        return Build((), tags, dollarmath), (f"{SPHINX_CONFIG}:{changed}: myst_substitutions is changed by code, and "
                                             "docschat does not run conf.py; no substitution is shown")
    found = values.get("myst_substitutions", values.get("myst_substitutions.entries", {}))
    if not isinstance(found, dict) or not all(isinstance(k, str) for k in found):
        return Build(None, tags, dollarmath), None  # myst-parser refuses the configuration and uses its defaults
    substitutions = tuple((k, str(v)) for k, v in found.items())
    warning = None
    if "myst_substitutions.code" in values:
        warning = (f"{SPHINX_CONFIG}:{values['myst_substitutions.code']}: myst_substitutions is not all literals, and "
                   f"docschat does not run conf.py; {len(substitutions)} with literal values are shown, no other")
    return Build(substitutions, tags, dollarmath), warning


# Calls that may bind any name of the module: `exec(open("shared_conf.py").read())`,
# `globals().update(shared.CONFIG)`.
_REBINDING = frozenset({"exec", "eval", "execfile", "globals", "vars", "locals", "setattr", "__import__"})


def _changed_by_code(tree: ast.Module, name: str) -> int | None:
    """The line where conf.py uses or binds `name` other than by the top-level assignments
    _conf_values reads (`name.update(…)`, `for name in …`, `globals()["name"] = …`, an import, an
    assignment under an `if`), or, after the first of them, star-imports or calls a function that
    may bind any name (_REBINDING); None when it does not."""
    top = [node for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))]
    read = {id(target) for node in top for target in (node.targets if isinstance(node, ast.Assign) else [node.target])}
    first = min((node.lineno for node in top for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                 if isinstance(target, ast.Name) and target.id == name), default=None)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == name and (not isinstance(node.ctx, ast.Store) or id(node) not in read) \
                or isinstance(node, ast.Attribute) and node.attr == name \
                or isinstance(node, ast.alias) and (node.asname or node.name) == name \
                or isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names \
                or isinstance(node, ast.Constant) and isinstance(node.value, str) and name in node.value:
            return int(getattr(node, "lineno", 0))
        if first is not None and getattr(node, "lineno", 0) > first and (
                isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)
                or isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _REBINDING):
            return int(getattr(node, "lineno", 0))
    return None


def _added_by_code(tree: ast.Module, name: str) -> tuple[list[str], int | None]:
    """What conf.py adds to the list `name` other than by its top-level assignments: the literal
    strings of `name.append("x")`, `.insert(i, "x")`, `.extend([...])` and `name += [...]` or `name =
    [...]` anywhere (under an `if`: added whatever the condition, so more is excluded, never less),
    and the line of the first use whose value is not literal (`name.append(path)`, `name = f()`)."""
    top = {id(node) for node in tree.body}
    added: list[str] = []
    unread = None
    for node in ast.walk(tree):
        value: ast.expr | None = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == name and node.func.attr in ("append", "insert", "extend") and node.args:
            value = node.args[-1]
            value = ast.List([value], ast.Load()) if node.func.attr != "extend" else value
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and id(node) not in top and node.value is not None \
                and any(isinstance(t, ast.Name) and t.id == name for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            value = node.value
        else:
            continue
        try:
            found = ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            found = None
        if isinstance(found, (list, tuple)) and all(isinstance(item, str) for item in found):
            added.extend(found)
        elif unread is None:
            unread = int(getattr(node, "lineno", 0))
    return added, unread


def _changed_tags(tree: ast.Module) -> tuple[str, ...] | None:
    """The tags conf.py adds or removes, `tags.add("x")` (or `app.tags.remove("x")`); None when it
    uses `tags` any other way (a name not a string literal, passed on, assigned): any tag may
    change. `tags.has("x")` and `"x" in tags` only read them."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    changed = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id == "tags" or isinstance(node, ast.Attribute) and node.attr == "tags"):
            continue
        use = parents.get(node)
        call = parents.get(use) if use is not None else None
        if isinstance(use, ast.Compare) and node in use.comparators and all(isinstance(o, (ast.In, ast.NotIn)) for o in use.ops):
            continue
        if not isinstance(use, ast.Attribute) or not isinstance(call, ast.Call) or call.func is not use:
            return None
        if use.attr in ("add", "remove") and len(call.args) == 1 and isinstance(call.args[0], ast.Constant) \
                and isinstance(call.args[0].value, str):
            changed.add(call.args[0].value)
        elif use.attr not in ("has", "eval_condition"):
            return None
    return tuple(sorted(changed))


def _rst_suffixes(values: dict[str, Any]) -> tuple[str, ...]:
    """(".rst",) when Sphinx builds `.rst` files as reStructuredText pages: by default, and when
    source_suffix names it (a dict, as reStructuredText; a list or a name: each is, but for those
    an extension's parser claims, `.md`); when code sets it, as by default."""
    suffix = values.get("source_suffix", ".rst") if "source_suffix.code" not in values else ".rst"
    listed = [suffix] if isinstance(suffix, str) else suffix if isinstance(suffix, (list, tuple, dict)) else []
    kinds = suffix if isinstance(suffix, dict) else dict.fromkeys(listed, "restructuredtext")
    return (".rst",) if kinds.get(".rst") == "restructuredtext" else ()


class _Sphinx:
    """conf.py and the toctrees walked from the root document."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self.files = files
        self.site = Site("sphinx", SPHINX_CONFIG, every_page_listed=False, rst_suffixes=(".rst",))
        self.docnames: list[str] | None = None  # listed only for a `:glob:` entry: listing reads the whole tree
        self.titles: dict[str, str] = {}
        self.toctrees = 0

    def config(self, values: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
        if name + ".code" in values:
            self.site.warnings.append(f"{SPHINX_CONFIG}:{values[name + '.code']}: {name} is not a literal, "
                                      "and docschat does not run conf.py; its default is used")
        value = values.get(name, default)
        return value if isinstance(value, kind) else default

    def read(self) -> Site:
        site = self.site
        read = _conf_values(self.files[SPHINX_CONFIG], site)
        if read is None:
            site.myst = Build(None, None)  # conf.py unread: any tag may be added
            site.every_page_listed = True
            return site
        tree, values = read
        site.rst_suffixes = _rst_suffixes(values)
        extensions = self.config(values, "myst_enable_extensions", (list, tuple, set), ())
        if isinstance(values.get("extensions"), list) and "canonical_sphinx" in values["extensions"]:
            extensions = [*extensions, *_CANONICAL_MYST]
        site.myst, warning = _myst_build(tree, values, extensions, self.files)
        listed = extensions if isinstance(extensions, (list, tuple, set)) else ()
        by_code = "extensions.code" in values or _changed_by_code(tree, "extensions") is not None
        # MyST-NB, when conf.py's literal extensions load it: its cells, and conf.py's
        # nb_remove_code_source (app/corpus/myst_notebook.py).
        listed_extensions = values.get("extensions", []) if isinstance(values.get("extensions"), list) else []
        notebooks = not by_code and isinstance(values.get("extensions"), list) and "myst_nb" in values["extensions"]
        directives = site_directives(tree, values, by_code)
        # colon_fence stays on (its fences read, as before) when code writes or changes the list, or
        # an extension or theme not recorded is loaded (it may turn it on: canonical-sphinx turns on
        # others); off, a `:::{only} internal` it turned on would show.
        colons = "colon_fence" in listed or "myst_enable_extensions.code" in values \
            or _changed_by_code(tree, "myst_enable_extensions") is not None or directives is None
        site.myst = replace(site.myst, attrs=("attrs_inline" in listed, "attrs_block" in listed), fieldlist="fieldlist" in listed,
                            colon_fence=colons, todos=values.get("todo_include_todos") is True, directives=directives,
                            role_names=site_roles(tree, values, by_code), numfig=values.get("numfig") is True,
                            cells=False if notebooks else None,
                            remove_code_source=values.get("nb_remove_code_source") is True,
                            title_to_header=values.get("myst_title_to_header") is True,
                            extlinks=conf_extlinks(values) if "sphinx.ext.extlinks" in listed_extensions else (),
                            inventory_files=local_inventories(values) if "sphinx.ext.intersphinx" in listed_extensions else ())
        site.warnings.extend([warning] if warning else [])
        # `html_css_files` (a name, or a name and its attributes) found in the `html_static_path` folders.
        static = [str(folder) for folder in self.config(values, "html_static_path", (list, tuple), [])]
        css = [c[0] if isinstance(c, (list, tuple)) and c else c for c in self.config(values, "html_css_files", (list, tuple), [])]
        # `html_style`: the page's main stylesheet (a name or names), found in those folders too.
        style = self.config(values, "html_style", (str, list, tuple), [])
        css = [*([style] if isinstance(style, str) else style), *css]
        site.stylesheets = tuple(posixpath.normpath(posixpath.join(folder, name)) for name in css if isinstance(name, str)
                                 and "://" not in name for folder in static)
        # The theme's hiding classes (none for a theme named by code, or not recorded).
        theme = values.get("html_theme", "alabaster")
        site.theme_css = theme_css("sphinx", theme) if isinstance(theme, str) and "html_theme.code" not in values \
            and _changed_by_code(tree, "html_theme") is None else ""
        # And those of the extensions it loads (sphinx-design's `sd-d-none`): all when code changes the list.
        loaded = None if by_code else values.get("extensions", ())
        site.theme_css = "\n".join(filter(None, (site.theme_css, sphinx_extensions_css(loaded))))
        site.myst = replace(site.myst, figure_classes=sphinx_extensions_figure_classes(loaded))
        root = self.config(values, "root_doc", str, None) or self.config(values, "master_doc", str, "index")
        # exclude_patterns, with the literal patterns code adds to it (`exclude_patterns.append("x")`,
        # under an `if` too: Sphinx then never builds a page docschat indexed).
        added, unread = _added_by_code(tree, "exclude_patterns")
        if unread is not None:
            site.warnings.append(f"{SPHINX_CONFIG}:{unread}: exclude_patterns is changed by code, and docschat does not "
                                 "run conf.py; only its literal patterns are read")
        site.not_built = tuple(_sphinx_pattern(str(p)) for p in [*self.config(values, "exclude_patterns", (list, tuple), ()), *added])
        # Nor does Sphinx read a source in its templates' or the HTML builder's asset folders
        # (BuildEnvironment.find_files: templates_path, html_static_path, html_extra_path), nor
        # sphinx.project's EXCLUDE_PATHS: a `**` toctree glob lists none of them.
        assets = [*self.config(values, "templates_path", (list, tuple), []), *static,
                  *self.config(values, "html_extra_path", (list, tuple), []), "**/_sources", ".#*", "**/.#*", "*.lproj/**"]
        site.not_built += tuple(_sphinx_pattern(str(p)) for p in assets)  # as written: `./_static` matches nothing
        # include_patterns (Sphinx 5.1, default `**`): a file none of them matches is never built.
        included = [_sphinx_pattern(str(p), folders=False).pattern for p in self.config(values, "include_patterns", (list, tuple), ["**"])]
        if included != [_sphinx_pattern("**", folders=False).pattern]:
            site.not_built += (re.compile(f"(?!(?:{'|'.join(included)}))"),)
        extensions = values.get("extensions")
        # Without an extension that reads Markdown, Sphinx never builds a `.md` file (a README or
        # notes beside reStructuredText pages), toctree entry or not. Decided only when conf.py
        # writes `extensions` as literals that no code changes.
        if (not by_code
                and not (set(extensions) & _MARKDOWN_PARSERS if isinstance(extensions, list) else extensions)):
            site.not_built += (re.compile(r".*\.md$"),)
        if not isinstance(extensions, list) or "sphinx_reredirects" in extensions:  # else `redirects` is not its
            for source, destination in self.config(values, "redirects", dict, {}).items():
                # sphinx-reredirects: a docname, or an fnmatch pattern whose `*` crosses folders
                site.redirects.append((str(source).replace("**", "*").replace("*", "**"), str(destination)))
        if self.source(root) is None:
            site.warnings.append(f"{SPHINX_CONFIG}: its root document {root!r} is not in the source; every page "
                                 "stays a page")
            site.every_page_listed = True
            return site
        site.listed[root] = NavPage(())
        queue: deque[tuple[str, tuple[str, ...]]] = deque([(root, ())])
        seen = {root}
        while queue and len(seen) <= 100_000:
            doc, place = queue.popleft()
            for entry, caption in self.entries(doc):
                # As the sidebar shows it: the root's toctree captions, then each parent page's title.
                label = caption if doc == root else self.titles.get(doc, "")
                inner = (*place, label) if label else place
                if entry not in seen and self.source(entry) is not None:
                    seen.add(entry)
                    site.listed[entry] = NavPage(inner)
                    queue.append((entry, inner))
        if not self.toctrees:  # no toctree at all: nothing to go by
            site.every_page_listed = True
        return site

    def source(self, docname: str) -> str | None:
        return next((docname + suffix for suffix in _SPHINX_SUFFIXES if docname + suffix in self.files), None)

    def entries(self, doc: str) -> list[tuple[str, str]]:
        """(docname, caption) of each entry of the toctrees of `doc`."""
        path = self.source(doc)
        if path is None or path.endswith(".ipynb"):
            return []
        text = self.files[path]
        trees: list[tuple[dict[str, str], list[str]]] = []
        if path.endswith(".md"):
            try:
                front = parse_front_matter(text)
            except FrontMatterError:
                return []
            heading, directives = myst_directives(front.body)
            title = front.title if self.site.myst.for_page(front.data).title_to_header else None  # else not shown
            if title or heading:
                self.titles[doc] = title or heading or ""
            for name, content in directives:
                if name == "toctree":
                    options, body = directive_options(content, "toctree")
                    trees.append((options, body.splitlines()))
        else:
            trees = _rst_toctrees(text)
        found: list[tuple[str, str]] = []
        for options, lines in trees:
            self.toctrees += 1
            caption = options.get("caption", "").strip()
            for line in lines:
                entry = line.strip()
                if not entry or entry == "self":
                    continue
                if (titled := _TOCTREE_ENTRY.match(entry)) is not None:
                    entry = titled.group(2).strip()
                if "://" in entry or entry.startswith("mailto:"):
                    continue
                target = entry[1:] if entry.startswith("/") else posixpath.join(posixpath.dirname(doc), entry)
                target = _PAGE_SUFFIX.sub("", posixpath.normpath(target))
                if "glob" in options and any(c in entry for c in "*?["):
                    matcher = _sphinx_pattern(target, folders=False)
                    found.extend((name, caption) for name in sorted(self.all_docnames()) if matcher.match(name))
                else:
                    found.append((target, caption))
        return found

    def all_docnames(self) -> list[str]:
        if self.docnames is None:
            self.docnames = [p.rsplit(".", 1)[0] for p in self.files if p.endswith(_SPHINX_SUFFIXES)]
        return self.docnames


def _rst_toctrees(text: str) -> list[tuple[dict[str, str], list[str]]]:
    """The `.. toctree::` blocks of a reStructuredText page: options, then entry lines."""
    lines = text.splitlines()
    trees = []
    for index, line in enumerate(lines):
        if (start := _RST_TOCTREE.match(line)) is None:
            continue
        indent = len(start.group(1).expandtabs())
        block: list[str] = []
        for following in lines[index + 1:]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            block.append(following)
        options, body = directive_options("\n".join(b.strip() for b in block).lstrip("\n"), "toctree")
        trees.append((options, body.splitlines()))
    return trees


def sphinx_site(files: Mapping[str, str]) -> Site:
    return _Sphinx(files).read()
