"""Snippets: `import Name from "/snippets/x.mdx"` + `<Name prop="v" />` → the snippet's text, pasted.

Where a page imports and uses a snippet is read from its MDX tree (app/corpus/reader.py `read_uses`),
so an import or a tag shown in code is an example, and a prop is pasted only where the snippet
renders it (`{name}`, not in its code)."""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from app.corpus.frontmatter import FrontMatterError, parse_front_matter
from app.corpus.reader import Element, Uses, read_uses

SNIPPET_DIRS = ("snippets", "_snippets")
SNIPPET_TAG = "Snippet"  # Mintlify's older snippet tag, no import: `<Snippet file="name.mdx" />`
# Whether a page may use a snippet at all: a line that starts with `import`, or the tag. Only a
# filter (the tree decides): a page with neither is not read twice (a quarter of a Mintlify site's
# pages say "import" somewhere in their prose).
_MAY_USE_SNIPPETS = re.compile(rf"^[ \t]*import\b|<{SNIPPET_TAG}\b", re.MULTILINE)
_SNIPPET_SUFFIXES = (".md", ".mdx")


def _in_template(value: str) -> str:
    """`value` written inside a JavaScript template literal, to read back as itself."""
    return value.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${")


def is_snippet_path(path: str) -> bool:
    """Files under a snippets folder are pasted into pages, never pages themselves."""
    return any(part in SNIPPET_DIRS for part in path.split("/")[:-1])


# An MDX import of a Markdown file at a line's start (MDX's ESM), and a fence's opening or closing line.
_MDX_IMPORT = re.compile(r"""^import\s[^\n]*?\bfrom\s*["']([^"'\n]+\.mdx?)["']""")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def imported_markdown(files: Mapping[str, str]) -> tuple[str, ...]:
    """The Markdown files of the source that a page imports, outside the snippets folders
    (@mintlify/common's buildImportMap and isImportedAsSnippet: `/x.mdx` from the root, `./x.mdx`
    from the page's folder, lower case): Mintlify builds no page of them. Read by line, not in a
    fenced code block (an example of an import there imports nothing)."""
    found: set[str] = set()
    for path, text in files.items():
        if not path.endswith((".mdx", ".md")) or "import" not in text:
            continue
        fence = ""
        for line in text.splitlines():
            if (opening := _FENCE.match(line)) is not None:
                mark, rest = opening.groups()
                closes = mark[0] == fence[:1] and len(mark) >= len(fence) and not rest.strip()
                fence = mark if not fence else "" if closes else fence
                continue
            if not fence and (imported := _MDX_IMPORT.match(line)) is not None:
                source = imported.group(1)
                if source.startswith("/"):
                    target = posixpath.normpath(source).lstrip("/")
                elif source.startswith(("./", "../")):
                    target = posixpath.normpath(posixpath.join(posixpath.dirname(path), source))
                else:
                    continue
                if not target.lower().startswith(("snippets/", "_snippets/")):
                    found.add(target.lower())
    return tuple(sorted(found))


@dataclass
class SnippetResult:
    text: str
    resolved: int = 0
    unresolved: int = 0  # imports and <Snippet file> tags naming no file of the tree
    warnings: list[str] = field(default_factory=list)


# A page pastes at most this many snippets, and this much text, all depths together: snippets that
# each use the next one twice, thirty deep, would paste a billion times; a large one, 500 times.
MAX_PASTES = 500
MAX_PASTED_CHARS = 1_000_000


def _resolve_path(importer: str, target: str, files: Mapping[str, str]) -> str | None:
    """The file of the tree `target` names, from the importer's folder or (`/…`) the tree's root."""
    base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), target).lstrip("/"))
    return next((path for path in (base, base + ".mdx", base + ".md") if path in files), None)


# The audiences of a file of the tree, (audiences, declared), or None for a snippet that declares none.
AudienceOf = Callable[[str], "tuple[tuple[str, ...], bool] | None"]


