"""The table companion: a Flask app that keeps a board game's arithmetic and rules honest."""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from flask import Blueprint, Flask, g
from flask_htmx import HTMX
from flask_wtf.csrf import CSRFProtect

from companion import cli, games, i18n, security
from companion import db as database
from companion.games import PACKAGES
from companion.store import PostgresStore, Store
from companion.web import assets, device, errors, fragments, links, push, templating
from companion.web.fastpath import UnchangedPolls
from companion.web.stream_region import StreamSessions

csrf = CSRFProtect()
htmx = HTMX()  # bool(htmx) in a request: whether htmx sent it (the HX-Request header)
PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent


def core_folder(name: str) -> Path:
    """The core's templates/ or static/: inside the package when it was installed from a wheel
    (setup.py copies them there), at the top of the repository in a checkout."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


def instance_folder() -> Path:
    """Where the database and the secret key live: COMPANION_INSTANCE, else ./instance of the
    directory the server was started from (never inside an installed package)."""
    return Path(os.environ.get("COMPANION_INSTANCE") or Path.cwd() / "instance").resolve()


def _secret_key(instance: Path) -> str:
    """A secret generated into instance/ on first start and kept.

    Several processes may start at once: each writes its candidate to a file of its own and
    links it to the final name only if that name is still free, so exactly one wins and every
    process reads the winner's key.
    """
    path = instance / "secret_key"
    if not path.exists():
        candidate = instance / f"secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        candidate.write_text(secrets.token_hex(32))
        candidate.chmod(0o600)
        try:
            os.link(candidate, path)  # atomic: fails if another process got there first
        except FileExistsError:
            pass
        except OSError:  # no hard links here (some Windows file systems): exclusive create
            try:
                with open(path, "x") as fh:
                    fh.write(candidate.read_text())
            except FileExistsError:
                pass
        finally:
            candidate.unlink(missing_ok=True)
    for _ in range(50):  # a winner on a file system without links may still be writing
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.02)
    raise RuntimeError(f"{path} is empty: delete it and start again")


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; test_config overrides the configuration (e.g. DATABASE, TESTING)."""
    app = Flask(
        __name__,
        instance_path=str(instance_folder()),
        template_folder=str(core_folder("templates")),
        static_folder=str(core_folder("static")),
    )
    templating.init_app(app)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    _load_config(app, instance, test_config)
    _install_extra_games(app)
    _prepare_database(app, instance)
    _init_extensions(app)
    _open_store(app)
    _register_blueprints(app)
    cli.init_app(app)
    _answer_before_flask(app)
    return app


def _load_config(app: Flask, instance: Path, test_config: dict | None) -> None:
    """The defaults, the COMPANION_* environment, then the test's overrides."""
    app.config.from_mapping(
        DATABASE=os.environ.get("COMPANION_DATABASE", str(instance / "companion.db")),
        PUBLIC_URL=os.environ.get("COMPANION_PUBLIC_URL", ""),
        # Where the server listens (companion.serve passes its own): the QR code offers only
        # addresses phones can reach there, never the request's Host header.
        BIND_HOST=os.environ.get("HOST", "0.0.0.0"),
        BIND_PORT=os.environ.get("PORT") or None,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,  # a game lasts hours; the token is tied to the session anyway
        # Over https Flask-WTF would also demand a same-site Referer, which our
        # Referrer-Policy: no-referrer never sends; the token and SameSite cookies do the work.
        WTF_CSRF_SSL_STRICT=False,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        # The exports: the tables' time zone (an IANA name; overrides the host's browser's) and
        # the place of a play whose host named none.
        TIME_ZONE=os.environ.get("COMPANION_TIMEZONE", ""),
        LOCATION=os.environ.get("COMPANION_LOCATION", ""),
        # Tables one device (and all devices behind one address) may start a minute; 0: no
        # limit (the tests, the checks and the benchmark start many).
        TABLES_PER_DEVICE_MINUTE=int(os.environ.get("COMPANION_TABLES_PER_DEVICE_MINUTE", "30")),
        TABLES_PER_ADDRESS_MINUTE=int(os.environ.get("COMPANION_TABLES_PER_ADDRESS_MINUTE", "300")),
    )
    if test_config:
        app.config.update(test_config)


