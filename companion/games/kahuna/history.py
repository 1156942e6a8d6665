"""Kahuna's history lines: what describe() writes for an accepted action (the play, islands
taken and lost, scorings, the start of a round, the end of the game), and the lines the table
page repeats for the last play and the last scoring.
"""

from __future__ import annotations

from companion.games.base import N_, Msg, Plural, Seat, acting_seat, and_list
from companion.games.kahuna.facts import COLOUR_WORDS, COLOURS, other, parse_island, site_name
from companion.games.kahuna.state import drawable
from companion.games.kahuna.views import final_result

# Lines written by earlier releases, before they became plural messages. Stored history rows keep
# their msgid, so these stay in the catalogues (pybabel extracts them from here) and old rows
# still read in every language.
EARLIER_LINES = (
    N_("%(seat)s discarded face down: %(count)s cards"),
    # Before the end of the game became a plural message ("wins with 1 points"):
    N_("Game over: a draw at %(points)s points each."),
    N_("Game over: %(seat)s wins with %(points)s points to %(other)s."),
    N_("Points: %(seat)s +%(points)s"),
    # Before the lines ended with a full stop, as the other games' lines do:
    N_("%(seat)s built a bridge on %(site)s (card %(card)s)"),
    N_("%(seat)s removed the %(colour)s bridge on %(site)s (cards %(first)s and %(second)s)"),
    N_("%(seat)s took %(island)s"),
    N_("%(seat)s took %(island)s: %(colour)s bridge %(sites)s destroyed"),
    N_("%(seat)s took %(island)s: %(colour)s bridges %(sites)s destroyed"),
    N_("%(seat)s lost %(island)s"),
    N_("Equal points: %(seat)s scored in round 3 and wins the tie"),
    N_(
        "Equal points and no round-3 score: %(seat)s has more bridges on the board "
        "(%(mine)s to %(theirs)s)"
    ),
    N_("Equal points, no round-3 score and as many bridges each (%(bridges)s): a draw"),
    N_("Round %(round)s scored: islands held: White %(white)s, Black %(black)s"),
    N_("Equal islands: nobody scores"),
    N_("Face-up card entered: %(island)s"),
    N_("%(seat)s drew the top card of the deck"),
    N_("%(seat)s took %(island)s from the face-up cards"),
    N_("Table option Arabana switched on: no bridge may touch an island the opponent controls"),
    N_("Table option Arabana switched off: bridges may touch any island"),
    N_("%(seat)s ended the turn without drawing"),
    N_("%(seat)s must draw next turn"),
    N_("No cards left: each player has one more turn, starting with %(seat)s"),
    N_("Round %(round)s begins: turn up 3 cards; %(seat)s plays first"),
    N_("Game over: a draw at %(points)s points each"),
    N_("Game over: %(seat)s wins with %(points)s points to %(other)s"),
)
# The plural lines of before the full stop, as messages (with sample parameters: pybabel
# extracts both forms of each from here, and a test renders them); describe() never writes them.
EARLIER_PLURAL_LINES = (
    Plural(
        "%(seat)s scored %(points)s point",
        "%(seat)s scored %(points)s points",
        "points",
        seat=Seat(0),
        points=2,
    ),
    Plural(
        "%(seat)s discarded %(number)s card face down",
        "%(seat)s discarded %(number)s cards face down",
        "number",
        seat=Seat(0),
        number=2,
    ),
)


def _play_lines(changes: dict) -> list[Msg]:
    seat = changes["seat"]
    colour = COLOURS[seat]
    rival = other(colour)
    lines = []
    if changes["kind"] == "place":
        lines.append(
            Msg(
                N_("%(seat)s built a bridge on %(site)s (card %(card)s)."),
                seat=Seat(seat),
                site=site_name(changes["site"]),
                card=changes["cards"][0],
            )
        )
    else:
        lines.append(
            Msg(
                N_(
                    "%(seat)s removed the %(colour)s bridge on %(site)s (cards %(first)s and "
                    "%(second)s)."
                ),
                seat=Seat(seat),
                colour=Msg(COLOUR_WORDS[rival]),
                site=site_name(changes["site"]),
                first=changes["cards"][0],
                second=changes["cards"][1],
            )
        )
    for island in changes["gained"][colour]:
        gone = [k for k in changes["destroyed"] if island in k.split("-")]
        if changes["kind"] == "remove" or not gone:
            lines.append(Msg(N_("%(seat)s took %(island)s."), seat=Seat(seat), island=island))
        elif len(gone) == 1:
            lines.append(
                Msg(
                    N_("%(seat)s took %(island)s: %(colour)s bridge %(sites)s destroyed."),
                    seat=Seat(seat),
                    island=island,
                    colour=Msg(COLOUR_WORDS[rival]),
                    sites=site_name(gone[0]),
                )
            )
        else:
            lines.append(
                Msg(
                    N_("%(seat)s took %(island)s: %(colour)s bridges %(sites)s destroyed."),
                    seat=Seat(seat),
                    island=island,
                    colour=Msg(COLOUR_WORDS[rival]),
                    sites=and_list([site_name(key) for key in gone]),
                )
            )
    for island in changes["lost"][rival]:
        lines.append(Msg(N_("%(seat)s lost %(island)s."), seat=Seat(1 - seat), island=island))
    return lines


