"""How cheap is a poll? Times, in one run on one machine, the three requests a phone makes.

    .venv/bin/python scripts/benchmark_poll.py [--requests N]

- unchanged poll: GET /t/<code>/live?v=<current>  -> 204, no rendering, no replay
- changed poll:   GET /t/<code>/live?v=<old>      -> 200, the live region rendered
- full page:      GET /t/<code>/                  -> 200, the whole page

It runs the app twice on a table with a history of HISTORY notes: in-process (Flask's test client,
no network) and behind waitress on 127.0.0.1 (HTTP over loopback, one keep-alive connection, as
a phone's poll), and reports the median time of each case and the ratios between them.
"""

from __future__ import annotations

import argparse
import http.client
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app, get_db, tables  # noqa: E402
from companion.games import GAMES  # noqa: E402

HISTORY = 200


def timed(client, url: str, n: int, expect: int) -> float:
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        response = client.get(url)
        samples.append(time.perf_counter() - start)
        assert response.status_code == expect, (url, response.status_code)
    return statistics.median(samples)


def serve_in_thread(app) -> int:
    """waitress on a free loopback port, in a daemon thread that ends with this script."""
    from waitress.server import create_server

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = create_server(app, host="127.0.0.1", port=port, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    return port


def report(label: str, unchanged: float, changed: float, full: float) -> None:
    print(label)
    print(f"  unchanged poll (204): {unchanged * 1000:8.3f} ms")
    print(
        f"  changed poll (200):   {changed * 1000:8.3f} ms  = {changed / unchanged:5.1f} x unchanged"
    )
    print(f"  full page (200):      {full * 1000:8.3f} ms  = {full / unchanged:5.1f} x unchanged")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    n = parser.parse_args().requests
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "DATABASE": str(Path(tmp) / "bench.db"),
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
            }
        )
        with app.app_context():
            game = next(k for k, g in GAMES.items() if g.min_players <= 4 <= g.max_players)
            table, host_token = tables.create_table(get_db(), game, ["A", "B", "C", "D"])
        code = table.code
        cookie = f"host_{code}={host_token}"
        client = app.test_client()
        client.set_cookie(f"host_{code}", host_token, path=f"/t/{code}")
        for i in range(HISTORY):
            client.post(f"/t/{code}/note", data={"text": f"note {i}"})
        page = client.get(f"/t/{code}/").text
        version = int(re.search(r'data-version="(\d+)"', page).group(1))

        print(f"requests per case: {n}, history: {HISTORY} events (median of each case)")
        report(
            "in-process (Flask test client):",
            timed(client, f"/t/{code}/live?v={version}", n, 204),
            timed(client, f"/t/{code}/live?v={version - 1}", n, 200),
            timed(client, f"/t/{code}/", n, 200),
        )
        port = serve_in_thread(app)
        http_get = _with_cookie(cookie)
        report(
            "over HTTP (waitress on 127.0.0.1, keep-alive):",
            http_get(port, f"/t/{code}/live?v={version}", n, 204),
            http_get(port, f"/t/{code}/live?v={version - 1}", n, 200),
            http_get(port, f"/t/{code}/", n, 200),
        )


def _with_cookie(cookie: str):
    def get(port: int, path: str, n: int, expect: int) -> float:
        conn = http.client.HTTPConnection("127.0.0.1", port)
        samples = []
        for _ in range(n):
            start = time.perf_counter()
            conn.request("GET", path, headers={"Cookie": cookie})
            response = conn.getresponse()
            response.read()
            samples.append(time.perf_counter() - start)
            assert response.status == expect, (path, response.status)
        conn.close()
        return statistics.median(samples)

    return get


if __name__ == "__main__":
    main()
