"""From Cape to Cairo in Japanese and Russian: counted messages take the right form for every
number, the pages use the words of the term list (docs/terms/cape_to_cairo.md), history rows
stored before the plural forms still read in the reader's language, and no Japanese page joins
Japanese words with ASCII punctuation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import i18n as app_i18n
from companion.games.base import N_, Msg, RuleError, Seat
from companion.games.cape_to_cairo import history
from companion.games.cape_to_cairo import rules as g
from companion.games.cape_to_cairo.facts import pounds, terrain_name
from tests.helpers import TableDriver, visible

ROOT = Path(__file__).resolve().parents[2]
TERMS = ROOT / "docs" / "terms" / "cape_to_cairo.md"
CATALOGUE = ROOT / "companion" / "games" / "cape_to_cairo" / "translations"
NAMES = ("Anna", "Ben", "Chris")


def render(app, lang: str, msg: Msg, names=NAMES) -> str:
    """A message stored as the history stores it, read back on the game's page in `lang`."""
    with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
        app_i18n.use_part("cape_to_cairo")
        return app_i18n.render_msg(Msg.from_json(msg.to_json()), list(names))


def bid_line(amount: int) -> Msg:
    """The history line that reveals Anna's bid of `amount` (Ben bids 0)."""
    state = g.new({}, 2)
    for terrain in ("river", "desert"):
        state = g.apply(
            state, {"type": "card", "seat": None, "terrain": terrain, "marks": 1, "income": 3}
        )
    state = g.apply(state, {"type": "bid", "seat": 1, "amount": 0})
    action = {"type": "bid", "seat": 0, "amount": amount}
    after = g.apply(state, action)
    lines = g.describe(state, action, after)
    return next(m for m in lines if m.params.get("seat") == Seat(0) and "bid" in m.params)


def bid_refusal(money: int) -> RuleError:
    """The calculator's refusal of a bid above the money held."""
    with pytest.raises(RuleError) as refused:
        g.acquisition_order({"a": money + 10, "b": 0}, {"a": money, "b": 5})
    return refused.value


RUSSIAN_POUNDS = {1: "фунт", 2: "фунта", 5: "фунтов", 21: "фунт", 22: "фунта"}


@pytest.mark.parametrize("n", sorted(RUSSIAN_POUNDS))
def test_a_revealed_bid_counts_its_pounds_in_russian_and_japanese(app, n):
    line = bid_line(n)
    assert render(app, "en", line).startswith(f"Anna bid {n} pound" + ("" if n == 1 else "s"))
    russian = render(app, "ru", line)
    assert russian == f"Anna ставит {n} {RUSSIAN_POUNDS[n]}, остаток: {100 - n}."
    assert render(app, "ja", line) == f"Annaの入札額は{n}ポンド、残金は{100 - n}ポンドです。"


@pytest.mark.parametrize("n", sorted(RUSSIAN_POUNDS))
def test_a_refused_bid_counts_the_money_held(app, n):
    refusal = bid_refusal(n)
    assert refusal.rule == "bid-range"
    russian = render(app, "ru", refusal.msg)
    assert russian.endswith(f"до суммы ваших денег ({n} {RUSSIAN_POUNDS[n]}).")
    assert f"（{n}ポンド）" in render(app, "ja", refusal.msg)


# --- money: one form in Russian everywhere ------------------------------------------------------


@pytest.mark.parametrize("n", sorted(RUSSIAN_POUNDS))
def test_money_inside_a_sentence_counts_its_pounds(app, n):
    """English writes "£5" inside a history line, a refusal or the price's arithmetic; Russian
    always counts the pounds («5 фунтов», never «£5» beside «88 фунтов» on the same screen), and
    Japanese writes 5ポンド."""
    line = Msg(
        N_("%(seat)s takes the %(terrain)s (track symbols: %(marks)s, income: %(income)s)."),
        seat=Seat(0),
        terrain=terrain_name("river"),
        marks=1,
        income=pounds(n),
    )
    assert render(app, "en", line) == f"Anna takes the river (track symbols: 1, income: £{n})."
    assert render(app, "ru", line).endswith(f"доход: {n} {RUSSIAN_POUNDS[n]}).")
    assert render(app, "ja", line).endswith(f"収入{n}ポンド）。")


