"""Serengeti / Don in Japanese and Russian: counts agree in each language, history rows stored
before the plural messages still read translated, and the pages use the terms of
docs/terms/serengeti.md."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from companion.games.base import Msg
from companion.games.serengeti import legacy
from companion.games.serengeti import rules as rules
from tests.helpers import visible

NAMES = ("Anna", "Ben", "Chris")


def _render(app, lang: str, msg: Msg) -> str:
    """A message as a table page in this language shows it, after the JSON round trip that the
    history's rows go through."""
    from companion.i18n import render_msg, use_part

    stored = Msg.from_json(json.loads(json.dumps(msg.to_json())))
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        use_part("serengeti")
        return render_msg(stored, list(NAMES))


def _line(event: dict) -> Msg:
    """The history line the game writes for one recorded event."""
    (line,) = rules.describe({}, {}, {"variant": "abacus", "events": [event]})
    return line


def _bonus_line(bonus: int) -> Msg:
    return _line({"e": "pass", "seat": 1, "due": False, "bonus": bonus})


def _lot_line(size: int) -> Msg:
    return _line({"e": "round", "round": 4, "size": size, "start": 0})


@pytest.mark.parametrize(
    "count, chips, lot",
    [
        (1, "1 фишку", "из 1 карты"),
        (2, "2 фишки", "из 2 карт"),
        (5, "5 фишек", "из 5 карт"),
        (21, "21 фишку", "из 21 карты"),
        (22, "22 фишки", "из 22 карт"),
    ],
)
def test_a_russian_count_in_the_history_takes_the_form_its_number_needs(app, count, chips, lot):
    assert _render(app, "ru", _bonus_line(count)) == (f"Ben сразу пасует и берёт из банка {chips}.")
    assert _render(app, "ru", _lot_line(count)) == f"Раунд 4: лот {lot}; начинает Anna."


@pytest.mark.parametrize("count", [1, 2, 5, 21, 22])
def test_a_japanese_count_in_the_history_has_its_counter(app, count):
    assert _render(app, "ja", _bonus_line(count)) == (
        f"Benは即座にパスし、銀行からチップ{count}枚を受け取りました。"
    )
    assert _render(app, "ja", _lot_line(count)) == (
        f"ラウンド4：カード{count}枚を競りにかけます。Annaから始めます。"
    )


def test_english_counts_stay_english(app):
    assert (
        _render(app, "en", _bonus_line(1)) == "Ben passes at once and takes 1 chip from the bank."
    )
    assert (
        _render(app, "en", _bonus_line(2)) == "Ben passes at once and takes 2 chips from the bank."
    )
    assert _render(app, "en", _lot_line(1)) == "Round 4: a lot of 1 card; Anna starts."


def test_a_short_bank_is_said_with_the_right_form_too(app):
    short = _line({"e": "pass", "seat": 2, "due": True, "bonus": 1})
    assert _render(app, "ru", short).endswith("бонус — 1 фишка.")
    assert "受け取ったのは1枚です。" in _render(app, "ja", short)
    empty = _line({"e": "pass", "seat": 2, "due": True, "bonus": 0})  # no "only 0 chips"
    assert (
        _render(app, "en", empty)
        == "Chris passes at once, but the bank is empty: no chips to take."
    )
    assert _render(app, "ru", empty) == "Chris сразу пасует, но банк пуст: бонуса нет."
    assert "0" not in _render(app, "ja", empty)


@pytest.mark.parametrize("msgid", legacy.STORED_BEFORE_PLURALS)
def test_history_rows_stored_before_the_plurals_still_read_translated(app, msgid):
    """A row of the previous release keeps its old msgid ({"id", "p"} only): it must still come
    from the catalogue in Japanese and Russian, not fall back to English."""
    params = {"seat": {"seat": 0}, "bonus": 2, "round": 4, "size": 2}
    wanted = set(re.findall(r"%\((\w+)\)s", msgid))
    row = {"id": msgid, "p": {k: v for k, v in params.items() if k in wanted}}
    english = _render(app, "en", Msg.from_json(row))
    for lang in ("ja", "ru"):
        text = _render(app, lang, Msg.from_json(row))
        assert text != english and "Anna" in text and "2" in text


def _play_to_round_four(g):
    """Round 1: Nuba 3, Anna passes (+2), Ben bids 1, Chris passes (+2); round 2: Tonga 3,
    Bantu 5, Ben passes, Chris bids 1, Anna passes; round 3: Massai 0, Nandi 1, Samburu 2,
    Chris passes, Anna bids 13, Ben passes: Anna pays 13, Ben and Chris 6 each, 1 to the bank."""
    for spec, moves in (
        (["nuba3"], [("Anna", "pass"), ("Ben", "bid", "1"), ("Chris", "pass")]),
        (["tonga3", "bantu5"], [("Ben", "pass"), ("Chris", "bid", "1"), ("Anna", "pass")]),
        (
            ["massai0", "nandi1", "samburu2"],
            [("Chris", "pass"), ("Anna", "bid", "13"), ("Ben", "pass")],
        ),
    ):
        for c in spec:
            g.act("host", "card", tribe=c[:-1], digit=c[-1])
        for who, kind, *amount in moves:
            g.act(who, kind, **({"amount": amount[0]} if amount else {}))


