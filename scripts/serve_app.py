"""Serve a WSGI app ("module:attribute") with the companion's server settings on a port.

Used by the benchmark and the checks so that the companion and the bare Flask baseline run on
exactly the same server settings:  python scripts/serve_app.py wsgi:app 8123
`fd:N` instead of a port serves on a listening socket the caller opened and passed down as file
descriptor N (the tests' servers: a port chosen and held by the caller cannot be taken by another
process between the choice and the start).
With COMPANION_PROCESSES=N (N > 1) it serves N gunicorn worker processes, each importing the app
itself, as `python -m companion.serve` does.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from waitress import serve  # noqa: E402

from companion.serve import (  # noqa: E402
    load_target,
    processes_wanted,
    raise_open_files_limit,
    serve_processes,
    server_settings,
)


def main(target: str, where: str) -> None:
    settings = server_settings()
    raise_open_files_limit(settings["connection_limit"])
    if where.startswith("fd:"):
        import socket

        del settings["host"], settings["port"]
        listening = socket.socket(fileno=int(where[3:]))
        serve(load_target(target), sockets=[listening], **settings)
        return
    settings.update(host="127.0.0.1", port=int(where))
    processes = processes_wanted()
    if processes > 1:
        serve_processes(lambda: load_target(target), settings, processes)
    else:
        serve(load_target(target), **settings)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
