"""Records which class names hide an element on a page of each docs theme, as Chromium shows it: a
tiny site is built with the theme (sphinx-build, mkdocs build; Docusaurus' Infima and Mintlify's
component stylesheet are loaded into a bare page), the built page opened in headless Chromium, and
one `<div class="NAME">` per class name its stylesheets mention put where the page's own text is;
a class hides when the page's innerText (what a reader copies) leaves its div's text out. Read at
several window widths; app/corpus/theme_hiding.py applies the classes hidden at a desktop width
(1024 px or more). What a class does only together with another class, or on another element than
a `<div>`, is not recorded.

    python -m venv /tmp/themes && /tmp/themes/bin/pip install sphinx pydata-sphinx-theme \
        sphinx-book-theme sphinx-rtd-theme furo mkdocs mkdocs-material
    (cd /tmp/npm && npm pack infima @docusaurus/theme-classic @mintlify/components && unpack each)
    .venv/bin/python scripts/record_theme_hiding.py /tmp/themes /tmp/npm > app/corpus/theme_hiding.json

A theme that is not installed, or whose site does not build, is left out (docschat then hides
nothing more on a site using it).

Astro Starlight's record alone, kept beside the others (its site is built with Astro and
@astrojs/starlight installed as scripts/record_starlight_site.py says; Astro 7 wants Node 22):

    .venv/bin/python scripts/record_theme_hiding.py --starlight /tmp/sl [/tmp/node22/node_modules/.bin/node]

VitePress's default theme alone, the same way (the version scripts/record_vitepress_site.py installs):

    .venv/bin/python scripts/record_theme_hiding.py --vitepress /tmp/vp

Sphinx extensions that bring a stylesheet of their own (sphinx-design's `sd-d-none`, which a page
may name in a `:class:` option), each built into the basic theme's page beside the extension's
own; the classes it hides that the basic theme alone does not (sphinx_extensions in the JSON), and
of those the ones that hide a figure too (`figure`: basic.css shows a figure again, over a plain
class rule):

    python -m venv /tmp/ext && /tmp/ext/bin/pip install sphinx sphinx-design sphinx-togglebutton myst-nb \\
        sphinx-tabs sphinx-inline-tabs sphinx-copybutton sphinx-exercise sphinx-proof sphinx-thebe
    .venv/bin/python scripts/record_theme_hiding.py --sphinx-extensions /tmp/ext
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

SPHINX_THEMES = ["alabaster", "classic", "nature", "sphinxdoc", "scrolls", "agogo", "traditional", "haiku",
                 "pyramid", "bizstyle", "furo", "sphinx_rtd_theme", "pydata_sphinx_theme", "sphinx_book_theme"]
MKDOCS_THEMES = ["mkdocs", "readthedocs", "material"]
# Sphinx extensions with a stylesheet, by module and package name.
SPHINX_EXTENSIONS = {"sphinx_design": "sphinx-design", "sphinx_togglebutton": "sphinx-togglebutton", "myst_nb": "myst-nb",
                     "sphinx_tabs.tabs": "sphinx-tabs", "sphinx_inline_tabs": "sphinx-inline-tabs",
                     "sphinx_copybutton": "sphinx-copybutton", "sphinx_exercise": "sphinx-exercise",
                     "sphinx_proof": "sphinx-proof", "sphinx_thebe": "sphinx-thebe"}
# A tab's panel, hidden until its label is clicked: what a click shows counts as shown (as a
# `<details>`' text, on every site).
TAB_PANELS = {"sd-tab-content", "tab-content"}  # sphinx-design's, sphinx-inline-tabs'
FIGURE = ("figure", "align-default")  # a Sphinx figure, as a `:figclass:` classes it
WIDTHS = [375, 768, 1024, 1280, 1440, 1920]
ANCHOR = "THEMEPROBEANCHOR"

# Every class name the page's stylesheets mention (their rules, nested and in at-rules; a sheet of
# another origin cannot be read and is skipped).
CLASSES_JS = r"""() => {
  const names = new Set()
  const walk = (rules) => { for (const rule of rules) {
    if (rule.selectorText) for (const m of rule.selectorText.matchAll(/\.((?:[\w-]|\\.)+)/g)) names.add(m[1].replace(/\\(.)/g, '$1'))
    if (rule.cssRules) walk(rule.cssRules)
  } }
  for (const sheet of document.styleSheets) { try { walk(sheet.cssRules) } catch {} }
  return [...names].filter((n) => !/^\d/.test(n)).sort()
}"""

# One div per class where the anchor paragraph stands, each in a plain div; the classes whose
# marker the page's innerText leaves out.
# With a tag and classes (`figure`, `align-default`): that element, as Sphinx writes a figure, whose
# basic.css rule `figure.align-default {display: block}` beats a plain class rule.
PROBE_JS = r"""([names, tag, own]) => {
  const anchor = [...document.querySelectorAll('p')].find((p) => p.textContent.includes(ANCHOR))
  const holder = document.createElement('div')
  names.forEach((name, i) => {
    const wrap = document.createElement('div'); const probe = document.createElement(tag || 'div')
    probe.className = (own ? own + ' ' : '') + name; probe.textContent = 'probe' + i + 'mark'; wrap.appendChild(probe); holder.appendChild(wrap)
  })
  anchor.after(holder)
  return holder
}""".replace("ANCHOR", repr(ANCHOR))
HIDDEN_JS = r"""([holder, names]) => {
  const text = document.body.innerText.toLowerCase() // a class may transform its case (`text-uppercase`)
  // A probe a script replaced (FontAwesome's icons) has no style of its own: '?'.
  const probes = [...holder.children].map((wrap) => wrap.firstElementChild)
  return names.map((name, i) => [name, probes[i] ? getComputedStyle(probes[i]) : {}]).filter(([name], i) => !text.includes('probe' + i + 'mark'))
    .map(([name, style]) => [name, style.display === 'none' ? 'display: none' : style.contentVisibility === 'hidden'
      ? 'content-visibility: hidden' : style.visibility !== 'visible' ? 'visibility: ' + style.visibility : '?'])
}"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def handle(self) -> None:
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):  # a page left before a file was sent
            pass


