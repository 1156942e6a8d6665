"""What the pages read off a Cape to Cairo state beyond the view: the final score table, the
replay's standings and round, and the seat that started."""

from __future__ import annotations

from companion.games.base import N_, Msg, ScoreTable, Standings
from companion.games.cape_to_cairo import course


def score_table(state: dict, result: dict) -> ScoreTable:
    """The result as the core's comparison table (see course.standings): the winner first, the
    income earned, money, bonus tracks and cards left, and the terrains crossed as the total.
    Nothing is ever tied for the win (the 8th crossing ends the game at once)."""
    table = course.standings(result)
    return ScoreTable(**table, total_label=course.TOTAL_ROW)


def standings_at(state: dict, result: dict | None, everything: bool) -> Standings:
    """The replay's standings: the race (terrains crossed, the first to 8 wins at once), money
    and bonus tracks, all public; with everything, while bids are sealed, the bids entered so
    far (the table saw them only once everyone had bid)."""
    players = range(state["players"])
    sealed = everything and state["phase"] == "bidding"
    columns = [N_("Terrains crossed"), N_("Pounds"), N_("Bonus tracks")]
    if sealed:
        columns.append(N_("Sealed bid"))
    values = [
        [
            state["crossed"][s],
            state["money"][s],
            state["bonus"][s],
            *([state["bids"][s]] if sealed else []),
        ]
        for s in players
    ]
    most = max(state["crossed"])
    leaders = [s for s in players if state["crossed"][s] == most] if most else []
    if state["winner"] is not None:
        leaders = [state["winner"]]
    note = N_("The first to cross 8 terrains wins at once.")
    if sealed:
        note = N_(
            "The sealed bids as they were entered: the table saw them only once everyone had bid."
        )
    return Standings(columns, values, leaders, note)


def step_round(state: dict) -> Msg:
    """The acquisition rounds (cards, bids, taking, building), then the end."""
    if state["phase"] == "over":
        return Msg(N_("The game is over"))
    return Msg(N_("Round %(n)s"), n=state["round"])


def start_seat(state: dict) -> int:
    """The highest bidder of the first round, who chose first and built first."""
    return course.first_lead(state)
