"""Where sql/, migrations/ and alembic.ini are: inside the installed wheel, else the checkout."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from app import PROJECT_ROOT

#: Where the wheel carries sql/, migrations/ and alembic.ini (copied there at build time, see setup.py).
BUNDLE_PACKAGE_DIR = "_bundle"


@lru_cache(maxsize=1)
def migration_root() -> Path:
    """The folder holding sql/, migrations/ and alembic.ini: inside the installed package, else the checkout.

    An installed wheel has them in app/_bundle; an editable checkout has them at the repository root.
    """
    bundled = resources.files("app").joinpath(BUNDLE_PACKAGE_DIR)
    if bundled.joinpath("alembic.ini").is_file():
        return Path(str(bundled))
    return PROJECT_ROOT


def sql_dir() -> Path:
    return migration_root() / "sql"
