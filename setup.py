"""Build hook: the wheel carries sql/, migrations/ and alembic.ini as package data in app/_bundle.

The folders stay at the repository root (the layout is part of the design); they are copied into
the build tree here, so `pip install docschat-*.whl` can migrate a database. An editable install
reads them from the checkout instead (app.db.bundle.migration_root).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLED = ("sql", "migrations", "alembic.ini")


class build_py_with_migrations(build_py):  # noqa: N801 - setuptools command naming
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # the checkout is read in place
        target = Path(self.build_lib) / "app" / "_bundle"
        for name in BUNDLED:
            source = ROOT / name
            destination = target / name
            if source.is_dir():
                shutil.copytree(
                    source, destination, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
                )
            else:
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, destination)


setup(cmdclass={"build_py": build_py_with_migrations})
