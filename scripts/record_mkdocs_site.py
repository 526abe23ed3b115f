"""Records what the real MkDocs build of tests/data/site-nav/mkdocs shows: the site is built with
MkDocs 1.6 (`mkdocs build`, Material for MkDocs, the redirects plugin), each built page loaded in
headless Chromium, and a marker (`marker-…`) of a source page counted shown when it is in the
innerText of the page's `<article>` (the theme's navigation, search and footer are not the page).
What a reader opens by a click counts as shown, as in scripts/record_docusaurus_site.py: every
`<details>` is opened and every tab's panel shown first. Writes tests/data/site-nav/mkdocs.shown.json,
which tests/test_python_markdown.py compares docschat's chunks to. The markers of the snippet
files (`includes/`, `private/`) count as those of each page that pastes (`--8<--`); the emoji
page's innerText is recorded whole (an emoji is no marker). MkDocs runs in the site's folder:
pymdownx.snippets' base_path is relative to it.

MkDocs is not a docschat dependency: install it in a throwaway venv, with the Python-Markdown and
pymdown-extensions versions docschat's venv has (the comparison is of the same parser).

    python3 -m venv /tmp/mkdocs && /tmp/mkdocs/bin/pip install mkdocs==1.6.1 mkdocs-material \\
        mkdocs-redirects markdown==3.11.3 pymdown-extensions==13.1.2
    .venv/bin/python scripts/record_mkdocs_site.py /tmp/mkdocs/bin/mkdocs

Another site folder as a second argument records it into <folder>.shown.json beside it: the
mkdocstrings site (tests/data/site-nav/mkdocs-autodoc) needs `mkdocstrings[python]` in that venv,
the include site (tests/data/site-nav/mkdocs-include: FastAPI's and Typer's `{* docs_src/… *}` and
`{!…!}` lines, whose files under docs_src/ count as pasted) `markdown-include-variants==0.0.8
mdx-include==1.4.2`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from _shown_markers import record_pages, shown_text

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "mkdocs"
RECORDED = SITE.parent / "mkdocs.shown.json"
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('.tabbed-block, .tabbed-content').forEach((panel) => { panel.style.display = 'block' })
}"""
SHOWN = "(document.querySelector('article') || document.querySelector('[role=main]') || document.body).innerText"
# mkdocs.utils.markdown_extensions: the files MkDocs builds pages from.
SUFFIXES = (".markdown", ".mdown", ".mkdn", ".mkd", ".md")
# Pages whose innerText is recorded whole, by site folder.
TEXT_OF = {"mkdocs": ("docs/reference/emoji.md",), "mkdocs-include": ("docs/index.md",)}
PACKAGES = ("mkdocs", "markdown", "pymdown-extensions", "mkdocs-material", "mkdocs-redirects", "mkdocstrings",
            "mkdocstrings-python", "markdown-include-variants", "mdx-include")
# What pastes another file's text into a page: pymdownx.snippets, markdown-include-variants, mdx-include.
PASTES = ("--8<--", "{*", "{!")


def _versions(mkdocs: Path) -> str:
    code = ("import importlib.metadata as m, contextlib\n"
            f"for p in {PACKAGES!r}:\n"
            "    with contextlib.suppress(m.PackageNotFoundError): print(p, m.version(p))")
    return subprocess.run([str(mkdocs.parent / "python"), "-c", code], check=True, capture_output=True,
                          text=True).stdout.strip().replace("\n", ", ")


def _built_page(out: Path, page: str) -> Path | None:
    """The HTML MkDocs writes for docs/<page>.md with use_directory_urls: <page>/index.html."""
    slug = re.sub(r"(^|/)index$", "", page)
    built = out / slug / "index.html" if slug else out / "index.html"
    return built if built.is_file() else None


def mkdocs_build(mkdocs: Path, site: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build` of `site` into `out` (exits with the build's output if it fails)."""
    environment = {**os.environ, "DISABLE_MKDOCS_2_WARNING": "true", "NO_MKDOCS_2_WARNING": "1"}
    build = subprocess.run([str(mkdocs), "build", "-f", str(site / "mkdocs.yml"), "-d", str(out)],
                           capture_output=True, text=True, env=environment, cwd=site)
    if build.returncode:
        sys.exit(f"mkdocs build failed:\n{build.stdout}\n{build.stderr}")
    return build


def main(mkdocs: Path, site: Path = SITE) -> None:
    docs = site / "docs"
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "site"
        build = mkdocs_build(mkdocs, site, out)
        sources = [(source.relative_to(site).as_posix(), source) for source in sorted(docs.rglob("*"))
                   if source.suffix in SUFFIXES]
        snippets = sorted([*site.glob("includes/*.md"), *site.glob("private/*.md"),
                           *(path for path in site.glob("docs_src/**/*") if path.is_file())])
        pages = record_pages(sources, lambda _, source: _built_page(out, source.relative_to(docs).with_suffix("").as_posix()),
                             SHOWN, OPEN_EVERYTHING, redirect=lambda html: "<article" not in html,  # the redirects plugin's stub
                             pasted=lambda text, _: snippets if any(mark in text for mark in PASTES) else [], root=out)
        texts = {name: shown_text(_built_page(out, name.removeprefix("docs/").removesuffix(".md")), SHOWN, OPEN_EVERYTHING)
                 for name in TEXT_OF.get(site.name, ())}
    warnings = [line for line in build.stderr.splitlines()
                if line.startswith(("ERROR", "WARNING", "INFO    -  A reference"))]
    record = {"renderer": f"{_versions(mkdocs)}; Chromium innerText of the page's <article>, tabs and details opened",
              "warnings": warnings, "pages": pages, "texts": texts}
    recorded = RECORDED if site == SITE else site.parent / f"{site.name}.shown.json"
    recorded.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(pages)} pages recorded in {recorded}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), *(Path(arg).resolve() for arg in sys.argv[2:3]))
