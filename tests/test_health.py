"""GET /healthz: 200 ok while the database answers, 503 when it does not; the release's details
only for this machine or the trusted proxy itself (companion/web/health.py)."""

from __future__ import annotations

import pytest

from companion import create_app
from companion import db as database

LAN = {"REMOTE_ADDR": "192.168.1.23"}


@pytest.mark.both_stores
def test_a_healthy_server_answers_ok_with_its_schema_to_this_machine(app, client):
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.mimetype == "text/plain"
    lines = answer.text.splitlines()
    assert lines[0] == "ok"
    latest = database.latest_version(app.config["DATABASE"])
    assert f"schema {latest} (this release's: {latest})" in lines
    assert any(
        line.startswith(
            "database " + ("postgresql" if "://" in app.config["DATABASE"] else "sqlite")
        )
        for line in lines
    )
    assert answer.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in answer.headers
    assert client.head("/healthz").status_code == 200


def test_a_phone_on_the_network_reads_ok_and_nothing_more(client):
    answer = client.get("/healthz", environ_base=LAN)
    assert answer.status_code == 200 and answer.text == "ok\n"


def test_a_database_that_does_not_answer_makes_it_unavailable(app, client, monkeypatch):
    class Broken:
        def get(self):
            raise OSError("the database is gone")

        def release(self):
            pass

    monkeypatch.setitem(app.extensions, "companion.db", Broken())
    answer = client.get("/healthz")
    assert answer.status_code == 503 and answer.text == "unavailable\n"
    assert "gone" not in answer.text


def test_a_file_that_is_no_database_is_unavailable(tmp_path):
    path = tmp_path / "companion.db"
    made = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "x"})
    client = made.test_client()
    assert client.get("/healthz").status_code == 200
    made.extensions["companion.db"].close()
    path.write_bytes(b"this is not a database" * 100)
    for leftover in tmp_path.glob("companion.db-*"):
        leftover.unlink()
    assert client.get("/healthz").status_code == 503
    made.extensions["companion.db"].close()


def test_behind_a_trusted_proxy_only_the_proxys_own_check_reads_the_details(tmp_path):
    made = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "companion.db"),
            "SECRET_KEY": "x",
            "TRUSTED_PROXIES": True,
            "PUBLIC_URL": "https://games.example.org",
        }
    )
    client = made.test_client()
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    own = client.get("/healthz", environ_base=proxy)
    assert own.status_code == 200 and "schema" in own.text
    forwarded = client.get(
        "/healthz", environ_base=proxy, headers={"X-Forwarded-For": "192.168.1.23"}
    )
    assert forwarded.text == "ok\n"
    made.extensions["companion.db"].close()
