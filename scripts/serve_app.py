"""Serve a WSGI app ("module:attribute") with the companion's waitress settings on a port.

Used by the benchmark and the checks so that the companion and the bare Flask baseline run on
exactly the same server settings:  python scripts/serve_app.py wsgi:app 8123
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from waitress import serve  # noqa: E402

from companion.serve import raise_open_files_limit, server_settings  # noqa: E402


def main(target: str, port: int) -> None:
    module, attribute = target.split(":")
    app = getattr(importlib.import_module(module), attribute)
    settings = {**server_settings(), "host": "127.0.0.1", "port": port}
    raise_open_files_limit(settings["connection_limit"])
    serve(app, **settings)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
