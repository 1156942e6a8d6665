"""Africana in Japanese and Russian: counts take the form their number needs, history rows of
earlier releases still read in each language, lists and joins follow the language, and the
pages speak the words of the term list (docs/terms/africana.md)."""

from __future__ import annotations

import re

import pytest

from companion import i18n
from companion.games.africana import rules as af
from companion.games.africana.history import EARLIER_LINES
from companion.games.africana.views import payment_arithmetic
from companion.games.base import Msg, Plural, RuleError, Seat
from tests.africana.helpers import choose, sheet_data
from tests.helpers import alert_text, visible

NAMES = ["Анна", "Бен", "Крис"]
JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]"
ASCII_BETWEEN_JAPANESE = re.compile(rf"{JAPANESE}\s*[:?!(),]|[:?!(,]\s*{JAPANESE}")


def render(app, lang: str, msg: Msg, names=NAMES) -> str:
    """A message as Africana's pages show it in this language (stored and read back first, as
    the history does)."""
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        i18n.use_part("africana")
        return i18n.render_msg(Msg.from_json(msg.to_json()), names)


def history_line(action: dict, coins: int) -> Msg:
    """The last history line of an action by seat 0 (Italy) holding `coins` silver."""
    state = af.new({}, 3)
    state["seats"][0]["coins"] = coins
    after = af.apply(state, {"seat": 0, "host": False, **action})
    return af.describe(state, {"seat": 0, "host": False, **action}, after)[-1]


@pytest.mark.parametrize(
    "n, russian",
    [
        (1, "Анна покупает 1 карту приключения за 5 серебряных (осталась 1 серебряная)."),
        (2, "Анна покупает 2 карты приключений за 10 серебряных (остались 2 серебряные)."),
        (5, "Анна покупает 5 карт приключений за 25 серебряных (осталось 5 серебряных)."),
        (21, "Анна покупает 21 карту приключения за 105 серебряных (осталась 21 серебряная)."),
        (22, "Анна покупает 22 карты приключений за 110 серебряных (остались 22 серебряные)."),
    ],
)
def test_a_purchase_reads_with_the_form_each_count_needs(app, n, russian):
    # n cards cost 5n and leave n silver: both counts go through 1, 2, 5, 21 and 22.
    line = history_line({"type": "buy_adventure", "cards": n}, coins=6 * n)
    assert render(app, "ru", line) == russian
    assert render(app, "ja", line, ["アンナ"]) == (
        f"アンナが冒険カード{n}枚を銀貨{5 * n}枚で購入しました（残り銀貨{n}枚）。"
    )
    cards = "adventure card" if n == 1 else "adventure cards"
    assert render(app, "en", line, ["Anna"]) == (
        f"Anna bought {n} {cards} for {5 * n} silver ({n} silver left)."
    )


def test_a_price_of_one_silver_takes_the_accusative(app):
    # Two pages cost 1 silver (the first is free): «за 1 серебряную», not «за 1 серебряная».
    line = history_line({"type": "turn_pages", "pages": 2}, coins=2)
    assert render(app, "ru", line) == (
        "Анна перелистывает 2 страницы за 1 серебряную (осталась 1 серебряная)."
    )
    assert (
        render(app, "ja", line, ["アンナ"])
        == "アンナが本を2ページ銀貨1枚でめくりました（残り銀貨1枚）。"
    )


def test_a_free_first_page_reads_free_not_a_price_of_nothing(app):
    """The first page of a turn costs nothing: "for free", 無料で, бесплатно (not "for 0
    silver"); a row stored with the price of 0 still reads as it did."""
    line = history_line({"type": "turn_pages", "pages": 1}, coins=3)
    assert render(app, "en", line, ["Anna"]) == "Anna turned 1 page for free (3 silver left)."
    assert (
        render(app, "ja", line, ["アンナ"])
        == "アンナが本を1ページ無料でめくりました（残り銀貨3枚）。"
    )
    assert render(app, "ru", line) == (
        "Анна перелистывает 1 страницу бесплатно (остались 3 серебряные)."
    )
    stored = line.to_json()  # a row written before "for free": the price phrase with 0
    old_price = Plural("for %(num)s silver", "for %(num)s silver", "num", num=0)
    stored["p"]["cost"] = {"msg": old_price.to_json()}
    assert render(app, "ru", Msg.from_json(stored)) == (
        "Анна перелистывает 1 страницу за 0 серебряных (остались 3 серебряные)."
    )


