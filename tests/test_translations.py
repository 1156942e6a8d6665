"""Every user-facing string has a Japanese and a Russian translation, placeholders intact."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from scripts import i18n

ROOT = Path(__file__).resolve().parent.parent

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def test_every_string_is_translated_into_japanese_and_russian():
    assert i18n.missing() == []


def test_every_part_has_its_catalogues():
    assert all(po.exists() for po in i18n.catalogues())


def test_translations_keep_their_placeholders():
    wrong = []
    for po in i18n.catalogues():
        with po.open("rb") as fh:
            for message in read_po(fh):
                if not message.id or not message.string:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                wanted = set(PLACEHOLDER.findall(ids[-1]))
                for text in strings:
                    if text and set(PLACEHOLDER.findall(text)) != wanted:
                        wrong.append(f"{po.relative_to(ROOT)}: {ids[0]!r} -> {text!r}")
    assert wrong == []


def _catalogue(part: str, lang: str) -> dict:
    """msgid (a plural's singular) -> translation (a tuple for plurals) of one part."""
    path = i18n.catalogue_dir(part) / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fh:
        return {
            (m.id if isinstance(m.id, str) else m.id[0], m.context): m.string
            for m in read_po(fh)
            if m.id
        }


def test_a_game_shares_no_english_text_with_the_core_unless_they_read_the_same():
    """A game's page reads the game's catalogue first, then the core's. Where a game and the core
    use the same English text (without a message context) for different things, the game's
    translation would show in the core's part of the game's page (the "Players" list, the rename
    form): such a text must read the same in both, or get a context or other words."""
    clashes = []
    for lang in i18n.LANGS:
        core = _catalogue("core", lang)
        for part in i18n.INSTALLED:
            game = _catalogue(part, lang)
            for key in sorted(set(core) & set(game)):
                if core[key] != game[key]:
                    clashes.append(
                        f"{part}/{lang}: {key[0]!r}: core {core[key]!r}, game {game[key]!r}"
                    )
    assert clashes == []


# The same English text in two games' catalogues that names different things, so it may read
# differently: (language, msgid) -> why. Everything else a game shares with another reads the same.
MEANS_ANOTHER_THING_PER_GAME = {
    (
        "ja",
        "Bid",
    ): "a bid button (入札する) in one game, a column of bid amounts (入札額) in another",
    (
        "ru",
        "Bid",
    ): "a bid button (Поставить) in one game, a column of bid amounts (Ставка) in another",
    (
        "ja",
        "Points",
    ): "each game's own rule text: victory points (勝利点) in one, points (得点) in another",
    (
        "ru",
        "Place",
    ): "a narrow bid table numbers the order of choosing (№); a result names the place (Место)",
    ("ru", "nobody"): "a payout to nobody («никому»), an island of nobody's («ничей»)",
    ("ru", "white"): "a seat's colour (белый), a bridge of White («мост белых»)",
}


def test_japanese_says_smartphone_not_the_slang():
    """A phone is スマートフォン in every Japanese catalogue (docs/style-ja.md; the second
    review found スマホ coming back in new strings)."""
    slang = [
        f"{part}: {text}"
        for part, m in _entries("ja")
        for text in (m.string if isinstance(m.string, tuple) else (m.string,))
        if text and "スマホ" in text
    ]
    assert slang == []


def test_the_same_text_reads_the_same_in_every_game():
    """A UI phrase every game uses ("Why?", "Our reading:", "Act for %(name)s", "The game is
    over") lives in each game's catalogue; translated separately, the copies drift apart. Every
    text two games share reads the same in both, unless it names another thing in each game
    (MEANS_ANOTHER_THING_PER_GAME)."""
    drift = []
    for lang in i18n.LANGS:
        seen: dict = {}
        for part in i18n.INSTALLED:
            for key, text in _catalogue(part, lang).items():
                if not text or (lang, key[0]) in MEANS_ANOTHER_THING_PER_GAME:
                    continue
                first = seen.setdefault(key, (part, text))
                if first[1] != text:
                    drift.append(f"{lang}: {key[0]!r}: {first[0]} {first[1]!r}, {part} {text!r}")
    assert drift == []


def test_a_games_page_never_reads_another_games_catalogue(app):
    """Every text of every other game, looked up on each game's pages, comes from this game's
    catalogue or the core's, never from the other game's: their catalogues cannot collide."""
    from companion import i18n as app_i18n

    for lang in i18n.LANGS:
        catalogues = {part: _catalogue(part, lang) for part in ("core", *i18n.INSTALLED)}
        with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
            for part in i18n.INSTALLED:
                app_i18n.use_part(part)
                own, core = catalogues[part], catalogues["core"]
                for other in i18n.INSTALLED:
                    if other == part:
                        continue
                    for (msgid, context), _ in catalogues[other].items():
                        if context is not None or (msgid, None) in own:
                            continue
                        shown = app_i18n.translate(msgid)
                        expected = core.get((msgid, None)) or msgid
                        if isinstance(expected, tuple):
                            expected = expected[0] or msgid
                        assert shown == expected, (lang, part, other, msgid, shown)


def test_a_russian_count_agrees_and_a_japanese_count_is_translated(app):
    """Plural messages pick the form by the count in each language (checked with the first plural
    entry of the catalogues, stored and read back as the history does)."""
    from companion import i18n as app_i18n
    from companion.games.base import Msg, Plural

    entry = part = None
    for part in ("core", *i18n.INSTALLED):
        with open(i18n.catalogue_dir(part) / "ru" / "LC_MESSAGES" / "messages.po", "rb") as fh:
            entry = next(
                (
                    m
                    for m in read_po(fh)
                    if isinstance(m.id, tuple)
                    and m.context is None
                    and len(PLACEHOLDER.findall(m.id[0])) == 1  # the count alone
                ),
                None,
            )
        if entry is not None:
            break
    assert entry is not None, "no catalogue has a plural entry to test with"
    singular, plural = entry.id
    count = PLACEHOLDER.findall(singular)[0]
    seen = {}
    with app.test_request_context(headers={"Cookie": "lang=ru"}):
        app_i18n.use_part(part)
        for n in (1, 2, 5, 21, 22, 11, 111):
            msg = Msg.from_json(Plural(singular, plural, count, **{count: n}).to_json())
            seen[n] = app_i18n.render_msg(msg)
    forms = entry.string
    assert seen[1] == forms[0] % {count: 1} and seen[21] == forms[0] % {count: 21}
    assert seen[2] == forms[1] % {count: 2} and seen[22] == forms[1] % {count: 22}
    assert seen[5] == forms[2] % {count: 5} and seen[11] == forms[2] % {count: 11}
    assert seen[111] == forms[2] % {count: 111}
    with app.test_request_context(headers={"Cookie": "lang=ja"}):
        app_i18n.use_part(part)
        japanese = app_i18n.render_msg(Plural(singular, plural, count, **{count: 3}))
        assert "3" in japanese and japanese != plural % {count: 3}
    with app.test_request_context(headers={"Cookie": "lang=en"}):
        app_i18n.use_part(part)
        assert app_i18n.render_msg(Plural(singular, plural, count, **{count: 1})) == singular % {
            count: 1
        }
        assert app_i18n.render_msg(Plural(singular, plural, count, **{count: 3})) == plural % {
            count: 3
        }


def test_history_rows_stored_before_plurals_and_parts_still_render(app):
    """A row written by the previous release ({"id", "p"} only) renders as it did."""
    from companion import i18n as app_i18n
    from companion.games.base import Msg

    old = {"id": "%(author)s: %(text)s", "p": {"author": {"seat": 1}, "text": "hello"}}
    with app.test_request_context(headers={"Cookie": "lang=en"}):
        assert app_i18n.render_msg(Msg.from_json(old), ["Anna", "Ben"]) == "Ben: hello"
    new = Msg.core("%(author)s: %(text)s", author="Ben", text="hi").to_json()
    assert new["d"] == "core" and Msg.from_json(new).domain == "core"


def test_a_message_keeps_every_str_method_and_its_stored_plural_form():
    """A Msg is a str: its marks never hide a str method (a plural message's count parameter
    once hid str.count), and a plural message's stored JSON keeps its "n" key."""
    from companion.games.base import Msg, Plural

    assert Msg("a, b").count(",") == 1
    line = Plural("%(n)s pebble", "%(n)s pebbles", "n", n=3)
    assert line.count("b") == 2 and line.plural_forms() == ("%(n)s pebble", "%(n)s pebbles", 3)
    stored = line.to_json()
    assert stored["pl"] == "%(n)s pebbles" and stored["n"] == "n"
    again = Msg.from_json(stored)
    assert again == "3 pebbles" and again.count_param == "n" and again.plural_forms()[2] == 3
    assert Msg("a, b").plural_forms() is None


JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]"
ASCII_PUNCTUATION = re.compile(rf"{JAPANESE}\s*[:?!()]|[:?!(]\s*{JAPANESE}")
SENTENCE_BEFORE_COLON = re.compile(r"(?:です|ます|ました|ません|でした|ください)：")
GENITIVE_PLURALS = (
    "фишек",
    "фунтов",
    "карт",
    "очков",
    "игроков",
    "мостов",
    "островов",
    "монет",
    "символов",
    "знаков",
    "экспедиций",
    "приключений",
    "камней",
    "страниц",
    "ходов",
    "раундов",
    "незавершённых",
    "бонусных",
)
COUNTED = re.compile(r"%\((\w+)\)[sd]\s+(" + "|".join(GENITIVE_PLURALS) + r")\b")


