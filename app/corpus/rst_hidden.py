"""What Sphinx hides on a reStructuredText page that docutils alone would show (issue 46; design
page-reader.md "Session 36, adv36rst"), each by the real part where there is one:

- a Sphinx directive written with markup its class does not take (an option it does not know, a
  second argument, content where it takes none): docutils refuses it ("Error in … directive") and
  Sphinx shows nothing of it. docschat's reading of the directive is given the spec of Sphinx's
  own class (sphinx_directive_specs.json, recorded from the real classes), so docutils refuses it
  too; a directive not recorded (another package's) takes any markup, as before.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from docutils.parsers.rst import Directive, directives

__all__ = ["as_sphinx_declares"]

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
