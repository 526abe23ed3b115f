"""docschat: hybrid (full-text + vector) search and chat over a product's documentation."""

from pathlib import Path

__version__ = "0.1.0"

# The repository root: `sql/` and `migrations/` live beside the package (the project installs editable).
PROJECT_ROOT = Path(__file__).resolve().parent.parent
