"""Languages: choosing one per request, one catalogue per part, and translating Msg objects.

The core app and every game package keep their own catalogue (the core's in
companion/translations/, a game's in companion/games/<name>/translations/). A request uses one
*part*: a game's pages (its table, rules page and calculator) read the game's catalogue, falling
back to the core's for the shared page around them; every other page reads the core's. So one
game's words never show on another game's page, whatever English msgids they share.
"""

from __future__ import annotations

import datetime
import functools
import importlib
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from babel import support
from babel.lists import format_list
from flask import Flask, g, request
from flask_babel import (
    Babel,
    Domain,
    force_locale,
    format_date,
    format_timedelta,
    get_domain,
    get_locale,
)
from jinja2.runtime import Context
from jinja2.utils import pass_context
from markupsafe import Markup
from wtforms.i18n import messages_path

from companion import localtime
from companion.games import PACKAGES
from companion.games.base import N_, Msg, Seat

LANGUAGES = {"en": "English", "ja": "日本語", "ru": "Русский"}
LANG_COOKIE = "lang"
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
CORE = "core"


def package_dir(package: str) -> Path:
    """The folder of a game package (its templates/, static/, translations/ and data/)."""
    file = importlib.import_module(package).__file__
    if file is None:  # a namespace package: no folder of its own
        raise ValueError(f"{package} has no __init__.py: a game package needs one")
    return Path(file).resolve().parent


class PartDomain(Domain):
    """One part's catalogue, loaded once per language, with the core catalogue behind it.

    (Flask-Babel's default domain is made anew for every request and so reloads its files; these
    are made once at start-up and keep what they loaded.)
    """

    def __init__(self, part: str, directory: Path, fallback: PartDomain | None = None):
        super().__init__(str(directory))
        self.part = part
        self.directory = directory
        self.fallback = fallback

    def get_translations(self) -> support.NullTranslations:
        locale = get_locale()
        key = str(locale)
        cached = self.cache.get(key)
        if cached is None:
            cached = support.Translations.load(str(self.directory), [locale])
            if self.fallback is not None:
                cached.add_fallback(self.fallback.get_translations())
            self.cache[key] = cached
        return cached


DOMAINS: dict[str, PartDomain] = {}


def _build_domains() -> None:
    """One domain for the core and one per game package (also a package registered after the
    first app was made, such as the tests' fixture game)."""
    core = DOMAINS.setdefault(CORE, PartDomain(CORE, TRANSLATIONS))
    for name, package in PACKAGES.items():
        if name not in DOMAINS:
            DOMAINS[name] = PartDomain(name, package_dir(package) / "translations", fallback=core)


def use_part(part: str) -> None:
    """Translate the rest of this request from this part's catalogue (a game's name, or core)."""
    DOMAINS.get(part, DOMAINS[CORE]).as_default()  # a part without a catalogue reads the core's
    g.pop("_translations", None)


def current_translations() -> support.NullTranslations:
    """This request's translations, looked up once per request and part (a page asks for a few
    dozen texts; Flask-Babel would look up the domain and the locale for each)."""
    translations = g.get("_translations")
    if translations is None:
        translations = g._translations = get_domain().get_translations()
    return translations


@functools.cache
def wtforms_catalogue(locale: str) -> support.NullTranslations:
    """WTForms' own messages ("Not a valid integer value.") in one language, read once per
    process."""
    return support.Translations.load(messages_path(), [locale], domain="wtforms")


def share_wtforms_catalogue() -> None:
    """Give this request the process's WTForms catalogue. Flask-WTF reads the catalogue's file
    again for every request that makes a form unless the request already holds one as
    `request.wtforms_translations` (flask_wtf/i18n.py): that read was a tenth of the CPU a
    table's live region costs, and every phone fetches its region after each move."""
    setattr(request, "wtforms_translations", wtforms_catalogue(str(get_locale())))  # noqa: B010


