"""Kahuna in Japanese and Russian: the game's own count messages take the right plural form (Russian
1, 2, 5, 21, 22; Japanese with its counter), history rows stored before the plurals still read in
both languages, the term list (docs/terms/kahuna.md) is what the pages say, and the pages put
Japanese punctuation between Japanese words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion import i18n as app_i18n
from companion.games.base import Msg, RuleError
from companion.games.kahuna import rules as k
from tests.helpers import TableDriver, live_region, visible

TERMS = Path(__file__).resolve().parents[2] / "docs" / "terms" / "kahuna.md"
RU_NAMES = ["Анна", "Борис"]
JA_NAMES = ["アンナ", "ベン"]


def render(app, lang: str, msg: Msg | dict, names: list[str]) -> str:
    """A message as the Kahuna pages show it in `lang`, after a trip through stored JSON."""
    stored = msg if isinstance(msg, dict) else msg.to_json()
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        app_i18n.use_part("kahuna")
        return app_i18n.render_msg(Msg.from_json(stored), names)


def discard_line(count: int) -> Msg:
    """The history line describe() writes when White discards `count` cards face down."""
    state = k.new({}, 2)
    return k.describe(state, {"type": "discard", "seat": 0, "count": count}, state)[0]


def started() -> dict:
    """A new game with its three face-up cards entered: White to play."""
    state = k.new({}, 2)
    for island in ("Coco", "Gola", "Lale"):
        state = k.apply(state, {"type": "reveal", "seat": None, "host": False, "island": island})
    return state


# --- plural forms ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "count,russian",
    [
        (1, "Анна сбрасывает 1 карту рубашкой вверх."),
        (2, "Анна сбрасывает 2 карты рубашкой вверх."),
        (5, "Анна сбрасывает 5 карт рубашкой вверх."),
        (21, "Анна сбрасывает 21 карту рубашкой вверх."),
        (22, "Анна сбрасывает 22 карты рубашкой вверх."),
    ],
)
def test_a_history_count_takes_the_russian_form_of_its_number(app, count, russian):
    line = discard_line(count)
    assert line.plural is not None  # a plural message, stored with its forms
    assert render(app, "ru", line, RU_NAMES) == russian
    assert render(app, "ja", line, JA_NAMES) == f"アンナがカードを{count}枚伏せて捨てました。"
    english = "card" if count == 1 else "cards"
    assert (
        render(app, "en", line, ["Anna", "Ben"]) == f"Anna discarded {count} {english} face down."
    )


def test_a_refusal_with_a_count_keeps_its_plural_forms(app):
    """RuleError.of would rebuild a plain message; the refusals with a count keep their forms."""
    state = started()
    state["hands"][0] = 1
    state["bridges"] = {"Aloa-Bari": "black"}
    with pytest.raises(RuleError) as refused:
        k.apply(
            state,
            {
                "type": "remove",
                "seat": 0,
                "host": False,
                "site": "Aloa-Bari",
                "cards": ["Aloa"] * 2,
            },
        )
    assert refused.value.rule == "card-count"
    msg = refused.value.msg
    # The refusal is shown to the player who tried (or the host acting for them): "you".
    assert str(msg) == "You hold only 1 card; this move needs 2."
    assert render(app, "ru", msg, RU_NAMES) == (
        "У вас в руке только 1 карта, а для этого хода нужно 2."
    )
    assert render(app, "ja", msg, JA_NAMES) == "手札は1枚しかありません。この行動には2枚必要です。"


def test_the_stone_limit_counts_in_russian_instrumental(app):
    """«отметить 10 камнями»: the number is the data file's, the form follows it."""
    from companion.games.kahuna.bridges import place

    # White builds until it holds 10 islands; then some free site would take an 11th.
    board: dict = {}
    for site in k.SITES:
        if sum(1 for c in k.control({**board, site: "white"}).values() if c == "white") <= 10:
            board[site] = "white"
    assert sum(1 for c in k.control(board).values() if c == "white") == 10
    free = next(
        s
        for s in k.SITES
        if s not in board
        and sum(1 for c in k.control({**board, s: "white"}).values() if c == "white") > 10
    )
    with pytest.raises(RuleError) as refused:
        place(board, free, "white")
    msg = refused.value.msg
    assert refused.value.rule == "stone-supply" and msg.plural is not None
    assert render(app, "ru", msg, RU_NAMES) == (
        "С этим мостом у белых было бы больше островов, чем можно отметить 10 камнями Кахуны."
    )
    assert "カフナストーン10個" in render(app, "ja", msg, JA_NAMES)


