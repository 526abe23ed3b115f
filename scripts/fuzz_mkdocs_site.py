"""Differential fuzz of MkDocs pages against the real build: random pages of Python-Markdown syntax
and raw HTML that hides (comments, `hidden`, `display: none`, `<script>`, `<style>` rules,
admonitions, details, tabs, abbreviations, attribute lists, nested in quotes, lists and
admonitions), each fragment carrying markers, built by MkDocs 1.6 (Material) and read in headless
Chromium (the article's innerText, details and tabs opened, as scripts/record_mkdocs_site.py reads
it). A marker docschat indexes that the page does not show is a leak; one it shows that docschat
does not index is a loss. Prints both, by kind of fragment; exits 1 on any.

MkDocs is not a docschat dependency: see scripts/record_mkdocs_site.py for the throwaway venv.

    .venv/bin/python scripts/fuzz_mkdocs_site.py /tmp/mkdocs/bin/mkdocs --pages 400 --seed 2
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import sync_playwright

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.sources import Source

MARKER = re.compile(r"marker-fz-\d+")
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('.tabbed-block, .tabbed-content').forEach((panel) => { panel.style.display = 'block' })
}"""
CONFIG = """site_name: Fuzz
theme:
  name: material
  font: false
markdown_extensions:
  - admonition
  - abbr
  - attr_list
  - def_list
  - footnotes
  - md_in_html
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
"""
# `{m}` is a new marker each time; `{n}` a number for names that must match within a fragment.
FRAGMENTS = [
    "Plain text {m} here.", "Text <!-- {m} --> after {m}.", "Text <!--- {m} ---> after {m}.", "<!-- {m}",
    "<div hidden>{m}</div>", '<div markdown="1" hidden>\n**{m}**\n</div>', '<div markdown="1">\n**{m}**\n</div>',
    'A <span style="display:none">{m}</span> b {m}.', '<p style="visibility:hidden">{m}</p>',
    'Styled {m}\n{{: style="display: none" }}', "Classed {m}\n{{: .x }}", "*[ABR{n}]: {m}\n\nABR{n} in text {m}.",
    "Note[^f{n}].\n\n[^f{n}]: {m}", "```python\nprint('{m}')\n```", "    indented {m}",
    "<script>var x = '{m}';</script>", '<style>.h{n} {{ display: none }}</style>\n\n<p class="h{n}">{m}</p>',
    "<details><summary>{m}</summary>{m}</details>", "<template>{m}</template>", "<noscript>{m}</noscript>",
    "<table><tr><td>{m}</td></tr></table>", "Term {m}\n:   Def {m}", "- item {m}\n    - nested {m}",
    "`code <!-- {m} -->`", "<!-- open\n\n{m}\n\n-->", "<div>\n{m} *raw*\n</div>",
    '<div style="display:none" markdown>\n{m}\n</div>', "Hard<br>break {m}", "<?php {m} ?>", "<![CDATA[ {m} ]]>",
    "<!DOCTYPE {m}>", '<a href="#" title="{m}">link {m}</a>', '<abbr title="{m}">AB</abbr> {m}',
]


def _indented(inner: str) -> str:
    return "\n".join("    " + line if line else "" for line in inner.split("\n"))


CONTAINERS: list[Callable[[str, str], str]] = [
    lambda title, inner: f'!!! note "{title}"\n' + _indented(inner),
    lambda title, inner: f'??? tip "{title}"\n' + _indented(inner),
    lambda title, inner: f'=== "{title}"\n\n' + _indented(inner),
    lambda title, inner: "> " + inner.replace("\n", "\n> "),
    lambda title, inner: "- " + inner.replace("\n", "\n    "),
]


class _Pages:
    def __init__(self, seed: int) -> None:
        self.random, self.count = random.Random(seed), 0

    def marker(self) -> str:
        self.count += 1
        return f"marker-fz-{self.count}"

    def fragment(self, depth: int = 0) -> str:
        if depth < 2 and self.random.random() < 0.3:
            return self.random.choice(CONTAINERS)(self.marker(), self.fragment(depth + 1))
        template, number = self.random.choice(FRAGMENTS), self.count
        return re.sub(r"\{m\}", lambda _: self.marker(), template.replace("{n}", str(number))).replace(
            "{{", "{").replace("}}", "}")

    def page(self, index: int) -> str:
        return f"# Page {index}\n\n" + "\n\n".join(self.fragment() for _ in range(self.random.randint(3, 8))) + "\n"


def main(mkdocs: Path, pages: int, seed: int) -> int:
    generator = _Pages(seed)
    with tempfile.TemporaryDirectory() as work:
        site, built = Path(work) / "site", Path(work) / "built"
        (site / "docs").mkdir(parents=True)
        (site / "mkdocs.yml").write_text(CONFIG)
        for index in range(pages):
            (site / "docs" / f"p{index}.md").write_text(generator.page(index))
        environment = {**os.environ, "DISABLE_MKDOCS_2_WARNING": "true", "NO_MKDOCS_2_WARNING": "1"}
        build = subprocess.run([str(mkdocs), "build", "-q", "-f", str(site / "mkdocs.yml"), "-d", str(built)],
                               capture_output=True, text=True, env=environment)
        if build.returncode:
            sys.exit(f"mkdocs build failed:\n{build.stderr}")
        files = {p.relative_to(site).as_posix(): p.read_text() for p in site.rglob("*") if p.is_file()}
        result = compose_files(files, Settings(), Source(name="fuzz", repo=site, audiences=("public",)))
        leaks: list[tuple[str, str]] = []
        losses: list[tuple[str, str]] = []
        shown_total = hidden_total = 0
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True,
                                                 args=["--no-sandbox"])
            page = browser.new_page()
            page.route("http*://**", lambda route: route.abort())  # the theme's CDN: no network
            for composed in result.pages:
                page.goto((built / composed.path.removeprefix("docs/").removesuffix(".md") / "index.html").as_uri())
                page.evaluate(OPEN_EVERYTHING)
                shown = set(MARKER.findall(page.evaluate("document.querySelector('article').innerText")))
                written = set(MARKER.findall(files[composed.path]))
                indexed = set(MARKER.findall(" ".join(c.text for c in result.chunks if c.page == composed.path)))
                shown_total += len(written & shown)
                hidden_total += len(written - shown)
                leaks += [(composed.path, m) for m in sorted(indexed - shown)]
                losses += [(composed.path, m) for m in sorted(shown - indexed)]
            browser.close()

    def kind(path: str, marker: str) -> str:
        line = next(line for line in files[path].splitlines() if re.search(marker + r"\b", line))
        return MARKER.sub("M", line.strip())[:70]

    print(f"{len(result.pages)} pages ({len(result.skipped_pages)} refused), seed {seed}: "
          f"{shown_total} markers shown, {hidden_total} hidden; {len(leaks)} leaks, {len(losses)} losses")
    for name, found in (("leaks", leaks), ("losses", losses)):
        for what, count in Counter(kind(*item) for item in found).most_common(20):
            print(f"  {name}: {count} × {what}")
    return 1 if leaks or losses else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("mkdocs", type=Path)
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    sys.exit(main(arguments.mkdocs, arguments.pages, arguments.seed))
