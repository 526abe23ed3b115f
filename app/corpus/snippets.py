"""Snippets: `import Name from "/snippets/x.mdx"` + `<Name prop="v" />` → the snippet's text, pasted."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial

from app.corpus.fences import split_fenced
from app.corpus.frontmatter import FrontMatterError, parse_front_matter

SNIPPET_DIRS = ("snippets", "_snippets")
# An import statement is one short line: longer lines are not tried (the patterns backtrack on long
# runs of spaces).
MAX_IMPORT_CHARS = 1000
_DEFAULT_IMPORT = re.compile(
    r"""[ \t]*import[ \t]+([A-Za-z_$][\w$]*)[ \t]+from[ \t]+["']([^"']+)["'][ \t]*;?[ \t]*$"""
)
_IMPORT_START = re.compile(r"^[ \t]*import[ \t]+[A-Za-z_$][\w$]*[ \t]+from[ \t]", re.MULTILINE)
# Mintlify's older snippet tag, no import: `<Snippet file="name.mdx" />`, from the snippets folder.
_SNIPPET_TAG = re.compile(r"""<Snippet\s+file\s*=\s*["']([^"'\n]{1,500})["']\s*/>""")
_ATTR = re.compile(r"""([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*["'`]([^"'`]*)["'`]\s*\})""")


def is_snippet_path(path: str) -> bool:
    """Files under a snippets folder are pasted into pages, never pages themselves."""
    return any(part in SNIPPET_DIRS for part in path.split("/")[:-1])


@dataclass
class SnippetResult:
    text: str
    resolved: int = 0
    warnings: list[str] = field(default_factory=list)


# A page pastes at most this many snippets, and this much text, all depths together: snippets that
# each use the next one twice, thirty deep, would paste a billion times; a large one, 500 times.
MAX_PASTES = 500
MAX_PASTED_CHARS = 1_000_000


def _resolve_path(importer: str, target: str, files: Mapping[str, str]) -> str | None:
    if target.startswith("/"):
        base = posixpath.normpath(target.lstrip("/"))
    else:
        base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), target))
    for candidate in (base, base + ".mdx", base + ".md"):
        if candidate in files:
            return candidate
    return None


def _tag_pattern(name: str) -> re.Pattern[str]:
    # <Name />, <Name a="b" />, or <Name a="b"></Name> with nothing but space between.
    attrs = r"""((?:\s+[A-Za-z_][\w-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|\{[^{}]*\}))?)*)"""
    return re.compile(rf"<{re.escape(name)}{attrs}\s*(?:/>|>\s*</{re.escape(name)}\s*>)")


def _substitute_props(text: str, props: dict[str, str]) -> str:
    if not props:
        return text
    return re.sub(r"\{\s*([A-Za-z_]\w*)\s*\}", lambda m: props.get(m.group(1), m.group(0)), text)


# The audiences of a file of the tree, (audiences, declared), or None for a snippet that declares none.
AudienceOf = Callable[[str], "tuple[tuple[str, ...], bool] | None"]


def resolve_snippets(
    path: str,
    text: str,
    files: Mapping[str, str],
    *,
    page_audiences: tuple[str, ...],
    audience_of: AudienceOf,
) -> SnippetResult:
    """Paste every imported Markdown snippet where its tag stands, recursively.

    Only default imports of .md/.mdx files are snippets; named imports and .jsx files are React
    components, left for the MDX cleanup. Tags inside fenced code are examples and stay as written.
    A cycle or a missing snippet is a warning naming the file; the tag is then dropped. So is a
    snippet that declares audiences (or is itself a page) not covering every audience of the
    page it would be pasted into: a public page cannot publish an internal page's text.
    """
    paster = _Paster(path, files, page_audiences, audience_of)
    paster.result.text = paster.resolve(path, text, ())
    return paster.result


class _Paster:
    """One page's pasting, at every depth: what was pasted and warned, and the budget they share."""

    def __init__(self, page: str, files: Mapping[str, str], page_audiences: tuple[str, ...],
                 audience_of: AudienceOf) -> None:
        self.page, self.files, self.page_audiences, self.audience_of = page, files, page_audiences, audience_of
        self.result = SnippetResult("")
        self.pastes_left, self.chars_left, self.warned = MAX_PASTES, MAX_PASTED_CHARS, False

    def resolve(self, path: str, text: str, stack: tuple[str, ...]) -> str:
        """`text` of the file `path` with its snippets pasted; `stack`: the files pasting it."""
        snippet_tags = "<Snippet" in text
        if _IMPORT_START.search(text) is None and not snippet_tags:  # most pages: no fences to find
            return text
        segments = split_fenced(text)
        prose = "".join(segment.text for segment in segments if not segment.is_code)
        imports: dict[str, str | None] = {}
        lines = (line for line in prose.split("\n") if len(line) <= MAX_IMPORT_CHARS)
        for match in filter(None, map(_DEFAULT_IMPORT.match, lines)):  # an import shown in code is not one
            name, target = match.group(1), match.group(2)
            if not re.search(r"\.mdx?$", target) and "snippets" not in target:
                continue
            if target.endswith((".js", ".jsx", ".ts", ".tsx")):
                continue
            resolved = _resolve_path(path, target, self.files)
            if resolved is None:
                self.result.warnings.append(f"{path}: snippet {target!r} imported as {name} not found")
            imports[name] = resolved
        if not imports and not snippet_tags:
            return text

        pieces: list[str] = []
        for segment in segments:
            if segment.is_code:
                pieces.append(segment.text)
                continue
            # The imports go: a pasted snippet's would land mid-page, where MDX refuses ESM.
            chunk = "".join(line for line in segment.text.splitlines(keepends=True)
                            if not ((found := _DEFAULT_IMPORT.match(line.rstrip("\r\n")[:MAX_IMPORT_CHARS + 1]))
                                    and found.group(1) in imports))
            for name, snippet_path in imports.items():
                chunk = _tag_pattern(name).sub(partial(self._paste, path, snippet_path, stack), chunk)
            if snippet_tags:
                chunk = _SNIPPET_TAG.sub(lambda tag: self._paste(path, self._snippet_file(path, tag.group(1)), stack, tag),
                                         chunk)
            pieces.append(chunk)
        return "".join(pieces)

    def _snippet_file(self, path: str, name: str) -> str | None:
        """Mintlify's `<Snippet file="x.mdx" />`: a file of the `snippets` folder."""
        found = _resolve_path(path, "/snippets/" + name.lstrip("/"), self.files)
        if found is None:
            self.result.warnings.append(f"{path}: snippet {name!r} (<Snippet file>) not found")
        return found

    def _paste(self, importer: str, snippet_path: str | None, stack: tuple[str, ...], tag: re.Match[str]) -> str:
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
        props = {m.group(1): next(g for g in m.groups()[1:] if g is not None) for m in _ATTR.finditer(tag.group(1))}
        self.result.resolved += 1
        pasted = "\n" + _substitute_props(self.resolve(snippet_path, body, (*stack, importer)), props).strip("\n") + "\n"
        self.chars_left -= len(pasted)
        return pasted
