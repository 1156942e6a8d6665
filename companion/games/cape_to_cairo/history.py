"""From Cape to Cairo: the history lines of accepted actions (describe). Bids stay sealed here
too: a bid's line says only that the seat has bid, until the last bid reveals them all.

The lines are stored with the table's history and read back in each reader's language, so a
msgid once stored must stay in the catalogues (see STORED_BEFORE_PLURALS)."""

from __future__ import annotations

from companion.games.base import N_, Msg, Plural, Seat, acting_seat
from companion.games.cape_to_cairo.crossing import track_plan
from companion.games.cape_to_cairo.facts import pounds, terrain_name
from companion.games.cape_to_cairo.state import marks_for, next_terrain
from companion.games.cape_to_cairo.views import crossing_line, tie_breaks

# Lines stored before they counted their pounds with plural forms: old history rows still name
# these msgids, so the catalogues keep a translation for each (one that reads right whatever the
# number). Bid_order.py's tie-break reasons had such lines too; they are kept here as well.
STORED_BEFORE_PLURALS = (
    N_("%(place)s. %(seat)s chooses a card (bid %(bid)s pounds)."),
    N_("%(seat)s bid %(bid)s pounds and has %(money)s left."),
    N_("%(first)s before %(second)s: higher bid (%(a)s to %(b)s pounds)"),
    N_("%(first)s before %(second)s: same bid, less money left (%(a)s to %(b)s pounds)"),
)
# Lines stored before their amounts of money became pounds() phrases (English "£5", Russian
# «5 фунтов»): old rows still name these msgids.
STORED_BEFORE_MONEY_PHRASES = (
    N_("%(seat)s takes the %(terrain)s (track symbols: %(marks)s, income: £%(income)s)."),
    N_("Turned up for bidding: %(terrain)s, track symbols: %(marks)s, income: £%(income)s."),
    N_(
        "%(seat)s crosses the %(terrain)s (symbols: %(symbols)s, bonus tracks: %(bonus)s, "
        "bought tracks: %(bought)s for £%(pounds)s) and earns £%(income)s."
    ),
)

# Lines of the first release (schema 1), before they named track symbols and income as above:
# a table it started still holds them.
STORED_IN_THE_FIRST_RELEASE = (
    N_(
        "%(seat)s crosses the %(terrain)s with %(symbols)s symbols, %(bonus)s bonus tracks and "
        "%(bought)s bought tracks (%(pounds)s pounds) and earns %(income)s pounds."
    ),
    N_("%(seat)s takes the %(terrain)s (%(marks)s symbols, pays %(income)s pounds)."),
    N_("%(seat)s turned up a card with %(marks)s track symbols (%(total)s in the pile)."),
    N_("Turned up for bidding: %(terrain)s, %(marks)s track symbols, pays %(income)s pounds."),
)


def _describe_order(after: dict) -> list[Msg]:
    lines: list[Msg] = []
    rev = after["reveal"]
    for place, s in enumerate(rev["order"], start=1):
        lines.append(
            Plural(
                "%(place)s. %(seat)s chooses a card (bid %(bid)s pound).",
                "%(place)s. %(seat)s chooses a card (bid %(bid)s pounds).",
                "bid",
                place=place,
                seat=Seat(s),
                bid=rev["bids"][s],
            )
        )
    return lines + tie_breaks(after)


def _describe_settling(before: dict, after: dict) -> list[Msg]:
    """Lines for what happened once bids or draws settled (or did not settle) the order."""
    lines: list[Msg] = []
    if after["phase"] == "draw":
        for s in after["must_draw"]:
            if after["reveal"]["draws"][s]:
                lines.append(Msg(N_("%(seat)s is still tied and must draw again."), seat=Seat(s)))
            else:
                lines.append(Msg(N_("%(seat)s is tied and must draw a card."), seat=Seat(s)))
    elif after["reveal"]["order"] is not None:
        lines += _describe_order(after)
    lines += _describe_taking(before, after)
    return lines


