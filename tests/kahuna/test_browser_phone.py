"""Kahuna on a small phone (360x740): the first screen of a turn holds the player's controls and
the draw choices with the board starting below them; the undo button appears after one's own
play and brings the turn back; a refusal is the app's own message; the summary fits.

Screenshots to look at go to screenshots/kahuna-phone-*.png (English, Japanese, Russian, dark;
360x740 and 390x844).
"""

from __future__ import annotations

import itertools
import math

import pytest
from playwright.sync_api import expect

from companion import create_app, get_db
from companion import tables as store
from companion.games.kahuna import drawing
from companion.games.kahuna import rules as k
from companion.i18n import LANGUAGES
from tests.games.prompt_fit import prompts_too_long
from tests.helpers import (
    PHONE,
    SMALL_PHONE,
    dark,
    in_first_screen,
    open_table,
    overflowing,
    serious_accessibility_problems,
    shot,
)
from tests.kahuna.helpers import drive, finish_game, finish_round
from tests.kahuna.helpers import site as site_css
from tests.kahuna.test_browser import seat_phone, tap_site

pytestmark = pytest.mark.browser

FACE_UP = ("Coco", "Gola", "Lale")


def board_starts_in_first_screen(page, shown: int = 120) -> bool:
    """The top of the board shows on the first screen, unscrolled (the rest follows it): at
    least `shown` pixels of it."""
    return page.evaluate(
        """(shown) => { window.scrollTo(0, 0);
            const top = document.querySelector('svg.k-board').getBoundingClientRect().top;
            return top >= 0 && top + shown <= window.innerHeight; }""",
        shown,
    )


def height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def look(page, name: str) -> None:
    """The first screen (what the phone shows before any scrolling)."""
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, name, full_page=False)


def white_on_turn(server, phone, by_white: bool = True):
    """The host's device and White's phone at 360x740, the face-up cards entered (by White's
    phone, or by the host's device)."""
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, "kahuna", "2", names=())
    white = seat_phone(lambda: phone(viewport=SMALL_PHONE), server, code, "White")
    black = seat_phone(lambda: phone(viewport=SMALL_PHONE), server, code, "Black")
    # The face-up card picker is everybody's control while the table waits for it.
    assert in_first_screen(white, ".k-reveal[data-turn-panel] .k-islands-pick")
    entering = white if by_white else host
    if not by_white:
        host.reload()
    for island in FACE_UP:
        entering.locator(".k-islands-pick").get_by_role("button", name=island, exact=True).tap()
        expect(white.locator(".log")).to_contain_text(f"Face-up card entered: {island}")
    expect(white.locator("[data-turn-panel]")).to_be_visible()
    # Black waits: told whom for, with the board right below; nothing wider than the phone.
    expect(black.locator(".k-wait")).to_contain_text("Waiting for White to play.")
    assert in_first_screen(black, ".k-wait") and board_starts_in_first_screen(black)
    assert black.locator("[data-turn-panel]").count() == 0 and overflowing(black) == []
    return host, white, code


def test_the_turn_fits_the_first_screen_and_undo_brings_it_back(server, phone):
    host, white, code = white_on_turn(server, phone)
    assert in_first_screen(white, "[data-turn-panel]")
    assert in_first_screen(white, "#your-turn")
    for button in (*FACE_UP, "Draw from the deck"):
        expect(white.locator(".k-draw").get_by_role("button", name=button)).to_be_visible()
    assert in_first_screen(white, ".k-draw")  # the face-up cards and the deck: the draw choices
    # White entered the last face-up card, so its undo line stands above the panel (the one
    # policy: a phone may take back the public event it entered): the board starts lower.
    assert board_starts_in_first_screen(white, shown=60)
    assert overflowing(white) == []
    assert serious_accessibility_problems(white) == []
    print("kahuna turn page at 360x740:", height(white), "px")
    look(white, "kahuna-phone-turn-en-360")

    # One's own play: "Undo" right above the panel, nothing of the panel over it.
    tap_site(white, "Elai-Huna")
    white.locator("#k-sheet").get_by_role("button", name="Card Elai").tap()
    undo = white.locator("#undo-here button")
    expect(undo).to_have_text("Undo: White built a bridge on Elai–Huna (card Elai).")
    gap = white.evaluate(
        """() => document.getElementById('game-panel').getBoundingClientRect().top
                 - document.getElementById('undo-here').getBoundingClientRect().bottom"""
    )
    assert 0 <= gap <= 16
    assert in_first_screen(white, "#undo-here") and in_first_screen(white, "[data-turn-panel]")
    look(white, "kahuna-phone-after-play-en-360")
    white.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    undo.tap()
    expect(white.locator(site_css("Elai-Huna"))).to_have_class("k-site free")
    # After the undo the panel that waits is in view again.
    white.wait_for_function(
        """() => { const box = document.querySelector('[data-turn-panel]').getBoundingClientRect();
                   return box.top >= -1 && box.top < window.innerHeight / 2; }""",
        timeout=5000,
    )

    # A refusal is the app's own, in the page, with its rule (the form never stops in the browser).
    # (Changed and sent in one step: a poll could otherwise put the page's own value back.)
    white.evaluate(
        """() => { const form = [...document.querySelectorAll('.k-draw form')]
                     .find(f => f.querySelector('input[name=island]'));
                   form.querySelector('input[name=island]').value = 'Aloa';
                   form.requestSubmit(form.querySelector('button')); }"""
    )
    alert = white.locator(".alert")
    expect(alert).to_contain_text("Aloa is not face up; the face-up cards are Coco, Gola, Lale.")
    expect(alert.get_by_role("link")).to_have_attribute("href", "/rules/kahuna#draw")

    # The host acting for White sees the same panel; the table view says whom to act for.
    host.goto(f"{server.url}/t/{code}/?as=0")
    expect(host.locator("[data-turn-panel]")).to_be_visible()
    assert overflowing(host) == []
    print("host acting for White:", height(host), "px")
    look(host, "kahuna-phone-host-as-white-360")
    host.goto(f"{server.url}/t/{code}/")
    expect(host.locator(".k-wait")).to_contain_text("Act for White")
    assert overflowing(host) == []
    look(host, "kahuna-phone-host-table-360")


