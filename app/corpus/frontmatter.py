"""YAML front matter: parsed, validated and stripped from the page."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from app.text import storable_text

_OPEN = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n")
_CLOSE = re.compile(r"^---[ \t]*(?:\r?\n|\r?\Z)", re.MULTILINE)  # with its line break: the body follows
_CLOSE_DOTS = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:\r?\n|\r?\Z)", re.MULTILINE)  # YAML's end of document too


# YAML 1.2's booleans. PyYAML reads YAML 1.1, whose `yes`, `no`, `on` and `off` are booleans too;
# js-yaml (Mintlify's `front-matter` package, Docusaurus's gray-matter) reads them as strings.
_YAML_1_2_BOOLEANS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})


def _read(loader_class: type[yaml.SafeLoader] | type[yaml.CSafeLoader], raw: str) -> tuple[Any, list[str], dict[str, str]]:
    """The front matter's data, the keys of its top-level mapping written more than once (read from
    the composed nodes, as PyYAML's constructor keeps the last of two equal keys silently), and its
    top-level values that only YAML 1.1 reads as booleans, as written (`hidden: no`)."""
    loader = loader_class(raw)
    try:
        node = loader.get_single_node()
        duplicates: list[str] = []
        yaml_1_1: dict[str, str] = {}
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value != "<<":
                    (duplicates.append if key.value in seen else seen.add)(key.value)
                    if (isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:bool" and not value.style
                            and value.value not in _YAML_1_2_BOOLEANS):
                        yaml_1_1[key.value] = value.value
        return (None if node is None else loader.construct_document(node)), duplicates, yaml_1_1
    finally:
        loader.dispose()


def _load(raw: str) -> tuple[Any, list[str], dict[str, str]]:
    """The front matter's data and its top-level keys written more than once. Read by libyaml's
    parser first (PyYAML's own was a tenth of a compose); what libyaml refuses (a lone surrogate's
    escape, which storable_text replaces) is read again by PyYAML's, whose reading and error
    messages stay the ones documented."""
    if yaml.__with_libyaml__:
        try:
            return _read(yaml.CSafeLoader, raw)
        except yaml.YAMLError:
            pass
    return _read(yaml.SafeLoader, raw)


class FrontMatterError(ValueError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class FrontMatter:
    data: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    duplicates: tuple[str, ...] = ()  # top-level keys written more than once (YAML keeps the last)
    yaml_1_1: dict[str, str] = field(default_factory=dict)  # top-level `key: no`-like values, as written

    def as_javascript(self) -> FrontMatter:
        """As js-yaml reads it (YAML 1.2: `hidden: no` is the string "no", which JavaScript reads as
        true), the front matter of a site built by JavaScript; docschat's own keys (`audience`,
        `public`) stay as documented."""
        strings = {k: v for k, v in self.yaml_1_1.items() if k.strip().lower() not in _DECLARING_KEYS}
        return replace(self, data={**self.data, **strings}, yaml_1_1={}) if strings else self

    @property
    def title(self) -> str | None:
        return _text_value(self.data.get("title"))

    @property
    def description(self) -> str | None:
        return _text_value(self.data.get("description"))

    def _keys(self, *names: str) -> list[str]:
        """The keys spelling one of `names`, whatever their case: YAML keys are case-sensitive,
        but an author's `Audience:` means the same, and missing it would fail open."""
        return [k for k in self.data if isinstance(k, str) and k.strip().lower() in names]

    def audiences(self, groups: bool = False) -> tuple[str, ...] | None:
        """Declared audiences (`audience: x` or a list, `audiences:` alike; `public: true`), None when none.

        A key of them written twice (YAML keeps the last one) raises ValueError too.
        Only an explicit yes is public: a missing or odd `public` value keeps the page private, and
        an explicit `public: false` with no audience is a declaration too: internal. A malformed
        `audience`, two declarations of it (`audience` and `audiences`, `Audience`), or a `public`
        that the audience contradicts (an old `public: true` left beside a new `audience: internal`)
        raises ValueError naming it: the page is then internal, never the union of the two.
        With `groups` (a Mintlify site), a page's `groups` are its audiences (mintlify_groups).
        """
        if groups and (named := self.mintlify_groups()) is not None:
            return named
        from app.corpus.sources import parse_audiences

        keys, public_keys = self._keys("audience", "audiences"), self._keys("public")
        repeated = [k for k in self.duplicates if k.strip().lower() in _DECLARING_KEYS]
        if repeated:  # YAML would keep the last one silently: `audience: internal` then `audience: public`
            raise ValueError(f"{', '.join(repr(k) for k in dict.fromkeys(repeated))} declared more than once; keep one")
        for found in (keys, public_keys):
            if len(found) > 1:
                raise ValueError(f"{' and '.join(repr(k) for k in found)} are declared; keep one")
        declared = set(parse_audiences(self.data[keys[0]])) if keys else set()
        public = bool(public_keys) and _is_yes(self.data[public_keys[0]])
        if keys and public_keys and public != ("public" in declared):
            said = "true" if public else "false" if self.data[public_keys[0]] is False else "<not yes or true>"
            raise ValueError(
                f"'{public_keys[0]}: {said}' contradicts"
                f" '{keys[0]}: {', '.join(sorted(declared))}' (say public in one place)"
            )
        if public:
            declared.add("public")
        elif not declared and public_keys:
            declared.add("internal")
        return tuple(sorted(declared)) if declared else None

    def mintlify_groups(self) -> tuple[str, ...] | None:
        """A Mintlify page's `groups` as its audiences (None: it names none): with authentication on,
        only signed-in users of those groups may read it, whatever `public` says (Mintlify's docs,
        deploy/authentication-setup). A group named `public` is no anonymous reader; a malformed
        list, or none left, is internal."""
        from app.corpus.sources import parse_audiences

        if self.data.get("groups") is None:
            return None
        try:
            names = tuple(name for name in parse_audiences(self.data["groups"]) if name != "public")
        except ValueError:
            names = ()
        return names or ("internal",)


