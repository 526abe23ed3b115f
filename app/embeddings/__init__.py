"""Embedding providers (gemini, local, none) behind one small interface, and the on-disk cache."""