def test_history_rows_stored_before_the_plurals_still_read_in_every_language(app):
    old_discard = {
        "id": "%(seat)s discarded face down: %(count)s cards",
        "p": {"seat": {"seat": 0}, "count": 2},
    }
    old_points = {"id": "Points: %(seat)s +%(points)s", "p": {"seat": {"seat": 1}, "points": 2}}
    old_join = {
        "id": "%(seat)s took %(island)s: %(colour)s bridges %(sites)s destroyed",
        "p": {
            "seat": {"seat": 0},
            "island": "Elai",
            "colour": {"msg": {"id": "black", "p": {}}},
            "sites": {
                "msg": {
                    "id": "%(first)s and %(last)s",
                    "p": {"first": "Elai-Faaa, Elai-Jojo", "last": "Iffi-Jojo"},
                }
            },
        },
    }
    assert render(app, "ru", old_discard, RU_NAMES) == "Анна сбрасывает карты рубашкой вверх: 2"
    assert render(app, "ja", old_discard, JA_NAMES) == "アンナがカードを2枚伏せて捨てました。"
    assert render(app, "ru", old_points, RU_NAMES) == "Очки: Борис +2"
    assert render(app, "ja", old_points, JA_NAMES) == "ベンが2ポイントを獲得しました。"
    assert render(app, "ru", old_join, RU_NAMES) == (
        "Анна захватывает остров Elai и разрушает мосты чёрных на местах "
        "Elai-Faaa, Elai-Jojo и Iffi-Jojo"
    )
    assert render(app, "en", old_discard, ["Anna", "Ben"]) == "Anna discarded face down: 2 cards"


def test_history_lines_end_with_a_full_stop_and_name_sites_with_a_dash(app):
    """Kahuna's history lines are sentences with a full stop, like the other games' lines, and
    name a site as the board does ("Aloa–Bari"). The lines of before keep their msgids
    (EARLIER_LINES): a stored row still reads in Japanese and Russian."""
    import random

    from companion.games.kahuna.history import EARLIER_LINES, EARLIER_PLURAL_LINES
    from companion.games.kahuna.random_play import next_action

    rng, state, seen = random.Random(7), k.new({}, 2), {}
    while not state["over"]:
        action = next_action(state, rng)
        try:
            after = k.apply(state, action)
        except RuleError:
            continue
        for line in k.describe(state, action, after):
            seen[line.msgid] = line
        state = after
    assert len(seen) >= 10
    assert [m for m in seen if not m.endswith(".")] == []
    sites = [str(m) for m in seen.values() if "site" in m.params or "sites" in m.params]
    assert sites and all("–" in text and not re.search(r"[a-z]-[A-Z]", text) for text in sites)
    for old in (*EARLIER_LINES, *(m.msgid for m in EARLIER_PLURAL_LINES)):
        # Lines of before the full stop, or (the end of the game) before the plural messages.
        assert not old.endswith(".") or old.startswith("Game over:")
        row = {"id": old, "p": {"seat": {"seat": 0}, "island": "Aloa", "site": "Aloa-Bari"}}
        row["p"] |= {n: 2 for n in re.findall(r"%\((\w+)\)s", old) if n not in row["p"]}
        english = render(app, "en", row, ["Anna", "Ben"])
        for lang, names in (("ja", JA_NAMES), ("ru", RU_NAMES)):
            assert render(app, lang, row, names) != english, (lang, old)


def test_lists_of_islands_use_the_languages_own_commas(app):
    state = started()
    with pytest.raises(RuleError) as refused:
        k.apply(
            state, {"type": "draw", "seat": 0, "host": False, "source": "display", "island": "Aloa"}
        )
    msg = refused.value.msg
    assert str(msg) == "Aloa is not face up; the face-up cards are Coco, Gola, Lale."
    assert render(app, "ja", msg, JA_NAMES).endswith("公開されているカードはCoco、Gola、Laleです。")
    assert (
        render(app, "ru", msg, RU_NAMES)
        == "Карты Aloa нет среди открытых; открыты: Coco, Gola, Lale."
    )


# --- the pages ------------------------------------------------------------------------------------


def table_in(app, lang: str, names=("", "")) -> TableDriver:
    """A Kahuna table started from a phone set to `lang` (seat labels come in that language), its
    face-up cards entered; every device reads `lang`."""

    class Client(FlaskClient):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.set_cookie("lang", lang)

    app.test_client_class = Client
    table = TableDriver(app, "kahuna", names)
    for island in ("Coco", "Gola", "Lale"):
        table.act(0, "reveal", island=island)
    return table


