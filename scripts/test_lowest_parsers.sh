#!/bin/sh
# Runs the probe and site tests with the page parsers at the lowest versions pyproject.toml allows
# (issue 46: the bounds admitted markdown-it-py 3.0-4.2, whose reading leaked markers). A throwaway
# venv holds only those packages, resolved by uv with `--resolution lowest-direct` (each at its
# lowest version that installs with the others); .venv's site-packages come after them on sys.path
# (a .pth file), so pytest, torch and the rest are not installed again. Fails when a test fails.
#
#   sh scripts/test_lowest_parsers.sh            # uses .venv/bin/python
#   PYTHON=/path/to/python sh scripts/test_lowest_parsers.sh
set -eu
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
# What the probes read pages with: markdown-it-py and its plugins (MyST), mini-racer (the micromark
# bundle in V8), PyYAML (front matter, mkdocs.yml), pathspec (MkDocs' exclude_docs, as MkDocs
# matches it), Python-Markdown, pymdown-extensions and the include extensions (MkDocs pages),
# docutils (Sphinx's reStructuredText pages), pyromark (pulldown-cmark: mdBook's chapters).
PARSERS="markdown-it-py mdit-py-plugins mini-racer pyyaml pathspec markdown pymdown-extensions
  markdown-include-variants mdx-include docutils pyromark"
TESTS="tests/test_markdown_probes.py tests/test_site_navigation.py tests/test_markdown_html.py
  tests/test_myst_xref.py tests/test_site_root.py tests/test_myst_version_notes.py
  tests/test_python_markdown.py tests/test_python_markdown_includes.py tests/test_rst_site.py tests/test_parse_time.py tests/test_site_mdbook.py tests/test_mdbook_probes.py
  tests/test_compose.py::test_myst_blocks_sphinx_runs_but_never_shows_are_not_indexed
  tests/test_compose.py::test_myst_directives_and_roles_become_what_the_reader_sees
  tests/test_compose.py::test_a_mintlify_site_shows_field_names_labels_math_and_captions_but_not_agent_only_text"

work="$(mktemp -d /tmp/docschat-lowest-XXXXXX)"
trap 'rm -rf "$work"' EXIT

# The bounds as pyproject.toml writes them ("markdown-it-py>=4.3", …), one a line.
"$PYTHON" - "$PARSERS" >"$work/requirements.txt" <<'EOF'
import re, sys, tomllib
wanted = sys.argv[1].split()
name = lambda r: re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0].lower().replace("_", "-")
deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]
found = [d for d in deps if name(d) in wanted]
missing = set(wanted) - {name(d) for d in found}
if missing:
    sys.exit(f"pyproject.toml has no bound for {sorted(missing)}: update PARSERS in scripts/test_lowest_parsers.sh")
print("\n".join(found))
EOF

"$PYTHON" -m venv "$work/uv" && "$work/uv/bin/pip" install -q --disable-pip-version-check uv
"$work/uv/bin/uv" venv -q --python "$PYTHON" "$work/venv"
"$work/uv/bin/uv" pip install -q --python "$work/venv/bin/python" --resolution lowest-direct -r "$work/requirements.txt"
lowest="$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
behind="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "import site; site.addsitedir('$behind')" >"$lowest/zz_docschat_venv.pth"

echo "parsers at their lowest allowed versions: $("$work/uv/bin/uv" pip freeze -q --python "$work/venv/bin/python" | tr '\n' ' ')"
"$work/venv/bin/python" - <<'EOF'
# The versions the tests import must be the lowest ones, not .venv's (the .pth comes after).
import importlib.metadata as m, markdown, markdown_it, mdit_py_plugins, pathspec, py_mini_racer, pymdownx, yaml, sys
import markdown_include_variants, mdx_include, docutils, pyromark
for module, dist in ((markdown_it, "markdown-it-py"), (mdit_py_plugins, "mdit-py-plugins"), (yaml, "pyyaml"),
                     (py_mini_racer, "mini-racer"), (pathspec, "pathspec"), (markdown, "markdown"),
                     (pymdownx, "pymdown-extensions"), (markdown_include_variants, "markdown-include-variants"),
                     (mdx_include, "mdx-include"), (docutils, "docutils"), (pyromark, "pyromark")):
    if "docschat-lowest" not in module.__file__:
        sys.exit(f"{dist} is imported from {module.__file__}, not from the lowest-version venv")
EOF
PYTHONPATH="$PWD" "$work/venv/bin/python" -m pytest -q -p no:cacheprovider $TESTS
