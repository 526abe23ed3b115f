"""Retrieve: the full-text and vector legs, reciprocal rank fusion, page selection, evaluation."""