def test_the_turn_screen_in_each_language_light_and_dark(server, phone):
    # One table: White's phone switches language (the footer's links) and theme.
    # The host's device entered the face-up cards: White's phone has nothing of its own to undo.
    _, white, code = white_on_turn(server, phone, by_white=False)
    for lang in LANGUAGES:
        white.emulate_media(color_scheme="light")
        white.set_viewport_size(SMALL_PHONE)
        white.goto(f"{server.url}/lang/{lang}")
        white.goto(f"{server.url}/t/{code}/")
        expect(white.locator("html")).to_have_attribute("lang", lang)
        for theme, (size, viewport) in itertools.product(
            ("light", "dark"), (("360", SMALL_PHONE), ("390", PHONE))
        ):
            if theme == "dark":
                dark(white)
            white.set_viewport_size(viewport)
            look(white, f"kahuna-phone-turn-{lang}-{theme}-{size}")
            assert in_first_screen(white, "[data-turn-panel]"), (lang, theme, size)
            assert in_first_screen(white, ".k-draw"), (lang, theme, size)
            assert board_starts_in_first_screen(white), (lang, theme, size)
            assert overflowing(white) == [], (lang, theme, size)


class Shim:
    """What tests.kahuna.helpers need of a table (its app and code), on the server's database."""

    def __init__(self, database, code: str):
        self.app = create_app({"DATABASE": str(database), "SECRET_KEY": "browser-tests"})
        self.code = code

    def state(self) -> dict:
        with self.app.app_context():
            db = get_db()
            return store.state_of(db, store.get_table(db, self.code))


def test_the_result_and_the_summary_fit_a_small_phone(server, phone):
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, "kahuna", "2", names=("Ann", "Bo"))
    ann = seat_phone(lambda: phone(viewport=SMALL_PHONE), server, code, "Ann")
    table = Shim(server.database, code)
    drive(table, [{"type": "reveal", "seat": None, "island": i} for i in FACE_UP])
    drive(
        table,
        [
            {"type": "place", "seat": 0, "site": "Aloa-Bari", "card": "Aloa"},
            {"type": "place", "seat": 0, "site": "Aloa-Duda", "card": "Duda"},
        ],
    )
    # A round's end: the scoring's news and the picker of the next face-up cards, one screen.
    finish_round(table)
    for lang in ("ru", "ja", "en"):
        ann.goto(f"{server.url}/lang/{lang}")
        ann.goto(f"{server.url}/t/{code}/")
        expect(ann.locator(".k-scored")).to_be_visible()
        look(ann, f"kahuna-phone-round-end-{lang}-360")
        assert in_first_screen(ann, ".k-reveal .k-islands-pick"), lang
        assert overflowing(ann) == [], lang
    finish_game(table)
    ann.reload()
    expect(ann.locator("#k-score-table")).to_be_visible()
    shot(ann, "kahuna-phone-result-en-360")
    print("result page:", height(ann), "px")
    assert in_first_screen(ann, "#k-score-table")
    assert overflowing(ann) == []
    assert serious_accessibility_problems(ann) == []
    # Each scoring opens to its arithmetic (the same sentence as the control checker's).
    how = ann.locator(".k-scorings details.k-how").first
    how.locator("summary").tap()
    expect(how.locator("p")).to_have_text(
        "Islands held: White 1, Black 0; in round 1 whoever holds more scores 1 point."
    )
    assert overflowing(ann) == []
    host.goto(f"{server.url}/t/{code}/")
    assert overflowing(host) == []
    for lang in LANGUAGES:
        host.goto(f"{server.url}/lang/{lang}")
        host.emulate_media(color_scheme="light")
        host.goto(f"{server.url}/t/{code}/summary")
        expect(host.locator("#summary-chart svg.chart")).to_be_visible()
        expect(host.locator(".k-course-scorings li")).to_have_count(3)
        assert overflowing(host) == [], lang
        assert serious_accessibility_problems(host) == [], lang
        shot(host, f"kahuna-phone-summary-{lang}-360")
        dark(host)
        host.reload()
        assert overflowing(host) == [], lang
        assert serious_accessibility_problems(host) == [], lang
        shot(host, f"kahuna-phone-summary-{lang}-dark-360")


