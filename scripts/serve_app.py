"""Serve a WSGI app ("module:attribute") with the companion's server settings on a port.

Used by the benchmark, the checks and the browser tests so that they run on exactly the engine
and settings `make run` uses (companion/serve.py: push on gevent by default, COMPANION_PUSH=0
polls on waitress; COMPANION_PROCESSES=N gunicorn workers, each importing the app itself):
    python -m scripts.serve_app wsgi:app 8123
`fd:N` instead of a port serves on a listening socket the caller opened and passed down as file
descriptor N (the tests' servers: a port chosen and held by the caller cannot be taken by another
process between the choice and the start).

Every setting comes from the environment, as for `make run`: a test or a check that needs short
deadlines for slow clients, or a small cap per address, sets COMPANION_HEADER_TIMEOUT,
COMPANION_BODY_TIMEOUT, COMPANION_KEEPALIVE, COMPANION_CONNECTIONS_PER_ADDRESS... for the child
(tests/test_slow_clients.py, scripts/check_slow.py).
"""

from __future__ import annotations

import sys

from companion.serve import (
    cooperative,
    load_target,
    processes_wanted,
    push_wanted,
    raise_open_files_limit,
    serve_with,
    server_settings,
)


def main(target: str, where: str) -> None:
    push = push_wanted()
    if push:
        cooperative()  # before the app (and its database driver) is imported
    settings = server_settings(push=push)
    if where.startswith("fd:"):
        del settings["host"], settings["port"]
        settings["fd"] = int(where[3:])
    else:
        settings.update(host="127.0.0.1", port=int(where))
    raise_open_files_limit(settings["connection_limit"])
    serve_with(lambda: load_target(target), settings, processes_wanted(push=push), push)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