def sphinx_page(venv: Path, theme: str, out: Path, extensions: tuple[str, ...] = ()) -> Path | None:
    (out / "src").mkdir(parents=True)
    (out / "src" / "conf.py").write_text(f"html_theme = {theme!r}\nproject = 'p'\nextensions = {list(extensions)!r}\n")
    (out / "src" / "index.rst").write_text(f"Title\n=====\n\n{ANCHOR} text.\n")
    done = subprocess.run([str(venv / "bin" / "sphinx-build"), "-q", "-b", "html", str(out / "src"), str(out / "html")],
                          capture_output=True, text=True)
    return out / "html" / "index.html" if done.returncode == 0 else None


def mkdocs_page(venv: Path, theme: str, out: Path) -> Path | None:
    (out / "docs").mkdir(parents=True)
    (out / "mkdocs.yml").write_text(f"site_name: p\ntheme:\n  name: {theme}\nuse_directory_urls: false\n")
    (out / "docs" / "index.md").write_text(f"# Title\n\n{ANCHOR} text.\n")
    done = subprocess.run([str(venv / "bin" / "mkdocs"), "build", "-q", "-f", str(out / "mkdocs.yml"), "-d", str(out / "site")],
                          capture_output=True, text=True)
    return out / "site" / "index.html" if done.returncode == 0 else None


def bare_page(stylesheet: Path, wrappers: str, out: Path) -> Path | None:
    """A page linking `stylesheet`, its text inside `wrappers` (opening tags, as the site's layout
    has them around a page's Markdown)."""
    if not stylesheet.is_file():
        return None
    out.mkdir(parents=True)
    shutil.copy(stylesheet, out / "theme.css")
    closing = "".join(f"</{tag}>" for tag in reversed(re.findall(r"<(\w+)", wrappers)))
    (out / "index.html").write_text(f'<!doctype html><html><head><link rel="stylesheet" href="theme.css"></head>'
                                    f"<body>{wrappers}<p>{ANCHOR} text.</p>{closing}</body></html>")
    return out / "index.html"


def starlight_page(install: Path, node: str, out: Path) -> Path | None:
    """A Starlight site of one page, built by `astro build` with the packages of `install`."""
    docs = out / "src" / "content" / "docs"
    docs.mkdir(parents=True)
    (out / "node_modules").symlink_to(install / "node_modules")
    (out / "package.json").write_text('{"type": "module"}\n')
    (out / "astro.config.mjs").write_text("import { defineConfig } from 'astro/config';\nimport starlight from "
                                          "'@astrojs/starlight';\nexport default defineConfig({ integrations: "
                                          "[starlight({ title: 'p' })] });\n")
    (out / "src" / "content.config.ts").write_text(
        "import { defineCollection } from 'astro:content';\nimport { docsLoader } from '@astrojs/starlight/loaders';\n"
        "import { docsSchema } from '@astrojs/starlight/schema';\nexport const collections = "
        "{ docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };\n")
    (docs / "index.md").write_text(f"---\ntitle: Title\n---\n\n{ANCHOR} text.\n")
    done = subprocess.run([node, str(install / "node_modules" / "astro" / "bin" / "astro.mjs"), "build"],
                          cwd=out, capture_output=True, text=True)
    return out / "dist" / "index.html" if done.returncode == 0 else None