def test_no_russian_entry_writes_money_with_the_pound_sign(app):
    """«£» in a Russian entry is the second form that mixed with «88 фунтов»; rows stored before
    the pounds() phrases keep their msgids and read without it («доход в фунтах: 5»)."""
    with open(CATALOGUE / "ru" / "LC_MESSAGES" / "messages.po", "rb") as fh:
        signs = [m.id for m in read_po(fh) if m.id and "£" in str(m.string)]
    assert signs == []
    for msgid in history.STORED_BEFORE_MONEY_PHRASES:
        row = {"id": msgid, "p": {"seat": {"seat": 0}, "terrain": "x", "income": 5, "pounds": 0}}
        row["p"] |= {"marks": 1, "symbols": 1, "bonus": 0, "bought": 0}
        shown = render(app, "ru", Msg.from_json(row))
        assert "£" not in shown and "фунт" in shown, shown


@pytest.mark.parametrize(
    "n, russian, japanese",
    [
        (1, "нужен 1 рельс", "必要な線路1個"),
        (2, "нужно 2 рельса", "必要な線路2個"),
        (5, "нужно 5 рельсов", "必要な線路5個"),
        (21, "нужен 21 рельс", "必要な線路21個"),
        (22, "нужно 22 рельса", "必要な線路22個"),
    ],
    ids=["1", "2", "5", "21", "22"],
)
def test_a_template_count_takes_its_form(app, n, russian, japanese):
    for lang, expected in (("ru", russian), ("ja", japanese)):
        with app.test_request_context(headers={"Cookie": f"lang={lang}"}):
            app_i18n.use_part("cape_to_cairo")
            shown = app.jinja_env.from_string(
                '{{ ngettext("needs %(num)s track", "needs %(num)s tracks", n) }}'
            ).render(n=n)
        assert shown == expected


def test_history_rows_stored_before_the_plural_forms_still_read_translated(app):
    """Rows written before the pounds were counted keep their msgids: each still has a Japanese
    and a Russian translation (and reads right whatever the number)."""
    old = {
        "id": "%(seat)s bid %(bid)s pounds and has %(money)s left.",
        "p": {"seat": {"seat": 0}, "bid": 22, "money": 78},
    }
    assert render(app, "ru", Msg.from_json(old)) == "Anna: ставка 22, остаток 78."
    assert render(app, "ja", Msg.from_json(old)) == "Annaの入札額は22ポンド、残金は78ポンドです。"
    for lang in ("ja", "ru"):
        with open(CATALOGUE / lang / "LC_MESSAGES" / "messages.po", "rb") as fh:
            catalog = read_po(fh)
        for msgid in history.STORED_BEFORE_PLURALS:
            entry = catalog.get(msgid)
            assert entry is not None and isinstance(entry.string, str) and entry.string, msgid
            assert "фунтов" not in entry.string, (msgid, entry.string)


# --- the term list on the pages ----------------------------------------------------------------


def term_list() -> dict[str, tuple[str, str]]:
    """English -> (日本語, Русский), as the tables of docs/terms/cape_to_cairo.md have them (the
    English without its note in brackets)."""
    terms = {}
    for line in TERMS.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0] != "English" and not cells[0].startswith("---"):
            terms[cells[0].split(" (")[0]] = (cells[1], cells[2])
    return terms


def russian_pattern(term: str) -> re.Pattern:
    """The term in any case and number: each word's stem followed by any ending."""
    stems = [w[: max(3, len(w) - 2)] for w in term.lower().split()]
    return re.compile(r"\s+".join(re.escape(s) + r"\w*" for s in stems))


RULES_PAGE_TERMS = [
    "From Cape to Cairo",
    "terrain card",
    "track symbol",
    "bonus track",
    "locomotive",
    "acquisition phase",
    "building phase",
    "deck",
    "discard pile",
    "money left",
    "income",
    "river",
    "mountain",
    "desert",
    "village",
    "savanna",
    "bid",
    "crossing",
    "turn",
    "river bonus",
]
TABLE_PAGE_TERMS = [
    "building phase",
    "track symbol",
    "track",
    "bonus track",
    "locomotive",
    "row",
    "money",
    "bid",
    "money left",
    "tie",
    "river",
    "savanna",
    "desert",
]