@pytest.mark.parametrize(
    "n, russian",
    [
        (4, "У вас 4 незавершённых приключения, а в конце хода их может"),
        (5, "У вас 5 незавершённых приключений, а в конце хода их может"),
        (21, "У вас 21 незавершённое приключение, а в конце хода их может"),
    ],
)
def test_a_refusal_keeps_its_plural_form(app, n, russian):
    state = af.new({}, 3)
    state["seats"][0]["adventures_open"] = n
    state["turn"]["action"] = "draw"
    with pytest.raises(RuleError) as err:
        af.apply(state, {"type": "end_turn", "seat": 0, "host": False, "discarded_adventures": 0})
    assert err.value.rule == "adventure-limit"
    assert render(app, "ru", err.value.msg).startswith(russian)
    assert f"未達成の冒険カードが{n}枚あります" in render(app, "ja", err.value.msg)


def test_the_hosts_correction_says_how_much_and_the_balance(app):
    state = af.new({}, 3)
    action = {"type": "correct_coins", "seat": 2, "host": True, "amount": 20}
    after = af.apply(state, action)
    (line,) = af.describe(state, action, after)
    assert (
        str(line) == "The host added 20 silver to the coins of Player 3; they now have 23 silver."
    )
    assert render(app, "ru", line) == (
        "Ведущий добавляет 20 серебряных на счёт игрока Крис; теперь на счёте 23 серебряные."
    )
    action = {"type": "correct_coins", "seat": 2, "host": True, "amount": -2}
    back = af.apply(after, action)
    (line,) = af.describe(after, action, back)
    assert (
        str(line) == "The host took 2 silver from the coins of Player 3; they now have 21 silver."
    )
    assert render(app, "ja", line, ["A", "B", "クリス"]) == (
        "ホストがクリスのお金から銀貨2枚を減らしました。所持金は銀貨21枚になりました。"
    )


def test_history_rows_of_earlier_releases_still_read_in_each_language(app):
    for msgid in EARLIER_LINES:
        params = {
            name: Seat(0) if name == "seat" else "+5" if name == "amount" else 3
            for name in re.findall(r"%\((\w+)\)s", msgid)
        }
        row = {
            "id": msgid,
            "p": {k: ({"seat": 0} if k == "seat" else v) for k, v in params.items()},
        }
        english = render(app, "en", Msg.from_json(row), ["Anna"])
        assert english == msgid % {**params, "seat": "Anna"}
        for lang in ("ja", "ru"):
            text = render(app, lang, Msg.from_json(row), ["Anna"])
            assert text != english and "%(" not in text, (lang, text)
            assert "Anna" in text or "seat" not in params, (lang, text)


def test_lists_are_joined_as_each_language_joins_them(app):
    state = af.new({}, 3)
    with pytest.raises(RuleError) as err:
        af.apply(state, {"type": "complete_artifact", "seat": 0, "host": False, "kind": "Z"})
    assert str(err.value) == "Choose one of the five artifact kinds: A, B, C, D and E."
    assert (
        render(app, "ja", err.value.msg) == "文化遺物の種類はA、B、C、D、Eの5つから選んでください。"
    )
    assert render(app, "ru", err.value.msg) == (
        "Выберите один из пяти видов артефактов: A, B, C, D и E."
    )


