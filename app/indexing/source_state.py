"""Sources seen from operations: which to sync, their branch head, what else decides their chunks."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict

from app.config import Settings
from app.corpus.git_source import resolve_commit
from app.corpus.sources import Source


def config_hash(source: Source, settings: Settings) -> str:
    """Everything besides the commit that decides a source's chunks (its config, chunk sizes):
    when it changes, a re-check of an unchanged head syncs anyway."""
    facts = {k: str(v) for k, v in asdict(source).items()} | {"max_chunk_chars": settings.max_chunk_chars,
                                                               "max_code_chunk_chars": settings.max_code_chunk_chars}
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:16]


def head_commit(source: Source) -> str:
    """The commit the source's branch points at (`git rev-parse`: one process, no file read)."""
    return resolve_commit(source.repo, source.branch)
