"""Records what the real Sphinx builds of tests/data/site-nav/rst (reStructuredText pages, and a
MyST page read by myst-parser) shows: the site is built with sphinx-build, each built page loaded
in headless Chromium, and a marker (`marker-…`) of a source page (or of the files its
`.. include::`s name) counted shown when it is in the innerText of the page's main part; and each
section's id with its heading's text (the anchor a result links to), each object description's id
and signature, each link's text and address, and that innerText. Writes
tests/data/site-nav/rst.shown.json, which tests/test_rst_site.py compares docschat's chunks to.

Sphinx is not a docschat dependency: install it in a throwaway venv, not the project's.

    python3 -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx==9.0.4 docutils==0.22.4 myst-parser==5.2.0
    .venv/bin/python scripts/record_rst_site.py /tmp/sphinx/bin/sphinx-build

Another site folder (its record beside it, `<folder>.shown.json`): tests/data/site-nav/rst-design,
whose conf.py lists sphinx-design, sphinx-tabs and sphinx-inline-tabs (pip install
sphinx-design==0.8.0 sphinx-tabs==3.5.0 sphinx-inline-tabs==2025.12.21.14 in the same venv):

    .venv/bin/python scripts/record_rst_site.py /tmp/sphinx/bin/sphinx-build tests/data/site-nav/rst-design
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _shown_markers import record_pages, sphinx_html
from playwright.sync_api import sync_playwright

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "rst"
INCLUDE = re.compile(r"^\s*\.\. include::[ \t]+(\S+)", re.MULTILINE)
MAIN = "(document.querySelector('[role=main]') || document.body).innerText"
# Each section's id and its heading's text, less Sphinx's `¶` permalink.
SECTIONS = """Array.from(document.querySelectorAll('[role=main] section[id]')).map((section) => {
  const heading = section.querySelector('h1, h2, h3, h4, h5, h6').cloneNode(true)
  heading.querySelectorAll('a.headerlink').forEach((link) => link.remove())
  return [section.id, heading.innerText.trim()]
})"""

# Each object description's id (a Python object's full name) and its signature's text.
OBJECTS = """Array.from(document.querySelectorAll('[role=main] dt.sig[id]')).map((dt) => {
  const signature = dt.cloneNode(true)
  signature.querySelectorAll('a.headerlink').forEach((link) => link.remove())
  return [dt.id, signature.innerText.trim()]
})"""


# Each link's text and its address as the build writes it (a cross-reference's, a link written to a file).
LINKS = """Array.from(document.querySelectorAll('[role=main] a.reference')).map((link) => [
  link.innerText.trim(), link.getAttribute('href')])"""


def _sections(pages: dict[str, dict[str, object]], out: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        for name, recorded in pages.items():
            if recorded["built"]:
                page.goto((out / (name.rsplit(".", 1)[0] + ".html")).as_uri())
                recorded["sections"] = page.evaluate(SECTIONS)
                recorded["objects"] = page.evaluate(OBJECTS)
                recorded["links"] = page.evaluate(LINKS)
                recorded["text"] = page.evaluate(MAIN)
        browser.close()


def main(sphinx_build: Path, site: Path = SITE) -> None:
    with tempfile.TemporaryDirectory() as out:
        stderr, built = sphinx_html(sphinx_build, site, out)
        sources = [(source.relative_to(site).as_posix(), source) for source in sorted([*site.rglob("*.rst"), *site.rglob("*.md")])]
        pages = record_pages(sources, built, MAIN, pasted=lambda text, source: [
            path for written in INCLUDE.findall(text) if (path := source.parent / written).is_file()])
        _sections(pages, Path(out))
    version = subprocess.run([str(sphinx_build), "--version"], capture_output=True, text=True).stdout.strip()
    docutils = subprocess.run([str(sphinx_build.parent / "python"), "-c", "import docutils; print(docutils.__version__)"],
                              capture_output=True, text=True).stdout.strip()
    recording = {"renderer": f"{version}, docutils {docutils}; Chromium innerText of the page's main part",
                 "warnings": [line for line in stderr.replace(f"{site}/", "").splitlines() if "WARNING" in line or "ERROR" in line],
                 "pages": pages}
    recorded = site.parent / f"{site.name}.shown.json"
    recorded.write_text(json.dumps(recording, indent=1) + "\n")
    print(f"{len(pages)} pages recorded in {recorded}")


if __name__ == "__main__":  # sphinx-build [site folder: tests/data/site-nav/rst by default]
    main(Path(sys.argv[1]), *(Path(arg).resolve() for arg in sys.argv[2:3]))
