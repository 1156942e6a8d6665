"""From Cape to Cairo after the game: the final standings as plain rows and how the game went,
round by round (pure: the web adapter turns them into the score table and the summary charts).

The rules name only a winner (the first to cross 8 terrains; money left over is worth nothing).
The places after the winner follow the terrains crossed: equal counts share a place.
"""

from __future__ import annotations

from companion.games.base import N_
from companion.games.cape_to_cairo.facts import START_MONEY

#: The score table's rows, in order (English msgids: also the CSV export's column names).
INCOME_ROW = N_("Income earned")
MONEY_ROW = N_("Money left")
BONUS_ROW = N_("Bonus tracks left")
UNCROSSED_ROW = N_("Cards not crossed")
#: The score table's total: what the race is about.
TOTAL_ROW = N_("Terrains crossed")


def standings(result: dict) -> dict:
    """The finished game as a comparison table: seats (the winner first, then by terrains
    crossed, equal counts in seat order), their places (equal counts share one), the rows of
    SCORE_ROWS and the terrains crossed as the total."""
    players = result["players"]
    winner = result["winner"]
    seats = sorted(
        range(len(players)), key=lambda s: (s != winner, -players[s]["crossed_count"], s)
    )
    ranks = [
        1
        if s == winner
        else 2
        + sum(
            1
            for t in seats
            if t != winner and players[t]["crossed_count"] > players[s]["crossed_count"]
        )
        for s in seats
    ]
    rows = [
        (INCOME_ROW, [players[s]["income"] for s in seats]),
        (MONEY_ROW, [players[s]["money"] for s in seats]),
        (BONUS_ROW, [players[s]["bonus"] for s in seats]),
        (UNCROSSED_ROW, [len(players[s]["uncrossed"]) for s in seats]),
    ]
    return {
        "seats": seats,
        "ranks": ranks,
        "winners": [winner],
        "rows": rows,
        "totals": [players[s]["crossed_count"] for s in seats],
    }


def by_round(states: list[dict]) -> dict:
    """How the game went, one point per acquisition round (its cards, bids and the building
    that follows): every seat's terrains crossed and money at the start ("rounds" 0) and at the
    end of each round, and the terrains each seat crossed in each round's building phase.

    `states` is the state after every action, in order. An action belongs to the round the
    state before it was in: the crossing that ends a building phase already starts the next
    round's number, yet it is the last action of its own round."""
    if not states:
        return {"rounds": [], "crossed": [], "money": [], "per_round": []}
    players = states[-1]["players"]
    last: dict[int, dict] = {}
    current = 1
    for state in states:
        last[current] = state
        current = state["round"]
    rounds = sorted(last)
    crossed = [[0] + [last[r]["crossed"][s] for r in rounds] for s in range(players)]
    money = [[START_MONEY] + [last[r]["money"][s] for r in rounds] for s in range(players)]
    per_round = [
        [crossed[s][i + 1] - crossed[s][i] for s in range(players)] for i in range(len(rounds))
    ]
    return {"rounds": rounds, "crossed": crossed, "money": money, "per_round": per_round}


def first_lead(state: dict) -> int:
    """The seat that started: the highest bidder of the first acquisition round, who chose a
    card first and opened the first building phase (the rules name no other start player).
    Seat 0 for a game stored before this was kept, or one that has not got that far."""
    lead = state.get("first_lead")
    return 0 if lead is None else lead