def pages(app, lang: str) -> dict[str, str]:
    """The visible text of the game's pages in `lang`: rules, checker, and the table in a few
    phases (White's turn with the card question open, a capture, the start of round 2)."""
    client = app.test_client()
    client.set_cookie("lang", lang)
    out = {
        "rules": visible(client.get("/rules/kahuna").text),
        "checker": visible(
            client.get("/tools/kahuna/?white=Aloa-Bari,Aloa-Duda&black=Elai-Huna").text
        ),
    }
    table = table_in(app, lang)
    out["turn"] = visible(live_region(table.page(0, "?site=Iffi-Lale")))
    for site, card in [("Elai-Huna", "Elai"), ("Duda-Elai", "Duda")]:
        table.act(0, "place", site=site, card=card)
    table.act(0, "draw", source="deck")
    table.act(1, "place", site="Elai-Faaa", card="Faaa")
    table.act(1, "end_turn")
    table.act(0, "place", site="Bari-Elai", card="Bari")
    table.act(0, "place", site="Elai-Iffi", card="Iffi")  # White takes Elai: Elai-Faaa goes
    out["capture"] = visible(live_region(table.page(1, "?site=Bari-Elai")))
    return out


def term_cells(column: int) -> str:
    """One column of the term list's table (1 = 日本語, 2 = Русский), all rows joined."""
    rows: list[str] = []
    for line in TERMS.read_text(encoding="utf-8").splitlines():
        if line.startswith("|"):
            if line.startswith("| "):  # not the |---| line under the heading
                rows.append(line)
        elif rows:
            break  # the term list is the page's first table (the search's word lists follow)
    return " | ".join(row.split(" | ")[column] for row in rows[1:])


JA_TERMS = {
    "rules": [
        "予定地",
        "支配権",
        "カフナストーン",
        "山札",
        "公開されているカード",
        "捨て山",
        "手番",
        "補充",
        "伏せて捨てる",
        "破壊",
        "取り除",
        "過半数",
        "ラウンド",
        "ポイント",
        "得点計算",
        "同点",
        "引き分け",
        "アラバナ",
    ],
    "checker": ["予定地", "白の橋", "黒の橋", "カフナストーン", "支配"],
    "turn": [
        "予定地",
        "山札",
        "手番",
        "補充",
        "伏せて捨てる",
        "公開されているカード",
        "橋をかける",
    ],
    "capture": ["支配権を獲得", "破壊", "白の橋"],
}
RU_TERMS = {
    "rules": [
        "остров",
        "мост",
        "мест для мостов",
        "камн",
        "Кахуны",
        "колод",
        "открыт",
        "сброс",
        "рубашкой вверх",
        "добор",
        "раунд",
        "очк",
        "контрол",
        "захват",
        "разруш",
        "ничья",
        "соперник",
        "ведущ",
        "«Арабана»",
    ],
    "checker": ["мост белых", "мост чёрных", "камни Кахуны", "под контролем"],
    "turn": [
        "Место для моста",
        "В колоде 15 карт",
        "Открыты: Coco, Gola, Lale",
        "добор",
        "рубашкой вверх",
        "Ваш ход",
    ],
    "capture": ["Белый захватывает остров Elai", "разрушает мост чёрных", "мост белых"],
}


def test_the_term_list_names_the_words_the_pages_use(app):
    ja_doc, ru_doc = term_cells(1), term_cells(2).lower()
    for word in {w for words in JA_TERMS.values() for w in words} - {"白の橋", "黒の橋"}:
        stem = word.rstrip("るすをしたけ")
        assert stem in ja_doc, f"{word} is not in docs/terms/kahuna.md"
    for word in (
        "остров",
        "мост",
        "место для моста",
        "камень кахуны",
        "колода",
        "открытые карты",
        "сброс",
        "рубашкой вверх",
        "добор",
        "раунд",
        "очко",
        "контроль",
        "захватить",
        "разрушить",
        "ничья",
        "соперник",
        "ведущий",
        "«арабана»",
        "белый",
        "чёрный",
    ):
        assert word in ru_doc, f"{word} is not in docs/terms/kahuna.md"


@pytest.mark.parametrize("lang,terms", [("ja", JA_TERMS), ("ru", RU_TERMS)])
def test_the_pages_say_the_terms_of_the_term_list(app, lang, terms):
    shown = pages(app, lang)
    for page, words in terms.items():
        for word in words:
            assert word.lower() in shown[page].lower(), (lang, page, word)


JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]"
ASCII_BETWEEN = re.compile(rf"{JAPANESE}\s*[:?!()]|[:?!(]\s*{JAPANESE}|{JAPANESE}\.\s")


def test_japanese_pages_join_japanese_words_with_japanese_punctuation(app):
    """What the templates join (lists, a site's state, scoring lines) reads as Japanese too."""
    for page, text in pages(app, "ja").items():
        found = ASCII_BETWEEN.findall(text)
        assert not found, (page, found, text[:300])
        assert "Why?" not in text and "Bridge site" not in text, page
