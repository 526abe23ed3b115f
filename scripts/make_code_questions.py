"""Writes tests/data/code-questions.jsonl: the questions below, gold = the symbol's lines at the pinned commit
(found with ast, not with our chunker). Run from the repository root."""

from __future__ import annotations

import ast
import json
import subprocess

COMMIT = "8e6b398d754a3ddcfa87a1dbf3ca661d4fd85e52"
LINK = "https://github.com/docschat/docschat/blob/{commit}/{path}#L{start}-L{end}"
Q = [
 ("Where are the rate-limit counters stored in Postgres?", "app/chat/rate_limit.py", "PostgresLimitsStorage"),
 ("How is a client IP address hashed before it is stored?", "app/chat/rate_limit.py", "hash_ip"),
 ("How is the client address found when the app runs behind a proxy?", "app/chat/rate_limit.py", "client_ip"),
 ("Where is reciprocal rank fusion implemented?", "app/search/fusion.py", "reciprocal_rank_fusion"),
 ("How are JSX components and imports removed from MDX pages?", "app/corpus/mdx.py", "clean_mdx"),
 ("How are snippet files pasted into the pages that import them?", "app/corpus/snippets.py", "resolve_snippets"),
 ("How does a sync decide which chunks must be embedded again?", "app/sync.py", "sync_chunks"),
 ("How are question embeddings cached so repeated questions are not embedded twice?", "app/search/query_embedding.py", "QueryEmbedder"),
 ("What happens when the vector search times out during retrieval?", "app/search/retrieve.py", "Retriever.retrieve"),
 ("Where is the YAML front matter of a page parsed?", "app/corpus/frontmatter.py", "parse_front_matter"),
 ("How are heading anchors made the way GitHub makes them?", "app/corpus/chunker.py", "github_slug"),
 ("How are the pages kept in the answer chosen from the fused hits?", "app/search/pages.py", "select_pages"),
 ("How does the offline answerer choose which sentences to answer with?", "app/chat/answerers.py", "ExtractiveAnswerer"),
 ("How are Gemini embedding calls retried after a 429 or a server error?", "app/embeddings/gemini.py", "with_retries"),
 ("Where is the embedded Postgres server started?", "app/db/embedded.py", "ensure_embedded_server"),
 ("How are the docs files read from a git branch?", "app/corpus/git_source.py", "read_docs_tree"),
 ("How are chat messages of a session loaded for the history?", "app/chat/sessions.py", "list_messages"),
 ("Where are document embeddings cached on disk?", "app/embeddings/cache.py", "EmbeddingCache"),
 ("How are server-sent events parsed back into parts?", "app/chat/stream_protocol.py", "parse_sse"),
 ("How are long sections split into smaller chunks?", "app/corpus/chunker.py", "split_text"),
]


def find(tree: ast.Module, dotted: str) -> tuple[int, int]:
    """First line (decorators included) and last line of a top-level symbol or Class.method."""
    nodes = tree.body
    node = None
    for name in dotted.split("."):
        node = next(n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name)
        nodes = node.body
    assert node is not None and node.end_lineno is not None, dotted
    start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return start, node.end_lineno


def main() -> None:
    with open("tests/data/code-questions.jsonl", "w") as out:
        for i, (q, path, sym) in enumerate(Q, 1):
            text = subprocess.run(["git", "show", f"{COMMIT}:{path}"], capture_output=True, text=True, check=True).stdout
            s, e = find(ast.parse(text), sym)
            out.write(json.dumps({"id": f"code-{i:02d}", "question": q, "gold": [LINK.format(commit=COMMIT, path=path, start=s, end=e)],
                                  "path": path, "symbol": sym, "start_line": s, "end_line": e}) + "\n")


if __name__ == "__main__":
    main()
