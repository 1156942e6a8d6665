"""`python -m companion.serve`: serve the app and say where phones can reach it.

Which engine serves (see README, "Engines"):
- push (the default where gevent is installed): every connection is a greenlet, so a page can
  hold its push stream (companion/web/push.py) for the whole evening. POSIX hosts: gunicorn
  with COMPANION_PROCESSES gevent workers (one per core, at most 4, by default); elsewhere
  (Windows): gevent's own WSGI server, one process.
- polling (COMPANION_PUSH=0, or no gevent): waitress, one process, or gunicorn's threaded
  workers when COMPANION_PROCESSES > 1 on a POSIX host. Pages poll every 2 s.

Settings (environment): HOST (default 0.0.0.0), PORT (8000), COMPANION_PROCESSES (push on
POSIX: one per core, at most 4; otherwise 1), COMPANION_THREADS (8: threads per process under
waitress and threaded workers; the size of the database pool under gevent),
COMPANION_CONNECTION_LIMIT (open connections at once, per process: 10,000 with push, where
every page holds one; 2,000 polling), COMPANION_PUSH (1), COMPANION_PUSH_HEARTBEAT (2.5:
seconds between a stream's messages while nothing changes).

Slow clients, under push (companion/engine.py applies them; client_limits() reads them):
COMPANION_HEADER_TIMEOUT (10: seconds for a request's line and headers, from its first byte),
COMPANION_BODY_TIMEOUT (30: seconds for its whole body) and COMPANION_BODY_MIN_RATE (1024: bytes
a second the body must keep up after a 5 s grace), COMPANION_KEEPALIVE (15: seconds an idle
connection is kept between requests; a held push stream is never idle), each 0 for none;
COMPANION_CONNECTIONS_PER_ADDRESS (2,000: open connections one address may hold in each process,
at most half of COMPANION_CONNECTION_LIMIT; 0 for no cap; off behind a trusted proxy). A client
past a deadline gets 408 (or, idle, just the close). Waitress has one deadline of its own:
channel_timeout, 300 s without any activity on a connection.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

DEFAULT_THREADS = 8
DEFAULT_CONNECTION_LIMIT = 2000  # polling: waitress
DEFAULT_PUSH_CONNECTION_LIMIT = 10_000  # push: a stream per open page, and its fetches
# Slow clients under push (companion/engine.py). A phone's request arrives in a fraction of a
# second even on a poor line; these only end connections that are held, not used.
DEFAULT_KEEPALIVE = 15.0  # seconds an idle connection is kept (a held stream is not idle)
DEFAULT_HEADER_TIMEOUT = 10.0  # seconds for a request's line and headers, from its first byte
DEFAULT_BODY_TIMEOUT = 30.0  # seconds for a request's whole body (a form: a few KB)
DEFAULT_BODY_MIN_RATE = 1024.0  # bytes a second a body must keep up, after BODY_GRACE
BODY_GRACE = 5.0  # seconds a body may take to start (a phone's first packet resent, say)
# Open connections one peer address may hold per process: a phone holds two or three, a
# household or a café behind one NAT address a few hundred. At most half of a process's
# connections (COMPANION_CONNECTION_LIMIT), so others are always served.
DEFAULT_CONNECTIONS_PER_ADDRESS = 2000


MAX_DEFAULT_PROCESSES = 4


def processes_wanted(
    environ: Mapping[str, str] | None = None,
    push: bool = False,
    posix: bool | None = None,
    cores: int | None = None,
) -> int:
    """How many server processes: COMPANION_PROCESSES (at least 1), else, for push on a POSIX
    host, one gevent worker per core (at most 4), else 1.

    Why one per core with push: a move costs its table's phones a render each (every phone
    fetches its own region), and one process uses one core: on two cores, one process at 20
    moves a second was 90% busy and its phones saw the move late (docs/performance.md)."""
    env = os.environ if environ is None else environ
    if "COMPANION_PROCESSES" in env:
        return max(1, int(env["COMPANION_PROCESSES"]))
    posix = os.name == "posix" if posix is None else posix
    if push and posix:
        cores = (os.cpu_count() or 1) if cores is None else cores
        return max(1, min(cores, MAX_DEFAULT_PROCESSES))
    return 1


def push_wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether to serve with push: COMPANION_PUSH is not "0" and gevent is installed."""
    env = os.environ if environ is None else environ
    if env.get("COMPANION_PUSH", "1") == "0":
        return False
    return importlib.util.find_spec("gevent") is not None