def test_a_negative_total_takes_the_form_of_its_number(client):
    # 4 expedition points and 2 completed guide adventures (-5): a total of -1.
    client.set_cookie("lang", "ru")
    page = client.get("/tools/africana/?players=2").text
    data = {"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)}
    data.update(players=2, **sheet_data(expeditions=[4], guides=2, prefix="p0-"))
    data.update(sheet_data(expeditions=[1], prefix="p1-"))
    text = visible(client.post("/tools/africana/", data=data).text)
    assert "-1 очко" in text and "-1 очков" not in text
    # Nobody tied: the line under the ranking says how places go, not «Ничья:».
    assert "Порядок мест: Побеждает игрок с наибольшей суммой очков." in text
    assert "Ничья" not in text


TERMS = {
    # Words of docs/terms/africana.md each page must show (rule texts' words).
    ("ja", "rules"): [
        "冒険カード",
        "探検カード",
        "案内人カード",
        "移動カード",
        "文化遺物",
        "コレクション",
        "参加ボーナス",
        "探検家駒",
        "会社カード",
        "会社マーカー",
        "スタートプレイヤー",
        "探検スペース",
        "初期資金",
        "開始地点",
        "銀貨",
        "勝利点",
        "手番",
        "ラウンド",
    ],
    ("ru", "rules"): [
        "карты приключений",
        "колоды экспедиций",
        "карты проводника",
        "карты движения",
        "сопутствующая награда",
        "исходный регион",
        "стартовый капитал",
        "первого игрока",
        "исследовател",
        "маркер компании",
        "под картой компании",
        "наборы",
        "с артефактом",
        "с проводником",
        "серебряных",
        "ведущий",
    ],
    ("ja", "table"): [
        "探検に参加する",
        "参加ボーナス",
        "探検を完了する",
        "文化遺物の冒険を完了する",
        "カードの色を変更する",
        "探検スペース",
        "初期資金",
        "開始地点",
        "探検カードの山札",
        "銀貨",
    ],
    ("ru", "table"): [
        "Присоединиться к экспедиции",
        "Сопутствующая награда",
        "Завершить экспедицию",
        "Завершить приключение с артефактом",
        "Изменить цвет карт",
        "Ряд экспедиций",
        "Стартовый капитал",
        "Исходный регион",
        "В колоде экспедиций",
        "серебряны",
    ],
}


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_the_pages_speak_the_term_lists_words(make_table, lang):
    t = make_table("africana")
    for phone in [t.host, *t.phones]:
        phone.set_cookie("lang", lang)
    choose(t, 0, "move")
    pages = {
        "rules": visible(t.host.get("/rules/africana").text),
        "table": visible(t.page(0)),
    }
    for page, words in ((page, TERMS[(lang, page)]) for page in pages):
        text = pages[page]
        missing = [word for word in words if word not in text]
        assert missing == [], (lang, page, missing)
        for english in ("Expedition", "silver", "Join bonus", "Start region"):
            assert english not in text, (lang, page, english)
        if lang == "ja":
            assert not ASCII_BETWEEN_JAPANESE.search(text), ASCII_BETWEEN_JAPANESE.search(text)
        else:
            assert "хозя" not in text.lower()


def test_a_refusal_on_the_table_page_reads_in_russian(make_table):
    t = make_table("africana")
    t.device(0).set_cookie("lang", "ru")
    choose(t, 0, "buy")
    response = t.post(0, "buy_adventure", cards=3)
    assert alert_text(response.text).startswith(
        "Карта приключения стоит 5 серебряных: 3 карты — это 15 серебряных, а у вас "
        "2 серебряные (хватит на 0)."
    )


@pytest.mark.parametrize(
    ("cards", "russian", "japanese"),
    [
        (1, "1 карта приключения по 5 серебряных: 5 серебряных.", "冒険カード1枚"),
        (2, "2 карты приключений по 5 серебряных: 10 серебряных.", "冒険カード2枚"),
        (5, "5 карт приключений по 5 серебряных: 25 серебряных.", "冒険カード5枚"),
    ],
)
def test_a_payments_sum_agrees_with_its_count(app, cards, russian, japanese):
    line = {"what": "buy_adventure", "count": cards, "amount": -5 * cards}
    assert render(app, "ru", payment_arithmetic(line)) == russian
    ja = render(app, "ja", payment_arithmetic(line))
    assert ja.startswith(japanese) and ja.endswith("。")
    assert not ASCII_BETWEEN_JAPANESE.search(ja)
