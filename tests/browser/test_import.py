"""Adding past plays on a 360 px phone, as a person does it: the record's "Add past plays", a BG
Stats backup chosen from the phone's files, the preview (who is who: one player matched by hand),
then the plays on the record and the player page beside the plays made here; in Japanese and
Russian the same screens read in the language, with nothing wider than the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_take_home import finish
from tests.helpers import SMALL_PHONE, open_table, overflowing, shot, speak
from tests.support.bgstats_export import Export

pytestmark = pytest.mark.browser


def backup() -> bytes:
    """Mia's backup: three plays of Pebbles with Oleg and Pia, one of a game the app lacks."""
    e = Export()
    mia, oleg, pia = e.player("Mia"), e.player("Oleg"), e.player("Pia")
    e.me = mia
    home = e.location("Home")
    pebbles, other = e.game("Pebbles"), e.game("Carcassonne", 822)
    e.play(pebbles, "2024-03-01 20:00:00", [(mia, "12", True), (oleg, "9", False)], place=home)
    e.play(pebbles, "2024-03-08 20:00:00", [(mia, "4+4", False), (pia, "10", True)], minutes=30)
    e.play(pebbles, "2024-03-15 20:00:00", [(oleg, "7", True), (pia, "6", False)])
    e.play(other, "2024-03-20 20:00:00", [(mia, "90", True)])
    return e.bytes()


def test_a_phone_brings_its_bg_stats_backup_and_finds_it_on_the_player_page(
    server, phone, tmp_path
):
    page = phone(viewport=SMALL_PHONE)
    code = open_table(page, server, "pebbles", "2", ("Maria", "Oleg"))
    finish(server, code)
    page.goto(f"{server.url}/plays")
    page.click("#add-past-plays")
    file = tmp_path / "BGStatsExport.json"
    file.write_bytes(backup())
    page.set_input_files("#import-file", str(file))
    shot(page, "import-1-upload-360")
    page.click("#import button[type=submit]")
    expect(page.locator("#import-summary")).to_contain_text("3 new plays of these games")
    expect(page.locator("#import-games")).to_contain_text("Carcassonne")
    # Oleg is matched by name; Mia is Maria here, said by hand; Pia is a new person.
    oleg = page.locator(".import-player", has_text="Oleg · 2 plays").locator("select")
    expect(oleg).to_have_value("Oleg")
    page.locator(".import-player", has_text="Mia · 2 plays").locator("select").select_option(
        "Maria"
    )
    expect(page.locator("#import-me")).to_contain_text("Mia")
    assert overflowing(page) == []
    shot(page, "import-2-preview-360")
    page.click("#import-go")
    expect(page.locator("#imported-note")).to_have_text("3 plays added to the record.")
    expect(page.locator("#plays li")).to_have_count(4)
    expect(page.locator("#plays")).to_contain_text("Imported from BG Stats")
    shot(page, "import-3-record-360")
    page.goto(f"{server.url}/player?name=Maria")
    expect(page.locator("#player-facts")).to_contain_text("3 games played")
    expect(page.locator("#player-rivals")).to_contain_text("Oleg")
    expect(page.locator("#player-rivals")).to_contain_text("Pia")
    assert overflowing(page) == []
    shot(page, "import-4-player-360")
    # The same file again: nothing new, in the phone's language.
    for lang, said in (("ja", "すでにあります"), ("ru", "уже здесь")):
        speak(page, server, lang)
        page.goto(f"{server.url}/plays/import")
        page.set_input_files("#import-file", str(file))
        page.click("#import button[type=submit]")
        expect(page.locator("#import-summary")).to_contain_text(said)
        assert overflowing(page) == []
        shot(page, f"import-5-again-{lang}-360")


def test_a_file_that_is_no_plays_file_is_refused_in_the_page(server, phone, tmp_path):
    page = phone(viewport=SMALL_PHONE)
    page.goto(f"{server.url}/plays/import")
    file = tmp_path / "photo.json"
    file.write_bytes(b"\x89PNG not a backup")
    page.set_input_files("#import-file", str(file))
    page.click("#import button[type=submit]")
    expect(page.locator("#import-error")).to_contain_text("Nothing was added.")
    expect(page.locator("#import-file")).to_be_visible()  # choose another, on the same page
    shot(page, "import-6-refused-360")