def server_settings(environ: Mapping[str, str] | None = None, push: bool = False) -> dict:
    """The server's settings from the environment, with defaults that hold a busy game night
    (waitress's names; the other engines read what they share with it)."""
    env = os.environ if environ is None else environ
    limit = DEFAULT_PUSH_CONNECTION_LIMIT if push else DEFAULT_CONNECTION_LIMIT
    return {
        "host": env.get("HOST", "0.0.0.0"),
        "port": int(env.get("PORT", "8000")),
        "threads": int(env.get("COMPANION_THREADS", DEFAULT_THREADS)),
        "connection_limit": int(env.get("COMPANION_CONNECTION_LIMIT", limit)),
        # poll() instead of select(): select() cannot watch more than 1024 connections.
        "asyncore_use_poll": True,
        "channel_timeout": 300,  # a phone asleep in a pocket for five minutes is let go
        "ident": None,  # no server banner
        # Behind a trusted proxy the app reads X-Forwarded-* itself (werkzeug's ProxyFix, see
        # companion/security.py): waitress must pass them on instead of clearing them.
        "clear_untrusted_proxy_headers": env.get("COMPANION_TRUSTED_PROXIES", "") in ("", "0"),
    }


@dataclass(frozen=True)
class ClientLimits:
    """How long the push engines wait on a client, in seconds (0: no deadline), and how many
    connections one address may hold in a process (0: no cap). companion/engine.py says how
    they apply."""

    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    body_min_rate: float = DEFAULT_BODY_MIN_RATE  # bytes a second (0: any rate)
    body_grace: float = BODY_GRACE
    keepalive: float = DEFAULT_KEEPALIVE  # 0: no keep-alive, a connection per request
    per_address: int = DEFAULT_CONNECTIONS_PER_ADDRESS