def _install_extra_games(app: Flask) -> None:
    """Game packages beyond the installed ones (the tests' fixture game): registered before the
    blueprints and catalogues are made from the registry."""
    extra = app.config.get("EXTRA_GAMES") or os.environ.get("COMPANION_EXTRA_GAMES", "").split()
    for package in extra:
        games.install(package)


def _prepare_database(app: Flask, instance: Path) -> None:
    """Create and migrate the database on start, so the first request finds it ready; settle
    the secret key."""
    setup = database.connect(app.config["DATABASE"], setup=True)
    if not app.config.get("SECRET_KEY"):
        # Every process must sign with one key, or a phone's session and CSRF token would fail
        # on whichever process did not make it: on PostgreSQL (several machines) the key lives
        # in the database, on SQLite (one machine) beside the file.
        configured = os.environ.get("COMPANION_SECRET_KEY")
        if configured:
            app.config["SECRET_KEY"] = configured
        elif isinstance(setup, PostgresStore):
            from companion import pg

            app.config["SECRET_KEY"] = pg.shared_secret_key(setup)
        else:
            app.config["SECRET_KEY"] = _secret_key(instance)
    setup.close()


def _init_extensions(app: Flask) -> None:
    app.session_interface = StreamSessions()  # a push stream's renders read its session once
    security.init_app(app)
    errors.init_app(app)
    device.init_app(app)
    csrf.init_app(app)
    htmx.init_app(app)
    i18n.init_app(app)
    assets.init_app(app)
    fragments.init_app(app)
    links.init_app(app)


def _open_store(app: Flask) -> None:
    """The connections every request borrows one of, and the push hub that hears of their
    writes; a request's connection goes back when its app context ends."""
    # Push (companion/web/push.py): served only where every connection is a greenlet.
    app.config.setdefault("PUSH", push.served())
    app.config.setdefault("PUSH_HEARTBEAT", push.HEARTBEAT)
    hub = push.Hub(app.config["DATABASE"], heartbeat=app.config["PUSH_HEARTBEAT"])
    app.extensions["companion.push"] = hub
    app.extensions["companion.db"] = database.connections(
        app.config["DATABASE"],
        threads=int(os.environ.get("COMPANION_THREADS", 8)),
        on_change=hub.changed,
    )

    @app.teardown_appcontext
    def release_db(exc: BaseException | None) -> None:
        if g.pop("db", None) is not None:
            app.extensions["companion.db"].release()


def _register_blueprints(app: Flask) -> None:
    """Each game package's templates and static files, the core's blueprints, the calculators."""
    from companion.web import (
        after,
        display,
        health,
        imports,
        lobby,
        records,
        replay,
        rules,
        table,
        tools,
    )

    for name, package in PACKAGES.items():
        # A game package's own templates/ and static/ (served at /static/games/<name>/).
        app.register_blueprint(
            Blueprint(
                name,
                package,
                template_folder="templates",
                static_folder="static",
                static_url_path=f"/static/games/{name}",
            )
        )
    for blueprint in (
        lobby.bp,
        table.bp,
        display.bp,
        after.bp,
        replay.bp,
        records.bp,
        imports.bp,
        tools.bp,
        rules.bp,
        rules.table_bp,
        health.bp,
    ):
        app.register_blueprint(blueprint)
    for calculator in tools.game_calculators():
        app.register_blueprint(calculator)
    app.before_request(tools.use_calculator_part)


def _answer_before_flask(app: Flask) -> None:
    """Unchanged polls are answered before Flask (see companion/web/fastpath.py), and so are the
    push streams of the devices that may open a table's live region (companion/web/push.py)."""
    # Flask documents wrapping wsgi_app in a middleware; its annotations declare it a method.
    app.wsgi_app = UnchangedPolls(  # type: ignore[method-assign]
        app.wsgi_app, app.extensions["companion.db"], security.headers
    )
    if app.config["PUSH"]:
        app.wsgi_app = push.PushStreams(  # type: ignore[method-assign]
            app.wsgi_app,
            app.extensions["companion.db"],
            app.extensions["companion.push"],
            security.headers,
        )


def get_db() -> Store:
    """The database connection of this request (kept between requests; see db.Connections)."""
    from flask import current_app

    if "db" not in g:
        g.db = current_app.extensions["companion.db"].get()
    return g.db
