"""Records what the real Sphinx build shows of the reStructuredText probes (tests/data/rst-probes:
hidden constructs, each carrying a `marker-…`): the site built with sphinx-build once per theme in
THEMES (`-D html_theme=…`), each page loaded in headless Chromium (1280 px) and a marker counted
shown when it is in the innerText of the page's main part (`[role=main]`), the theme's CSS applied.
Writes tests/data/rst-probes.shown.json, which tests/test_rst_probes.py compares docschat's chunks
to (the probes' conf.py with each theme).

Sphinx and the themes are not docschat dependencies: install them in a throwaway venv.

    python3 -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx==9.0.4 docutils==0.22.4 \\
        furo==2025.12.19 sphinx_rtd_theme==3.1.0
    .venv/bin/python scripts/record_rst_probes.py /tmp/sphinx/bin/sphinx-build
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from _shown_markers import record_pages

PROBES = Path(__file__).parent.parent / "tests" / "data" / "rst-probes"
THEMES = ("alabaster", "furo", "sphinx_rtd_theme")
MAIN = "(document.querySelector('[role=main]') || document.body).innerText"


def main(sphinx_build: Path) -> None:
    python = sphinx_build.parent / "python"
    versions = subprocess.run([str(python), "-c", "import sphinx, docutils, furo, sphinx_rtd_theme as r; print("
                               "f'sphinx {sphinx.__version__}, docutils {docutils.__version__}, furo {furo.__version__},"
                               " sphinx_rtd_theme {r.__version__}')"], capture_output=True, text=True, check=True).stdout.strip()
    themes: dict[str, dict[str, dict[str, object]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for theme in THEMES:
            out = Path(folder) / theme
            build = subprocess.run([str(sphinx_build), "-q", "-E", "-b", "html", "-D", f"html_theme={theme}",
                                    str(PROBES), str(out)], capture_output=True, text=True)
            if build.returncode:
                sys.exit(f"sphinx-build failed:\n{build.stderr}")

            def built(name: str, _: Path, out: Path = out) -> Path | None:
                html = out / (name.removesuffix(".rst") + ".html")
                return html if html.is_file() else None

            sources = [(source.relative_to(PROBES).as_posix(), source) for source in sorted(PROBES.rglob("*.rst"))]
            themes[theme] = record_pages(sources, built, MAIN)
    recording = {"renderer": f"{versions}; Chromium innerText of [role=main]", "themes": themes}
    recorded = PROBES.parent / "rst-probes.shown.json"
    recorded.write_text(json.dumps(recording, indent=1) + "\n")
    print(f"{sum(len(pages) for pages in themes.values())} pages recorded in {recorded}")


if __name__ == "__main__":  # sphinx-build
    main(Path(sys.argv[1]))