def vitepress_page(install: Path, out: Path) -> Path | None:
    """A VitePress site of one page (the default theme), built by `vitepress build` with the packages of `install`."""
    (out / ".vitepress").mkdir(parents=True)
    (out / "node_modules").symlink_to(install / "node_modules")
    (out / ".vitepress" / "config.mjs").write_text("export default { title: 'p' }\n")
    (out / "index.md").write_text(f"# Title\n\n{ANCHOR} text.\n")
    done = subprocess.run(["node", str(install / "node_modules" / "vitepress" / "bin" / "vitepress.js"), "build"],
                          cwd=out, capture_output=True, text=True)
    return out / ".vitepress" / "dist" / "index.html" if done.returncode == 0 else None


def record_starlight(install: Path, node: str) -> None:
    """Starlight's record, written into app/corpus/theme_hiding.json beside the others."""
    starlight = json.loads((install / "node_modules" / "@astrojs" / "starlight" / "package.json").read_text())["version"]
    record_built("starlight", f"@astrojs/starlight {starlight}", lambda out: starlight_page(install, node, out))


def record_vitepress(install: Path) -> None:
    """VitePress's default theme's record (its `.vp-block`, a code group's panel, hidden outside a
    group too, but with `active`: `.vp-block.active {display: block}`), written into
    app/corpus/theme_hiding.json beside the others."""
    vitepress = json.loads((install / "node_modules" / "vitepress" / "package.json").read_text())["version"]
    record_built("vitepress", f"vitepress {vitepress}", lambda out: vitepress_page(install, out), shown_with=True)


def record_built(generator: str, version: str, build: Callable[[Path], Path | None], shown_with: bool = False) -> None:
    """The record of the default theme of a site `build` builds (its page's path), with and without
    its scripts, into app/corpus/theme_hiding.json beside the others. With `shown_with`, also the
    classes that show each hidden class's div again at every desktop width, in both pages, when the
    div has both (`shown_with`: theme_hiding.py writes the hiding rule `:not()` them)."""
    recorded = Path(__file__).parent.parent / "app" / "corpus" / "theme_hiding.json"
    record = json.loads(recorded.read_text())
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        path = build(Path(folder) / "site")
        if path is None:
            sys.exit(f"{generator}: the site did not build")
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        pages = [browser.new_page(java_script_enabled=False), browser.new_page()]
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=path.parent))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        hidden = both(*(hidden_classes(page, url) for page in pages))
        record[generator] = {"default": {"version": version, "chromium": browser.version, "hidden": hidden}}
        if shown_with:
            pages[1].goto(url)
            names = pages[1].evaluate(CLASSES_JS)
            record[generator]["default"]["shown_with"] = {name: shown_again(pages, url, name, names) for name in hidden}
        browser.close()
        server.shutdown()
    recorded.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


def record_sphinx_extensions(venv: Path) -> None:
    """The Sphinx extensions' records, written into app/corpus/theme_hiding.json beside the others:
    what the basic theme's page with the extension hides and the page without it does not."""
    recorded = Path(__file__).parent.parent / "app" / "corpus" / "theme_hiding.json"
    record = json.loads(recorded.read_text())
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        pages = [browser.new_page(java_script_enabled=False), browser.new_page()]
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"

        def hidden(name: str, extensions: tuple[str, ...]) -> tuple[dict[str, dict[str, list[int]]], ...]:
            path = sphinx_page(venv, "basic", Path(folder) / name, extensions)
            if path is None:
                sys.exit(f"sphinx-build failed with {extensions}")
            url = base + path.relative_to(folder).as_posix()
            return tuple(both(*(hidden_classes(page, url, element) for page in pages)) for element in (("div", ""), FIGURE))

        plain, plain_figure = hidden("basic", ())
        record["sphinx_extensions"] = {}
        for module, package in SPHINX_EXTENSIONS.items():
            found, figure = hidden(module, (module,))
            record["sphinx_extensions"][module] = {
                "version": f"{package} {version(venv, package)}, sphinx {version(venv, 'sphinx')}", "chromium": browser.version,
                "hidden": {name: styles for name, styles in found.items() if name not in plain and name not in TAB_PANELS},
                # Of those, the ones that hide a figure too (a `:figclass:`): an `!important` rule.
                "figure": sorted(name for name in figure if name in found and name not in plain_figure and name not in TAB_PANELS)}
        browser.close()
        server.shutdown()
    recorded.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


