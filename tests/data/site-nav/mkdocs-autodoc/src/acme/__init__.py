"""Acme's client."""
