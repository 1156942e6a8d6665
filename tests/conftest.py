"""Shared fixtures: an app on a fresh database file, its test client, a fake game for the store."""

from __future__ import annotations

import re

import pytest

from companion import create_app


@pytest.fixture
def app(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.db"),
                      "SECRET_KEY": "test-secret"})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


def csrf_from(html: str) -> str:
    """The CSRF token a rendered page carries, as a browser would send it back."""
    match = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html)
    if not match:
        match = re.search(r'value="([^"]+)"[^>]*name="csrf_token"', html)
    assert match, "page has no CSRF token"
    return match.group(1)