def hidden_classes(page: Page, url: str, element: tuple[str, str] = ("div", "")) -> dict[str, dict[str, list[int]]]:
    """Each class name that hides its div (or `element`: a tag and its own classes) at some width:
    by what computed style ("display: none", "visibility: hidden"; "?" for another cause), at
    which widths."""
    hidden: dict[str, dict[str, list[int]]] = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(url)
        names = page.evaluate(CLASSES_JS)
        holder = page.evaluate_handle(PROBE_JS, [names, *element])
        for name, style in page.evaluate(HIDDEN_JS, [holder, names]):
            hidden.setdefault(name, {}).setdefault(style, []).append(width)
    return dict(sorted(hidden.items()))


def shown_again(pages: list[Page], url: str, name: str, names: list[str]) -> list[str]:
    """The class names that, on a div of class `name` too, leave it shown at every desktop width
    in each of `pages` (hidden with it at one: not listed, more hidden, never less)."""
    together = [hidden_classes(page, url, ("div", name)) for page in pages]
    return sorted(other for other in names if other != name and not any(
        width >= 1024 for found in together for widths in found.get(other, {}).values() for width in widths))


def both(one: dict[str, dict[str, list[int]]], other: dict[str, dict[str, list[int]]]) -> dict[str, dict[str, list[int]]]:
    """What both records hide, the same way at the same widths."""
    kept = {name: {style: [w for w in widths if w in other.get(name, {}).get(style, [])] for style, widths in styles.items()}
            for name, styles in one.items()}
    return {name: {style: widths for style, widths in styles.items() if widths} for name, styles in kept.items()
            if any(styles.values())}


def version(venv: Path, package: str) -> str | None:
    done = subprocess.run([str(venv / "bin" / "python"), "-c", f"import importlib.metadata as m; print(m.version({package!r}))"],
                          capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def npm_version(folder: Path) -> str | None:
    manifest = folder / "package" / "package.json"
    return json.loads(manifest.read_text())["version"] if manifest.is_file() else None


def main() -> None:
    venv, npm = Path(sys.argv[1]), Path(sys.argv[2])
    packages = {"sphinx_rtd_theme": "sphinx-rtd-theme", "pydata_sphinx_theme": "pydata-sphinx-theme",
                "sphinx_book_theme": "sphinx-book-theme", "furo": "furo", "alabaster": "alabaster",
                "material": "mkdocs-material"}
    infima = next((p for p in npm.glob("infima-*") if p.is_dir()), None)
    mintlify = next((p for p in npm.glob("mintlify-components-*") if p.is_dir()), None)
    record: dict[str, dict[str, dict[str, object]]] = {"sphinx": {}, "mkdocs": {}, "docusaurus": {}, "mintlify": {}}
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        # With and without the theme's scripts, a class kept where both hide it: its stylesheets'
        # doing, whatever the scripts do (FontAwesome's replaces an `.fa` element by an icon,
        # depending on timing; pydata's `.pst-js-only` hides only while scripts do not run).
        pages = [browser.new_page(java_script_enabled=False), browser.new_page()]
        root = Path(folder)
        # Served over HTTP: a page from a file cannot read its stylesheets' rules (another origin).
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        builds: list[tuple[str, str, str | None, Path | None]] = []
        for theme in SPHINX_THEMES:
            builds.append(("sphinx", theme, version(venv, packages.get(theme, "sphinx")), sphinx_page(venv, theme, root / f"s-{theme}")))
        for theme in MKDOCS_THEMES:
            builds.append(("mkdocs", theme, version(venv, packages.get(theme, "mkdocs")), mkdocs_page(venv, theme, root / f"m-{theme}")))
        if infima:
            # The classic theme's page: Infima's stylesheet, the Markdown inside `.markdown`.
            builds.append(("docusaurus", "classic", f"infima {npm_version(infima)}",
                           bare_page(infima / "package/dist/css/default/default.css",
                                     '<div id="__docusaurus"><main><article><div class="theme-doc-markdown markdown">', root / "d")))
        if mintlify:
            builds.append(("mintlify", "components", f"@mintlify/components {npm_version(mintlify)}",
                           bare_page(mintlify / "package/dist/styles.css", '<div id="content" class="prose">', root / "n")))
        for generator, theme, theme_version, path in builds:
            if path is None:
                print(f"{generator} {theme}: not built, left out", file=sys.stderr)
                continue
            record[generator][theme] = {"version": theme_version, "chromium": browser.version, "hidden": both(*(hidden_classes(page, base + path.relative_to(root).as_posix()) for page in pages))}
        browser.close()
        server.shutdown()
    json.dump(record, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--starlight"]:
        record_starlight(Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "node")
    elif sys.argv[1:2] == ["--vitepress"]:
        record_vitepress(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["--sphinx-extensions"]:
        record_sphinx_extensions(Path(sys.argv[2]))
    else:
        main()
