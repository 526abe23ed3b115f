"""The sources an operator syncs, seen from operations: name, where the docs are, their head commit."""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from app.config import Settings
from app.corpus.compose import DocsSource
from app.corpus.git_source import GitSourceError

DEFAULT_SOURCE = "docs"


@dataclass(frozen=True)
class SourceSpec:
    name: str
    docs: DocsSource

    def config_hash(self, settings: Settings) -> str:
        """What besides the commit decides the chunks: a change here re-syncs an unchanged head."""
        facts = {
            "repo": str(self.docs.repo), "branch": self.docs.branch, "dir": self.docs.docs_dir,
            "include": settings.docs_include, "exclude": settings.docs_exclude,
            "max_chunk_chars": settings.max_chunk_chars, "url_prefix": settings.docs_url_prefix,
        }
        return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:16]


def configured_sources(settings: Settings) -> list[SourceSpec]:
    return [SourceSpec(DEFAULT_SOURCE, DocsSource.from_settings(settings))]


def pick_sources(settings: Settings, name: str | None) -> list[SourceSpec]:
    """Every configured source, or the one called `name` (a clear error naming the known ones)."""
    sources = configured_sources(settings)
    if name is None:
        return sources
    chosen = [s for s in sources if s.name == name]
    if not chosen:
        from app.errors import ConfigError

        known = ", ".join(s.name for s in sources)
        raise ConfigError(f"no source named {name!r}; the configured sources are: {known}")
    return chosen


def head_commit(repo: Path, branch: str) -> str:
    """The commit `branch` points at (git rev-parse): one process, no file read."""
    try:
        result = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}"],
            capture_output=True, text=True, check=False,
        )
    except FileNotFoundError:
        raise GitSourceError("git is not installed; sources are read through git") from None
    if result.returncode != 0 or not result.stdout.strip():
        raise GitSourceError(f"branch or revision {branch!r} not found in the repository {repo}")
    return result.stdout.strip()
