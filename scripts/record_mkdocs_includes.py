"""Records what the real MkDocs build of tests/data/site-nav/mkdocs-include shows: a page written as
FastAPI's and Typer's are, `{* docs_src/… *}` lines (markdown-include-variants) and `{!…!}` lines
(mdx-include). The site is built with MkDocs 1.6 and Material for MkDocs, in the site's folder (both
extensions open paths relative to it), the page loaded in headless Chromium with every `<details>`
opened and every tab's panel shown (what a click shows counts as shown, as in
scripts/record_mkdocs_site.py), and each marker (`marker-…`) of the page and of the files under
docs_src/ counted shown when it is in the innerText of the page's `<article>`. The article's
innerText is recorded whole too. Writes tests/data/site-nav/mkdocs-include.shown.json, which
tests/test_python_markdown_includes.py compares docschat's chunks to.

MkDocs is not a docschat dependency: install it in a throwaway venv, with the versions of the
parsers docschat's venv has (the comparison is of the same parsers).

    python3 -m venv /tmp/mkdocs && /tmp/mkdocs/bin/pip install mkdocs==1.6.1 mkdocs-material \\
        markdown==3.11.4 pymdown-extensions==13.1.2 markdown-include-variants==0.0.8 mdx-include==1.4.2
    .venv/bin/python scripts/record_mkdocs_includes.py /tmp/mkdocs/bin/mkdocs
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _shown_markers import record_pages, shown_text

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "mkdocs-include"
RECORDED = SITE.parent / "mkdocs-include.shown.json"
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('.tabbed-block, .tabbed-content').forEach((panel) => { panel.style.display = 'block' })
}"""
SHOWN = "(document.querySelector('article') || document.querySelector('[role=main]') || document.body).innerText"
PACKAGES = ("mkdocs", "markdown", "pymdown-extensions", "mkdocs-material", "markdown-include-variants", "mdx-include")


def _versions(mkdocs: Path) -> str:
    code = ("import importlib.metadata as m; "
            f"print(', '.join(f'{{p}} {{m.version(p)}}' for p in {PACKAGES!r}))")
    return subprocess.run([str(mkdocs.parent / "python"), "-c", code], check=True, capture_output=True,
                          text=True).stdout.strip()


def main(mkdocs: Path) -> None:
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "site"
        environment = {**os.environ, "DISABLE_MKDOCS_2_WARNING": "true", "NO_MKDOCS_2_WARNING": "1"}
        build = subprocess.run([str(mkdocs), "build", "-f", str(SITE / "mkdocs.yml"), "-d", str(out)],
                               capture_output=True, text=True, env=environment, cwd=SITE)
        if build.returncode:
            sys.exit(f"mkdocs build failed:\n{build.stdout}\n{build.stderr}")
        included = sorted(path for path in (SITE / "docs_src").rglob("*") if path.is_file())
        pages = record_pages([("docs/index.md", SITE / "docs" / "index.md")], lambda *_: out / "index.html",
                             SHOWN, OPEN_EVERYTHING, pasted=lambda text: included)
        texts = {"docs/index.md": shown_text(out / "index.html", SHOWN, OPEN_EVERYTHING)}
    errors = [line for line in build.stderr.splitlines() if line.startswith(("ERROR", "WARNING"))]
    record = {"renderer": f"{_versions(mkdocs)}; Chromium innerText of the page's <article>, tabs and details opened",
              "errors": errors, "pages": pages, "texts": texts}
    RECORDED.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(pages)} pages recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
