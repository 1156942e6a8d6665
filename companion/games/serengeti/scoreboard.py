"""What the pages read off a Serengeti state beyond the view: the final score table, the
replay's standings and round, the seat that started, and the fine that follows a refused bid."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import N_, Msg, RuleError, ScoreTable, Standings
from companion.games.serengeti import scoring
from companion.games.serengeti.facts import ROUNDS, TRIBES
from companion.games.serengeti.state import penalty_applies


def score_table(state: dict, result: dict) -> ScoreTable:
    """The final scores to compare: the points of each tribe and the most-chips bonus down,
    players across in ranking order; the tie-break in words when one decided the winner."""
    players = result["players"]
    rows = [
        (label, [row["tribes"][tribe]["points"] for row in players])
        for tribe, label in TRIBES.items()
    ]
    rows.append((N_("Most chips bonus"), [row["chip_bonus"] for row in players]))
    return ScoreTable(
        seats=[row["player"] for row in players],
        ranks=[row["rank"] for row in players],
        winners=list(result["winners"]),
        rows=rows,
        totals=[row["total"] for row in players],
        decided_by=None if result["tie_break"] == "points" else result["tie_break_text"],
    )


def standings_at(state: dict, result: dict | None, everything: bool) -> Standings:
    """The replay's standings: each player's cards and the points the game's own scoring gives
    them now. Chips are private until the end: without them the points are the cards' alone
    (the most-chips bonus needs everyone's chips); with them (everything, or the end) the
    chips show and the points are those of a game ending here."""
    chips_shown = everything or result is not None
    players = range(state["players"])
    cards = {s: state["cards"][s] for s in players}
    chips = {s: state["chips"][s] if chips_shown else 0 for s in players}
    found = scoring.standings(cards, chips, variant=state["variant"])
    by_seat = {row["player"]: row for row in found["players"]}
    columns = [N_("Cards"), *([N_("Chips")] if chips_shown else []), N_("Points")]
    values = [
        [by_seat[s]["cards"], *([state["chips"][s]] if chips_shown else []), by_seat[s]["total"]]
        for s in players
    ]
    best = max(row["total"] for row in found["players"])
    if result is not None:
        note = N_("The final points.")
    elif chips_shown:
        note = N_("The points if the game ended here, the most-chips bonus included.")
    else:
        note = N_(
            "The points of the cards so far. Chips are private until the end, so the "
            "most-chips bonus is left out."
        )
    return Standings(columns, values, list(found["winners"]) if best > 0 else [], note)


def step_round(state: dict) -> Msg:
    """The five rounds of auctions, then the end."""
    if state["phase"] == "over":
        return Msg(N_("The game is over"))
    return Msg(N_("Round %(round)s of %(rounds)s"), round=state["round"], rounds=ROUNDS)


def start_seat(state: dict) -> int:
    """Who started round 1 (the host may have chosen them; later rounds start elsewhere)."""
    return state.get("first_start", state["start"] if state["round"] == 1 else 0)


def follow_up(state: dict, action: Mapping[str, Any], error: RuleError) -> dict | None:
    """After a refused bid that breaks the digit rule: the 1-chip fine, its own history line."""
    if action.get("type") != "bid" or not penalty_applies(state, error.rule):
        return None
    amount = action.get("amount")
    return {"type": "penalty", "bid": amount if isinstance(amount, int) else None}


# What BG Stats' "board" and the exports call a reading this table switched (English, fixed).
READING_NAMES = {
    "last-player-alone": "literal reading: an auction ends when all but one have passed",
    "sale-who-may": "literal reading: only the round's start player may sell",
}


def variants(state: dict) -> list[str]:
    """The table options in force, in English: the readings it switched to the literal one."""
    return [READING_NAMES[r] for r in state.get("readings", ()) if r in READING_NAMES]