def test_every_prompt_fits_two_lines_on_a_small_phone_in_every_language(app, phone, server):
    """The line under "Your turn." (Rules.prompt), every one a random game reaches, with its
    numbers, in English, Japanese and Russian: at most two lines at 360 px."""
    assert prompts_too_long(app, phone, server, "kahuna") == {}


def tap_at(x: float, y: float) -> tuple[str, str] | None:
    """The site a tap at (x, y) (board units) opens: kahuna.js sends the place in whole units,
    the server answers drawing.site_at's site."""
    return drawing.site_at(math.floor(x + 0.5), math.floor(y + 0.5))


def pixels_of(site: tuple[str, str], point_at) -> int:
    """How many pixels in a row, the n-th at point_at(n) (n = 1, 2...), a tap is the site's."""
    n = 0
    while n < 200 and tap_at(*point_at(n + 1)) == site:
        n += 1
    return n


def room_through_middle(site: tuple[str, str], px: float) -> tuple[int, int]:
    """The pixels in a row through the middle of a site's line where a tap is the site's: along
    the line, and across it; px: screen pixels per board unit."""
    line = drawing._polyline(drawing.site_path(*site)[0])
    half = sum(math.dist(p, q) for p, q in zip(line, line[1:])) / 2
    (mx, my), (nx, ny) = drawing._along(line, half)
    along = 1 + sum(
        pixels_of(site, lambda n, s=s: drawing._along(line, half + s * n / px)[0]) for s in (-1, 1)
    )
    across = 1 + sum(
        pixels_of(site, lambda n, s=s: (mx + s * n / px * nx, my + s * n / px * ny))
        for s in (-1, 1)
    )
    return along, across


def px_per_unit(page) -> float:
    """Screen pixels per board unit on this page."""
    return page.evaluate(
        """() => { const m = document.querySelector('svg.k-board').getScreenCTM();
                   return Math.hypot(m.a, m.b); }"""
    )


def test_every_site_takes_a_finger_its_middle_and_20_px_either_way(server, phone):
    """The board shared out among the sites (drawing.site_at), at the scale a 360 px phone
    draws it: every site takes a tap on the middle of its line and 20 px along it either way; at
    least 44 px along the line, and 44 px across at its middle, except where the sites nearer on
    either side leave less room (drawing.room_across: there the nearer site wins), and then all
    that room. The runs go a pixel at a time; a tap's place is sent in whole units, as the page
    sends it (test_a_finger_beside_a_line_opens_that_sites_question taps the page itself)."""
    _, white, _ = white_on_turn(server, phone)
    px = px_per_unit(white)
    assert 0.75 < px < 0.9  # 0.815 at 360 px
    short, found = [], {}
    for site in k.SITES:
        line = drawing._polyline(drawing.site_path(*site)[0])
        half = sum(math.dist(p, q) for p, q in zip(line, line[1:])) / 2
        (mx, my), (nx, ny) = drawing._along(line, half)
        assert tap_at(mx, my) == site
        for pixels in (-20, 20):
            assert tap_at(*drawing._along(line, half + pixels / px)[0]) == site, (site, pixels)
        along, across = room_through_middle(site, px)
        assert along >= 44, (site, along)
        room = drawing.room_across(*site) * px
        # (3 px: a tap's place in whole units, a unit 0.8 px; the runs whole pixels)
        assert across >= min(44, room - 3), (site, across, room)
        found[k.site_key(site)] = (along, across)
        if across < 44:
            short.append((k.site_key(site), across))
    print("tap room at 360 px (along, across):", found)
    print("narrower than 44 px across at the middle (a nearer site beside):", short)
    look_at_board(white, "kahuna-phone-tap-areas-360")


