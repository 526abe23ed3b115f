"""Checks tests/test_rst_fuzz.py's construction against the real build: its first N random pages
(the test's seed) built with sphinx-build (the todo, ifconfig and doctest extensions, alabaster),
each page's main part read in headless Chromium as innerText; every `zzh…q` marker (hidden by
construction) must be missing from it, every `zzs…q` one there. Prints the counts.

    python3 -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx==9.0.4 docutils==0.22.4
    PYTHONPATH=. .venv/bin/python scripts/check_rst_fuzz_oracle.py /tmp/sphinx/bin/sphinx-build 400
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
import test_rst_fuzz as fuzz  # the test's generator, from its folder

CONF = 'extensions = ["sphinx.ext.todo", "sphinx.ext.ifconfig", "sphinx.ext.doctest"]\nrelease = "1.0"\n'
MAIN = "(document.querySelector('[role=main]') || document.body).innerText"


def main(sphinx_build: str, count: int) -> None:
    rng = random.Random(fuzz.SEED)
    pages = [(f"p{number}", fuzz._Page(rng).text()) for number in range(count)]
    with tempfile.TemporaryDirectory() as folder:
        source, out = Path(folder) / "src", Path(folder) / "out"
        source.mkdir()
        (source / "conf.py").write_text(CONF)
        (source / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n" + "".join(f"   {name}\n" for name, _ in pages))
        for name, text in pages:
            (source / f"{name}.rst").write_text(text)
        build = subprocess.run([sphinx_build, "-q", "-b", "html", str(source), str(out)], capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"sphinx-build failed:\n{build.stderr[-2000:]}")
        shown_hidden = hidden_shown = written = 0
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            for name, text in pages:
                page.goto((out / f"{name}.html").as_uri())
                seen = page.evaluate(MAIN)
                if found := sorted(set(fuzz.HIDDEN.findall(seen))):
                    shown_hidden += 1
                    print(f"{name}: the build shows {found[:5]}")
                shown = set(fuzz.SHOWN.findall(text))
                written += len(shown)
                hidden_shown += len(shown - set(fuzz.SHOWN.findall(seen)))
            browser.close()
    print(f"{count} pages (seed {fuzz.SEED}): {shown_hidden} pages where the build shows a zzh marker; "
          f"{written} zzs markers, {hidden_shown} not shown by the build")


if __name__ == "__main__":  # sphinx-build, number of pages
    main(sys.argv[1], int(sys.argv[2]))
