"""Records what Sphinx shows of the MyST differential probes (tests/data/myst-probes/*.md, marker
words `zz…`): the pages built with `sphinx-build -b html` (myst-parser with colon_fence, dollarmath
and substitution; sphinx.ext.doctest, ifconfig and todo; the basic theme), each page's main text
(`div.body`) read in headless Chromium as innerText, every `<details>` opened first, the site's
stylesheet (`_static/probes.css`, `html_css_files`) applied; the `nb-*` probes in a second site
that loads MyST-NB too (NB_CONF: its text notebooks and cells). Writes
recorded.json beside the probes; tests/test_myst_probes.py then needs neither Sphinx nor Chromium.

    python -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx myst-parser myst-nb
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
# The `nb-*` probes' site: MyST-NB reads its pages (cells not run: their sources alone).
NB_CONF = CONF.replace('extensions = ["myst_parser", ', 'extensions = ["myst_nb", ') + 'nb_execution_mode = "off"\n'
SHOWN = """(() => {
  document.querySelectorAll('details').forEach((d) => { d.open = true })
  return (document.querySelector('div.body') || document.body).innerText
})()"""


def main(sphinx_build: str) -> None:
    names = sorted(path.stem for path in PROBES.glob("*.md"))
    version = subprocess.run([sphinx_build, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    python = Path(sphinx_build).parent / "python"
    nb = subprocess.run([str(python), "-c", "import myst_nb; print(myst_nb.__version__)"],
                        capture_output=True, text=True, check=True).stdout.strip()
    myst = subprocess.run([str(python), "-c", "import myst_parser; print(myst_parser.__version__)"],
                          capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out"
        for site, conf in (("src", CONF), ("nb", NB_CONF)):
            source = Path(folder) / site
            source.mkdir()
            group = [name for name in names if name.startswith("nb-") == (site == "nb")]
            for name in group:
                shutil.copy(PROBES / f"{name}.md", source / f"{name}.md")
            (source / "conf.py").write_text(conf)
            shutil.copytree(PROBES / "_static", source / "_static")  # the site's stylesheet
            (source / "index.md").write_text("# Probes\n\n```{toctree}\n" + "\n".join(group) + "\n```\n")
            subprocess.run([sphinx_build, "-q", "-b", "html", str(source), str(Path(folder) / f"out-{site}")], check=True)
            shutil.copytree(Path(folder) / f"out-{site}", out, dirs_exist_ok=True)
        recorded = {}
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            for name in names:
                page.goto((out / f"{name}.html").as_uri())
                shown = set(MARKER.findall(page.evaluate(SHOWN)))
                markers = sorted(set(MARKER.findall((PROBES / f"{name}.md").read_text())))
                parsers = f"myst-parser {myst}" + (f" + myst-nb {nb}" if name.startswith("nb-") else "")
                recorded[f"{name}.md"] = {"renderer": f"{version} + {parsers}, Chromium innerText",
                                          "shown": [m for m in markers if m in shown],
                                          "hidden": [m for m in markers if m not in shown]}
            browser.close()
    (PROBES / "recorded.json").write_text(json.dumps(recorded, indent=1) + "\n")
    print(f"{len(recorded)} MyST probes recorded with {version}, myst-parser {myst}")


if __name__ == "__main__":
    main(sys.argv[1])