def look_at_board(page, name: str) -> None:
    """A screenshot of the board with the room each site takes a tap in tinted, each its own
    way round (tap_at at every other pixel, drawn on a canvas laid over the board)."""
    page.evaluate("document.querySelector('svg.k-board').scrollIntoView({block: 'start'})")
    px = px_per_unit(page)
    order = list(k.SITES)
    width, height = int(drawing.WIDTH * px), int(drawing.HEIGHT * px)
    rows = [
        [
            (lambda s: order.index(s) if s else -1)(tap_at(x / px, y / px))
            for x in range(0, width, 2)
        ]
        for y in range(0, height, 2)
    ]
    page.evaluate(
        """(rows) => {
            const box = document.querySelector('svg.k-board').getBoundingClientRect();
            const canvas = document.createElement('canvas');
            canvas.width = box.width;
            canvas.height = box.height;
            canvas.style = `position:fixed;left:${box.left}px;top:${box.top}px;pointer-events:none`;
            const g = canvas.getContext('2d');
            rows.forEach((row, y) => row.forEach((i, x) => {
                if (i < 0) return;
                g.fillStyle = `hsla(${(i * 137) % 360}, 70%, 50%, .35)`;
                g.fillRect(2 * x, 2 * y, 2, 2);
            }));
            document.body.append(canvas);
        }""",
        rows,
    )
    shot(page, name, full_page=False)


# A point of the board (board units) on the screen, once two readings 150 ms apart agree, and
# whether a drawn site lies under it there.
BOARD_POINT_ON_SCREEN = """([x, y]) => {
    const board = document.querySelector('svg.k-board');
    const p = new DOMPoint(x, y).matrixTransform(board.getScreenCTM());
    const last = window.testBoardPoint;
    window.testBoardPoint = [p.x, p.y];
    if (!last || last[0] !== p.x || last[1] !== p.y) return false;
    const hit = document.elementFromPoint(p.x, p.y);
    return [p.x, p.y, !!(hit && hit.closest('.k-site'))];
}"""


def test_a_finger_beside_a_line_opens_that_sites_question(server, phone):
    """A finger beside a line (12 px off its middle, off the drawn line itself) opens the card
    question of that site: a short one between close islands, a curved one, a long one. The
    page sends the tap's place in board units (?tap=x,y), within a unit of where it was."""
    _, white, _ = white_on_turn(server, phone)
    for key, side in (("Gola-Jojo", 1), ("Coco-Kahu", 1), ("Elai-Huna", 1), ("Faaa-Jojo", -1)):
        a, b = k.parse_site(key)
        line = drawing._polyline(drawing.site_path(a, b)[0])
        total = sum(math.dist(p, q) for p, q in zip(line, line[1:]))
        (x, y), (nx, ny) = drawing._along(line, total / 2)
        # 12 px: 15 board units at 360 px (0.815 px a unit)
        point = (x + side * 15 * nx, y + side * 15 * ny)
        assert drawing.site_at(*point) == (a, b), key
        white.evaluate("document.querySelector('svg.k-board').scrollIntoView({block: 'center'})")
        # Where the point is on the screen once the board stands still (test_browser.touch).
        where = white.wait_for_function(BOARD_POINT_ON_SCREEN, arg=list(point), polling=150)
        x, y, on_a_line = where.json_value()
        assert not on_a_line, f"{key}: the point is on a drawn line"
        with white.expect_request(lambda r: "tap=" in r.url) as sent:
            white.touchscreen.tap(x, y)
        place = [float(v) for v in sent.value.url.split("tap=")[1].split("&")[0].split(",")]
        assert math.dist(place, point) <= 1.5, (key, place, point)
        expect(white.locator("#k-sheet-title")).to_contain_text(key.replace("-", "–"))
        expect(white.locator(f"{site_css(key)}.selected")).to_have_count(1)
        if key == "Gola-Jojo":
            shot(white, "kahuna-phone-tap-beside-a-line", full_page=False)
        white.locator("#k-sheet").get_by_role("link", name="Cancel").tap()
        expect(white.locator("#k-sheet")).to_have_count(0)
    # A keyboard's Enter on a focused site opens that site's question (its link's own address).
    white.locator(site_css("Elai-Iffi")).focus()
    with white.expect_request(lambda r: "site=Elai-Iffi" in r.url):
        white.keyboard.press("Enter")
    expect(white.locator("#k-sheet-title")).to_contain_text("Elai–Iffi")
    # A tap on an island's core is nobody's: the open question closes, none opens.
    white.locator("#k-sheet").get_by_role("link", name="Cancel").tap()
    expect(white.locator("#k-sheet")).to_have_count(0)
    white.evaluate("document.querySelector('svg.k-board').scrollIntoView({block: 'center'})")
    where = white.wait_for_function(
        BOARD_POINT_ON_SCREEN, arg=list(drawing.island_xy("Elai")), polling=150
    )
    with white.expect_response(lambda r: "tap=" in r.url):
        white.touchscreen.tap(*where.json_value()[:2])
    expect(white.locator("#k-sheet")).to_have_count(0)