def _describe_taking(before: dict, after: dict) -> list[Msg]:
    lines = []
    for i, card in enumerate(after["pool"]):
        was = before["pool"][i]["taken_by"] if i < len(before["pool"]) else None
        if card["taken_by"] is not None and was is None:
            lines.append(
                Msg(
                    N_(
                        "%(seat)s takes the %(terrain)s (track symbols: %(marks)s, "
                        "income: %(income)s)."
                    ),
                    seat=Seat(card["taken_by"]),
                    terrain=terrain_name(card["terrain"]),
                    marks=card["marks"],
                    income=pounds(card["income"]),
                )
            )
    if before["phase"] != "building" and after["phase"] == "building":
        lines.append(
            Msg(N_("Building starts with %(seat)s, the highest bidder."), seat=Seat(after["lead"]))
        )
    return lines


def describe(before: dict, action: dict, after: dict) -> list[Msg]:
    """History lines for an accepted action (bids stay sealed until the reveal)."""
    kind = action["type"]
    if kind == "card":
        card = after["pool"][-1]
        return [
            Msg(
                N_(
                    "Turned up for bidding: %(terrain)s, track symbols: %(marks)s, "
                    "income: %(income)s."
                ),
                terrain=terrain_name(card["terrain"]),
                marks=card["marks"],
                income=pounds(card["income"]),
            )
        ]
    if kind == "bid":
        lines = [Msg(N_("%(seat)s has bid (sealed)."), seat=Seat(acting_seat(action)))]
        if after["phase"] != "bidding":
            lines.append(Msg(N_("All bids are in and revealed:")))
            for s, bid in enumerate(after["reveal"]["bids"]):
                lines.append(
                    Plural(
                        "%(seat)s bid %(bid)s pound and has %(money)s left.",
                        "%(seat)s bid %(bid)s pounds and has %(money)s left.",
                        "bid",
                        seat=Seat(s),
                        bid=bid,
                        money=after["money"][s],
                    )
                )
            lines += _describe_settling(before, after)
        return lines
    if kind == "draw":
        lines = [
            Msg(
                N_("%(seat)s drew a %(value)s."),
                seat=Seat(acting_seat(action)),
                value=action["value"],
            )
        ]
        if len(before["must_draw"]) == 1:  # the last draw of this round: settled, or again
            lines += _describe_settling(before, after)
        return lines
    if kind == "take":
        return _describe_taking(before, after)
    if kind == "turn_up":
        return [
            Msg(
                N_("%(seat)s turned up a card (track symbols: %(marks)s; %(total)s in the pile)."),
                seat=Seat(before["active"]),
                marks=action["marks"],
                total=sum(after["turned"]),
            )
        ]
    if kind == "pass":
        return [
            Msg(
                N_("%(seat)s passes; %(next)s goes on."),
                seat=Seat(acting_seat(action)),
                next=Seat(after["active"]),
            )
        ]
    if kind == "cross":
        return _describe_cross(before, acting_seat(action), after)
    return []


def _describe_cross(before: dict, seat: int, after: dict) -> list[Msg]:
    card = before["rows"][seat][before["crossed"][seat]]
    used_bonus = before["bonus"][seat] - after["bonus"][seat]
    marks = marks_for(before, seat)
    plan = track_plan(card["terrain"], marks, used_bonus)
    lines = [crossing_line(seat, card["terrain"], plan, card["income"])]
    if after["phase"] == "over":
        lines.append(Msg(N_("%(seat)s has crossed 8 terrains and wins!"), seat=Seat(seat)))
        return lines
    for other in range(after["players"]):
        if other == seat or next_terrain(after, other) != "river":
            continue
        if after["bonus"][other] > before["bonus"][other]:
            lines.append(
                Msg(N_("%(seat)s faces a river and gains a bonus track."), seat=Seat(other))
            )
        else:
            lines.append(
                Msg(
                    N_("%(seat)s faces a river but already holds 5 bonus tracks."), seat=Seat(other)
                )
            )
    if after["phase"] == "cards":
        lines.append(
            Msg(
                N_(
                    "%(seat)s's row is empty: the building phase ends and acquisition "
                    "round %(round)s begins."
                ),
                seat=Seat(seat),
                round=after["round"],
            )
        )
    return lines
