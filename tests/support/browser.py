"""Chromium as the browser tests and the push benchmark start it."""

from __future__ import annotations

import os
import socket

CHROMIUM = os.environ.get(
    "CHROMIUM", "/usr/bin/chromium"
)  # Debian's package (make test installs it)
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