def client_limits(
    environ: Mapping[str, str] | None = None,
    connection_limit: int = DEFAULT_PUSH_CONNECTION_LIMIT,
) -> ClientLimits:
    """The limits on slow clients from the environment (COMPANION_HEADER_TIMEOUT,
    COMPANION_BODY_TIMEOUT, COMPANION_BODY_MIN_RATE, COMPANION_KEEPALIVE,
    COMPANION_CONNECTIONS_PER_ADDRESS), for processes of `connection_limit` connections each.

    The cap per address stays at most half of what a process holds, so that one address can
    never fill it. Behind a trusted proxy (COMPANION_TRUSTED_PROXIES) every connection comes
    from the proxy: no cap here (the proxy's own limit per client applies, nginx's limit_conn)."""
    env = os.environ if environ is None else environ

    def number(name: str, default: float) -> float:
        return max(0.0, float(env.get(name, default)))

    told = env.get("COMPANION_CONNECTIONS_PER_ADDRESS", DEFAULT_CONNECTIONS_PER_ADDRESS)
    cap = max(0, int(told))
    if env.get("COMPANION_TRUSTED_PROXIES", "") not in ("", "0"):
        cap = 0
    elif cap:
        cap = min(cap, max(1, connection_limit // 2))
    return ClientLimits(
        header_timeout=number("COMPANION_HEADER_TIMEOUT", DEFAULT_HEADER_TIMEOUT),
        body_timeout=number("COMPANION_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT),
        body_min_rate=number("COMPANION_BODY_MIN_RATE", DEFAULT_BODY_MIN_RATE),
        keepalive=number("COMPANION_KEEPALIVE", DEFAULT_KEEPALIVE),
        per_address=cap,
    )


def cooperative() -> None:
    """Make this process gevent's (every blocking call yields to the other connections), before
    the app is made: the database drivers choose how they wait when they are imported."""
    from gevent import monkey

    if not monkey.is_module_patched("socket"):
        monkey.patch_all()


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


def serve_processes(
    load: Callable[[], Callable],
    settings: dict,
    processes: int,
    worker: str = "gthread",
    ready: Callable[[], None] | None = None,
    limits: ClientLimits | None = None,
) -> None:
    """Serve with gunicorn: `processes` worker processes on settings' host and port, of the
    `worker` class: "gthread" (settings["threads"] threads each) or "gevent" (a greenlet per
    connection, up to settings["connection_limit"]; companion/engine.py's worker, which holds
    slow clients to `limits`, by default client_limits()). load() makes the WSGI app and runs
    in each worker after the fork (not before: database connections and pools must not be
    shared across processes). ready() runs once, in the first worker that has loaded the app.

    A worker that cannot load the app makes gunicorn stop with exit status 3 ("Worker failed
    to boot"): one line says why, and this process exits with that status."""
    import multiprocessing

    from gunicorn.app.base import BaseApplication

    said_ready = multiprocessing.Value("b", 0)  # shared with the forked workers

    def post_worker_init(_worker) -> None:
        with said_ready.get_lock():
            first, said_ready.value = not said_ready.value, 1
        if first and ready is not None:
            ready()

    bind = (
        f"fd://{settings['fd']}" if "fd" in settings else f"{settings['host']}:{settings['port']}"
    )
    worker_class: str | type = worker
    keepalive = settings["channel_timeout"]
    if worker == "gevent":
        from companion.engine import gunicorn_worker

        limits = limits or client_limits(connection_limit=settings["connection_limit"])
        worker_class = gunicorn_worker(limits)
        # Whole seconds, as gunicorn takes them; the worker's own deadlines decide (0: gunicorn
        # closes a connection after each answer).
        keepalive = math.ceil(limits.keepalive)
    options = {
        "bind": bind,
        "workers": processes,
        "worker_class": worker_class,
        "threads": settings["threads"],
        "worker_connections": settings["connection_limit"],
        "keepalive": keepalive,
        "graceful_timeout": 10,
        "errorlog": "-",
        "loglevel": "warning",
        # Forwarded headers are the app's to trust (COMPANION_TRUSTED_PROXIES, ProxyFix), as
        # under waitress: gunicorn itself trusts no peer.
        "forwarded_allow_ips": "",
        "secure_scheme_headers": {},
        "post_worker_init": post_worker_init,
    }

    class Server(BaseApplication):
        def load_config(self):
            for name, value in options.items():
                self.cfg.set(name, value)

        def load(self):
            try:
                loaded = load()
                warm_templates(loaded)
                return loaded
            except ModuleNotFoundError as error:
                say_missing(error, "a server process loading the app", worker_exit=True)
                raise
            except Exception as error:
                say(
                    f"Table companion cannot start: a server process could not load the app "
                    f"({type(error).__name__}: {error}); gunicorn stops with exit status 3 "
                    "(worker failed to boot). The traceback above shows where."
                )
                raise

    master = os.getpid()
    try:
        Server().run()
    except SystemExit as stop:
        # A forked worker leaves through here too (sys.exit in gunicorn's spawn_worker).
        if stop.code == WORKER_BOOT_ERROR and os.getpid() == master:
            say(
                "Table companion stopped: gunicorn exit status 3, a server process failed to "
                "boot (the lines above say why)."
            )
        raise


def warm_templates(app: Any) -> None:
    """Compile the app's templates in the background once a server process has loaded it (a
    template is compiled at its first use: Africana's table took 0.7 s to render once in a
    fresh process, and since a stream brings its page's region, that was a phone's wait for
    the first move). The table's own templates first; between two templates requests go first
    (a greenlet under gevent)."""
    env = getattr(app, "jinja_env", None)
    if env is None:
        return

    def compile_all() -> None:
        names = env.list_templates(extensions=["html"])
        for name in sorted(names, key=lambda n: ("table/" not in n and "_panel" not in n, n)):
            try:
                env.get_template(name)
            except Exception:  # a template that does not compile says so where it is used
                pass
            time.sleep(0.001)

    threading.Thread(target=compile_all, name="warm-templates", daemon=True).start()


def serve_gevent(
    app: Callable,
    settings: dict,
    ready: Callable[[], None] | None = None,
    limits: ClientLimits | None = None,
) -> None:
    """Serve with gevent's own WSGI server, one process (where gunicorn does not run), holding
    slow clients to `limits` (companion/engine.py; by default client_limits()); ready() runs
    once it listens."""
    import socket

    from gevent.pool import Pool

    from companion.engine import Server

    where = (
        socket.socket(fileno=settings["fd"])
        if "fd" in settings
        else (settings["host"], settings["port"])
    )
    server = Server(
        where,
        app,
        limits or client_limits(connection_limit=settings["connection_limit"]),
        spawn=Pool(settings["connection_limit"]),
        log=None,  # no line per request
    )
    server.start()  # bound and accepting: only now is it running
    warm_templates(app)
    if ready is not None:
        ready()
    server.serve_forever()


def engine(push: bool, processes: int, posix: bool | None = None) -> str:
    """Which engine serves: "gunicorn-gevent", "gevent", "gunicorn-threads" or "waitress"."""
    posix = os.name == "posix" if posix is None else posix
    if push:
        return "gunicorn-gevent" if posix else "gevent"
    return "gunicorn-threads" if processes > 1 and posix else "waitress"


def serve_with(
    make: Callable[[], Callable],
    settings: dict,
    processes: int,
    push: bool,
    single: Callable | None = None,
    ready: Callable[[], None] | None = None,
    limits: ClientLimits | None = None,
) -> None:
    """Serve the app make() builds on the engine engine() chooses. single: the app already made
    in this process, served as it is by a one-process engine (None: make it). settings carry
    host and port, or fd: a listening socket's file descriptor opened by the caller. ready()
    runs once the engine serves: bound, and (gunicorn) a worker has loaded the app. limits: the
    push engines' limits on slow clients (None: client_limits(), from the environment);
    waitress has its own channel_timeout."""
    chosen = engine(push, processes)
    if chosen.startswith("gunicorn"):
        worker = "gevent" if push else "gthread"
        serve_processes(make, settings, processes, worker, ready, limits)
        return
    app = single if single is not None else make()
    if chosen == "gevent":
        serve_gevent(app, settings, ready, limits)
        return
    import logging

    from waitress.server import create_server

    logging.basicConfig()  # waitress's own warnings (a full queue) are shown, as serve() does
    if "fd" in settings:  # a listening socket the caller opened (the tests' servers)
        import socket

        rest = {k: v for k, v in settings.items() if k != "fd"}
        server = create_server(app, sockets=[socket.socket(fileno=settings["fd"])], **rest)
    else:
        server = create_server(app, **settings)
    if ready is not None:
        ready()
    server.run()


def load_target(target: str) -> Callable:
    """The WSGI app named "module:attribute" (imported in the process that calls this)."""
    module, attribute = target.split(":")
    return getattr(importlib.import_module(module), attribute)


def main() -> None:
    """Create/migrate the database, serve, and once the server answers print the addresses
    phones can use (see the module's docstring for the engine). A missing module, a database
    that cannot be upgraded or an engine that cannot start gets one line that says what and how
    to fix it, and a non-zero exit."""
    push = push_wanted()
    processes = processes_wanted(push=push)
    chosen = engine(push, processes)
    if push:
        cooperative()  # before anything imports the socket module's users
    missing = missing_engine_module(chosen)
    if missing is not None:
        say_missing(missing, ENGINE_NAMES[chosen])
        sys.exit(1)
    from companion import create_app
    from companion.db import MigrationError

    settings = server_settings(push=push)
    raise_open_files_limit(settings["connection_limit"])
    config = {"BIND_HOST": settings["host"], "BIND_PORT": settings["port"], "ENGINE": chosen}
    try:
        app = create_app(config)
    except ModuleNotFoundError as error:
        say_missing(error, "the app")
        sys.exit(1)
    except MigrationError as error:
        say(f"Table companion cannot start: {error}")
        sys.exit(1)
    message = startup_message(
        app.config["PUBLIC_URL"], settings["host"], settings["port"], app.config["DATABASE"]
    )
    single: Flask | None = app  # served as it is by a one-process engine
    if chosen.startswith("gunicorn"):
        # This process only migrated the database and made the secret key: each worker makes
        # its own app, with its own connections.
        app.extensions["companion.db"].close()
        single = None
    if processes > 1 and not chosen.startswith("gunicorn"):
        print("COMPANION_PROCESSES needs a POSIX host (gunicorn): serving with one process.")
    message += "\n" + ENGINE_LINES[chosen].format(processes=processes)

    def ready() -> None:
        print(message, flush=True)

    serve_with(lambda: create_app(config), settings, processes, push, single=single, ready=ready)


WORKER_BOOT_ERROR = 3  # gunicorn's exit status when a worker cannot boot (Arbiter)
# The modules each engine imports before it can serve (gunicorn loads its worker class by name
# and only says "class uri invalid" when that fails).
ENGINE_MODULES = {
    "gunicorn-gevent": ("gunicorn.workers.ggevent", "companion.engine"),
    "gunicorn-threads": ("gunicorn.workers.gthread",),
    "gevent": ("gevent.pywsgi", "gevent.pool", "companion.engine"),
    "waitress": ("waitress.server",),
}
ENGINE_NAMES = {
    "gunicorn-gevent": "gunicorn's gevent worker",
    "gunicorn-threads": "gunicorn's threaded worker",
    "gevent": "gevent's server",
    "waitress": "waitress",
}


def missing_engine_module(chosen: str) -> ModuleNotFoundError | None:
    """The import error of a module the chosen engine needs, or None when all import."""
    for name in ENGINE_MODULES[chosen]:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as error:
            return error
    return None


def say(line: str) -> None:
    """One line for the person starting the server (standard error: it is no address)."""
    print(line, file=sys.stderr, flush=True)


def say_missing(error: ModuleNotFoundError, needed_by: str, worker_exit: bool = False) -> None:
    """The line for a module that is not installed: which one, who needs it, and the fix."""
    stop = " gunicorn stops with exit status 3 (worker failed to boot)." if worker_exit else ""
    say(
        f"Table companion cannot start: the Python module '{error.name}' is not installed "
        f"({needed_by} needs it).{stop} Install the app with its requirements again: "
        "`make clean run` in a checkout, or "
        f"`{sys.executable} -m pip install --force-reinstall <the app's folder or wheel>`."
    )


ENGINE_LINES = {
    "gunicorn-gevent": "Serving with push (gunicorn, {processes} gevent process(es)).",
    "gevent": "Serving with push (gevent, one process).",
    "gunicorn-threads": "Serving with {processes} processes; pages poll every 2 s.",
    "waitress": "Serving with waitress; pages poll every 2 s.",
}


def startup_message(public_url: str, host: str, port: int, database: str) -> str:
    """Where to open the app: only addresses the server really listens on."""
    notes = {
        "public": "(COMPANION_PUBLIC_URL)",
        "lan": "<- phones on the same network use this one",
        "local": "<- this computer only",
    }
    from companion import qr

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
