"""On-disk embedding cache (SQLite in DOCSCHAT_HOME), keyed by model and text hash.

Consulted before the provider, so a machine never pays twice for the same chunk, even when its
database row is gone. A corrupt cache file is set aside with a warning and a new one started.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.logging import get_logger

log = get_logger(__name__)


def text_key(model: str, text: str) -> str:
    return hashlib.sha256(f"{model}\n{text}".encode()).hexdigest()


class EmbeddingCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.warnings: list[str] = []
        self._db: sqlite3.Connection | None = None
        self._open()

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = self._connect()
        except sqlite3.DatabaseError as exc:
            aside = self.path.with_suffix(f".corrupt-{int(time.time())}")
            self.path.replace(aside)
            message = f"embedding cache {self.path} is unreadable ({exc}); moved to {aside.name}, starting empty"
            self.warnings.append(message)
            log.warning("embed_cache_corrupt", path=str(self.path), error=str(exc))
            self._db = self._connect()

    def _connect(self) -> sqlite3.Connection:
        # A sync reads and writes the cache from worker threads (one at a time), off the event loop.
        db = sqlite3.connect(self.path, check_same_thread=False)
        db.execute("create table if not exists embedding (key text primary key, vector blob not null)")
        db.execute("select count(*) from embedding").fetchone()  # reads the file: corruption shows here
        return db

    def get_many(self, model: str, texts: list[str]) -> dict[str, npt.NDArray[np.float32]]:
        """{text: vector (float32)} for the texts already cached."""
        assert self._db is not None
        keys = {text_key(model, t): t for t in texts}
        found: dict[str, npt.NDArray[np.float32]] = {}
        items = list(keys)
        for start in range(0, len(items), 500):
            part = items[start : start + 500]
            placeholders = ",".join("?" * len(part))
            try:
                rows = self._db.execute(
                    "select key, vector from embedding where key in (" + placeholders + ")", part
                ).fetchall()
            except sqlite3.DatabaseError as exc:
                self.warnings.append(f"embedding cache read failed ({exc}); ignoring the cache")
                return found
            for key, blob in rows:
                found[keys[key]] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, model: str, items: Mapping[str, npt.ArrayLike]) -> None:
        assert self._db is not None
        rows = [(text_key(model, t), np.asarray(v, dtype=np.float32).tobytes()) for t, v in items.items()]
        try:
            with self._db:
                self._db.executemany("insert or replace into embedding (key, vector) values (?, ?)", rows)
        except sqlite3.DatabaseError as exc:
            self.warnings.append(f"embedding cache write failed ({exc})")

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def cache_path(home: Path) -> Path:
    return home / "embed-cache.sqlite3"
