"""Kahuna's checks of a play: whose turn it is, whether a card may still be played this turn,
whether the cards could be in that hand, and every check of building or removing a bridge.
legal_cards_for() asks them for each card choice a tapped site allows (the table page's
"which card did you play?" question); the moves ask them before changing the state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.games.base import N_, Msg, Plural, RuleError, Seat, comma_list
from companion.games.kahuna.bridges import bridges_from_json, control, place, remove
from companion.games.kahuna.facts import (
    CARDS_PER_ISLAND,
    COLOUR_WORDS,
    COLOURS,
    MAX_CARDS_PER_TURN,
    Site,
    other,
    parse_site,
    site_key,
    site_name,
)
from companion.games.kahuna.state import accounted, is_over, over_message


def turn(state: dict) -> list[int]:
    """The seat on turn, once the face-up cards are entered and while the game goes on."""
    if is_over(state) or state["pending_reveals"]:
        return []
    return [state["turn"]]


def not_on_turn(state: dict, action: Mapping) -> RuleError:
    """The refusal of a turn's entry for a seat that is not on turn (or before the face-up cards
    just turned over are entered)."""
    if state["pending_reveals"]:
        return RuleError.of(
            "reveal",
            Plural(
                "First enter the face-up card just turned over (%(number)s still to enter).",
                "First enter the face-up cards just turned over (%(number)s still to enter).",
                "number",
                number=state["pending_reveals"],
            ),
        )
    return RuleError(
        "turn-order", N_("It is not your turn: %(seat)s plays now."), seat=Seat(state["turn"])
    )


def acting_seat(state: dict, action: Mapping) -> int:
    """The seat whose turn it is, checked against the action as the moves' dispatcher checks it
    (for questions asked outside a move, such as what a tapped site offers); RuleError else."""
    seat = action.get("seat")
    if type(seat) is not int or seat not in (0, 1):
        raise RuleError("turn-order", N_("Say which seat acts: 0 for White or 1 for Black."))
    if seat not in turn(state):
        raise not_on_turn(state, action)
    return seat


def check_may_play(state: dict, seat: int, cards: int) -> None:
    """A card may be played now: nothing discarded face down, at most 5 cards this turn."""
    if state["discarded"]:
        raise RuleError(
            "discard",
            N_(
                "You discarded face down this turn, so you cannot play cards: "
                "draw a card or end the turn."
            ),
        )
    room = MAX_CARDS_PER_TURN - len(state["played"])
    if cards > room and room == 0:
        raise RuleError(
            "play-limit",
            N_("A turn plays at most 5 cards, and you have played them all this turn."),
        )
    if cards > room:
        raise RuleError.of(
            "play-limit",
            Plural(
                "A turn plays at most 5 cards; you may play %(room)s more card.",
                "A turn plays at most 5 cards; you may play %(room)s more cards.",
                "room",
                room=room,
            ),
        )


def check_cards_held(state: dict, seat: int, cards: list[str]) -> None:
    """These cards could all be in the seat's hand (by count and by the 2 copies of each island)."""
    hand = state["hands"][seat]
    if hand == 0:
        raise RuleError("card-count", N_("You have no card in hand."))
    if len(cards) > hand:
        raise RuleError.of(
            "card-count",
            Plural(
                "You hold only %(number)s card; this move needs %(need)s.",
                "You hold only %(number)s cards; this move needs %(need)s.",
                "number",
                number=hand,
                need=len(cards),
            ),
        )
    known = Counter(state["known"][seat])
    unknown = hand - len(state["known"][seat])
    from_unknown = 0
    for island, count in Counter(cards).items():
        extra = count - known[island]
        if extra <= 0:
            continue
        if extra > CARDS_PER_ISLAND - accounted(state, island):
            raise RuleError.of(
                "card-count",
                Plural(
                    "There are only 2 %(island)s cards and the others are "
                    "accounted for (face up, played or known in a hand), so "
                    "you cannot play %(number)s more.",
                    "There are only 2 %(island)s cards and the others are "
                    "accounted for (face up, played or known in a hand), so "
                    "you cannot play %(number)s more.",
                    "number",
                    island=island,
                    number=extra,
                ),
            )
        from_unknown += extra
    if from_unknown > unknown:
        raise RuleError(
            "card-count",
            N_("The cards in your hand are known: %(cards)s."),
            cards=comma_list(sorted(state["known"][seat])),
        )


