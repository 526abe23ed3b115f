"""A bounded fuzz run of the reStructuredText reader (issue 46; app/corpus/rst.py): random `.rst`
pages nesting what Sphinx's HTML build hides (comments of every spelling, `only` for another
builder, raw LaTeX and hidden raw HTML, doctest setup and `:hide:`, a todo, unused substitutions,
`meta`, `index`, a hidden toctree's caption, doctest flags, directives Sphinx refuses for their
markup) in and around what it shows (paragraphs, lists, notes, containers, quotes, definition
lists, list tables, `only:: html`). Which marker is hidden is known by construction, from Sphinx's
rules as tests/data/rst-probes recorded them with the real build: a marker anywhere inside a
hidden construct (`zzh…q`) must never be read; one shown (`zzs…q`) is counted when not read. No
page may crash the reader or take longer than PAGE_SECONDS.

Slow group:
    DOCSCHAT_FUZZ_PAGES=2000 DOCSCHAT_FUZZ_SEED=46 pytest -m slow tests/test_rst_fuzz.py -s
"""

from __future__ import annotations

import json
import os
import random
import re
import time

import pytest

from app.corpus.markdown import read_page
from app.corpus.myst import Build

pytestmark = pytest.mark.slow

PAGES = int(os.environ.get("DOCSCHAT_FUZZ_PAGES", "300"))
SEED = int(os.environ.get("DOCSCHAT_FUZZ_SEED", "46"))
PAGE_SECONDS = 10.0
HIDDEN, SHOWN = re.compile(r"zzh[0-9]+q"), re.compile(r"zzs[0-9]+q")
# Each page declares the roles its inline raw pieces use, as a Sphinx page must.
_ROLES = ".. role:: raw-html(raw)\n   :format: html\n\n.. role:: raw-latex(raw)\n   :format: latex\n\n"
_LINK_TARGET = re.compile(r"\]\([^()\s]*\)")


