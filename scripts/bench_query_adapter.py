"""Experiment, not a feature: a linear map applied to the question's vector only, trained on the corpus.

scripts/bench_adapt.py retrains the offline model, so every chunk must be embedded again and every
server must load the weights the sync used. A 384 × 384 map applied to questions alone needs
neither (the chunks keep their vectors; the map would fit in one table). It is trained, as there,
on pairs the corpus gives without labels (a section's breadcrumb → the section, up to two of its
sentences → the section), against the stored vectors of every section (softmax over all of them,
temperature 0.05), held near the identity by `--hold` × ‖W − I‖². No evaluation question is seen.

Run on an index synced with the offline model (`EMBEDDING_PROVIDER=local docschat sync …`):

    DOCSCHAT_HOME=… EMBEDDING_PROVIDER=local DOCS_URL_PREFIX= python scripts/bench_query_adapter.py \
        --base-url https://docs.ray.io --questions ../shared/eval/ray-docs-dev.jsonl

Prints one JSON line per map (the identity first): the vector leg's page recall@3 alone, and the
hybrid's page recall and section recall@3 through the app's own fusion and page selection (the
rescue left out: with the identity this reproduces `docschat eval` on both development sets).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import time
from pathlib import Path

from app.config import get_settings
from app.db.pool import create_pool
from app.db.url import resolve_database_url
from app.search.fusion import evidence_fusion
from app.search.legs import match_docs_sections, search_docs_sections
from app.search.pages import (
    pages_both_legs_rank,
    rank_overviews_with_their_page,
    select_pages,
)
from app.search.reduce import reduce_question
from app.search.retrieve import build_retriever
from app.search.terms import clip_question
from app.search.urls import absolute_url

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")
DIMENSIONS = 384  # the offline model's; its vectors are stored zero-padded to 768


def training_texts(rows: list, seed: int = 0) -> tuple[list[str], list[int]]:
    """(pseudo-question, index of its section): each breadcrumb, and up to two sentences of 30–300 characters."""
    rng = random.Random(seed)
    texts, targets = [], []
    for index, row in enumerate(rows):
        if row["breadcrumb"]:
            texts.append(row["breadcrumb"])
            targets.append(index)
        sentences = [s for s in _SENTENCE.split(row["content"].replace("\n", " ")) if 30 <= len(s) <= 300]
        for sentence in rng.sample(sentences, min(2, len(sentences))):
            texts.append(sentence)
            targets.append(index)
    return texts, targets


def train_map(questions, sections, targets, hold: float, epochs: int = 30):
    import torch

    torch.manual_seed(0)
    eye = torch.eye(DIMENSIONS)
    weights = eye.clone().requires_grad_(True)
    optimizer = torch.optim.Adam([weights], lr=1e-3)
    for _ in range(epochs):
        order = torch.randperm(len(targets))
        for start in range(0, len(targets), 256):
            batch = order[start:start + 256]
            mapped = torch.nn.functional.normalize(questions[batch] @ weights.T, dim=1)
            loss = torch.nn.functional.cross_entropy(mapped @ sections.T / 0.05, targets[batch])
            loss = loss + hold * ((weights - eye) ** 2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return weights.detach()


async def score(pool, retriever, settings, weights, items, base_url: str) -> dict[str, float]:
    import torch

    model = retriever.embedder.provider.model
    page_recall = section_recall = vector_pages = 0.0
    for item in items:
        gold = set(item["gold"])
        gold_pages = {g.split("#")[0] for g in gold}
        question = clip_question(reduce_question(item["question"]))
        embedded = torch.tensor((await retriever.embedder.embed(pool, question))[:DIMENSIONS])
        vector = torch.nn.functional.normalize(weights @ embedded, dim=0).tolist() + [0.0] * DIMENSIONS
        async with pool.acquire() as conn:
            legs = {"keyword": await search_docs_sections(conn, question, settings.leg_match_count, None),
                    "vector": await match_docs_sections(conn, vector, model, settings.leg_match_count, None)}
        ranking = evidence_fusion(legs, settings.rrf_k)
        kept = {absolute_url(base_url, c.page_href) for c in select_pages(
            ranking, question, max_pages=settings.max_pages, score_ratio=settings.page_score_ratio,
            demoted_pages=settings.demoted_pages, agreed=pages_both_legs_rank(legs, settings.max_pages)) if c.kept}
        sections: list[str] = []
        for fused in rank_overviews_with_their_page(ranking):
            url = absolute_url(base_url, fused.hit.href)
            if url not in sections:
                sections.append(url)
        vector_leg_pages: list[str] = []
        for hit in legs["vector"]:
            page = absolute_url(base_url, hit.href.split("#")[0])
            if page not in vector_leg_pages:
                vector_leg_pages.append(page)
        page_recall += len(gold_pages & kept) / len(gold_pages)
        section_recall += len(gold & set(sections[:3])) / len(gold)
        vector_pages += len(gold_pages & set(vector_leg_pages[:3])) / len(gold_pages)
    n = len(items)
    return {"page_recall": round(page_recall / n, 3), "section_recall_at_3": round(section_recall / n, 3),
            "vector_leg_page_recall": round(vector_pages / n, 3)}


async def run(args: argparse.Namespace) -> None:
    import torch

    settings = get_settings()
    pool = await create_pool(resolve_database_url(settings), max_size=4)
    try:
        retriever = build_retriever(pool, settings)
        if retriever.embedder is None or "MiniLM" not in retriever.embedder.provider.model:
            raise SystemExit("needs the offline model: EMBEDDING_PROVIDER=local, on an index synced with it")
        await retriever.warm_up()
        async with pool.acquire() as conn:
            rows = await conn.fetch("select breadcrumb, content, embedding from public.docs_section"
                                    " where embedding_model = $1 order by id", retriever.embedder.provider.model)
        stored = [r["embedding"].to_list() if hasattr(r["embedding"], "to_list") else list(r["embedding"]) for r in rows]
        sections = torch.nn.functional.normalize(
            torch.tensor([v[:DIMENSIONS] for v in stored], dtype=torch.float32), dim=1)
        texts, targets = training_texts(rows)
        started = time.perf_counter()
        questions = torch.tensor([v[:DIMENSIONS] for v in await retriever.embedder.provider.embed_documents(texts)])
        items = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
        items = [item for item in items if item.get("gold")]
        print(json.dumps({"map": "identity", **await score(pool, retriever, settings, torch.eye(DIMENSIONS), items,
                                                           args.base_url)}), flush=True)
        for hold in args.hold:
            weights = train_map(questions, sections, torch.tensor(targets), hold)
            print(json.dumps({"map": "trained", "hold": hold, "pairs": len(texts), "sections": len(rows),
                              "seconds": round(time.perf_counter() - started),
                              **await score(pool, retriever, settings, weights, items, args.base_url)}), flush=True)
    finally:
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base-url", default="https://docs.ray.io")
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--hold", type=float, nargs="+", default=[1.0, 0.1, 0.01])
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