def check_place(state: dict, seat: int, site: Site, card: str) -> tuple[dict, list]:
    """Every check for building on `site` with `card`; returns what place() gives."""
    check_may_play(state, seat, 1)
    bridges = bridges_from_json(state["bridges"])
    colour = COLOURS[seat]
    if site in bridges:
        raise RuleError(
            "site-free",
            N_("Site %(site)s already holds a %(colour)s bridge."),
            site=site_name(site),
            colour=Msg(COLOUR_WORDS[bridges[site]]),
        )
    if card not in site:
        raise RuleError(
            "place-card",
            N_(
                "A %(card)s card builds only on a site touching %(card)s: "
                "for %(site)s play a %(a)s or a %(b)s card."
            ),
            card=card,
            site=site_name(site),
            a=site[0],
            b=site[1],
        )
    if state["options"]["arabana"]:
        held = control(bridges)
        for island in site:
            if held.get(island) == other(colour):
                raise RuleError(
                    "arabana",
                    N_(
                        "Table option Arabana: no bridge may touch %(island)s "
                        "while %(colour)s controls it."
                    ),
                    island=island,
                    colour=Msg(COLOUR_WORDS[other(colour)]),
                )
    check_cards_held(state, seat, [card])
    return place(bridges, site, colour)


def check_remove(state: dict, seat: int, site: Site, cards: list[str]) -> dict:
    """Every check for removing the opponent's bridge on `site` with two cards; the new bridges."""
    check_may_play(state, seat, 2)
    bridges = bridges_from_json(state["bridges"])
    after = remove(bridges, site, COLOURS[seat])
    if len(cards) != 2:
        raise RuleError("remove-cards", N_("Removing a bridge takes exactly 2 cards."))
    for card in cards:
        if card not in site:
            raise RuleError(
                "remove-cards",
                N_(
                    "Each card must name an end of the bridge: for %(site)s "
                    "play %(a)s+%(a)s, %(a)s+%(b)s or %(b)s+%(b)s."
                ),
                site=site_name(site),
                a=site[0],
                b=site[1],
            )
    check_cards_held(state, seat, cards)
    return after


# --- the card question of the table page ---------------------------------------------------


def _candidates(site: Site, kind: str) -> list[list[str]]:
    a, b = site
    if kind == "place":
        return [[a], [b]]
    return [[a, a], [a, b], [b, b]]


def legal_cards_for(state: dict, seat: int | None, site: Any) -> dict:
    """Which card(s) let `seat` play on `site` now, for the "which cards did you play?" question.

    Returns {"site", "action": "place" | "remove" | None, "options": [[card, ...], ...],
    "refused": [{"cards", "rule", "reason"}], "rule", "reason"}: options are the card choices the
    rules accept; when there is none, rule/reason say why (the first refusal).
    """
    answer: dict[str, Any] = {
        "site": None,
        "action": None,
        "options": [],
        "refused": [],
        "rule": None,
        "reason": None,
    }
    try:
        site = parse_site(site)
        answer["site"] = site_key(site)
        if is_over(state):
            raise RuleError.of("game-over", over_message(state))
        seat = acting_seat(state, {"seat": seat})
        owner = state["bridges"].get(site_key(site))
        if owner == COLOURS[seat]:
            raise RuleError(
                "remove-opponent",
                N_("The bridge on %(site)s is your own: only %(rival)s bridges can be removed."),
                site=site_name(site),
                rival=Msg(COLOUR_WORDS[other(COLOURS[seat])]),
            )
        kind = "place" if owner is None else "remove"
        answer["action"] = kind
        check_may_play(state, seat, 1 if kind == "place" else 2)
    except RuleError as err:
        answer.update(rule=err.rule, reason=err.msg)
        return answer
    for cards in _candidates(site, kind):
        try:
            if kind == "place":
                check_place(state, seat, site, cards[0])
            else:
                check_remove(state, seat, site, cards)
            answer["options"].append(cards)
        except RuleError as err:
            answer["refused"].append({"cards": cards, "rule": err.rule, "reason": err.msg})
    if not answer["options"] and answer["refused"]:
        answer.update(rule=answer["refused"][0]["rule"], reason=answer["refused"][0]["reason"])
    return answer
