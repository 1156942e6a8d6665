"""What the pages read off an Africana state beyond the view: the final score table, the
replay's standings and round, the table options in force (BG Stats' board)."""

from __future__ import annotations

from companion.games.africana.scoring import SCORE_ROWS, decided_by, final_score
from companion.games.africana.state import starts_in_gold
from companion.games.africana.views import suggested_sheet
from companion.games.base import N_, Msg, RuleError, ScoreTable, Standings


def score_table(state: dict, result: dict) -> ScoreTable:
    """The result as one comparison table: the score's parts down, players across, best
    first, with the coins tie-break in words."""
    order, scores = result["order"], result["scores"]
    return ScoreTable(
        seats=list(order),
        ranks=[scores[i]["place"] for i in order],
        winners=list(result["winners"]),
        rows=[(label, [scores[i][key] for i in order]) for key, label in SCORE_ROWS],
        totals=[scores[i]["total"] for i in order],
        decided_by=decided_by(result),
    )


def points_now(state: dict, seat: int) -> int | None:
    """The points a seat would score if the game ended here: its handed-in sheet, or the sheet
    its entries suggest (unfinished artifact adventures and movement cards in hand, which the
    entries do not settle, count nothing); None if that sheet breaks a limit."""
    record = state["seats"][seat]
    sheet = record["sheet"] or dict(suggested_sheet(state, seat))
    if sheet.get("unfinished_artifacts") is None:
        sheet["unfinished_artifacts"] = 0
    try:
        return final_score(sheet)["total"]
    except RuleError:
        return None


def standings_at(state: dict, result: dict | None, everything: bool) -> Standings:
    """The replay's standings: silver and unfinished adventures are public all game; points
    come from completed cards, which are private until the end, so they show with everything
    (if the game ended here) or once the result stands (the final totals)."""
    players = range(state["players"])
    coins = [state["seats"][s]["coins"] for s in players]
    if result is not None:
        totals = [result["scores"][s]["total"] for s in players]
        values = [[coins[s], totals[s]] for s in players]
        return Standings(
            [N_("Silver"), N_("Points")], values, list(result["winners"]), N_("The final points.")
        )
    open_ = [state["seats"][s]["adventures_open"] for s in players]
    columns = [N_("Silver"), N_("Unfinished adventures")]
    if not everything:
        note = N_("Points come from completed cards, which stay private until the end.")
        return Standings(columns, [[coins[s], open_[s]] for s in players], [], note)
    points = [points_now(state, s) for s in players]
    best = max((p for p in points if p is not None), default=0)
    leaders = [s for s in players if points[s] == best] if best > 0 else []
    note = N_(
        "The points if the game ended here, as the scoring sheets would count them "
        "(unfinished artifact adventures and movement cards in hand left out)."
    )
    values = [[coins[s], open_[s], points[s]] for s in players]
    return Standings([*columns, N_("Points")], values, leaders, note)


def step_round(state: dict) -> Msg:
    """The rounds of turns (the last one marked), then the scoring sheets, then the end."""
    if state["phase"] == "playing":
        n = (state["turn"]["number"] - 1) // state["players"] + 1
        if state["last_round"]:
            return Msg(N_("Round %(n)s (the last)"), n=n)
        return Msg(N_("Round %(n)s"), n=n)
    if any(record["sheet"] is None for record in state["seats"]):
        return Msg(N_("Scoring sheets"))
    return Msg(N_("The game is over"))


def variants(state: dict) -> list[str]:
    """The table options in force, in English (BG Stats' "board", the exports): the starting
    coins read as gold coins, when the table chose that reading."""
    return ["Starting coins in gold"] if starts_in_gold(state) else []