def describe_play(changes: dict | None) -> list[Msg]:
    """The history lines of a play stored in state["last_changes"] (for the board's caption)."""
    return _play_lines(changes) if changes else []


def describe_scoring(entry: dict) -> list[Msg]:
    """The history lines of one entry of state["rounds"] (for the round panel's message)."""
    return _round_lines(entry)


def tie_break_line(final: dict) -> Msg | None:
    """The tie-break of a finished game in words (the history's last line and the final score
    table's note), or None when the points decided."""
    how, winner = final["tie_break"], final["winner"]
    if how == "round-3":
        return Msg(
            N_("Equal points: %(seat)s scored in round 3 and wins the tie."), seat=Seat(winner)
        )
    if how == "bridges":
        return Msg(
            N_(
                "Equal points and no round-3 score: %(seat)s has more bridges on "
                "the board (%(mine)s to %(theirs)s)."
            ),
            seat=Seat(winner),
            mine=final["bridges"][winner],
            theirs=final["bridges"][1 - winner],
        )
    if how == "draw":
        return Msg(
            N_("Equal points, no round-3 score and as many bridges each (%(bridges)s): a draw."),
            bridges=final["bridges"][0],
        )
    return None


def _round_lines(entry: dict) -> list[Msg]:
    islands, points = entry["islands"], entry["points"]
    lines = [
        Msg(
            N_("Round %(round)s scored: islands held: White %(white)s, Black %(black)s."),
            round=entry["round"],
            white=islands[0],
            black=islands[1],
        )
    ]
    if points == [0, 0]:
        lines.append(Msg(N_("Equal islands: nobody scores.")))
    else:
        winner = 0 if points[0] else 1
        lines.append(
            Plural(
                "%(seat)s scored %(points)s point.",
                "%(seat)s scored %(points)s points.",
                "points",
                seat=Seat(winner),
                points=points[winner],
            )
        )
    return lines


def describe(before: dict, action: dict, after: dict) -> list[Msg]:
    """History lines for an accepted action, including control changes and scorings it caused."""
    kind = action.get("type")
    lines: list[Msg] = []
    if kind == "reveal":
        lines.append(Msg(N_("Face-up card entered: %(island)s."), island=after["display"][-1]))
    elif kind in ("place", "remove"):
        lines.extend(_play_lines(after["last_changes"]))
    elif kind == "discard":
        lines.append(
            Plural(
                "%(seat)s discarded %(number)s card face down.",
                "%(seat)s discarded %(number)s cards face down.",
                "number",
                seat=Seat(acting_seat(action)),
                number=action["count"],
            )
        )
    elif kind == "draw" and action.get("source") == "deck":
        lines.append(
            Msg(N_("%(seat)s drew the top card of the deck."), seat=Seat(acting_seat(action)))
        )
    elif kind == "draw":
        lines.append(
            Msg(
                N_("%(seat)s took %(island)s from the face-up cards."),
                seat=Seat(acting_seat(action)),
                island=parse_island(action.get("island")),
            )
        )
    elif kind == "set_option":
        lines.append(
            Msg(
                N_(
                    "Table option Arabana switched on: no bridge may touch an island the "
                    "opponent controls."
                )
                if after["options"]["arabana"]
                else N_("Table option Arabana switched off: bridges may touch any island.")
            )
        )
    elif kind == "end_turn":
        lines.append(
            Msg(N_("%(seat)s ended the turn without drawing."), seat=Seat(acting_seat(action)))
        )
        if after["must_draw"] and drawable(after):
            lines.append(Msg(N_("%(seat)s must draw next turn."), seat=Seat(after["turn"])))
    for entry in after["rounds"][len(before["rounds"]) :]:
        lines.extend(_round_lines(entry))
    if after["final_turns"] is not None and before["final_turns"] is None:
        lines.append(
            Msg(
                N_("No cards left: each player has one more turn, starting with %(seat)s."),
                seat=Seat(after["turn"]),
            )
        )
    if after["round"] > before["round"]:
        lines.append(
            Msg(
                N_("Round %(round)s begins: turn up 3 cards; %(seat)s plays first."),
                round=after["round"],
                seat=Seat(after["turn"]),
            )
        )
    if after["over"] and not before["over"]:
        final = final_result(after)
        if final["winner"] is None:
            lines.append(
                Plural(
                    "Game over: a draw at %(points)s point each.",
                    "Game over: a draw at %(points)s points each.",
                    "points",
                    points=final["points"][0],
                )
            )
        else:
            lines.append(
                Plural(
                    "Game over: %(seat)s wins with %(points)s point to %(other)s.",
                    "Game over: %(seat)s wins with %(points)s points to %(other)s.",
                    "points",
                    seat=Seat(final["winner"]),
                    points=final["points"][final["winner"]],
                    other=final["points"][1 - final["winner"]],
                )
            )
            tie = tie_break_line(final)
            if tie is not None:
                lines.append(tie)
    return lines
