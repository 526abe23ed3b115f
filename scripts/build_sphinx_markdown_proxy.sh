#!/bin/sh
# The seventeenth stranger's proxy (design/answer-eval.md): docschat reads no reStructuredText, so
# to measure the rest of the pipeline on a Sphinx .rst site, the site is built by Sphinx itself
# into Markdown (sphinx-markdown-builder), and those files are synced as plain Markdown pages.
# Usage: sh scripts/build_sphinx_markdown_proxy.sh FLASK_CHECKOUT OUT_REPO VENV
# FLASK_CHECKOUT: github.com/pallets/flask at 2ac89889 (the whole tree: autodoc imports src/flask).
set -eu
src=$1 out=$2 venv=$3
[ -x "$venv/bin/sphinx-build" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q "$src" \
  sphinx==9.0.4 pallets-sphinx-themes==2.5.0 sphinxcontrib-log-cabinet==1.0.1 sphinx-tabs==3.5.0 \
  sphinx-markdown-builder==0.6.11 python-dotenv; }
build=$(mktemp -d)
(cd "$src/docs" && "$venv/bin/sphinx-build" -q -b markdown -D intersphinx_mapping= . "$build")
mkdir -p "$out/docs"
(cd "$build" && find . -name '*.md' | while read -r f; do mkdir -p "$out/docs/$(dirname "$f")"; cp "$f" "$out/docs/$f"; done)
cd "$out" && git init -q -b main && git add -A && git -c user.name=proxy -c user.email=proxy@localhost \
  commit -qm "flask docs as sphinx-markdown-builder writes them"
