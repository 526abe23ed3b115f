-- The vector leg's HNSW index on the 16-bit expression embedding::halfvec(768) instead of the
-- float32 column (issue 34; design/vector-index.md): recall
-- against exact search kept at 20k, 100k and 1M chunks (never below the vector index's, within
-- 0.01), half the index size (~2 instead of ~4 KB a row), a build 20-36 % shorter. The table keeps
-- float32 vectors; match_docs_sections orders by this expression and scores in float32.
-- Same name as before, so what names the index keeps working. An upgrade rebuilds the index: at
-- 1M chunks with 7 GB maintenance_work_mem ~15 min (less memory: longer, built on disk), and
-- both indexes exist until it commits (+~2 KB a chunk of disk). Built first, under another name,
-- so that searches go on meanwhile on the old index (create index takes a share lock; drop index
-- an exclusive one, held until the upgrade commits: taken last). Writes to docs_section wait.
create index docs_section_embedding_halfvec_idx on public.docs_section
  using hnsw ((embedding::public.halfvec(768)) public.halfvec_cosine_ops);
drop index if exists public.docs_section_embedding_idx;
alter index public.docs_section_embedding_halfvec_idx rename to docs_section_embedding_idx;