def _entries(lang: str):
    for part in ("core", *i18n.INSTALLED):
        with open(i18n.catalogue_dir(part) / lang / "LC_MESSAGES" / "messages.po", "rb") as fh:
            for message in read_po(fh):
                if message.id:
                    yield part, message


def test_japanese_uses_japanese_punctuation_between_japanese_text():
    wrong = []
    for part, m in _entries("ja"):
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            if text and (ASCII_PUNCTUATION.search(text) or SENTENCE_BEFORE_COLON.search(text)):
                wrong.append(f"{part}: {text}")
    assert wrong == []


def test_japanese_ranges_use_the_wave_dash():
    """A range is 「2〜4人」 with the wave dash U+301C in every catalogue, never the full-width
    tilde U+FF5E that some entries had (docs/style-ja.md)."""
    tildes = []
    for part, m in _entries("ja"):
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            if text and "\uff5e" in text:
                tildes.append(f"{part}: {text}")
    assert tildes == []


def test_russian_counts_that_vary_are_plural_entries():
    wrong = []
    for part, m in _entries("ru"):
        if isinstance(m.id, tuple) or not m.string:
            continue
        if COUNTED.search(m.string):
            wrong.append(f"{part}: {m.string}")
        if "хозя" in m.string.lower():
            wrong.append(f"{part}: «хозяин» for the host: {m.string}")
    assert wrong == []