def _is_yes(value: object) -> bool:
    return value is True or isinstance(value, str) and value.strip().lower() in {"true", "yes"}


def _text_value(value: object) -> str | None:
    """A scalar as storable text (YAML escapes can spell a NUL or a lone surrogate); a list or
    mapping is no title. Written out, a list of YAML aliases can be billions of items long
    ("billion laughs")."""
    if isinstance(value, (list, dict, set, tuple)) or value in (None, ""):
        return None
    return storable_text(str(value), nul="").strip() or None


def parse_front_matter(text: str, dots: bool = False) -> FrontMatter:
    """Split `text` into its front matter and body. Raises FrontMatterError naming the line. With
    `dots` (MkDocs: mkdocs.utils.meta), the front matter may end with `...` too."""
    opening = _OPEN.match(text)
    if not opening:
        return FrontMatter({}, text.lstrip("\ufeff"))
    closing = (_CLOSE_DOTS if dots else _CLOSE).search(text, opening.end())
    if not closing:
        raise FrontMatterError("front matter opened with '---' is never closed", 1)
    raw = text[opening.end() : closing.start()]
    try:
        data, duplicates, yaml_1_1 = _load(raw) if raw.strip() else ({}, [], {})
    except RecursionError:
        raise FrontMatterError("front matter nested too deeply", 2) from None
    except ValueError as exc:  # an integer of more than 4,300 digits
        raise FrontMatterError(f"front matter value cannot be read: {str(exc)[:120]}", 2) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = (mark.line + 2) if mark is not None else 2  # +1 for 1-based, +1 for the opening '---'
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise FrontMatterError(f"invalid YAML front matter: {problem}", line) from None
    if not isinstance(data, dict):
        raise FrontMatterError("front matter must be a mapping of keys to values", 2)
    return FrontMatter(data, text[closing.end():], tuple(duplicates), yaml_1_1)


def front_matter_data(text: str, javascript: bool = False) -> dict[str, Any]:
    """A page's front matter as a site's build reads it to place the page: {} when there is none or
    it does not parse (the page's own compose reports that). `javascript`: as js-yaml reads it
    (FrontMatter.as_javascript: Starlight's and VitePress's gray-matter)."""
    if not text.lstrip("\ufeff").startswith("---"):
        return {}
    try:
        front = parse_front_matter(text)
    except (FrontMatterError, ValueError, RecursionError):
        return {}
    return (front.as_javascript() if javascript else front).data


