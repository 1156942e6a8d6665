"""Kahuna's moves: one handler per action type (the formats are in rules.py's docstring), each
changing its own copy of the state or raising RuleError, applied by the shared Moves dispatcher;
and which accepted entries the acting seat may take back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import (
    ANYONE,
    HOST,
    N_,
    Move,
    Moves,
    Plural,
    RuleError,
    Seat,
    acting_seat,
    comma_list,
)
from companion.games.kahuna.bridges import bridges_from_json, bridges_to_json, control
from companion.games.kahuna.checks import check_place, check_remove, not_on_turn, turn
from companion.games.kahuna.facts import (
    CARDS_PER_ISLAND,
    COLOURS,
    DECK_SIZE,
    DISPLAY_SIZE,
    HAND_LIMIT,
    ISLANDS,
    ROUNDS,
    Site,
    parse_island,
    parse_site,
    site_key,
)
from companion.games.kahuna.scoring import round_points
from companion.games.kahuna.state import (
    accounted,
    drawable,
    held_by_seat,
    is_over,
    options_open,
    over_message,
)

Action = Mapping[str, Any]


def _play_cards(state: dict, seat: int, cards: list[str]) -> None:
    """Move played cards from the hand (known ones first) to this turn's played cards."""
    for island in cards:
        if island in state["known"][seat]:
            state["known"][seat].remove(island)
    state["hands"][seat] -= len(cards)
    state["played"].extend(cards)


def _record_changes(
    state: dict,
    seat: int,
    kind: str,
    site: Site,
    cards: list[str],
    before: dict[Site, str],
    after: dict[Site, str],
    destroyed: list[Site],
) -> None:
    """Store what the play changed, so the page can highlight it and the history can say it."""
    was, now = control(before), control(after)
    state["plays"] += 1
    state["last_changes"] = {
        "play": state["plays"],
        "seat": seat,
        "kind": kind,
        "site": site_key(site),
        "cards": list(cards),
        "destroyed": [site_key(s) for s in destroyed],
        "gained": {c: [i for i in ISLANDS if now.get(i) == c and was.get(i) != c] for c in COLOURS},
        "lost": {c: [i for i in ISLANDS if was.get(i) == c and now.get(i) != c] for c in COLOURS},
    }


def _do_set_option(state: dict, action: Action) -> None:
    if not options_open(state):
        raise RuleError(
            "arabana",
            N_(
                "The table options can only change before the first turn "
                "action: undo back to the start to change them."
            ),
        )
    value = action.get("arabana")
    if not isinstance(value, bool):
        raise RuleError("arabana", N_("The Arabana option is on or off."))
    state["options"]["arabana"] = value


def _do_reveal(state: dict, action: Action) -> None:
    if not state["pending_reveals"]:
        raise RuleError("reveal", N_("No face-up card is waiting to be entered."))
    island = parse_island(action.get("island"))
    if accounted(state, island) >= CARDS_PER_ISLAND:
        raise RuleError(
            "card-count",
            N_(
                "Both %(island)s cards are already accounted for (face up, "
                "played or known in a hand): check the card."
            ),
            island=island,
        )
    state["display"].append(island)
    state["deck"] -= 1
    state["pending_reveals"] -= 1


def _do_place(state: dict, action: Action) -> None:
    seat = acting_seat(action)
    site = parse_site(action.get("site"))
    card = parse_island(action.get("card"))
    before = bridges_from_json(state["bridges"])
    after, destroyed = check_place(state, seat, site, card)
    _play_cards(state, seat, [card])
    state["bridges"] = bridges_to_json(after)
    _record_changes(state, seat, "place", site, [card], before, after, destroyed)


def _do_remove(state: dict, action: Action) -> None:
    seat = acting_seat(action)
    site = parse_site(action.get("site"))
    raw = action.get("cards")
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise RuleError("remove-cards", N_("Removing a bridge takes exactly 2 cards."))
    cards = [parse_island(c) for c in raw]
    before = bridges_from_json(state["bridges"])
    after = check_remove(state, seat, site, cards)
    _play_cards(state, seat, cards)
    state["bridges"] = bridges_to_json(after)
    _record_changes(state, seat, "remove", site, cards, before, after, [site])


def _do_discard(state: dict, action: Action) -> None:
    seat = acting_seat(action)
    if state["played"]:
        raise RuleError(
            "discard",
            N_(
                "You played cards this turn: discarding face down is only for a "
                "turn without playing."
            ),
        )
    count = action.get("count")
    hand = state["hands"][seat]
    if hand == 0:
        raise RuleError("discard", N_("You hold no card, so there is nothing to discard."))
    if type(count) is not int or not 1 <= count <= hand:
        raise RuleError.of(
            "discard",
            Plural(
                "You hold %(hand)s card: you can discard only that one.",
                "Discard between 1 and %(hand)s cards (the cards in your hand).",
                "hand",
                hand=hand,
            ),
        )
    state["hands"][seat] -= count
    state["discard_down"] += count
    state["discarded"] += count
    # Nobody sees which cards went: the rest of this hand is unknown again.
    state["known"][seat] = []


