"""Records what the real Sphinx builds of tests/data/site-nav/myst, myst-nb, myst-include (a
repository whose docs/ folder is the site, its pages including files outside it) and
myst-conf-code (exclude_patterns extended by code), myst-design (sphinx-design's display classes),
myst-tabs (sphinx-tabs), myst-config-options (sphinx-config-options' `{config:option}`), myst-canonical
(Canonical's starter pack: substitutions conf.py loads from YAML, an intersphinx fallback inventory,
sphinx-youtube-links) and myst-conf-options (conf.py without colon_fence, with todo_include_todos)
show: each site is
built with Sphinx (myst-parser, sphinx-reredirects; MyST-NB), each built page loaded in headless
Chromium, and a marker (`marker-…`) of a source page (or of conf.py, in its substitutions) counted
shown when it is in the innerText of the page's main part (a marker of conf.py or of the YAML files beside it,
what conf.py may load its substitutions from, is looked for on every page). Writes
tests/data/site-nav/<site>.shown.json, which tests/test_site_navigation.py compares docschat's
chunks to.

Sphinx is not a docschat dependency: install it in a throwaway venv, not the project's.

    python3 -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx myst-parser sphinx-reredirects myst-nb sphinx-design \
        sphinx-tabs sphinx-config-options canonical-sphinx sphinx-youtube-links pyyaml
    .venv/bin/python scripts/record_myst_site.py /tmp/sphinx/bin/sphinx-build [myst-conf-code …]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

from _shown_markers import record_pages, sphinx_html

SITES = Path(__file__).parent.parent / "tests" / "data" / "site-nav"
INCLUDE = re.compile(r"^```\{include\}[ \t]+(\S+)", re.MULTILINE)
# Each site, and the folder Sphinx builds it from (myst-include: a repository, its docs/ folder).
SOURCE_FOLDERS = {"myst": ".", "myst-nb": ".", "myst-include": "docs", "myst-conf-code": ".", "myst-design": ".",
                  "myst-tabs": ".", "myst-config-options": ".", "myst-canonical": ".", "myst-conf-options": "."}
MAIN = "(document.querySelector('[role=main]') || document.body).innerText"
# What a click shows counts as shown (as in scripts/record_mkdocs_site.py): sphinx-design's
# dropdowns (`<details>`) opened and every tab's panel shown (sphinx-design's, and sphinx-tabs'
# panels, `hidden` until their tab is clicked), sphinx-config-options' details (its script hides
# them `until-found`, shown by a click on the option's line), on the sites that have them.
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('.sd-tab-content').forEach((panel) => { panel.style.display = 'block' })
  document.querySelectorAll('.sphinx-tabs-panel').forEach((panel) => { panel.hidden = false })
  document.querySelectorAll('.configoption .details').forEach((details) => { details.removeAttribute('hidden') })
}"""
OPENED = {"myst-design", "myst-tabs", "myst-config-options", "myst-conf-options"}
PACKAGES = ("sphinx", "myst-parser", "sphinx-reredirects", "myst-nb", "docutils", "sphinx-design", "sphinx-tabs",
            "sphinx-config-options", "canonical-sphinx", "sphinx-youtube-links")


def _versions(sphinx_build: Path) -> str:
    python = sphinx_build.parent / "python"
    code = ("import importlib.metadata as m, contextlib\n"  # those the venv has
            f"for p in {PACKAGES!r}:\n"
            "    with contextlib.suppress(m.PackageNotFoundError): print(p, m.version(p))")
    return subprocess.run([str(python), "-c", code], check=True, capture_output=True, text=True).stdout.strip().replace("\n", ", ")


def _included(srcdir: Path, text: str, folder: Path, depth: int = 0) -> list[Path]:
    """The files the `{include}`s in `text` may name, read from `folder`: relative to it (`/x`:
    to `srcdir`), and for an include inside an included file both relative to the page and to
    that file (Sphinx says which: the recording shows the one it pasted)."""
    found: list[Path] = []
    for written in INCLUDE.findall(text):
        for base in {folder, *([] if depth == 0 else [srcdir])}:
            path = (srcdir / written.lstrip("/")) if written.startswith("/") else (base / written)
            if path.is_file() and path not in found:
                found += [path, *_included(srcdir, path.read_text(), path.parent, depth + 1)] if depth < 3 else [path]
    return found


def _inventory_text(inventory: Path) -> str:
    """An intersphinx inventory's entries (version 2: four header lines, then zlib-compressed text)."""
    data = inventory.read_bytes()
    return zlib.decompress(data.split(b"\n", 4)[4]).decode()


def record(site: Path, sphinx_build: Path) -> None:
    repository, site = site, site / SOURCE_FOLDERS[site.name]
    with tempfile.TemporaryDirectory() as out:
        stderr, built = sphinx_html(sphinx_build, site, out)
        sources = [(source.relative_to(site).as_posix(), source) for source in sorted(site.rglob("*.md"))]
        pages = record_pages(sources, built, MAIN, OPEN_EVERYTHING if repository.name in OPENED else None,  # sphinx-reredirects' stub: a script, no main part
                             redirect=lambda html: "window.location.replace" in html and 'role="main"' not in html,
                             shared="".join(f.read_text() for f in [site / "conf.py", *sorted(site.glob("*.yaml"))])
                             + "".join(map(_inventory_text, sorted(site.rglob("*.inv")))),
                             # The files a page's `{include}`s name count as the page's.
                             pasted=lambda text, source: _included(site, text, source.parent), root=Path(out))
    recording = {"renderer": f"{_versions(sphinx_build)}; Chromium innerText of the page's main part",
              "warnings": stderr.replace(f"{site}/", "").splitlines(), "pages": pages}
    recorded = SITES / f"{repository.name}.shown.json"
    recorded.write_text(json.dumps(recording, indent=1) + "\n")
    print(f"{len(pages)} pages recorded in {recorded}")


def main(sphinx_build: Path, names: list[str]) -> None:
    for site in names or SOURCE_FOLDERS:
        record(SITES / site, sphinx_build)


if __name__ == "__main__":  # sphinx-build [site …]: the sites named, or all
    main(Path(sys.argv[1]), sys.argv[2:])
