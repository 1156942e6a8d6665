"""Start-up is safe for several processes: N processes start at once on a fresh database (a
SQLite file, or a PostgreSQL database) and a fresh instance folder, again and again; every one must
start, they must all read the same secret key, and the schema must be whole.

    python -m scripts.check_startup                 # 20 rounds of 4 processes on SQLite
    python -m scripts.check_startup --backend postgresql
    python -m scripts.check_startup --rounds 3      # what `make test` runs (tests/test_startup.py)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import json, sys
from companion import create_app
from companion import db as database
app = create_app({"DATABASE": sys.argv[1]})
store = database.connect(sys.argv[1])
print(json.dumps({"key": app.config["SECRET_KEY"], "version": database.schema_version(store)}))
"""


def round_of(processes: int, folder: Path, database: str) -> list[dict | None]:
    """Start the processes together on a fresh database; what each reported (None: failed)."""
    instance = folder / "instance"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("COMPANION_SECRET_KEY", None)
    env["COMPANION_INSTANCE"] = str(instance)
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(database)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    results = []
    for child in children:
        out, err = child.communicate(timeout=120)
        results.append(json.loads(out.strip().splitlines()[-1]) if child.returncode == 0 else None)
        if child.returncode != 0:
            print(err.strip().splitlines()[-1] if err.strip() else "failed", file=sys.stderr)
    return results


def check(rounds: int, processes: int, postgres=None) -> tuple[int, int]:
    """(rounds in which every process started with one key and the whole schema, rounds).
    postgres: a running ThrowawayPostgres to start on (a fresh database each round), or None
    for SQLite (a fresh file each round)."""
    from companion.db import latest_version

    good = 0
    for number in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            if postgres is None:
                database = str(Path(tmp) / "fresh.db")
            else:
                database = postgres.create_database(f"fresh_{number}")
            results = round_of(processes, Path(tmp), database)
        started = [r for r in results if r is not None]
        if (
            len(started) == processes
            and len({r["key"] for r in started}) == 1
            and all(r["version"] == latest_version(database) for r in started)
        ):
            good += 1
    return good, rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()
    if args.backend == "postgresql":
        from scripts.throwaway_postgres import ThrowawayPostgres

        with ThrowawayPostgres() as server:
            good, rounds = check(args.rounds, args.processes, server)
    else:
        good, rounds = check(args.rounds, args.processes)
    print(
        f"{args.processes} processes starting at once on a fresh {args.backend} database: "
        f"{good} of {rounds} rounds started, all with one secret key and the whole schema"
    )
    return 0 if good == rounds else 1


if __name__ == "__main__":
    sys.exit(main())