def _do_draw(state: dict, action: Action) -> None:
    seat = acting_seat(action)
    if not drawable(state):
        raise RuleError("final-turns", N_("There is nothing left to draw: end your turn."))
    if state["hands"][seat] >= HAND_LIMIT:
        raise RuleError(
            "hand-limit",
            N_(
                "You hold 5 cards, the most allowed: to draw, first discard at "
                "least one face down (possible only if you played no card this turn)."
            ),
        )
    source = action.get("source")
    if source == "deck":
        if state["deck"] == 0:
            raise RuleError(
                "draw",
                N_("The deck is empty: take a face-up card (%(cards)s)."),
                cards=comma_list(state["display"]),
            )
        state["deck"] -= 1
    elif source == "display":
        island = parse_island(action.get("island"))
        if not state["display"]:
            raise RuleError("draw", N_("No card is face up: draw from the deck."))
        if island not in state["display"]:
            raise RuleError(
                "draw",
                N_("%(island)s is not face up; the face-up cards are %(cards)s."),
                island=island,
                cards=comma_list(state["display"]),
            )
        state["display"].remove(island)
        state["known"][seat].append(island)
        if state["deck"] > 0:
            state["pending_reveals"] = 1  # the table turns up the next card and enters it
    else:
        raise RuleError("draw", N_("Draw from the deck or from the face-up cards."))
    state["hands"][seat] += 1
    _finish_turn(state, drew=True)


def _do_end_turn(state: dict, action: Action) -> None:
    seat = acting_seat(action)
    if state["must_draw"] and drawable(state):
        if state["hands"][seat] >= HAND_LIMIT:
            raise RuleError(
                "must-draw",
                N_(
                    "%(other)s did not draw, so you must draw this turn: you "
                    "hold 5 cards, so discard at least one face down first."
                ),
                other=Seat(1 - seat),
            )
        raise RuleError(
            "must-draw",
            N_("%(other)s did not draw, so you must draw a card this turn."),
            other=Seat(1 - seat),
        )
    _finish_turn(state, drew=False)


def _finish_turn(state: dict, drew: bool) -> None:
    """Played cards go to the discard pile, the turn passes, and a round may end."""
    seat = state["turn"]
    state["discard_up"].extend(state["played"])
    state["played"] = []
    state["discarded"] = 0
    state["turn"] = 1 - seat
    if state["final_turns"] is not None:
        state["final_turns"] -= 1
        if state["final_turns"] == 0:
            _score_round(state)
            state["over"] = True
        return
    state["must_draw"] = not drew
    if drew and state["deck"] == 0 and not state["display"]:
        if state["round"] < ROUNDS:
            _score_round(state)
            _start_next_round(state)
        else:
            state["final_turns"] = 2  # the opponent, then the player who drew the last card
            state["must_draw"] = False


def _score_round(state: dict) -> None:
    held = held_by_seat(state)
    points = round_points(state["round"], dict(zip(COLOURS, held)))
    state["rounds"].append(
        {"round": state["round"], "islands": held, "points": [points[c] for c in COLOURS]}
    )


def _start_next_round(state: dict) -> None:
    """All discards become the new deck; hands and board stay; 3 cards go face up."""
    state["round"] += 1
    state["deck"] = DECK_SIZE - sum(state["hands"])  # each reveal moves one face up
    state["display"] = []
    state["pending_reveals"] = DISPLAY_SIZE
    state["discard_up"] = []
    state["discard_down"] = 0
    state["must_draw"] = False


# A card turned face up is seen by everyone: anyone at the table may enter it (while one is
# awaited). The options are the host's, before the first card; every other entry is the turn's.
MOVES = Moves(
    {
        "reveal": Move(_do_reveal, ANYONE, lambda state: bool(state["pending_reveals"])),
        "place": Move(_do_place),
        "remove": Move(_do_remove),
        "discard": Move(_do_discard),
        "draw": Move(_do_draw),
        "end_turn": Move(_do_end_turn),
        "set_option": Move(_do_set_option, HOST, options_open),
    },
    is_over=is_over,
    over_message=over_message,
    turn=turn,
    not_on_turn=not_on_turn,
    host_rule="arabana",
)
apply = MOVES.apply


def seat_may_undo(before: dict, action: dict, after: dict) -> bool:
    """The exception to the one undo policy (companion.games.base.Rules.seat_may_undo): a card
    drawn from the face-down deck has been seen by the one who drew it, so they may not take the
    draw back and choose again (rule "draw"); the host may."""
    return not (action.get("type") == "draw" and action.get("source") == "deck")