# The terms of docs/terms/serengeti.md each page must use (a few key words each).
TERMS = {
    "ja": {
        "rules": [
            "セレンゲティ",
            "スタートプレイヤー",
            "競り勝ったプレイヤー",
            "入札額",
            "銀行",
            "ポット",
            "ヌバ族",
            "サンブル族",
            "1の位",
            "罰金",
            "同率",
            "ポイント",
            "競売",
            "ホスト",
        ],
        "table": [
            "手番",
            "最高入札額",
            "スタートプレイヤー",
            "銀行",
            "山札の残り",
            "チップ",
            "パス",
        ],
        "history": ["チップ13枚を支払いました", "13で競り勝ちました", "即座にパスし"],
    },
    "ru": {
        "rules": [
            "Серенгети",
            "первый игрок",
            "победитель торгов",
            "ставк",
            "банк",
            "котёл",
            "нуба",
            "самбуру",
            "последняя цифра",
            "штраф",
            "ведущий",
            "очк",
            "продаж",
        ],
        "table": ["Ход", "Высшая ставка", "Первый игрок", "Банк", "Карт в колоде", "Пасовать"],
        "history": ["Anna платит 13: Ben — 6, Chris — 6, 1 в банк", "выигрывает торги"],
    },
}


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_the_rules_page_uses_the_term_list(client, lang):
    client.set_cookie("lang", lang)
    text = visible(client.get("/rules/serengeti").text)
    missing = [term for term in TERMS[lang]["rules"] if term not in text]
    assert missing == []
    assert "хозя" not in text.lower()


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_the_table_page_uses_the_term_list(make_table, lang):
    g = make_table("serengeti", NAMES)
    _play_to_round_four(g)
    g.act("host", "card", tribe="tonga", digit="4")
    g.device("Anna").set_cookie("lang", lang)
    text = visible(g.page("Anna"))  # Anna starts round 4: her keypad is open
    missing = [t for t in TERMS[lang]["table"] + TERMS[lang]["history"] if t not in text]
    assert missing == []


JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _GameParts(HTMLParser):
    """The text of the game's own elements (class sg-…): what this package's templates write,
    not the core's page around them."""

    def __init__(self):
        super().__init__()
        self.depth = 0  # > 0 inside a game element: its nesting depth
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        if self.depth:
            self.depth += 1
        elif any(c.startswith("sg-") for c in classes):
            self.depth = 1
            self.parts.append("")

    def handle_endtag(self, tag):
        if self.depth and tag not in VOID:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.parts[-1] += data


def _game_text(page: str) -> list[str]:
    parser = _GameParts()
    parser.feed(page)
    return [" ".join(part.split()) for part in parser.parts]


def test_japanese_pages_join_no_japanese_words_with_ascii_punctuation(make_table, client):
    """What the templates put between translated words ("Chips: 18", "Italy, white", a name and
    its points) is part of a translated message, so Japanese pages show 「：」「、」「（）」."""
    g = make_table("serengeti", NAMES)
    _play_to_round_four(g)
    g.act("host", "card", tribe="tonga", digit="4")
    g.post("Anna", "bid", amount="20")  # Anna owns a 0: refused and fined
    assert g.state()["penalties"]
    for device in ("host", "Anna", "Ben"):
        g.device(device).set_cookie("lang", "ja")
    client.set_cookie("lang", "ja")
    pages = [g.page("host"), g.page("Anna"), g.page("Ben")]
    pages.append(client.get("/rules/serengeti").text)
    pages.append(
        client.get("/tools/serengeti/?players=3&bid=13&winner=0&digits_1=3&digits_2=3").text
    )
    bad = re.compile(rf"{JAPANESE}\s*[:?!(),]|[:?!(,]\s*{JAPANESE}")
    for page in pages:
        parts = _game_text(page)
        assert parts and any(re.search(JAPANESE, part) for part in parts)
        assert [part for part in parts if bad.search(part)] == []


def test_the_end_screen_ranks_in_each_language(make_table):
    g = make_table("serengeti", NAMES)
    state = rules.new({"variant": "abacus"}, 3)
    state["cards"] = [
        [{"tribe": "nuba", "digit": 1}, {"tribe": "nuba", "digit": 2}],
        [{"tribe": "massai", "digit": 1}],
        [],
    ]
    state["chips"], state["bank"] = [6, 5, 20], 34
    state.update(phase="over", round=15)
    g.set_state(state)
    g.device("Ben").set_cookie("lang", "ru")
    ru = visible(g.page("Ben"))
    assert "Anna — 3 очка" in ru and "Ben — 1 очко" in ru and "Chris — 3 очка" in ru
    assert "получает ещё 3 очка" in ru
    g.device("Ben").set_cookie("lang", "ja")
    page = g.page("Ben")
    assert re.search(r"<li value=\"\d\"><strong>Anna</strong>：3ポイント", page)