def select_locale() -> str:
    """The language cookie set by the footer switch, else the browser's best match."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default="en")


RETURN_MAX = 4096  # characters: a longer address is not put into the language links


TEXT_COOKIE = "text"  # this device's text size: a step of TEXT_SIZES (0: the app's own)
TEXT_SIZES = (-1, 0, 1, 2, 3)  # 94%, 100%, 113%, 125%, 150% (static/css/app.css: html[data-text])


def text_size() -> int:
    """This device's text size step (the footer's A− / A+), 0 unless it chose one."""
    raw = request.cookies.get(TEXT_COOKIE, "0")
    try:
        value = int(raw)
    except ValueError:
        return 0
    return value if value in TEXT_SIZES else 0


def language_return() -> str:
    """Where the language links lead back to: this page, except from an error page (which never
    echoes the address) or from a very long address: then the home page."""
    if g.get("error_page"):
        return "/"
    path = request.full_path.rstrip("?")
    # Measured as it will stand in the link (quoted: a "%" becomes "%25"), so that a page's two
    # language links stay small whatever the address.
    return path if len(quote(path, safe="/?=&")) <= RETURN_MAX else "/"


def init_app(app: Flask) -> None:
    """Install Flask-Babel with the parts' catalogues and the template helpers."""
    _build_domains()
    # Outside a request's part (e.g. a bare test_request_context) Flask-Babel's own domain reads
    # the core catalogue.
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)
    app.before_request(lambda: use_part(CORE))  # a game's view switches to its part
    app.before_request(share_wtforms_catalogue)
    app.jinja_env.globals.update(
        LANGUAGES=LANGUAGES,
        current_language=select_locale,
        language_return=language_return,
        game_label=game_label,
        translate_in=translate_in,
    )
    app.jinja_env.filters["msg"] = render_msg
    app.jinja_env.filters["names"] = names_list
    app.jinja_env.filters["day"] = day
    app.jinja_env.filters["clock"] = localtime.signed_clock
    app.jinja_env.globals["ago"] = ago
    app.jinja_env.globals["text_size"] = text_size
    # jinja2.ext.i18n (which Flask-Babel adds) attaches this method to the environment at run
    # time, so jinja2's own types do not know it.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda text: current_translations().ugettext(text),
        ngettext=lambda one, many, n: current_translations().ungettext(one, many, n),
        pgettext=lambda context, text: current_translations().upgettext(context, text),
        npgettext=lambda context, one, many, n: current_translations().unpgettext(
            context, one, many, n
        ),
        newstyle=True,
    )
    # The same functions as jinja2.ext.i18n's newstyle ones, in one call instead of three (its
    # `_` calls `gettext`, which calls the callable above): a live region asks for a hundred
    # texts, and each layer was a context call.
    app.jinja_env.globals["_"] = app.jinja_env.globals["gettext"] = template_gettext
    app.jinja_env.globals["ngettext"] = template_ngettext
    app.jinja_env.add_extension("jinja2.ext.do")


# Templates' texts without parameters, as _() gives them, by catalogue, text and escaping: a
# live region asks for about twenty, the same at every render (Flask-Babel keeps one catalogue
# object per part and language, so the key's catalogue is the one a later request uses).
_PLAIN_TEXTS: dict[tuple, str] = {}
PLAIN_TEXTS_MAX = 50_000  # all dropped when full (each language holds ~2,000 texts)


@pass_context
def template_gettext(context: Context, string: str, /, **variables: Any) -> str:
    """Templates' _() and gettext(): this request's text for `string`, escaped and formatted as
    jinja2.ext.i18n's newstyle gettext does (always as a format string: "%%" is "%")."""
    translations = current_translations()
    if variables:
        return _formatted(context, translations.ugettext(string), variables)
    key = (translations, string, context.eval_ctx.autoescape)
    found = _PLAIN_TEXTS.get(key)
    if found is None:
        if len(_PLAIN_TEXTS) >= PLAIN_TEXTS_MAX:
            _PLAIN_TEXTS.clear()
        found = _PLAIN_TEXTS[key] = _formatted(context, translations.ugettext(string), {})
    return found


