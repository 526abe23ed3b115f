"""Records what the real Sphinx builds of tests/data/site-nav/myst and myst-nb show: each site is
built with Sphinx (myst-parser, sphinx-reredirects; MyST-NB), each built page loaded in headless
Chromium, and a marker (`marker-…`) of a source page counted shown when it is in the innerText of
the page's main part. Writes tests/data/site-nav/<site>.shown.json, which
tests/test_site_navigation.py compares docschat's chunks to.

Sphinx is not a docschat dependency: install it in a throwaway venv, not the project's.

    python3 -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx myst-parser sphinx-reredirects myst-nb
    .venv/bin/python scripts/record_myst_site.py /tmp/sphinx/bin/sphinx-build
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

SITES = Path(__file__).parent.parent / "tests" / "data" / "site-nav"
MARKER = re.compile(r"marker-[a-z0-9-]+")
MAIN = "(document.querySelector('[role=main]') || document.body).innerText"
PACKAGES = ("sphinx", "myst-parser", "sphinx-reredirects", "myst-nb", "docutils")


def _versions(sphinx_build: Path) -> str:
    python = sphinx_build.parent / "python"
    code = ("import importlib.metadata as m, sys; "
            f"print(', '.join(f'{{p}} {{m.version(p)}}' for p in {PACKAGES!r}))")
    return subprocess.run([str(python), "-c", code], check=True, capture_output=True, text=True).stdout.strip()


def record(site: Path, sphinx_build: Path) -> None:
    with tempfile.TemporaryDirectory() as out:
        build = subprocess.run([str(sphinx_build), "-q", "-b", "html", str(site), out], capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"sphinx-build failed:\n{build.stderr}")
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        pages: dict[str, dict[str, object]] = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            for source in sorted(site.rglob("*.md")):
                name = source.relative_to(site).as_posix()
                markers = sorted(set(MARKER.findall(source.read_text())))
                html = Path(out) / (name.removesuffix(".md") + ".html")
                if not html.is_file():
                    pages[name] = {"built": False, "markers": markers}
                    continue
                if "window.location.replace" in html.read_text() and "role=\"main\"" not in html.read_text():
                    pages[name] = {"built": True, "redirect": True, "markers": markers}
                    continue
                page.goto(html.as_uri())
                shown = set(MARKER.findall(page.evaluate(MAIN)))
                pages[name] = {"built": True, "shown": [m for m in markers if m in shown],
                               "hidden": [m for m in markers if m not in shown]}
            browser.close()
    recording = {"renderer": f"{_versions(sphinx_build)}; Chromium innerText of the page's main part",
              "warnings": build.stderr.replace(f"{site}/", "").splitlines(), "pages": pages}
    recorded = SITES / f"{site.name}.shown.json"
    recorded.write_text(json.dumps(recording, indent=1) + "\n")
    print(f"{len(pages)} pages recorded in {recorded}")


def main(sphinx_build: Path) -> None:
    for site in ("myst", "myst-nb"):
        record(SITES / site, sphinx_build)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