# English nouns that take a number ("3 cards"): a message that puts a number before one is a
# plural message, or it says "1 cards". Mass nouns ("5 silver") read right at any number.
COUNTED_NOUNS = (
    "pounds", "tracks", "symbols", "cards", "points", "chips", "bridges", "sites", "players",
    "files", "characters", "coins", "stones", "pebbles", "rounds", "lines", "plays", "minutes",
    "seconds", "crossings", "spaces", "markers", "islands", "bids", "tables", "phones", "games",
)  # fmt: skip
# Parameters that are never a number (a seat's name, a terrain, a colour...).
NOT_A_NUMBER = {
    "seat", "name", "colour", "terrain", "tribe", "island", "player", "game", "who", "what",
    "site", "names", "other", "rival", "kind", "label", "place", "company", "turn", "white",
    "black",
}  # fmt: skip
# Words that may stand between the number and its noun ("3 bonus tracks"), and a name ("10
# Pebbles stones": a capitalised word).
BETWEEN = ("bonus", "track", "gold", "face-up", "more", "free", "bought", "[A-Z][a-z]+")
ENGLISH_COUNT = re.compile(
    r"%\((\w+)\)[sd] (?:(?:" + "|".join(BETWEEN) + r") )?(" + "|".join(COUNTED_NOUNS) + r")\b"
)


def _stored_lines() -> set[str]:
    """The msgids kept only for history rows stored by earlier releases: each game marks them
    in module-level tuples named EARLIER_* or STORED_* (new lines never use them)."""
    import importlib
    import pkgutil

    kept: set[str] = set()
    for part in i18n.INSTALLED:
        package = importlib.import_module(f"companion.games.{part}")
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"companion.games.{part}.{info.name}")
            for name, value in vars(module).items():
                if name.startswith(("EARLIER_", "STORED_")) and isinstance(value, tuple):
                    kept |= {getattr(v, "msgid", v) for v in value if isinstance(v, str)}
    return kept


def test_a_number_before_a_counted_noun_is_a_plural_message():
    """ "1 cards" never shows: every message with a number before a noun that varies with it is a
    plural message (ngettext / Plural), in every part, except the old msgids kept for stored
    history rows."""
    kept = _stored_lines()
    wrong = []
    for part, m in _entries("ja"):
        if isinstance(m.id, tuple) or m.id in kept:
            continue
        if any(hit.group(1) not in NOT_A_NUMBER for hit in ENGLISH_COUNT.finditer(m.id)):
            wrong.append(f"{part}: {m.id}")
    assert wrong == [], "\n".join(wrong)