def resolve_snippets(
    path: str,
    text: str,
    files: Mapping[str, str],
    *,
    page_audiences: tuple[str, ...],
    audience_of: AudienceOf,
    math: bool = False,
    directives: bool = False,
    comments: bool = False,
) -> SnippetResult:
    """The MDX page `text` with every imported Markdown snippet pasted where its tag stands, recursively.

    Only default imports of .md/.mdx files are snippets; named imports and .jsx files are React
    components, left to the page reader. A cycle or a missing snippet is a warning naming the file;
    the tag is then dropped. So is a snippet that declares audiences (or is itself a page) not
    covering every audience of the page it would be pasted into: a public page cannot publish an
    internal page's text. `math`, `directives`, `comments`: the page's syntax, as the page reader reads it.
    """
    paster = _Paster(path, files, page_audiences, audience_of, {"math": math, "directives": directives, "comments": comments})
    paster.result.text = paster.resolve(path, text, (), {})
    if paster.hoisted:  # the pasted snippets' own components, at the page's top, where MDX allows them
        paster.result.text = "\n\n".join(dict.fromkeys(paster.hoisted)) + "\n\n" + paster.result.text
    return paster.result


# A snippet is read once for all the pages pasting it (a Mintlify site pastes one into tens of
# pages): the reading depends on its text and syntax alone, and nothing changes it. Pages are
# read once each, and not kept.
@functools.lru_cache(maxsize=256)
def _snippet_uses(text: str, *, math: bool, directives: bool, comments: bool) -> Uses:
    return read_uses(text, math=math, directives=directives, comments=comments)


