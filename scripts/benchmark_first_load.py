"""The first-load figure of `make benchmark`: a phone joining a table, as at a real table.

A phone scans the QR code and opens the table's join page from the host's LAN address
(http://<this machine's address>:<port>: plain http, as on the table's Wi-Fi, where Chromium
offers no brotli and the wake lock is unavailable, so the keep-awake video plays), taps the free
seat and gets the table page. Every response Chromium receives is counted, headers included
(Network.loadingFinished's encodedDataLength): the pages, the script and style sheets, the
icon, the keep-awake video, the fetches the page makes meanwhile. The server is started as
`make run` starts it (HOST=0.0.0.0); a machine with no LAN address gets no figure.

Alone: python -m scripts.benchmark_first_load [game ...]
With FIRST_LOAD_DETAIL=1 it also lists each response's size, largest first.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_KB = 40.0
SETTLE_MS = 1500  # what the page fetches in its first moments counts too


def _serve(port: int, database: str, public_url: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "HOST": "0.0.0.0",
        "PORT": str(port),
        "COMPANION_DATABASE": database,
        "COMPANION_SECRET_KEY": "bench",
        "COMPANION_PUBLIC_URL": public_url,
        "COMPANION_INSTANCE": tempfile.mkdtemp(),
        "COMPANION_TABLES_PER_DEVICE_MINUTE": "0",
        "COMPANION_TABLES_PER_ADDRESS_MINUTE": "0",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def first_loads(games: list[str]) -> dict[str, tuple[float, int]] | None:
    """game -> (KB on the wire, responses) of a phone's first load; None without a LAN address."""
    from playwright.sync_api import sync_playwright

    from companion.qr import lan_address
    from scripts.check_kit import free_port, open_table
    from tests.support.browser import chromium_for_tests

    lan = lan_address()
    if lan is None:
        return None
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = _serve(port, str(Path(tmp) / "first.db"), f"http://{lan}:{port}")
        found = {}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium_for_tests(True))
                for game in games:
                    table = open_table(port, game, free_seats=1, display=False)
                    found[game] = _one_phone(browser, f"http://{lan}:{port}", table.code)
                browser.close()
        finally:
            server.kill()
            server.wait()
    return found


def _one_phone(browser, base: str, code: str) -> tuple[float, int]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes: dict[str, int] = {}
    urls: dict[str, str] = {}
    cdp.on(
        "Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"])
    )
    cdp.on(
        "Network.loadingFinished",
        lambda event: sizes.__setitem__(event["requestId"], event["encodedDataLength"]),
    )
    page.goto(f"{base}/t/{code}/join")
    page.locator("button.seat-button").first.click()
    page.wait_for_selector("#live")
    page.wait_for_timeout(SETTLE_MS)
    context.close()
    if os.environ.get("FIRST_LOAD_DETAIL"):
        for rid, size in sorted(sizes.items(), key=lambda kv: -kv[1]):
            print(f"    {size / 1024:6.1f} KB  {urls.get(rid, rid)[len(base) :][:90]}")
    return sum(sizes.values()) / 1024, sum(1 for size in sizes.values() if size)


def figure_first_load(report, games: list[str]) -> None:
    """The worst game's first load against the goal, every game's in the detail."""
    found = first_loads(games)
    if found is None:
        print("  first load: this machine has no LAN address: no figure", flush=True)
        return
    worst = max(kb for kb, _ in found.values())
    detail = ", ".join(f"{game} {kb:.1f} ({n} responses)" for game, (kb, n) in found.items())
    report.add(
        "first load of a joining phone from the LAN address in Chromium, the worst game",
        worst,
        f"<= {GOAL_KB:.0f} KB",
        worst <= GOAL_KB,
        " KB",
        f"(headers included; {detail})",
    )


if __name__ == "__main__":
    from companion.games import GAMES

    wanted = sys.argv[1:] or list(GAMES)
    for game, (kb, n) in (first_loads(wanted) or {}).items():
        print(f"{game}: {kb:.2f} KB in {n} responses")
