"""Start-up is safe for several processes: N processes start at once on a fresh database file
and a fresh instance folder, again and again; every one must start, they must all read the same
secret key, and the schema must be whole.

    python scripts/check_startup.py                 # 20 rounds of 4 processes
    python scripts/check_startup.py --rounds 3      # what `make test` runs (tests/test_startup.py)
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
version = store.execute("PRAGMA user_version").fetchone()[0]
print(json.dumps({"key": app.config["SECRET_KEY"], "version": version}))
"""


def round_of(processes: int, folder: Path) -> list[dict | None]:
    """Start the processes together on a fresh file; what each reported (None: it failed)."""
    database = folder / "fresh.db"
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


def check(rounds: int, processes: int) -> tuple[int, int]:
    """(rounds in which every process started with one key and the whole schema, rounds)."""
    from companion.db import MIGRATIONS

    good = 0
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            results = round_of(processes, Path(tmp))
        started = [r for r in results if r is not None]
        if (
            len(started) == processes
            and len({r["key"] for r in started}) == 1
            and all(r["version"] == len(MIGRATIONS) for r in started)
        ):
            good += 1
    return good, rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--processes", type=int, default=4)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    good, rounds = check(args.rounds, args.processes)
    print(
        f"{args.processes} processes starting at once on a fresh file: {good} of {rounds} "
        "rounds started, all with one secret key and the whole schema"
    )
    return 0 if good == rounds else 1


if __name__ == "__main__":
    sys.exit(main())
