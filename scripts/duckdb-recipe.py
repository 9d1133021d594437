"""Runs docs/recipes/events-duckdb.sql on an export of the event store and prints each answer.

    .tools/venv/bin/python scripts/duckdb-recipe.py events.jsonl [--json]

--json prints the answers as one JSON list (one list of row objects per query), for scripts and the test.
"""
import json
import pathlib
import sys

import duckdb

RECIPE = pathlib.Path(__file__).resolve().parent.parent / "docs" / "recipes" / "events-duckdb.sql"


def statements(sql: str) -> list[str]:
    body = "\n".join(l for l in sql.splitlines() if not l.lstrip().startswith("--"))
    return [s.strip() for s in body.split(";") if s.strip()]


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    export = pathlib.Path(args[0]).resolve()
    quoted = "'" + str(export).replace("'", "''") + "'"
    con = duckdb.connect()
    answers = []
    for stmt in statements(RECIPE.read_text().replace("'events.jsonl'", quoted)):
        rel = con.sql(stmt)
        if rel is None or not stmt.upper().startswith(("SELECT", "WITH")):
            continue
        if "--json" in sys.argv:
            answers.append([dict(zip(rel.columns, row)) for row in rel.fetchall()])
        else:
            rel.show()
    if "--json" in sys.argv:
        print(json.dumps(answers, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
