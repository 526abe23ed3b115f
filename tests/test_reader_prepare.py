"""reader.prepare: V8 made and the bundle loaded in a thread of its own while compose reads git."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_CHILD = """
import json
from py_mini_racer._context import context_count
from app.corpus import reader
reader.prepare()
reader.prepare()  # made once, whoever asks first
blocks = reader.read_markdown("# Title\\n\\ntext", mdx=False).blocks
reader.prepare()
print(json.dumps({"contexts": context_count(), "blocks": [list(b) for b in blocks]}))
"""


def test_prepare_makes_the_one_context_the_first_call_reads_with() -> None:
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=120, check=True,
                          cwd=root, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    # A block's fifth field, `slugged`, is an Astro MDX heading's alone (null here).
    assert answer == {"contexts": 1, "blocks": [["# Title", "heading", 1, "Title", None], ["text", "text", 0, "", None]]}
