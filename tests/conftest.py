"""Shared fixtures: an app on a fresh database file, its test client, a fake game for the store."""

from __future__ import annotations

import re

import pytest

from companion import create_app


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "test.db"), "SECRET_KEY": "test-secret"}
    )
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


def post_from(client, page_url: str, post_url: str, htmx: bool = True, **data):
    """Load page_url, then post data to post_url with the page's CSRF token (and version, if the
    page has one and data does not), as a browser submitting a form of that page would."""
    page = client.get(page_url).text
    form = {"csrf_token": csrf_from(page)}
    version = re.search(r'data-version="(\d+)"', page)
    if version and "version" not in data:
        form["version"] = version.group(1)
    form.update(data)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(post_url, data=form, headers=headers)
