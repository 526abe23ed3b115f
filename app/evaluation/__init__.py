"""Evaluation that needs the whole chat (answers), not only retrieval (app/search/eval.py)."""
