"""Languages: choosing one per request, and translating the Msg objects the games speak in.

The core catalogue lives in companion/translations/<lang>/LC_MESSAGES/messages.po, each game's in
its package (companion/games/<name>/translations/...), so a game's strings stay with the game.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from flask import Flask, request
from flask_babel import Babel, get_translations

from companion.games import PACKAGES
from companion.games.base import Msg, Seat

LANGUAGES = {"en": "English", "ja": "日本語", "ru": "Русский"}
LANG_COOKIE = "lang"
TRANSLATIONS = Path(__file__).resolve().parent / "translations"


def package_dir(package: str) -> Path:
    """The folder of a game package (its templates/, static/, translations/ and data/)."""
    return Path(importlib.import_module(package).__file__).resolve().parent


def select_locale() -> str:
    """The language cookie set by the footer switch, else the browser's best match."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default="en")


def init_app(app: Flask) -> None:
    """Install Flask-Babel with every catalogue part and the template helpers."""
    parts = [str(TRANSLATIONS)] + [
        str(package_dir(package) / "translations") for package in PACKAGES.values()
    ]
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", ";".join(parts))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(LANGUAGES=LANGUAGES, current_language=select_locale)
    app.jinja_env.filters["msg"] = render_msg
    app.jinja_env.add_extension("jinja2.ext.do")


def translate(msgid: str) -> str:
    """The current language's text for an English msgid."""
    return get_translations().ugettext(msgid)


def render_msg(msg: Msg | dict | str, names: list[str] | None = None) -> str:
    """A game's message in the current language, seats shown by name."""
    if isinstance(msg, dict):
        msg = Msg.from_json(msg)
    if not isinstance(msg, Msg):
        return str(msg)
    names = names or []
    params = {}
    for key, value in msg.params.items():
        if isinstance(value, Seat):
            params[key] = names[value] if value < len(names) else str(value)
        elif isinstance(value, Msg):
            params[key] = render_msg(value, names)
        else:
            params[key] = value
    text = translate(msg.msgid)
    return text % params if params else text
