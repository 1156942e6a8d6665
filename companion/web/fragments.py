"""Fragments: parts of a region rendered from their inputs alone, and kept per process, so that
what every viewer of a table shares (or what did not change since the last move) is rendered
once instead of once per phone and per move.

    {{ fragment("<game>/_account.html", account=view.seats[i], names=names) }}

A fragment template sees only the inputs it is given, and of the globals only the stateless
ones: the reader's language (gettext, ngettext, the msg and names filters), url_for (relative
addresses) and csrf_token. tests/test_fragments.py reads every fragment template, and every
template it imports or includes, and refuses any other name (request, session, g, config...).

Its output is kept under a key made of the template, the inputs (their full content, see
`key_of`), the reader's language, the catalogue part in use and the address prefix: two
requests with the same key get the same bytes, so a fragment never shows a viewer anything
rendered from another viewer's data; it only saves the work. The CSRF token, which belongs to
one session, is never kept: the stored bytes hold a slot where each request puts its own.
Inputs are plain data (None, bools, numbers, str, Msg, Seat, lists, tuples, dicts, dataclasses
of these); anything else cannot be keyed, and the fragment is then rendered without being kept
(a test configuration raises instead, so that such a call is found).
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import pickle
import threading
from collections import OrderedDict
from typing import Any

from flask import current_app, g, request
from flask_babel import get_domain, get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from companion.games.messages import Msg, Seat

LIMIT_BYTES = 32 * 1024 * 1024  # kept per process, least recently used dropped first
# Only a template's own source can write this (any text a user entered is escaped: "&lt;").
TOKEN_SLOT = "<csrf-token-slot>"


class Unkeyable(TypeError):
    """An input whose content cannot be read into a key."""


KEYED_TYPES = (Msg, Seat, Markup)


class _KeyPickler(pickle.Pickler):
    """Pickles plain data only: exact builtins go by pickle's own fast path; of the rest, only
    the types whose whole content pickling keeps (Msg and Seat with their attributes, Markup,
    dataclasses) are let through."""

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) in KEYED_TYPES or dataclasses.is_dataclass(obj):
            return NotImplemented  # pickled as usual, with every attribute (or by name: a class)
        if obj in KEYED_TYPES or getattr(obj, "__module__", None) == "copyreg":
            return NotImplemented  # the class itself, and how pickle rebuilds a str subclass
        raise Unkeyable(f"a fragment's input of type {type(obj).__qualname__} cannot be keyed")


def key_of(value: Any) -> bytes:
    """A digest that is equal for two inputs exactly when their content is (their pickle: a
    Msg is its msgid, parameters and catalogue, not only its English text; a list is not a
    tuple); raises Unkeyable for anything but plain data. A set's order, which may differ for
    equal sets, only costs a miss."""
    buffer = io.BytesIO()
    try:
        _KeyPickler(buffer, protocol=5).dump(value)
    except (pickle.PicklingError, TypeError, AttributeError) as error:
        if isinstance(error, Unkeyable):
            raise
        raise Unkeyable(str(error)) from error
    return hashlib.blake2b(buffer.getbuffer(), digest_size=20).digest()


class Kept:
    """Rendered fragments by key, at most LIMIT_BYTES of them, least recently used dropped."""

    def __init__(self, limit: int = LIMIT_BYTES):
        self.limit = limit
        self.items: OrderedDict[Any, str] = OrderedDict()
        self.size = 0
        self.hits = 0  # found kept (the tests ask whether a game keeps any)
        self.lock = threading.Lock()

    def get(self, key: Any) -> str | None:
        with self.lock:
            found = self.items.get(key)
            if found is None:
                return None
            self.items.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: Any, text: str) -> None:
        with self.lock:
            if key in self.items:
                return
            self.items[key] = text
            self.size += len(text)
            while self.size > self.limit and self.items:
                _, dropped = self.items.popitem(last=False)
                self.size -= len(dropped)


def slot(name: str) -> Markup:
    """In a fragment template: where the caller's slot `name` goes (see fragment)."""
    return Markup(f"<fragment-slot {name}>")


def fragment(name: str, _slots: dict | None = None, **inputs: Any) -> Markup:
    """The fragment template `name` rendered from `inputs` (kept: see the module's docstring).
    _slots: what goes where the template says slot(name), put in after the fragment is kept or
    found, never part of it (a clock that counts on with every request)."""
    found = _kept_or_rendered(name, inputs)
    for key, value in (_slots or {}).items():
        found = found.replace(f"<fragment-slot {key}>", str(value))
    return Markup(found)


def _kept_or_rendered(name: str, inputs: dict) -> str:
    kept: Kept = current_app.extensions["companion.fragments"]
    try:
        key = (
            name,
            key_of(inputs),
            str(get_locale() or "en"),
            getattr(get_domain(), "part", None),
            request.script_root,
        )
    except Unkeyable:
        if current_app.config.get("TESTING"):
            raise
        return _render(name, inputs)
    if not current_app.config.get("FRAGMENTS", True):
        return _render(name, inputs)
    found = kept.get(key)
    if found is None:
        found = _render(name, inputs)
        token = g.get("csrf_token") if "csrf_token" in g else None
        kept.put(key, found.replace(token, TOKEN_SLOT) if token else found)
        return found
    if TOKEN_SLOT in found:
        found = found.replace(TOKEN_SLOT, generate_csrf())
    return found


def _render(name: str, inputs: dict) -> str:
    return current_app.jinja_env.get_template(name).render(**inputs)


def init_app(app) -> None:
    """The app's kept fragments and the `fragment` global of its templates."""
    app.extensions["companion.fragments"] = Kept()
    app.jinja_env.globals["fragment"] = fragment
    app.jinja_env.globals["slot"] = slot
