"""Records how each Sphinx directive reads its markup: its arguments (required, optional, whether
the last takes whitespace), whether it takes content, and its options (each with the name of the
docutils function that checks its value), from the real classes Sphinx registers: Sphinx's own
(a bare site, the `html` builder), each of its bundled extensions (`sphinx.ext.*`) loaded
alone, and the most common other packages' directives (OTHERS: sphinx-design's `dropdown`, `grid`,
`tab-set`…, sphinx-tabs', sphinx-inline-tabs', myst-nb's), each loaded alone (a directive is
defined only on a site whose conf.py lists its extension: sphinx_directives.py). docutils refuses
a directive whose markup its class does not take (an unknown option, a second argument, content
where none is taken: "Error in … directive") and Sphinx then shows nothing of it; app/corpus/rst_hidden.py gives docschat's reading of each directive the same spec, so
docutils refuses it too. A name two extensions define differently is left out (read as before).

    python3 -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx==9.0.4 docutils==0.22.4 \
        myst-parser==5.2.0 myst-nb==1.4.0 sphinx-design==0.8.0 sphinx-tabs==3.5.0 sphinx-inline-tabs==2025.12.21.14
    /tmp/sphinx/bin/python scripts/record_sphinx_directive_specs.py > app/corpus/sphinx_directive_specs.json
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from record_sphinx_directives import EXTENSIONS

BUNDLED = [ext for ext in EXTENSIONS if ext.startswith("sphinx.ext.")]
# Other packages' extensions (and the distribution each is of, whose version is recorded).
OTHERS = {"sphinx_design": "sphinx-design", "sphinx_tabs.tabs": "sphinx-tabs", "sphinx_inline_tabs": "sphinx-inline-tabs",
          "myst_nb": "myst-nb"}


def _spec(directive: Any) -> list[Any] | None:
    from docutils.parsers.rst import Directive, directives

    if not (isinstance(directive, type) and issubclass(directive, Directive)):
        return None  # a function directive (docutils' old form): not recorded
    spec: Any = directive  # docutils' stubs leave Directive's class attributes untyped
    options = spec.option_spec
    checks = {name: (getattr(check, "__name__", "") if getattr(directives, getattr(check, "__name__", ""), None) is check
                     else "") for name, check in (options or {}).items()}
    return [spec.required_arguments, spec.optional_arguments, bool(spec.final_argument_whitespace),
            bool(spec.has_content), None if options is None else dict(sorted(checks.items()))]


def specs_of(extensions: list[str]) -> dict[str, list[Any]]:
    from docutils.parsers.rst import directives
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    with tempfile.TemporaryDirectory() as folder, docutils_namespace():
        root = Path(folder)
        (root / "conf.py").write_text(f"extensions = {extensions!r}\n")
        (root / "index.rst").write_text("T\n=\n")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            app = Sphinx(str(root), str(root), str(root / "_build"), str(root / "_doctrees"), "html",
                         status=None, warning=None, freshenv=True)
        found: dict[str, list[Any]] = {}
        for name, directive in directives._directives.items():
            if (spec := _spec(directive)) is not None:
                found[name.lower()] = spec
        for domain in app.env.domains.sorted():  # bare names as Sphinx resolves them: py's and std's
            for name, directive in domain.directives.items():
                if (spec := _spec(directive)) is not None:
                    found[f"{domain.name}:{name}".lower()] = spec
                    if domain.name in ("py", "std"):
                        found.setdefault(name.lower(), spec)
        return found


def main() -> None:
    from importlib.metadata import version

    recorded: dict[str, list[Any]] = {}
    conflicting: set[str] = set()
    for extensions in ([], *([ext] for ext in [*BUNDLED, *OTHERS])):
        for name, spec in specs_of(extensions).items():
            if recorded.setdefault(name, spec) != spec:
                conflicting.add(name)
    specs = {name: spec for name, spec in sorted(recorded.items()) if name not in conflicting}
    json.dump({"recorded_with": {package: version(package) for package in ("sphinx", "docutils", *OTHERS.values())},
               "fields": ["required_arguments", "optional_arguments", "final_argument_whitespace", "has_content",
                          "options"], "directives": specs}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
