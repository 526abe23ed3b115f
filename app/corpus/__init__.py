"""Compose: a docs tree on a git branch → pages → chunks (snippets pasted, MDX cleaned)."""
