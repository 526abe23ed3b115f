"""Judgment: whether the docs answer a question, and what became of it.

- confidence.py: the confidence from retrieval's absolute evidence, the floors it is held to;
- answer_check.py: the offline check of a question's specific terms against the sections (it
  never refuses: "partly" at most);
- verify.py: the model verifier (Gemini or an OpenAI-compatible model), whose "not" refuses;
- outcomes.py: what became of a question (refused off-topic or in-domain, partly, answered).
- excerpt.py: the excerpt as the verifier and the answerers read it.

Search calls into it (the confidence decides the rescue; the conversation the check), chat reads
its verdicts: it imports neither (tests/test_architecture.py).
"""
