"""Africana in BG Stats: its score table is the score's parts, so each score is their sum
("12+3+..."), the same total as the CSV's, and the comments do not repeat the rows."""

from __future__ import annotations

import json
import random

from companion import get_db, tables
from tests.helpers import play_to_end


def test_scores_are_the_breakdown_as_a_sum(make_table):
    table = make_table("africana", ("Anna", "Ben", "Chris"), phones=False)
    with table.app.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, table.code), random.Random(1))
    data = json.loads(table.host.get(f"/t/{table.code}/export.bgsplay").data)
    csv_rows = table.host.get(f"/t/{table.code}/export.csv").text.splitlines()
    for score in data["plays"][0]["playerScores"]:
        assert "+" in score["score"] or "-" in score["score"]
        row = next(r for r in csv_rows[1:] if r.split(",")[3] == str(score["seatOrder"]))
        assert eval(score["score"]) == int(row.split(",")[5])
    assert "Expeditions" not in data["plays"][0]["comments"]
