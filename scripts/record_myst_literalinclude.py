"""Records what the real Sphinx build of tests/data/myst-literalinclude (a repository whose docs/
folder is the site, its MyST pages' `{literalinclude}`s naming files inside and outside it) shows:
the site is built with Sphinx and myst-parser, each built page loaded in headless Chromium, and the
innerText of each code block (`<pre>`) of its main part recorded in page order, with each caption
(`.code-block-caption`). Writes tests/data/myst-literalinclude.shown.json, which
tests/test_myst_literalinclude.py compares docschat's code blocks to.

Sphinx is not a docschat dependency: install it in a throwaway venv, not the project's.

    python3 -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx myst-parser
    .venv/bin/python scripts/record_myst_literalinclude.py /tmp/sphinx/bin/sphinx-build
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

SITE = Path(__file__).parent.parent / "tests" / "data" / "myst-literalinclude"
RECORDED = SITE.parent / "myst-literalinclude.shown.json"
BLOCKS = """() => {
  const main = document.querySelector('[role=main]') || document.body
  return [...main.querySelectorAll('pre')].map((pre) => {
    const wrapper = pre.closest('.literal-block-wrapper')
    const caption = wrapper && wrapper.querySelector('.code-block-caption .caption-text')
    return {caption: caption ? caption.innerText : null, text: pre.innerText}
  })
}"""


def main(sphinx_build: Path) -> None:
    python = sphinx_build.parent / "python"
    versions = subprocess.run([str(python), "-c", "import sphinx, myst_parser; print(f'Sphinx {sphinx.__version__}, "
                               "myst-parser {myst_parser.__version__}')"], check=True, capture_output=True, text=True)
    pages: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "html"
        build = subprocess.run([str(sphinx_build), "-b", "html", "-q", str(SITE / "docs"), str(out)],
                               capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"sphinx-build failed:\n{build.stdout}\n{build.stderr}")
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            for source in sorted((SITE / "docs").rglob("*.md")):
                name = source.relative_to(SITE / "docs").with_suffix("").as_posix()
                page.goto((out / f"{name}.html").as_uri())
                pages[f"docs/{name}.md"] = page.evaluate(BLOCKS)
            browser.close()
    # Sphinx's warnings, each once, with the paths of this checkout cut to the repository's.
    warnings = sorted({line.split(": ", 1)[-1].replace(f"{SITE}/", "") for line in build.stderr.splitlines() if "WARNING" in line})
    record = {"renderer": f"{versions.stdout.strip()}; Chromium innerText of each <pre> of the page's main part, "
                          "with its caption", "warnings": warnings, "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(pages)} pages recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
