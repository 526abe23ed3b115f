"""Embedding providers (gemini, openai, local, none) behind one small interface, and the on-disk cache."""
