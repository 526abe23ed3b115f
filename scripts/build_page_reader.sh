#!/bin/sh
# Builds app/corpus/js/reader.js, the page reader app/corpus/reader.py runs in V8 (py_mini_racer),
# and app/corpus/js/reader-openapi.js, its OpenAPI part (src/openapi.js), which it loads only before
# a site's first OpenAPI call, from the versions app/corpus/js/package-lock.json pins. Run after
# changing src/ or the lockfile, and commit both. `--check` rebuilds into temporary files and fails
# when a committed bundle differs (CI, where npm is reachable).
#
# --platform=node: decode-named-character-reference otherwise picks its DOM build ("document is
# not defined" in V8); `yaml` (which @mintlify/openapi-parser reads YAML specs with) its browser
# build, for its Node one asks for Node's `process` and `buffer`; so `util-deprecate`
# (postcss-selector-parser's), whose Node build is Node's `util`. IIFE with a global name: V8 evaluates it as a script, no module loader.
set -eu
cd "$(dirname "$0")/../app/corpus/js"
# A node_modules that is a link to another checkout's (a worktree sharing main's): npm ci would
# empty the folder it points to and install here instead, so the packages there are used as they are.
if [ -L node_modules ]; then
  echo "node_modules is a link ($(readlink node_modules)): building with its packages, npm ci skipped" >&2
else
  npm ci --no-audit --no-fund --ignore-scripts >/dev/null
fi

check=false
[ "${1:-}" = "--check" ] && check=true
for bundle in reader:docschatReader openapi:docschatOpenapi; do
  entry=${bundle%%:*}
  name=reader.js
  [ "$entry" = openapi ] && name=reader-openapi.js
  out=$name
  $check && out=$(mktemp --suffix=.js)
  ./node_modules/.bin/esbuild "src/$entry.js" --bundle --platform=node --format=iife \
    --global-name="${bundle#*:}" --minify --legal-comments=none --log-level=warning \
    --alias:yaml=./node_modules/yaml/browser/index.js --alias:util-deprecate=./node_modules/util-deprecate/browser.js \
    --outfile="$out"
  if $check; then
    cmp -s "$out" "$name" || { echo "app/corpus/js/$name differs from its sources: run $0" >&2; exit 1; }
    rm -f "$out"
  fi
  echo "app/corpus/js/$name: $(wc -c < "$name") bytes"
done
