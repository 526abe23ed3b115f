"""Compares, word for word, what docschat indexes of each page of a real Docusaurus or Sphinx site with
what the site's own build shows of it (design/site-navigation.md reports runs on pnpm.io and
structlog's docs; design/answer-eval.md on vitest's VitePress docs). Shown: Chromium's innerText of the built page's main content (Docusaurus: the
doc's `<article>`, as scripts/record_docusaurus_site.py takes it; Sphinx: the theme's
`<article>`, else its `[role=main]`), tabs and `<details>` opened. Indexed: the page's title and its chunks' text from
`compose --json`, link targets and fence info strings left out (scripts/_site_words.py).

Docusaurus: the built page of a source is the one at the permalink the build's own metadata
(SITE/.docusaurus) gives it. Sphinx (the `html` builder): DOCS_DIR/foo.md is BUILT/foo.html.

    docschat compose --repo REPO --branch HEAD --docs-dir DIR --json > composed.jsonl
    (cd SITE && npx docusaurus build --out-dir BUILT)
    .venv/bin/python scripts/compare_built_site_words.py docusaurus composed.jsonl BUILT SITE
    sphinx-build -b html DOCS_DIR BUILT
    .venv/bin/python scripts/compare_built_site_words.py sphinx composed.jsonl BUILT DOCS_DIR
    (cd DOCS_DIR && npx vitepress build)   # VitePress: BUILT is DOCS_DIR/.vitepress/dist
    .venv/bin/python scripts/compare_built_site_words.py vitepress composed.jsonl BUILT DOCS_DIR
    (cd DOCS_DIR && npx astro build)       # Astro Starlight: BUILT is DOCS_DIR/dist
    .venv/bin/python scripts/compare_built_site_words.py starlight composed.jsonl BUILT DOCS_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from _site_words import compare_pages, composed_pages, indexed_text
from record_docusaurus_site import OPEN_EVERYTHING as OPEN_TABS_AND_DETAILS
from record_docusaurus_site import SHOWN as SHOWN_DOCUSAURUS
from record_docusaurus_site import published_docs

# The theme's chrome around a doc in its <article>: breadcrumbs, the version badge, the mobile table of
# contents, the footer ("Edit this page", "Last updated on …"): the site's, not the page's words.
OPEN_DOCUSAURUS = f"""() => {{
  ({OPEN_TABS_AND_DETAILS})()
  document.querySelectorAll('article .theme-doc-breadcrumbs, article .theme-doc-version-badge, '
    + 'article .theme-doc-toc-mobile, article .theme-doc-footer').forEach((chrome) => chrome.remove())
}}"""
# sphinx-design's tabs are radio inputs with CSS-hidden panels; `<details>` (dropdowns) open.
OPEN_SPHINX = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('.sd-tab-content').forEach((panel) => { panel.style.display = 'block' })
}"""
SHOWN_SPHINX = "(document.querySelector('article') || document.querySelector('[role=main]') || document.body).innerText"
# VitePress's default theme: the page's content is `.vp-doc`; every code group's blocks and every
# `<details>` shown (a click shows them); a code block's language label (`.lang`) is the theme's.
OPEN_VITEPRESS = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('.vp-code-group .blocks > div').forEach((block) => { block.style.display = 'block' })
  document.querySelectorAll('.vp-doc .lang').forEach((label) => label.remove())
}"""
SHOWN_VITEPRESS = "(document.querySelector('.vp-doc') || document.body).innerText"
# Starlight: the page's title (`h1#_top`, outside the content) and `.sl-markdown-content`; tab panels
# and `<details>` shown; the heading links' screen-reader text ("Section titled …") is the theme's.
OPEN_STARLIGHT = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('[role=tabpanel]').forEach((panel) => { panel.hidden = false })
  document.querySelectorAll('.sl-markdown-content .sr-only').forEach((label) => label.remove())
}"""
SHOWN_STARLIGHT = ("[document.querySelector('h1#_top'), document.querySelector('.sl-markdown-content')]"
                   ".filter(Boolean).map((e) => e.innerText).join('\\n')")


def _html(built: Path, relative: str | None) -> Path | None:
    return built / relative if relative is not None and (built / relative).is_file() else None


def main(renderer: str, composed: Path, built: Path, site: Path) -> None:
    chunks = composed_pages(composed)
    if renderer == "docusaurus":
        docs = published_docs(site)
        pages = [(name, _html(built, f"{str(docs[name]['permalink']).strip('/')}/index.html".lstrip("/"))
                  if name in docs else None, indexed_text(rows)) for name, rows in sorted(chunks.items())]
        compare_pages(pages, SHOWN_DOCUSAURUS, OPEN_DOCUSAURUS)
    elif renderer == "vitepress":  # cleanUrls off: DOCS_DIR/guide/x.md is BUILT/guide/x.html
        pages = [(name, _html(built, str(Path(name).with_suffix(".html"))), indexed_text(rows))
                 for name, rows in sorted(chunks.items())]
        compare_pages(pages, SHOWN_VITEPRESS, OPEN_VITEPRESS, served=built)  # its CSS is linked from the root
    elif renderer == "starlight":  # trailingSlash: /guides/x is BUILT/guides/x/index.html
        pages = [(name, _html(built, f"{str(rows[0]['href']).split('#')[0].strip('/')}/index.html".lstrip("/")),
                  indexed_text(rows)) for name, rows in sorted(chunks.items())]
        compare_pages(pages, SHOWN_STARLIGHT, OPEN_STARLIGHT)
    else:
        prefix = site.name + "/"
        pages = [(name, _html(built, str(Path(name.removeprefix(prefix)).with_suffix(".html"))), indexed_text(rows))
                 for name, rows in sorted(chunks.items())]
        compare_pages(pages, SHOWN_SPHINX, OPEN_SPHINX)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