class _Page:
    def __init__(self, rng: random.Random) -> None:
        self.rng, self.count = rng, 0

    def marker(self, hidden: bool) -> str:
        self.count += 1
        return f"zz{'h' if hidden else 's'}{self.count}q"

    def inline(self, hidden: bool) -> str:
        """A line of text: visible pieces (markers hidden when the line is) and inline hidden ones."""
        m, h = (lambda: self.marker(hidden)), (lambda: self.marker(True))
        pieces = [lambda: m(), lambda: f"*{m()}*", lambda: f"**{m()}**", lambda: f"``{m()}``", lambda: f"word {m()} word",
                  lambda: f":raw-latex:`{h()}`", lambda: f":raw-html:`<span hidden>{h()}</span>`",
                  lambda: f":raw-html:`<!-- {h()} -->`", lambda: f":raw-html:`<b>{m()}</b>`",
                  lambda: f"`{m()} <https://example.com/>`__", lambda: "text", lambda: "and"]
        return " ".join(self.rng.choice(pieces)() for _ in range(self.rng.randint(1, 5)))

    def blocks(self, hidden: bool, depth: int) -> list[str]:
        return [line for _ in range(self.rng.randint(1, 3)) for line in [*self.block(hidden, depth), ""]]

    def nested(self, hidden: bool, depth: int, indent: str = "   ") -> list[str]:
        return [indent + line if line else "" for line in self.blocks(hidden, depth + 1)]

    def code(self) -> list[str]:
        return [f"   x = '{self.marker(True)}'", f"   {self.inline(True)}"]

    def block(self, hidden: bool, depth: int) -> list[str]:
        rng = self.rng
        if depth >= 4 or rng.random() < 0.35:
            return [self.inline(hidden)]
        return self.hidden_block(hidden, depth) if rng.random() < 0.5 else self.shown_block(hidden, depth)

    def hidden_block(self, hidden: bool, depth: int) -> list[str]:
        """A construct the build hides: every marker in it hidden (but a doctest line's code's)."""
        rng = self.rng
        kind = rng.randrange(16)
        if kind == 0:
            return [f".. {self.inline(True)}", *self.code()]
        if kind == 1:
            return ["..", *self.nested(True, depth)]
        if kind == 2:
            expression = rng.choice(["latex", "not html", "latex or text", "html and latex", "not (html or latex)",
                                     "builder_latex", "format_man"])
            return [f".. only:: {expression}", "", *self.nested(True, depth)]
        if kind == 3:
            return [".. raw:: latex", "", *self.code()]
        if kind == 4:
            inner = rng.choice(["<div hidden>{}</div>", "<!-- {} -->", "<script>var a = '{}'</script>",
                                "<template>{}</template>", '<p style="display:none">{}</p>',
                                "<style>.x::after {{ content: '{}' }}</style>"])
            # Words alone inside (a role's `-->` would end the comment early: shown, by the build too)
            return [".. raw:: html", "", "   " + inner.format(f"{self.marker(True)} word {self.marker(True)}")]
        if kind == 5:
            return [f".. {rng.choice(['testsetup', 'testcleanup'])}::", "", *self.code()]
        if kind == 6:
            return [f".. {rng.choice(['testcode', 'doctest', 'testoutput'])}::", "   :hide:", "", *self.code()]
        if kind == 7:
            return [".. todo::", "", *self.nested(True, depth)]
        if kind == 8:
            return [f".. |unused{self.count}| replace:: {self.inline(True)}"]
        if kind == 9:
            return [".. meta::", f"   :description: {self.inline(True)}"]
        if kind == 10:
            return [f".. index:: {self.marker(True)}"]
        if kind == 11:
            return [".. toctree::", "   :hidden:", f"   :caption: {self.marker(True)}"]
        if kind == 12:
            return [f">>> print('{self.marker(hidden)}')  # doctest: +SKIP {self.marker(True)}"]
        if kind == 13:  # Sphinx refuses content here: nothing of it shows
            return [f".. centered:: {self.inline(True)}", "", *self.nested(True, depth)]
        if kind == 14:  # nor a directive with an option its class does not take
            name = rng.choice(["hlist", "glossary", "seealso", "code-block", "literalinclude conf.py", "todolist"])
            return [f".. {name.replace(' ', ':: ', 1) if ' ' in name else name + '::'}", "   :marker-option: yes", "",
                    *self.nested(True, depth)]
        # After a paragraph: Sphinx 9 fails on a false ifconfig an index entry's target is moved onto
        # ("Losing ids").
        return ["text", "", ".. ifconfig:: release == 'never'", "", f"   {self.inline(True)}"]
    def shown_block(self, hidden: bool, depth: int) -> list[str]:
        """A construct that shows its content (hidden inside a hidden one)."""
        rng = self.rng
        kind = rng.randrange(10)
        if kind == 0:
            return [f"- {self.inline(hidden)}", "", *self.nested(hidden, depth, "  ")]
        if kind == 1:
            return [f"#. {self.inline(hidden)}", "", *self.nested(hidden, depth)]
        if kind == 2:
            return [f".. {rng.choice(['note', 'warning', 'tip', 'important'])}::", "", *self.nested(hidden, depth)]
        if kind == 3:
            return [".. container:: box", "", *self.nested(hidden, depth)]
        if kind == 4:
            return [".. only:: html", "", *self.nested(hidden, depth)]
        if kind == 5:
            return [self.inline(hidden), "", *self.nested(hidden, depth)]  # a block quote
        if kind == 6:
            return [f"term {self.marker(hidden)}", *self.nested(hidden, depth)]  # a definition list
        if kind == 7:
            return [".. list-table::", "", f"   * - {self.inline(hidden)}", "", *self.nested(hidden, depth, "       ")]
        if kind == 8:  # an empty comment ends at the blank line: the indented text after it is a quote
            return ["..", "", *self.nested(hidden, depth)]
        return [f".. admonition:: {self.inline(hidden)}", "", *self.nested(hidden, depth)]

    def text(self) -> str:
        lines = [line for _ in range(self.rng.randint(2, 6)) for line in [*self.block(False, 0), ""]]
        return f"Page\n====\n\n{_ROLES}" + "\n".join(lines) + "\n"


def test_no_hidden_marker_is_read_on_random_rst_pages() -> None:
    rng = random.Random(SEED)
    pages = [(f"p{number}.rst", _Page(rng).text()) for number in range(PAGES)]
    leaks: dict[str, list[str]] = {}
    hidden = shown = missed = errors = 0
    slowest = 0.0
    for name, text in pages:
        started = time.monotonic()
        reading = read_page(text, mdx=False, rst=True, build=Build())
        slowest = max(slowest, time.monotonic() - started)
        errors += reading.error is not None
        read = _LINK_TARGET.sub("]", "\n".join(block.text for block in reading.blocks))
        if found := sorted(set(HIDDEN.findall(read))):
            leaks[name] = found
        written_shown = set(SHOWN.findall(text))
        hidden += len(set(HIDDEN.findall(text)))
        shown += len(written_shown)
        missed += len(written_shown - set(SHOWN.findall(read)))
    print(f"\nrst fuzz: {len(pages)} pages (seed {SEED}), {hidden} hidden markers, {shown} shown markers, "
          f"{len(leaks)} pages with leaks, {missed} shown markers not read, {errors} pages not read, "
          f"slowest page {slowest:.2f} s")
    examples = {name: (leaks[name], dict(pages)[name][:800]) for name in list(leaks)[:3]}
    assert not leaks, f"{len(leaks)} pages leak: {json.dumps(examples, indent=1)}"
    assert errors == 0 and slowest < PAGE_SECONDS
