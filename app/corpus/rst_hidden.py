"""What Sphinx hides on a reStructuredText page that docutils alone would show (issue 46; design
page-reader.md "Session 36, adv36rst"), each by the real part where there is one:

- a Sphinx directive written with markup its class does not take (an option it does not know, a
  second argument, content where it takes none): docutils refuses it ("Error in … directive") and
  Sphinx shows nothing of it. docschat's reading of the directive is given the spec of Sphinx's
  own class (sphinx_directive_specs.json, recorded from the real classes), so docutils refuses it
  too; a directive not recorded (another package's) takes any markup, as before.
- `rst-class` (and its old name `cssclass`): Sphinx's name of docutils' own `class` directive,
  which puts its classes on the next element (a theme's stylesheet may hide them).
- doctest flags: Sphinx's TrimDoctestFlagsTransform cuts `# doctest: …` and `<BLANKLINE>` out of
  a doctest block (`>>>` paragraphs) and a literal block (`::`) read as a Python console, the
  language `.. highlight::` last set (Sphinx's default one, `default`, when none did).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.parsers.rst.directives.misc import Class
from docutils.transforms import Transform

from app.corpus import myst

__all__ = ["TrimDoctestFlags", "as_sphinx_declares", "register"]

# docutils' checks of an option's value that only read the value (others, such as `parser_name`,
# import a module named by the page: never run); any other option takes any value.
_CHECKS = frozenset({"flag", "unchanged", "unchanged_required", "positive_int", "nonnegative_int", "class_option",
                     "percentage", "length_or_unitless", "length_or_percentage_or_unitless", "unicode_code",
                     "single_char_or_unicode", "single_char_or_whitespace_or_unicode", "positive_int_list",
                     "uri"})


@cache
def _specs() -> dict[str, list[Any]]:
    data: dict[str, list[Any]] = json.loads(Path(__file__).with_name("sphinx_directive_specs.json").read_text())["directives"]
    return data


def _checked(check: str) -> Any:
    """An option's value checked as Sphinx's class checks it, then kept as written (docschat's
    directives read options as text): a value the check refuses makes docutils refuse the directive."""
    if check == "flag":
        return directives.flag
    function = getattr(directives, check, None) if check in _CHECKS else None
    if function is None:
        return directives.unchanged

    def checked(value: str | None) -> str | None:
        function(value)
        return value

    return checked


def as_sphinx_declares(name: str, directive: type[Directive]) -> type[Directive]:
    """`directive` (docschat's reading of Sphinx's `name`) taking the markup Sphinx's class takes."""
    spec = _specs().get(name.lower())
    if spec is None:
        return directive
    required, optional, whitespace, content, options = spec
    option_spec = None if options is None else {key: _checked(check) for key, check in options.items()}
    return type(directive.__name__, (directive,), {
        "required_arguments": required, "optional_arguments": optional, "final_argument_whitespace": whitespace,
        "has_content": content, "option_spec": option_spec})


class _HighlightLanguage(nodes.Invisible, nodes.Element):
    """Where `.. highlight::` sets the language of the literal blocks after it (taken out by
    TrimDoctestFlags)."""


class _Highlight(Directive):
    required_arguments = 1
    option_spec = {"linenothreshold": directives.positive_int, "force": directives.flag}

    def run(self) -> list[nodes.Node]:
        return [_HighlightLanguage(language=self.arguments[0].strip())]


def register() -> None:
    """Sphinx's names of docutils' `class`, and `highlight` (which shows nothing), registered with
    docutils (after docschat's Sphinx directives: these replace theirs)."""
    directives.register_directive("rst-class", Class)
    directives.register_directive("cssclass", Class)
    directives.register_directive("highlight", _Highlight)


class TrimDoctestFlags(Transform):
    """`# doctest: +FLAG …` (to the end of its line) and `<BLANKLINE>` cut out of doctest blocks and
    of literal blocks Sphinx reads as a Python console (sphinx.transforms.post_transforms.code:
    a block whose language is a console's, or Python's and it begins with `>>>`)."""

    default_priority = 980  # before rst's own transform (990); docutils' stubs type it None

    def apply(self, **kwargs: Any) -> None:
        language = "default"
        for node in list(self.document.findall(
                lambda n: isinstance(n, (_HighlightLanguage, nodes.doctest_block, nodes.literal_block)))):
            if isinstance(node, _HighlightLanguage):
                language = node["language"]
                node.parent.remove(node)
                continue
            text = node.astext()
            if isinstance(node, nodes.literal_block) and ("code" in node["classes"] or node.rawsource != text):
                continue  # a code directive's (read by rst._Code) or a parsed literal's (not highlighted)
            trimmed = myst.shown_console("pycon" if isinstance(node, nodes.doctest_block) else language, text)
            if trimmed != text:
                node[:] = [nodes.Text(trimmed)]
