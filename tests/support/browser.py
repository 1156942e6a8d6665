"""Chromium as the browser tests and the push benchmark start it."""

from __future__ import annotations

import os
import socket

# Debian's Chromium, the browser itself (make test installs it): the push benchmark's phones, and
# the browser tests' when screenshots are written (`make screenshots`).
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Debian's headless shell of the same Chromium build (package chromium-headless-shell): the same
# Blink and V8 without the browser's windows, tabs and profile services. It is what Playwright
# itself runs for headless tests. A new phone (browser context) costs it a third of the CPU the
# whole browser spends, and `make test` is bound by CPU (docs/performance.md, "Test time").
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"


def chromium_for_tests(shots: bool) -> str:
    """The Chromium the browser tests drive: $CHROMIUM if set; the browser itself when
    screenshots are written (the pictures people look at come from the browser they use); else
    the headless shell when installed."""
    if "CHROMIUM" in os.environ or shots or not os.path.exists(HEADLESS_SHELL):
        return CHROMIUM
    return HEADLESS_SHELL


# Flags for a closed network: without the background-networking ones Chromium keeps trying to
# reach Google's hosts.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    """A TCP port nobody listens on now (on loopback)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
