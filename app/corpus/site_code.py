"""Sites whose configuration is code, read without running it (app/corpus/site.py says what each
framework's navigation decides):

- Docusaurus: `docusaurus.config.*` and a `sidebars.js`/`sidebars.ts` are JavaScript or TypeScript,
  parsed by acorn in the page reader's V8 (app/corpus/js/src/module-value.js), and only their
  literals are read.
- Sphinx: `conf.py` is Python, parsed by `ast`, and only its assignments of literals are read; the
  toctrees are read from the pages (MyST fences by myst-parser's markdown-it, reStructuredText blocks
  by their indentation).
"""

from __future__ import annotations

import ast
import json
import posixpath
import re
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from app.corpus.frontmatter import FrontMatterError, parse_front_matter
from app.corpus.markdown import myst_directives
from app.corpus.myst import Build, directive_options
from app.corpus.reader import read_module_value
from app.corpus.site_model import _MAX_DEPTH, _PAGE_SUFFIX, DOCUSAURUS_CONFIGS, SPHINX_CONFIG, NavPage, Site, stem

# --- Docusaurus -----------------------------------------------------------------------------------

_SIDEBARS = ("sidebars.json", "sidebars.js", "sidebars.ts", "sidebars.mjs", "sidebars.cjs", "sidebars.mts",
             "sidebars.cts")
_DOCUSAURUS_PRESETS = ("classic", "@docusaurus/preset-classic")
_DOCUSAURUS_DOCS_PLUGIN = ("content-docs", "@docusaurus/plugin-content-docs")


@dataclass
class _DocusaurusConfig:
    """What docusaurus.config.* says of the docs (the classic preset's or the docs plugin's
    options): their folder, their sidebars file (False: none), and the other folders whose
    Markdown it builds as pages (the blog, src/pages). None where the config does not say in
    literals: Docusaurus's defaults, or a guess, are used."""

    docs: str = "docs"
    sidebars: str | bool | None = None
    others: tuple[str, ...] = ("blog", "src/pages")
    # The docs' `include` and `exclude` globs (relative to the docs folder), when given.
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    docs_off: bool = False


def _docusaurus_config(name: str, text: str) -> _DocusaurusConfig:
    """The config read from its literals (never run). Its code (imports, `require.resolve`, theme
    objects) is not what decides the pages: what cannot be read is left at Docusaurus's default."""
    found = _DocusaurusConfig()
    value = read_module_value(text, typescript=name.endswith("ts")).value
    if not isinstance(value, dict):
        return found
    docs: Any = None
    blog: Any = None
    pages: Any = None
    for entry in value.get("presets") or []:
        if isinstance(entry, list) and len(entry) > 1 and entry[0] in _DOCUSAURUS_PRESETS and isinstance(entry[1], dict):
            docs, blog, pages = entry[1].get("docs"), entry[1].get("blog"), entry[1].get("pages")
    for entry in value.get("plugins") or []:
        if (isinstance(entry, list) and len(entry) > 1 and entry[0] in _DOCUSAURUS_DOCS_PLUGIN
                and isinstance(entry[1], dict) and entry[1].get("id", "default") == "default"):
            docs = entry[1]
    found.docs_off = docs is False  # the preset's `docs: false`: no docs plugin, no doc is built
    if isinstance(docs, dict):
        if isinstance(docs.get("path"), str):
            found.docs = posixpath.normpath(docs["path"]).strip("/")
        for option in (o for o in ("include", "exclude") if isinstance(docs.get(o), list)):  # > 6 wildcards: not read
            setattr(found, option, tuple(str(glob) for glob in docs[option][:100] if str(glob).count("*") <= 6))
        sidebars = docs.get("sidebarPath")
        found.sidebars = posixpath.normpath(sidebars) if isinstance(sidebars, str) else False if sidebars is False else None
    others = []
    for option, default in ((blog, "blog"), (pages, "src/pages")):
        if option is not False:
            folder = option.get("path") if isinstance(option, dict) else None
            others.append(posixpath.normpath(folder if isinstance(folder, str) else default).strip("/"))
    found.others = tuple(others)
    return found