class _Paster:
    """One page's pasting, at every depth: what was pasted and warned, and the budget they share."""

    def __init__(self, page: str, files: Mapping[str, str], page_audiences: tuple[str, ...],
                 audience_of: AudienceOf, syntax: dict[str, bool]) -> None:
        self.page, self.files, self.page_audiences, self.audience_of = page, files, page_audiences, audience_of
        self.syntax = syntax
        self.result = SnippetResult("")
        self.pastes_left, self.chars_left, self.warned = MAX_PASTES, MAX_PASTED_CHARS, False
        # The snippets' imports and exports but their layouts: what their components are (`export
        # const Secret = () => null`, `import {Hidden} from "/snippets/x.jsx"`), read with the page.
        self.hoisted: list[str] = []
        self.bound: set[str] = set()  # the names the page and the hoisted blocks bind: MDX refuses one bound twice

    def resolve(self, path: str, text: str, stack: tuple[str, ...], props: dict[str, str]) -> str:
        """`text` of the file `path` with its snippets pasted and `props` filled in; `stack`: the
        files pasting it. A snippet (`stack` not empty) loses its imports and exports: pasted mid-page,
        MDX would refuse them, and they show nothing."""
        if not stack and _MAY_USE_SNIPPETS.search(text) is None:
            return text  # most pages: nothing to read twice
        uses = _snippet_uses(text, **self.syntax) if stack else read_uses(text, **self.syntax)
        if uses.error is not None:
            if not stack:
                return text  # the page reader reports the page's own fault
            self.result.warnings.append(f"{path}: the snippet's parser rejects it ({uses.error[:300]}); not pasted")
            return ""
        imports: dict[str, str | None] = {}
        for name, target in uses.imports:
            if not target.endswith(_SNIPPET_SUFFIXES) and "snippets" not in target or target.endswith(
                    (".js", ".jsx", ".ts", ".tsx")):
                continue
            imports[name] = self._find(path, (target,), f"{target!r} imported as {name}")
        if stack and uses.layout_hides:
            return ""  # its own layout (`export default () => null`) shows none of it
        edits: list[tuple[int, int, str]] = [(start, end, "") for start, end in uses.esm] if stack else []
        for (start, end), default, names in zip(uses.esm, uses.esm_default, uses.esm_names, strict=False):
            if not stack:
                self.bound.update(names)
            elif not default and not self.bound & set(names):  # a name bound twice: the page's own wins
                self.hoisted.append(uses.text[start:end])
                self.bound.update(names)
        for element in uses.elements:
            if element.name in imports:
                snippet: str | None = imports[element.name]
            elif element.name == SNIPPET_TAG and isinstance(file := element.attributes.get("file"), str):
                # Mintlify's `<Snippet file="x.mdx" />`: a file of the `snippets` folder, or of `_snippets`,
                # the folder of the tag's first version (@mintlify/common's getFileCategory still files
                # it as a snippet; a real site, mem0's, keeps its tag snippets there).
                snippet = self._find(path, tuple(f"/{folder}/{file.lstrip('/')}" for folder in SNIPPET_DIRS),
                                     f"{file!r} (<Snippet file>)")
            else:
                continue
            if any(start <= element.start < end for start, end, _ in edits):
                continue  # inside a snippet tag already replaced
            edits.append((element.start, element.end, self._paste(path, snippet, stack, element)))
        for name, start, end in uses.expressions:
            if name in props and not any(a <= start < b for a, b, _ in edits):
                edits.append((start, end, props[name]))
        for name, start, end in uses.placeholders:  # `${name}` in a template: the value, as the template's text
            if name in props and not any(a <= start < b for a, b, _ in edits):
                edits.append((start, end, _in_template(props[name])))
        pasted = uses.text
        for start, end, replacement in sorted(edits, reverse=True):
            pasted = pasted[:start] + replacement + pasted[end:]
        return pasted

    def _find(self, importer: str, targets: tuple[str, ...], named: str) -> str | None:
        """The first file of `targets` found, or None counted and warned of as unresolved (`named`:
        how the page names it)."""
        found = next(filter(None, (_resolve_path(importer, target, self.files) for target in targets)), None)
        if found is None:
            self.result.unresolved += 1
            self.result.warnings.append(f"{importer}: snippet {named} not found")
        return found

    def _paste(self, importer: str, snippet_path: str | None, stack: tuple[str, ...], element: Element) -> str:
        if snippet_path is None:
            return ""
        if self.pastes_left <= 0 or self.chars_left <= 0:
            if not self.warned:
                self.warned = True
                self.result.warnings.append(f"{self.page}: more than {MAX_PASTES} snippets or "
                                            f"{MAX_PASTED_CHARS:,} characters pasted; the rest are left out")
            return ""
        self.pastes_left -= 1
        if snippet_path in (*stack, importer):
            self.result.warnings.append(f"{importer}: snippet cycle {' -> '.join((*stack, importer, snippet_path))}")
            return ""
        allowed = self.audience_of(snippet_path)
        if allowed is not None and not set(self.page_audiences) <= set(allowed[0]):
            self.result.warnings.append(
                f"{self.page}: snippet {snippet_path} is for {', '.join(allowed[0])}, not for every audience of the "
                f"page ({', '.join(self.page_audiences)}); not pasted"
            )
            return ""
        try:
            body = parse_front_matter(self.files[snippet_path]).body
        except FrontMatterError as exc:
            self.result.warnings.append(f"{snippet_path}:{exc.line}: {exc} (snippet pasted without its front matter)")
            body = self.files[snippet_path]
        props = {key: value for key, value in element.attributes.items() if isinstance(value, str)}
        self.result.resolved += 1
        text = self.resolve(snippet_path, body, (*stack, importer), props).strip("\n")
        pasted = text if element.inline else "\n" + text + "\n"
        self.chars_left -= len(pasted)
        return pasted


class Pastable(Mapping[str, str]):
    """The tree's files as the page `page` may paste them (MkDocs' `--8<--`, read by
    pymdownx.snippets): as resolve_snippets refuses it, a file that declares audiences not covering
    every audience of the page is not there for it, with a warning. The site pastes it, front matter
    and all; a public page must not publish an internal file's text."""

    def __init__(self, files: Mapping[str, str], page: str, page_audiences: tuple[str, ...],
                 audience_of: AudienceOf, warnings: list[str]) -> None:
        self.files, self.page, self.page_audiences = files, page, page_audiences
        self.audience_of, self.warnings = audience_of, warnings

    def __getitem__(self, path: str) -> str:
        text = self.files[path]
        allowed = self.audience_of(path)
        if allowed is not None and allowed[1] and not set(self.page_audiences) <= set(allowed[0]):
            self.warnings.append(f"{self.page}: snippet {path} is for {', '.join(allowed[0])}, not for every "
                                 f"audience of the page ({', '.join(self.page_audiences)}); not pasted")
            raise KeyError(path)
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)
