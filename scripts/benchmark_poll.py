"""How cheap is a poll? Times, in one run on one machine, the three requests a phone makes.

    .venv/bin/python scripts/benchmark_poll.py [--requests N]

- unchanged poll: GET /t/<code>/live?v=<current>  -> 204, no rendering, no replay
- changed poll:   GET /t/<code>/live?v=<old>      -> 200, the live region rendered
- full page:      GET /t/<code>/                  -> 200, the whole page

It runs the app in-process (Flask's test client, no network) on a table with a history of
HISTORY notes, and reports the median time of each and the ratios between them.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402

HISTORY = 200


def timed(client, url: str, n: int, expect: int) -> float:
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        response = client.get(url)
        samples.append(time.perf_counter() - start)
        assert response.status_code == expect, (url, response.status_code)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    n = parser.parse_args().requests
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.db"), "SECRET_KEY": "bench",
                          "WTF_CSRF_ENABLED": False})
        client = app.test_client()
        response = client.post("/tables", data={"game": "serengeti", "players": 4})
        code = re.match(r"/t/(\w+)/", response.headers["Location"]).group(1)
        for i in range(HISTORY):
            client.post(f"/t/{code}/note", data={"text": f"note {i}"})
        page = client.get(f"/t/{code}/").text
        version = int(re.search(r'data-version="(\d+)"', page).group(1))

        unchanged = timed(client, f"/t/{code}/live?v={version}", n, 204)
        changed = timed(client, f"/t/{code}/live?v={version - 1}", n, 200)
        full = timed(client, f"/t/{code}/", n, 200)

    print(f"requests per case: {n}, history: {HISTORY} events (median of each case)")
    print(f"unchanged poll (204): {unchanged * 1000:8.3f} ms")
    print(f"changed poll (200):   {changed * 1000:8.3f} ms  = {changed / unchanged:5.1f} x unchanged")
    print(f"full page (200):      {full * 1000:8.3f} ms  = {full / unchanged:5.1f} x unchanged")


if __name__ == "__main__":
    main()