# A key that reads as `audience` or `public` to a person but not to YAML: a Cyrillic `а`, a
# zero-width space, a typo. Within one edit of the real key, it declared something; read as
# nothing, it would leave the page to its source's default, which may be public.
_DECLARING_KEYS = ("audience", "audiences", "public")
_KEY_LINE = re.compile(r"^[\W_]*([^\s:=]{3,40})\s*[:=]")
_FENCE_LINE = re.compile(r"^\s*(?:-{3,}|\+{3,})\s*$")
# Lines a page may open with, before or inside front matter docschat does not read, that are not
# its text: a comment (`<!-- … -->`, MDX's `{/* … */}`), an MDX `import`/`export`, a YAML
# directive (`%YAML 1.2`), a TOML table (`[params]`), JSON's brackets; a YAML list item once a
# fence or a key was seen (a page may open with a list). A declaration after them was read as the
# page's text (a public page) before.
_PREAMBLE_LINE = re.compile(r"^\s*(?:<!--.*-->|\{/\*.*\*/\}|(?:import|export)\s.*|%\S.*|\[\[?[^\]]*\]\]?|[{}\[\],]+)\s*$")
_LIST_ITEM = re.compile(r"^\s*-\s")


def _one_edit_apart(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diffs) == 1 or (len(diffs) == 2 and diffs[1] == diffs[0] + 1
                                   and a[diffs[0]] == b[diffs[1]] and a[diffs[1]] == b[diffs[0]])
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def _homoglyphs_of(key: str, name: str) -> bool:
    """Whether `key` is `name` but for letters outside ASCII standing where `name` has its own (a
    Cyrillic `а` and `е`, a Greek `ο`), read as that letter, a look-alike of it or not (more pages
    internal, never fewer). Mixed scripts only, at least two of `name`'s own letters in place: a
    key written wholly in another script (a Russian site's `описание`) is a word of its own."""
    if len(key) != len(name):
        return False
    pairs = list(zip(key, name, strict=True))
    return (all(k == n or (not k.isascii() and k.isalpha()) for k, n in pairs)
            and sum(k == n for k, n in pairs) >= 2)


def declaring_key(raw: str) -> str | None:
    """The declaring key a written key stands for (NFKC's compatibility forms, so fullwidth
    `ａｕｄｉｅｎｃｅ` is `audience`; format characters such as U+200B dropped; case folded), when
    it is one, within one edit of one, or one written with look-alike letters."""
    key = "".join(ch for ch in unicodedata.normalize("NFKC", raw) if unicodedata.category(ch) != "Cf").casefold()
    return next((name for name in _DECLARING_KEYS
                 if key == name or _one_edit_apart(key, name) or _homoglyphs_of(key, name)), None)


def undeclared_audience(text: str, front: FrontMatter) -> str | None:
    """Why a page seems to declare who may see it where docschat reads no declaration; None when
    nothing does. Two places: a recognized front matter's key spelled almost as a declaring one
    (`аudience` with a Cyrillic а, `audeince`), and the page's opening lines (a blank line or BOM
    before `---`, TOML `+++`, a zero-width space), or its body's after recognized front matter (a
    second block, a comment under it): a `key: value` or `key = value` line there whose key is a
    declaring one. The caller makes the page internal, whatever its source's default."""
    for key in front.data:
        if isinstance(key, str) and key.strip().lower() not in _DECLARING_KEYS and (name := declaring_key(key)):
            return f"front matter key {key!r} reads as {name!r} but is not it; the page is internal"
    # The opening lines of the page, or of its body after recognized front matter (a second block,
    # TOML after YAML, `<!-- audience: internal -->` under it).
    recognized = _OPEN.match(text) is not None
    structured = False  # a fence or a key seen: a list item is front matter's
    for line in (front.body if recognized else text.lstrip("\ufeff")).splitlines()[:60]:
        visible = "".join(ch for ch in line if unicodedata.category(ch) != "Cf")
        if not visible.strip():
            continue
        if _FENCE_LINE.match(visible):
            structured = True
            continue
        if (_PREAMBLE_LINE.match(visible) or (structured and _LIST_ITEM.match(visible))) and not _KEY_LINE.match(visible):
            continue
        match = _KEY_LINE.match(visible)
        if match is None:
            break  # the page's text has begun
        structured = True
        if (name := declaring_key(match.group(1))) is not None:
            if recognized:
                return f"{name!r} is declared after the front matter, where it is not read; the page is internal"
            return (f"{name!r} is declared in front matter that is not read (front matter opens with '---' on "
                    "the page's first line); the page is internal")
    return None
