"""`python -m companion.serve`: serve the app with waitress and say where phones can reach it.

Settings (environment): HOST (default 0.0.0.0), PORT (8000), COMPANION_THREADS (8: threads
that answer requests, per process), COMPANION_CONNECTION_LIMIT (2000: open connections at once,
per process; every phone keeps one open while it polls), COMPANION_PROCESSES (1: more than one
serves with gunicorn's threaded workers on POSIX hosts; waitress serves one process).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable

from waitress import serve

from companion import create_app, qr

DEFAULT_THREADS = 8
DEFAULT_CONNECTION_LIMIT = 2000


def processes_wanted(environ: dict | None = None) -> int:
    """How many server processes COMPANION_PROCESSES asks for (at least 1)."""
    environ = os.environ if environ is None else environ
    return max(1, int(environ.get("COMPANION_PROCESSES", "1")))


def server_settings(environ: dict | None = None) -> dict:
    """waitress's settings from the environment, with defaults that hold a busy game night."""
    environ = os.environ if environ is None else environ
    return {
        "host": environ.get("HOST", "0.0.0.0"),
        "port": int(environ.get("PORT", "8000")),
        "threads": int(environ.get("COMPANION_THREADS", DEFAULT_THREADS)),
        "connection_limit": int(
            environ.get("COMPANION_CONNECTION_LIMIT", DEFAULT_CONNECTION_LIMIT)
        ),
        # poll() instead of select(): select() cannot watch more than 1024 connections.
        "asyncore_use_poll": True,
        "channel_timeout": 300,  # a phone asleep in a pocket for five minutes is let go
        "ident": None,  # no server banner
        # Behind a trusted proxy the app reads X-Forwarded-* itself (werkzeug's ProxyFix, see
        # companion/security.py): waitress must pass them on instead of clearing them.
        "clear_untrusted_proxy_headers": environ.get("COMPANION_TRUSTED_PROXIES", "") in ("", "0"),
    }


def raise_open_files_limit(wanted: int) -> None:
    """Every connection is an open file: lift the soft limit towards what the server may hold
    (POSIX only; a Windows host keeps its own limits)."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted + 100 if hard == resource.RLIM_INFINITY else min(hard, wanted + 100)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def serve_processes(load: Callable[[], Callable], settings: dict, processes: int) -> None:
    """Serve with gunicorn: `processes` worker processes with settings["threads"] threads each,
    on settings' host and port. load() makes the WSGI app and runs in each worker after the fork
    (not before: database connections and pools must not be shared across processes)."""
    from gunicorn.app.base import BaseApplication

    options = {
        "bind": f"{settings['host']}:{settings['port']}",
        "workers": processes,
        "worker_class": "gthread",
        "threads": settings["threads"],
        "worker_connections": settings["connection_limit"],
        "keepalive": settings["channel_timeout"],
        "graceful_timeout": 10,
        "errorlog": "-",
        "loglevel": "warning",
        # Forwarded headers are the app's to trust (COMPANION_TRUSTED_PROXIES, ProxyFix), as
        # under waitress: gunicorn itself trusts no peer.
        "forwarded_allow_ips": "",
        "secure_scheme_headers": {},
    }

    class Server(BaseApplication):
        def load_config(self):
            for name, value in options.items():
                self.cfg.set(name, value)

        def load(self):
            return load()

    Server().run()


def load_target(target: str) -> Callable:
    """The WSGI app named "module:attribute" (imported in the process that calls this)."""
    module, attribute = target.split(":")
    return getattr(importlib.import_module(module), attribute)


def main() -> None:
    """Create/migrate the database, print the addresses phones can use, and serve (with one
    process, or with COMPANION_PROCESSES worker processes on a POSIX host)."""
    settings = server_settings()
    processes = processes_wanted()
    raise_open_files_limit(settings["connection_limit"])
    config = {"BIND_HOST": settings["host"], "BIND_PORT": settings["port"]}
    app = create_app(config)
    print(
        startup_message(
            app.config["PUBLIC_URL"], settings["host"], settings["port"], app.config["DATABASE"]
        )
    )
    if processes > 1 and os.name == "posix":
        # This process only migrated the database and made the secret key: each worker makes
        # its own app, with its own connections.
        app.extensions["companion.db"].close()
        print(f"Serving with {processes} processes of {settings['threads']} threads each.")
        serve_processes(lambda: create_app(config), settings, processes)
        return
    if processes > 1:
        print("COMPANION_PROCESSES needs a POSIX host (gunicorn): serving with one process.")
    serve(app, **settings)


def startup_message(public_url: str, host: str, port: int, database: str) -> str:
    """Where to open the app: only addresses the server really listens on."""
    notes = {
        "public": "(COMPANION_PUBLIC_URL)",
        "lan": "<- phones on the same network use this one",
        "local": "<- this computer only",
    }
    lines = ["Table companion is running. Open one of these on the host device:"]
    found = qr.listening_addresses(public_url, host, port)
    lines += [f"  {address}   {notes[kind]}" for address, kind in found]
    if not any(kind in ("public", "lan") for _, kind in found):
        lines.append(
            f"  Phones cannot reach this server: it listens on {host} only. Start it "
            "with HOST=0.0.0.0 (the default) or set COMPANION_PUBLIC_URL."
        )
    lines.append(f"Stop with Ctrl+C. Tables are kept in {database}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