def page_text(client, lang: str, url: str) -> str:
    client.set_cookie("lang", lang)
    return visible(client.get(url).text)


def building_table(app) -> TableDriver:
    """Round 1 of a 3-player table in the building phase, after a tie broken by drawn cards."""
    t = TableDriver(app, "cape_to_cairo", NAMES)
    for terrain, marks, income in (("river", 1, 5), ("savanna", 2, 3), ("desert", 0, 1)):
        t.act("host", "card", terrain=terrain, marks=marks, income=income)
    for seat, amount in enumerate((20, 20, 21)):
        t.act(seat, "bid", amount=amount)
    t.act(0, "draw", value=2)
    t.act(1, "draw", value=9)
    t.act(2, "take", card=0)
    t.act(1, "take", card=1)
    t.act("host", "turn_up", marks=3)
    return t


@pytest.mark.parametrize("lang, column", [("ja", 0), ("ru", 1)])
def test_the_pages_use_the_words_of_the_term_list(app, lang, column):
    terms = term_list()
    assert set(RULES_PAGE_TERMS + TABLE_PAGE_TERMS) <= set(terms)

    def shows(text: str, english: str) -> bool:
        word = terms[english][column]
        if lang == "ja":
            return word in text
        return bool(russian_pattern(word).search(text.lower()))

    rules_page = page_text(app.test_client(), lang, "/rules/cape_to_cairo")
    assert [e for e in RULES_PAGE_TERMS if not shows(rules_page, e)] == []
    t = building_table(app)
    table_page = page_text(t.device("Chris"), lang, f"/t/{t.code}/")
    assert [e for e in TABLE_PAGE_TERMS if not shows(table_page, e)] == []


# --- Japanese punctuation on the rendered pages -------------------------------------------------

JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]"
ASCII_BETWEEN = re.compile(rf"{JAPANESE}\s*[,:;?!()]|[,:;?!(]\s*{JAPANESE}")


def game_parts(markup: str) -> str:
    """The text of the game's own sections (the panel's cards, or the page's main content)."""
    sections = re.findall(r'<section class="card[^"]*ctc[^"]*".*?</section>', markup, re.S)
    if not sections:
        sections = re.findall(r"<main.*?</main>", markup, re.S)
    return " ".join(visible(s) for s in sections)


def test_japanese_pages_join_japanese_words_with_japanese_punctuation(app):
    t = building_table(app)
    pages = []
    for who in ("host", "Chris", "Anna"):
        t.device(who).set_cookie("lang", "ja")
        pages.append(t.device(who).get(f"/t/{t.code}/").text)
    client = app.test_client()
    client.set_cookie("lang", "ja")
    tools = "/tools/cape_to_cairo/"
    for query in (
        "?terrain=river&marks=0&bonus=0&money=5",
        "?p-0-name=Ann&p-0-bid=20&p-0-money=50&p-0-draws=7+3"
        "&p-1-name=Bo&p-1-bid=20&p-1-money=50&p-1-draws=7+9&p-2-name=Cy&p-2-bid=20&p-2-money=60",
        "?p-0-name=Ann&p-0-bid=20&p-0-money=50&p-1-name=Bo&p-1-bid=20&p-1-money=50"
        "&p-2-name=Cy&p-2-bid=20&p-2-money=50",
    ):
        pages.append(client.get(tools + query).text)
    pages.append(client.get("/rules/cape_to_cairo").text)
    texts = [game_parts(page) for page in pages]
    assert [m.group(0) for text in texts for m in ASCII_BETWEEN.finditer(text)] == []
    assert "7、3" in texts[4] and "7、9" in texts[4]  # successive draws, joined with 、
    assert "Ann、BoとCyは入札額も残金も同じです。" in texts[5]  # names joined the Japanese way
    assert "川（線路10個）" in texts[3]  # the calculator's terrain choices, full-width brackets