def docusaurus_site(files: Mapping[str, str]) -> Site:
    config = next(name for name in DOCUSAURUS_CONFIGS if name in files)
    site = Site("docusaurus", config)
    options = _docusaurus_config(config, files[config])
    site.built_folders = (options.docs, *options.others)
    # Globby's include and ignore (the docs plugin's `include`, `exclude`): a doc they leave out is never built.
    prefix = "" if options.docs in ("", ".") else re.escape(options.docs + "/")
    if options.include:
        site.not_built += (re.compile(f"{prefix}(?!(?:{'|'.join(map(_micromatch, options.include))})$)"),)
    if options.exclude:
        site.not_built += (re.compile(f"{prefix}(?:{'|'.join(map(_micromatch, options.exclude))})$"),)
    site.not_built += (re.compile(prefix),) if options.docs_off else ()
    if options.sidebars is False:  # no sidebars: every doc is a page, reached by its links
        return site
    name = options.sidebars if isinstance(options.sidebars, str) else next((n for n in _SIDEBARS if n in files), None)
    if name is not None and name not in files:
        site.warnings.append(f"{config}: its sidebars file {name} is not in the source; every doc stays a page")
        return site
    sidebars = _read_sidebars(name, files[name], site) if name else None
    if not isinstance(sidebars, dict):
        return site
    site.every_page_listed = False
    sidebar = _Sidebars(files, site, options.docs)
    for items in sidebars.values():
        sidebar.walk(items, (), 0)
    if not site.listed:  # nothing could be read (or the sidebars list no doc): every doc stays a page
        site.every_page_listed = True
    return site


def _micromatch(glob: str) -> str:
    """A glob as Docusaurus's globby (micromatch) reads it, as a regex: `**` any folders, `*` and
    `?` within a name, `{a,b}` either, `[…]` a class."""
    out, i, braces = "", 0, 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
            continue
        if glob.startswith("**", i):
            out, i = out + ".*", i + 2
            continue
        if c == "{" and "}" in glob[i:]:
            out, braces = out + "(?:", braces + 1
        elif c == "}" and braces:
            out, braces = out + ")", braces - 1
        elif c == "," and braces:
            out += "|"
        elif c == "[" and (end := glob.find("]", i + 1)) > i + 1:
            out, i = out + "[" + glob[i + 1:end].replace("\\", "\\\\").replace("!", "^", 1) + "]", end
        else:
            out += "[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c)
        i += 1
    return out + ")" * braces


def _read_sidebars(name: str, text: str, site: Site) -> Any:
    """The sidebars' object: JSON, or a sidebars.js/.ts module read from its literals, never run
    (a Docusaurus site's code is not docschat's to execute). What is code (a call, a spread, a
    variable) is left out with a warning naming its line; nothing read keeps every doc a page."""
    if name.endswith(".json"):
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as exc:  # nested past what json reads
            site.warnings.append(f"{name}: cannot be read ({exc}); every doc stays a page")
            return None
    read = read_module_value(text, typescript=name.endswith(("ts", "mts", "cts")))
    if read.error is not None:
        site.warnings.append(f"{name}: cannot be read ({read.error}); every doc stays a page")
        return None
    for line, what in read.skipped:
        site.warnings.append(f"{name}:{line}: {what} is code, which docschat does not run; the sidebar "
                             "items it makes are left out")
    return read.value


class _Sidebars:
    """Docusaurus sidebar items: doc ids, categories (with a doc link), autogenerated folders."""

    def __init__(self, files: Mapping[str, str], site: Site, docs: str) -> None:
        self.files, self.site = files, site
        self.prefix = "" if docs in ("", ".") else docs + "/"
        self.doc_stems: list[str] | None = None  # listed only for `autogenerated`: listing reads the whole tree

    def docs(self) -> list[str]:
        if self.doc_stems is None:
            self.doc_stems = [stem(p)[len(self.prefix):] for p in self.files
                              if p.startswith(self.prefix) and _PAGE_SUFFIX.search(p)]
        return self.doc_stems

    def add(self, doc_id: str, place: tuple[str, ...]) -> None:
        self.site.listed.setdefault(stem(self.prefix + doc_id), NavPage(place))

    def walk(self, node: Any, place: tuple[str, ...], depth: int) -> None:
        if depth > _MAX_DEPTH:
            return
        if isinstance(node, str):
            self.add(node, place)
        elif isinstance(node, list):
            for item in node:
                self.walk(item, place, depth + 1)
        elif isinstance(node, dict):
            self.item(node, place, depth)

    def item(self, node: dict[str, Any], place: tuple[str, ...], depth: int) -> None:
        kind = node.get("type")
        if kind in ("doc", "ref") and isinstance(node.get("id"), str):
            self.add(node["id"], place)
        elif kind == "autogenerated":
            folder = str(node.get("dirName", ".")).strip("/")
            for doc in self.docs():
                if folder in ("", ".") or doc.startswith(folder + "/"):
                    self.add(doc, place)
        elif kind == "category" or "items" in node:
            label = str(node.get("label", "")).strip()
            inner = (*place, label) if label else place
            link = node.get("link")
            if isinstance(link, dict) and link.get("type") == "doc" and isinstance(link.get("id"), str):
                self.add(link["id"], inner)
            self.walk(node.get("items"), inner, depth + 1)
        elif kind is None and all(isinstance(v, list) for v in node.values()):  # shorthand {"Label": [items]}
            for label, items in node.items():
                self.walk(items, (*place, str(label)), depth + 1)


