#!/usr/bin/env bash
# Retrieval and judgment figures of a checkout on a shared corpus, the way the stop notes measure them.
#
#   scripts/eval_corpus.sh CORPUS HOME [docschat eval args...]
#     CORPUS  ray | claude | mintlify   (../shared/corpora/<corpus>-docs)
#     HOME    a DOCSCHAT_HOME of its own: an embedded Postgres and the embedding cache live there
#   QUESTIONS=file   evaluate another question file (default ../shared/eval/<corpus>-docs-dev.jsonl)
#   NOSYNC=1         skip the sync (the chunks are already in HOME's database)
#
# The corpus is committed once into HOME/corpus-git (compose reads git), synced with the offline model,
# then `docschat eval --json` prints its report. Stop HOME's Postgres with `docschat db stop` afterwards.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=$1; mkdir -p "$2"; HOME_DIR=$(cd "$2" && pwd); shift 2
SHARED=${SHARED_DIR:-$ROOT/../shared}
REPO=$HOME_DIR/corpus-git
if [ ! -d "$REPO/.git" ]; then
  mkdir -p "$REPO"; cp -r "$SHARED/corpora/$CORPUS-docs" "$REPO/docs"
  git -C "$REPO" init -q -b main; git -C "$REPO" add -A
  git -C "$REPO" -c user.name=eval -c user.email=eval@x.invalid commit -q -m corpus
fi
case $CORPUS in
  ray) BASE=https://docs.ray.io;; claude) BASE=https://docs.claude.com;; mintlify) BASE=https://mintlify.com/docs;;
  *) echo "unknown corpus $CORPUS (ray, claude or mintlify)" >&2; exit 2;;
esac
export DOCSCHAT_HOME=$HOME_DIR DOCS_REPO=$REPO BRANCH=main DOCS_DIR=docs EMBEDDING_PROVIDER=local \
  DOCS_BASE_URL=$BASE DOCS_URL_PREFIX= PYTHONPATH=$ROOT
unset DATABASE_URL
PY=$ROOT/.venv/bin/python
cd "$ROOT"
if [ -z "${NOSYNC:-}" ]; then
  $PY -m app sync --json > "$HOME_DIR/sync.json" 2> "$HOME_DIR/sync.err" || { tail -5 "$HOME_DIR/sync.err" >&2; exit 1; }
fi
$PY -m app eval "${QUESTIONS:-$SHARED/eval/$CORPUS-docs-dev.jsonl}" --json "$@"
