"""CI entry point for the docs sync (GitHub Actions): `python scripts/sync_docs.py [--json]`.

The same as `docschat sync`: settings from the environment (DATABASE_URL, GEMINI_API_KEY, BRANCH…).
"""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.argv = [sys.argv[0], "sync", *sys.argv[1:]]
    main()
