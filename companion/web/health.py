"""GET /healthz: whether this process can serve a table, for a proxy's or a load balancer's
health check, systemd, or a monitoring script (docs/deployment.md).

- 200 `ok` when the database answers (its schema is read and a table row can be read);
- 503 `unavailable` otherwise (the reason goes to the server's log, not to the caller).

The schema version, the database's kind and the engine are added only for a caller on this
machine (loopback) or for the trusted proxy's own request (COMPANION_TRUSTED_PROXIES, no
X-Forwarded-For): they say which release runs, which is nobody else's business. The answer sets
no cookie and is never stored.
"""

from __future__ import annotations

import ipaddress
import logging

from flask import Blueprint, Response, current_app, request

log = logging.getLogger(__name__)
bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """ok, or unavailable; the details for this machine or the trusted proxy."""
    from companion import db as database
    from companion import get_db

    try:
        store = get_db()
        version = database.schema_version(store)
        store.execute("SELECT id FROM tables LIMIT 1").fetchall()
    except Exception:
        log.exception("health check: the database does not answer")
        return plain("unavailable\n", 503)
    body = "ok\n"
    if told_details():
        latest = database.latest_version(current_app.config["DATABASE"])
        engine = current_app.config.get("ENGINE") or request.environ.get("SERVER_SOFTWARE", "")
        body += (
            f"schema {version} (this release's: {latest})\n"
            f"database {store.backend}\n"
            f"engine {engine or 'unknown'}; push {'on' if current_app.config['PUSH'] else 'off'}\n"
        )
    return plain(body, 200)


def plain(body: str, status: int) -> Response:
    return Response(body, status, mimetype="text/plain", headers={"Cache-Control": "no-store"})


def told_details() -> bool:
    """Whether the caller may read what release runs: a loopback address, or the trusted proxy
    asking for itself (behind ProxyFix a request without X-Forwarded-For came from the proxy)."""
    behind_proxy = "werkzeug.proxy_fix.orig" in request.environ
    if behind_proxy and "X-Forwarded-For" not in request.headers:
        return True
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False