def test_plural_entries_have_every_form():
    for lang, forms in (("ja", 1), ("ru", 3)):
        for part, m in _entries(lang):
            if isinstance(m.id, tuple):
                assert len(m.string) == forms and all(m.string), (part, lang, m.id)


# --- code causes of translation defects: one msgid for one meaning --------------------------


def _label_of(page: str, field: str) -> str:
    found = re.search(rf'<label[^>]*for="{field}"[^>]*>(.*?)</label>', page, re.S)
    assert found, field
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def test_the_player_count_box_and_the_seat_list_have_words_of_their_own(app, make_table):
    """The home page's number box says how many play ("Number of players": 人数, число игроков);
    the table page's seat list is headed "Players". One msgid for both forced one translation
    on two meanings."""
    table = make_table("pebbles", phones=False)
    seen = {}
    for lang in ("en", *i18n.LANGS):
        client = app.test_client()
        client.set_cookie("lang", lang)
        box = _label_of(client.get("/").text, "players")
        table.host.set_cookie("lang", lang)
        heading = re.search(
            r'<section class="card">\s*<h2>([^<]+)</h2>\s*<div id="seats-region"', table.page()
        )
        assert heading, lang
        seen[lang] = (box, heading.group(1))
    assert seen["en"] == ("Number of players", "Players")
    assert seen["ja"] == ("プレイ人数", "プレイヤー")
    assert seen["ru"] == ("Число игроков", "Игроки")


def test_a_text_that_opens_a_paragraph_begins_with_a_capital_in_russian():
    """English may open a paragraph with a number ("3 games played" on /stats) where Russian opens
    with a word («Сыграно 3 партии»): such a text carries a note for translators (extracted into
    the catalogue), and every Russian form of it begins with a capital letter."""
    noted = []
    for part, m in _entries("ru"):
        if not any("opens a paragraph" in c for c in m.auto_comments):
            continue
        noted.append(m.id if isinstance(m.id, str) else m.id[0])
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            first = text.lstrip("«")[:1]
            assert first == "%" or first.isupper() or first.isdigit(), (part, text)
    assert "%(num)s game played" in noted


def test_the_apps_name_is_the_one_the_style_guides_give():
    """docs/style-ja.md and docs/style-ru.md name the app; the core catalogue says the same."""
    for lang in i18n.LANGS:
        guide = (ROOT / "docs" / f"style-{lang}.md").read_text(encoding="utf-8")
        named = re.search(
            r'The app\'s name \(the English "Table companion"\) is\s+[「«]([^」»]+)[」»]', guide
        )
        assert named, f"style-{lang}.md names no app"
        assert _catalogue("core", lang)[("Table companion", None)] == named.group(1), lang


def test_wtforms_own_messages_are_translated_from_a_catalogue_read_once(app):
    """WTForms' messages read the reader's language; the catalogue is read once per process
    and language, not once per request (companion/i18n.py: share_wtforms_catalogue)."""
    from flask_wtf.i18n import translations

    from companion.i18n import wtforms_catalogue

    for lang, required in (("ru", "Обязательное поле."), ("ja", "このフィールドは必須です。")):
        for _ in range(2):
            with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
                app.preprocess_request()
                assert translations.gettext("This field is required.") == required
    assert wtforms_catalogue("ru") is wtforms_catalogue("ru")


def test_a_kept_template_text_follows_the_readers_language(app):
    """_() keeps each text without parameters per catalogue (i18n.template_gettext): a
    process that serves three languages still gives each reader its own."""
    from flask import render_template_string

    from companion.i18n import LANG_COOKIE

    seen: dict[str, set] = {}
    for lang in ("en", "ja", "ru", "en", "ja", "ru"):
        with app.test_request_context("/", headers={"Cookie": f"{LANG_COOKIE}={lang}"}):
            app.preprocess_request()
            text = render_template_string('{{ _("History") }} {{ _("100%% sure") }}')
            seen.setdefault(lang, set()).add(text)
    assert all(len(texts) == 1 for texts in seen.values()), seen
    assert seen["en"] == {"History 100% sure"}  # a text is a format string: "%%" is "%"
    assert len({texts.pop() for texts in seen.values()}) == 3
