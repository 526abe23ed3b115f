"""Which questions the keyword leg searches differently once an everyday word is never taken for a
typo (design/fulltext-leg.md, "Session 35: everyday words the keyword leg corrects"). For each
question of the files, on one synced home (DOCSCHAT_HOME and the docs settings as `docschat eval`
reads them; the database at head), docs_search_text as the leg calls it with and without the
question's everyday words (app/judge/question_terms.py): one JSON line per question that differs,
with the words the typo step corrected to another stem before.

    PYTHONPATH=. python scripts/everyday_typo_probe.py eval/httpx-docs.jsonl tests/data/answerable-*.jsonl
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from app.cli.base import database_url, open_read_pool
from app.config import get_settings
from app.judge.question_terms import everyday_words
from app.text import storable_text

SEARCH_TEXT_SQL = """
select public.docs_search_text(public.docs_identifier_words($1), $2) as before,
       public.docs_search_text(public.docs_identifier_words($1), $2, everyday_words => $3) as after
"""


async def probe(paths: list[Path]) -> None:
    audiences = get_settings().anonymous_audiences
    async with await open_read_pool(database_url()) as pool, pool.acquire() as conn:
        for path in paths:
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                if not line.strip():
                    continue
                row = json.loads(line)
                question = row.get("question")
                if not isinstance(question, str):
                    continue
                question = storable_text(question)
                got = await conn.fetchrow(SEARCH_TEXT_SQL, question, audiences, everyday_words(question))
                if got["before"] != got["after"]:
                    print(json.dumps({"file": path.name, "id": row.get("id") or f"#{n}", "question": question,
                                      "before": got["before"], "after": got["after"]}, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    asyncio.run(probe([Path(p) for p in sys.argv[1:]]))
