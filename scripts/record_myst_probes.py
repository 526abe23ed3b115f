"""Records what Sphinx shows of the MyST differential probes (tests/data/myst-probes/*.md, marker
words `zz…`): the pages built with `sphinx-build -b html` (myst-parser with colon_fence, dollarmath
and substitution; sphinx.ext.doctest, ifconfig and todo; the basic theme), each page's main text
(`div.body`) read in headless Chromium as innerText, every `<details>` opened first, the site's
stylesheet (`_static/probes.css`, `html_css_files`) applied. Writes
recorded.json beside the probes; tests/test_myst_probes.py then needs neither Sphinx nor Chromium.

    python -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx myst-parser
    python scripts/record_myst_probes.py /tmp/sphinx/bin/sphinx-build
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

PROBES = Path(__file__).parent.parent / "tests" / "data" / "myst-probes"
MARKER = re.compile(r"zz[a-z0-9]+")
CONF = """project = "probes"
release = "1.0"
extensions = ["myst_parser", "sphinx.ext.doctest", "sphinx.ext.ifconfig", "sphinx.ext.todo"]
myst_enable_extensions = ["colon_fence", "dollarmath", "substitution"]
html_theme = "basic"
html_static_path = ["_static"]
html_css_files = ["probes.css"]
"""
SHOWN = """(() => {
  document.querySelectorAll('details').forEach((d) => { d.open = true })
  return (document.querySelector('div.body') || document.body).innerText
})()"""


def main(sphinx_build: str) -> None:
    names = sorted(path.stem for path in PROBES.glob("*.md"))
    version = subprocess.run([sphinx_build, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    python = Path(sphinx_build).parent / "python"
    myst = subprocess.run([str(python), "-c", "import myst_parser; print(myst_parser.__version__)"],
                          capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        source, out = Path(folder) / "src", Path(folder) / "out"
        source.mkdir()
        for name in names:
            shutil.copy(PROBES / f"{name}.md", source / f"{name}.md")
        (source / "conf.py").write_text(CONF)
        shutil.copytree(PROBES / "_static", source / "_static")  # the site's stylesheet
        (source / "index.md").write_text("# Probes\n\n```{toctree}\n" + "\n".join(names) + "\n```\n")
        subprocess.run([sphinx_build, "-q", "-b", "html", str(source), str(out)], check=True)
        recorded = {}
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            for name in names:
                page.goto((out / f"{name}.html").as_uri())
                shown = set(MARKER.findall(page.evaluate(SHOWN)))
                markers = sorted(set(MARKER.findall((PROBES / f"{name}.md").read_text())))
                recorded[f"{name}.md"] = {"renderer": f"{version} + myst-parser {myst}, Chromium innerText",
                                          "shown": [m for m in markers if m in shown],
                                          "hidden": [m for m in markers if m not in shown]}
            browser.close()
    (PROBES / "recorded.json").write_text(json.dumps(recorded, indent=1) + "\n")
    print(f"{len(recorded)} MyST probes recorded with {version}, myst-parser {myst}")


if __name__ == "__main__":
    main(sys.argv[1])