@pass_context
def template_ngettext(
    context: Context, singular: str, plural: str, number: int, /, **variables: Any
) -> str:
    """Templates' ngettext(), as jinja2.ext.i18n's newstyle one (the number is %(num)s unless
    the call names a num of its own)."""
    variables.setdefault("num", number)
    text = current_translations().ungettext(singular, plural, number)
    return _formatted(context, text, variables)


def _formatted(context: Context, text: str, variables: dict) -> str:
    # escaped where the template escapes (a Markup formats its arguments escaped), then formatted
    return (Markup(text) if context.eval_ctx.autoescape else text) % variables


def translate(msgid: str) -> str:
    """The current language's text for an English msgid (in this request's part)."""
    return current_translations().ugettext(msgid)


def translate_in(part: str, msgid: str) -> str:
    """The current language's text for a msgid of a given part (e.g. a game's name on the home
    page, which is a core page)."""
    return DOMAINS.get(part, DOMAINS[CORE]).get_translations().ugettext(msgid)


def default_seat_name(info, seat: int) -> str:
    """A seat's default name in the reader's language: the game's label for the seat (Kahuna's
    colours, Africana's companies: Rules.seat_labels) or "Player n" (a new table's seats and a
    rematch's take theirs from here)."""
    labels = info.rules.seat_labels
    if seat < len(labels):
        return translate_in(info.name, labels[seat])
    return translate(N_("Player %(n)s")) % {"n": seat + 1}


def seat_name(info, seat: int, name: str, named: bool) -> str:
    """A seat's name as this reader reads it: the name a person typed, or, for a seat nobody
    named (stored with its default in the language of the device that made the table: "Player
    2", "White"), its default name in the reader's language."""
    return name if named else default_seat_name(info, seat)


def reader_seats(info, rows: list) -> list:
    """A table's seats (tables.SeatRow) as this reader reads them (seat_name)."""
    return [replace(row, name=seat_name(info, row.seat, row.name, row.named)) for row in rows]


def game_names(info) -> list[str]:
    """Every name a registry entry goes by: its BoardGameGeek name and its label in each of the
    app's languages (for finding the game in a file or a question)."""
    found = [info.export_name, info.label]
    for language in LANGUAGES:
        with force_locale(language):
            found.append(game_label(info))
    return found


def game_label(info) -> str:
    """A registry entry's name in the reader's language, from its own game's catalogue."""
    return translate_in(info.name, info.label)


def render_msg(msg: Msg | dict | str, names: list[str] | None = None) -> str:
    """A game's message in the current language, seats shown by name.

    A plural message picks its form from its count in the reader's language; a message marked
    with a part (e.g. "core") is read from that part's catalogue even inside another's page.
    """
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
    translations = (
        DOMAINS[msg.domain].get_translations() if msg.domain in DOMAINS else current_translations()
    )
    forms = msg.plural_forms()
    text = translations.ungettext(*forms) if forms else translations.ugettext(msg.msgid)
    return text % params if params else text


def names_list(names: list[str]) -> str:
    """Names joined as the reader's language joins a list ("A, B, and C"; 「A、B、C」)."""
    return format_list(list(names), locale=get_locale() or "en") if names else ""


def ago(when: float | None, now: float) -> str:
    """How long ago, in the reader's language ("3 minutes ago", 「3分前」, «3 минуты назад»)."""
    if when is None:
        return ""
    return format_timedelta(
        datetime.timedelta(seconds=when - now), add_direction=True, threshold=1.0
    )


def day(moment: float | None, zone: str | None = None) -> str:
    """A moment's date in the reader's language (23 Nov 2026, 2026/11/23, 23 нояб. 2026 г.),
    on the table's own calendar when its time zone is given."""
    if moment is None:
        return ""
    return format_date(localtime.local(moment, zone), format="medium", rebase=False)
