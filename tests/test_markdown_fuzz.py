"""A bounded fuzz run against the real renderers (issue 46): random `.md` and `.mdx` pages built
from the constructs that leaked before (comments of every spelling, expressions, JSX, exports,
raw HTML states, CSS-hidden elements, code), each holding unique markers; the oracle
(tests/fuzz_oracle.mjs: micromark + GFM, @mdx-js/mdx 3, parse5) says which it shows. A marker
the oracle hides (or any marker of a page it refuses) must never be in what the index reads.
Markers shown by the oracle but not read are counted apart (hiding more than the site: CSS-hidden
text, which the oracle cannot judge, and `<script>` text GFM's tag filter shows as text).

Slow group. Needs Node and the oracle's packages:
    npm install --prefix /tmp/x micromark micromark-extension-gfm @mdx-js/mdx remark-gfm @slorber/remark-comment \
        remark-math rehype-katex react react-dom parse5
    NODE_MODULES=/tmp/x/node_modules DOCSCHAT_FUZZ_PAGES=5000 pytest -m slow tests/test_markdown_fuzz.py -s
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from app.corpus.markdown import read_page

pytestmark = pytest.mark.slow

PAGES = int(os.environ.get("DOCSCHAT_FUZZ_PAGES", "300"))  # of each kind
SEED = int(os.environ.get("DOCSCHAT_FUZZ_SEED", "46"))
NODE_MODULES = os.environ.get("NODE_MODULES", "")
ORACLE = Path(__file__).parent / "fuzz_oracle.mjs"
MARKER = re.compile(r"zz[0-9]+q")
_LINK_TARGET = re.compile(r"\]\([^()\s]*\)")

_INLINE_BOTH = [
    "{m}", "`{m}`", "``a ` {m}``", "<!-- {m} -->", "<!--- {m} --->", "<!-- {m} --->", "<!--{m}--!>", "<!-->{m}",
    "<!--- {m}", "<span hidden>{m}</span>", '<b title="{m}">{n}</b>',
    '<a href="#{m}">{n}</a>', "<?x {m} >", "<!X {m}>", '<i title="{m}', "<script>{m}</script>", "<template>{m}</template>",
    "[{m}](https://example.com/{n})", "![{m}](i.png)", "&lt;{m}&gt;", "\\<!-- {m}", "*{m}*", "{", "}", "`", "<", ">",
    "-->", "\"", "'", "<br />", "{n}",
]
# What MDX refuses (an HTML comment, a lone `<` or brace, `<?`, `<!`): rarer in `.mdx` pages.
_REFUSED_IN_MDX = {p for p in _INLINE_BOTH if p.startswith(("<!", "<?")) or p in ("{", "}", "<", '<i title="{m}')}
_INLINE_MDX = [
    "{{/* {m} */}}", '{{"{m}"}}', '{{false && "{m}"}}', "{{/* }} {m} */}}", '<Card title="{m}">{n}</Card>',
    "<Note>{m}</Note>", '<div data-title="{m}">{n}</div>', "<span style={{{{display: 'none'}}}}>{m}</span>",
    "<Badge>{m}</Badge>", "{{`{m}`}}", "{{1 > 2 ? '{m}' : ''}}", '<Tooltip tip="{m}">{n}</Tooltip>',
]
_BLOCKS_BOTH = [
    "## {p}", "- {p}\n- {p}", "> {p}", "| a | b |\n|---|---|\n| {p} | {p} |", "```\n{m}\n```", "```js title=\"{m}\"\n{n}\n```",
    "<div>\n{p}\n</div>", "<div hidden>\n\n{p}\n\n</div>", "<!--\n{p}\n-->", "<!---\n{p}\n--->", "{p}\n===", "1. {p}",
    "<details>\n<summary>{m}</summary>\n\n{p}\n</details>",
]
# A string `style` is refused by React at render time (an MDX site's page fails): `.md` only.
_INLINE_MD = ['<span style="display:none">{m}</span>', '<span style="color: red; display: none">{m}</span>']
_BLOCKS_MD = ["    {m}", "<script>\n{m}\n</script>", "<?php\n{p}\n?>", '<div title="a\n\n{p}\n\n">{n}</div>']
_BLOCKS_MDX = [
    # ESM runs to a blank line: without one, what follows is JavaScript that fails when the page
    # runs (a runtime error, which only evaluating the page could tell).
    "export const a{k} = `\n{m}\n`\n", "export const b{k} = {{\n  k: '{m}',\n}}\n", "{{/*\n{m}\n*/}}",
    '<Card title="{m}">\n\n{p}\n\n</Card>', "<Steps>\n<Step title=\"{m}\">\n{p}\n</Step>\n</Steps>", "{{\"{m}\"}}",
    "<div style={{{{display: 'none'}}}}>\n\n{p}\n\n</div>",
]


class _Page:
    def __init__(self, rng: random.Random, mdx: bool) -> None:
        self.rng, self.mdx, self.count = rng, mdx, 0

    def marker(self) -> str:
        self.count += 1
        return f"zz{self.count}q"

    def inline(self) -> str:
        pieces = _INLINE_BOTH + (_INLINE_MDX if self.mdx else _INLINE_MD)
        parts = []
        for _ in range(self.rng.randint(1, 6)):
            piece = self.rng.choice(pieces)
            while self.mdx and piece in _REFUSED_IN_MDX and self.rng.random() < 0.9:
                piece = self.rng.choice(pieces)  # most MDX pages should be ones MDX reads
            parts.append(piece.format(m=self.marker(), n=self.marker()) if "{m}" in piece or "{n}" in piece
                         else piece.replace("{{", "{").replace("}}", "}"))
        return self.rng.choice([" ", " ", "\n", ""]).join(parts)

    def block(self) -> str:
        if self.rng.random() < 0.4:
            return self.inline()
        template = self.rng.choice(_BLOCKS_BOTH + (_BLOCKS_MDX if self.mdx else _BLOCKS_MD))
        return template.format(m=self.marker(), n=self.marker(), k=self.count, p=self.inline().replace("{", "{{").replace(
            "}", "}}")).format() if "{p}" in template else template.format(m=self.marker(), n=self.marker(), k=self.count)

    def text(self) -> str:
        return "".join(self.block() + self.rng.choice(["\n\n", "\n\n", "\n"]) for _ in range(self.rng.randint(1, 6)))


def _pages() -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    return [(f"p{number}.{kind}", _Page(rng, kind == "mdx").text()) for kind in ("md", "mdx") for number in range(PAGES)]


@pytest.mark.skipif(shutil.which("node") is None or not (Path(NODE_MODULES) / "@mdx-js" / "mdx").is_dir(),
                    reason="set NODE_MODULES to a folder with the oracle's packages (tests/fuzz_oracle.mjs)")
def test_no_marker_the_renderer_hides_is_read_on_random_pages() -> None:
    pages = _pages()
    run = subprocess.run(["node", str(ORACLE)], input="".join(json.dumps({"name": n, "text": t}) + "\n" for n, t in pages),
                         capture_output=True, text=True, env={**os.environ, "NODE_MODULES": NODE_MODULES}, check=True)
    oracle = {answer["name"]: answer for answer in map(json.loads, run.stdout.splitlines())}
    leaks: dict[str, list[str]] = {}
    missed = refused = agreed_refusals = 0
    for name, text in pages:
        reading = read_page(text, mdx=name.endswith(".mdx"), myst=False)
        # A link's target is kept as Markdown (`[text](target)`, for the page view and search); it is
        # in the published page but not its text, so it is not compared.
        read = set(MARKER.findall(_LINK_TARGET.sub("]", "\n".join(block.text for block in reading.blocks))))
        answer = oracle[name]
        if "refused" in answer:
            refused += 1
            agreed_refusals += reading.error is not None
            if read:
                leaks[name] = sorted(read)
            continue
        shown = set(answer["shown"])
        if read - shown:
            leaks[name] = sorted(read - shown)
        missed += len(shown - read)
    print(f"\nfuzz: {len(pages)} pages ({PAGES} .md, {PAGES} .mdx, seed {SEED}), {refused} refused by the oracle "
          f"({agreed_refusals} by the reader too), {len(leaks)} with leaks, {missed} shown markers not read")
    examples = {name: (leaks[name], dict(pages)[name][:600]) for name in list(leaks)[:5]}
    assert not leaks, f"{len(leaks)} pages leak: {json.dumps(examples, indent=1)}"