# --- Sphinx ---------------------------------------------------------------------------------------

_SPHINX_SUFFIXES = (".md", ".rst", ".ipynb")
# Sphinx extensions that register a parser for `.md` (the MyST ones, and their predecessors).
_MARKDOWN_PARSERS = frozenset({"myst_parser", "myst_nb", "recommonmark", "m2r", "m2r2", "sphinx_markdown_parser",
                               "sphinx_mdinclude"})
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


def _myst_build(tree: ast.Module, values: dict[str, Any], extensions: Any) -> tuple[Build, str | None]:
    """What conf.py says of its MyST pages (myst.Build), and a warning when it is not all known:
    substitutions when it enables the extension with MyST's own `{{`/`}}` (other delimiters leave
    it off), those whose values are literals; the tags it may change."""
    tags = _changed_tags(tree)
    if not isinstance(extensions, (list, tuple, set)) or "substitution" not in extensions \
            or any(name.startswith("myst_sub_delimiters") for name in values):
        return Build(None, tags), None
    changed = _changed_by_code(tree, "myst_substitutions")
    if changed is not None:  # `myst_substitutions["x"] = …`, `.update(…)`: its values are not known
        return Build((), tags), (f"{SPHINX_CONFIG}:{changed}: myst_substitutions is changed by code, and docschat "
                                 "does not run conf.py; no substitution is shown")
    found = values.get("myst_substitutions", values.get("myst_substitutions.entries", {}))
    if not isinstance(found, dict) or not all(isinstance(k, str) for k in found):
        return Build(None, tags), None  # myst-parser refuses the configuration and uses its defaults
    substitutions = tuple((k, str(v)) for k, v in found.items())
    warning = None
    if "myst_substitutions.code" in values:
        warning = (f"{SPHINX_CONFIG}:{values['myst_substitutions.code']}: myst_substitutions is not all literals, and "
                   f"docschat does not run conf.py; {len(substitutions)} with literal values are shown, no other")
    return Build(substitutions, tags), warning


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


class _Sphinx:
    """conf.py and the toctrees walked from the root document."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self.files = files
        self.site = Site("sphinx", SPHINX_CONFIG, every_page_listed=False)
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
        extensions = self.config(values, "myst_enable_extensions", (list, tuple, set), ())
        site.myst, warning = _myst_build(tree, values, extensions)
        site.warnings.extend([warning] if warning else [])
        root = self.config(values, "root_doc", str, None) or self.config(values, "master_doc", str, "index")
        site.not_built = tuple(_sphinx_pattern(str(p)) for p in self.config(values, "exclude_patterns", (list, tuple), ()))
        # include_patterns (Sphinx 5.1, default `**`): a file none of them matches is never built.
        included = [_sphinx_pattern(str(p), folders=False).pattern for p in self.config(values, "include_patterns", (list, tuple), ["**"])]
        if included != [_sphinx_pattern("**", folders=False).pattern]:
            site.not_built += (re.compile(f"(?!(?:{'|'.join(included)}))"),)
        extensions = values.get("extensions")
        # Without an extension that reads Markdown, Sphinx never builds a `.md` file (a README or
        # notes beside reStructuredText pages), toctree entry or not. Decided only when conf.py
        # writes `extensions` as literals that no code changes.
        if ("extensions.code" not in values and _changed_by_code(tree, "extensions") is None
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
            if front.title or heading:
                self.titles[doc] = front.title or heading or ""
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
