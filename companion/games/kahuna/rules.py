"""Kahuna: the pure rules (two players, twelve islands, three scorings).

The board (islands, bridge sites, layout) comes from data/kahuna_board.json beside this module,
read once at import. Seat 0 plays White, seat 1 plays Black; White takes the first turn.

The app does not see the cards in anyone's hand: it counts them. The table enters every face-up
card as it is turned over, and each played card names its island, so the app can check that the
card could be in that hand (2 copies of each island exist) and that it fits the move.

Action types (every action also carries "seat" and "host" as the protocol says):

    reveal    {"island": str}
        The table enters a card just turned face up (3 at the start of each round, then one each
        time a face-up card is taken while the deck has cards). "seat" may be None: anyone may
        enter it. Nothing else can happen while a face-up card is waiting to be entered.
    place     {"seat": int, "site": "Aloa-Bari", "card": str}
        Play one card and build a bridge on a free site touching the card's island.
        "site" may also be a list of the two island names, in either order.
    remove    {"seat": int, "site": "Aloa-Bari", "cards": [str, str]}
        Play two cards, each naming either end of the site, to remove the opponent's bridge there.
    discard   {"seat": int, "count": int}
        Instead of playing cards: put this many cards face down under the discard pile.
    draw      {"seat": int, "source": "deck" | "display", "island": str (for "display")}
        End the turn by taking the top card of the deck or one face-up card.
    end_turn  {"seat": int}
        End the turn without drawing (then the opponent must draw next turn).
    set_option {"arabana": bool}
        The host's device switches the Arabana table option, only before the first turn action
        (the lobby creates every table with the defaults).

Pure functions for the calculator pages: control(), place(), remove(), round_points(),
legal_cards_for(); board data: ISLANDS, SITES, DEGREES, SITES_OF, LAYOUT.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Mapping
from importlib import resources
from typing import Any

from companion.games.base import N_, Msg, RuleError, Seat

SEAT_LABELS = (N_("White"), N_("Black"))
COLOURS = ("white", "black")  # index = seat
COLOUR_WORDS = {"white": N_("white"), "black": N_("black")}

Site = tuple[str, str]


# --- the board, loaded once from the data file -------------------------------------------------


def _load_board() -> dict:
    """Read the board graph shipped beside this module (a copy of ../shared/data)."""
    ref = resources.files(__package__).joinpath("data").joinpath("kahuna_board.json")
    return json.loads(ref.read_text(encoding="utf-8"))


def _check_board(board: dict) -> None:
    """Refuse to start with a damaged board file: every later rule trusts these numbers."""
    islands = board["islands"]
    sites = [tuple(s) for s in board["sites"]]
    if len(set(islands)) != len(islands):
        raise ValueError("kahuna board: an island is listed twice")
    if len(set(sites)) != len(sites):
        raise ValueError("kahuna board: a site is listed twice")
    for a, b in sites:
        if a not in islands or b not in islands or not a < b:
            raise ValueError(f"kahuna board: bad site {a}-{b}")
    degrees = Counter(i for s in sites for i in s)
    if dict(degrees) != board["degrees"]:
        raise ValueError("kahuna board: printed degrees differ from the sites")
    if set(board["layout"]) != set(islands):
        raise ValueError("kahuna board: layout does not cover every island")


BOARD = _load_board()
_check_board(BOARD)

ISLANDS: tuple[str, ...] = tuple(BOARD["islands"])
SITES: tuple[Site, ...] = tuple((a, b) for a, b in BOARD["sites"])
DEGREES: dict[str, int] = dict(BOARD["degrees"])
SITES_OF: dict[str, tuple[Site, ...]] = {i: tuple(s for s in SITES if i in s) for i in ISLANDS}
LAYOUT: dict[str, tuple[float, float]] = {i: (xy[0], xy[1]) for i, xy in BOARD["layout"].items()}
BRIDGES_PER_COLOUR: int = BOARD["pieces_per_player"]["bridges"]  # 25
STONES_PER_COLOUR: int = BOARD["pieces_per_player"]["kahuna_stones"]  # 10

CARDS_PER_ISLAND = 2
DECK_SIZE = CARDS_PER_ISLAND * len(ISLANDS)  # 24
START_HAND = 3
DISPLAY_SIZE = 3
HAND_LIMIT = 5
MAX_CARDS_PER_TURN = 5
ROUNDS = 3
ROUND_POINTS = {1: 1, 2: 2}  # round 3 scores the difference

_ISLAND_BY_LOWER = {i.lower(): i for i in ISLANDS}
_SITE_SET = frozenset(SITES)

OPTIONS = {"arabana": N_("Arabana: no bridge on a site touching an island the opponent controls")}


# --- rule ids and readings (the rules page lists them in this order) -------------------------

RULES: dict[str, str] = {
    "board": N_("The board: 12 islands and 27 bridge sites"),
    "reveal": N_("The face-up cards"),
    "turn-order": N_("Taking turns"),
    "play-limit": N_("Playing up to 5 cards in a turn"),
    "card-count": N_("Which cards can be in a hand"),
    "island-unknown": N_("The island names"),
    "site-unknown": N_("Bridge sites"),
    "site-free": N_("Building on a free site"),
    "place-card": N_("One card builds one bridge"),
    "bridge-supply": N_("25 bridges each"),
    "arabana": N_("Table option: Arabana"),
    "remove-opponent": N_("Removing an opponent's bridge"),
    "remove-cards": N_("Two cards remove one bridge"),
    "control": N_("Controlling an island"),
    "destroy": N_("Taking an island destroys the opponent's bridges there"),
    "stone-supply": N_("10 Kahuna stones each"),
    "discard": N_("The turn of discarding face down"),
    "draw": N_("Drawing a card"),
    "hand-limit": N_("Never more than 5 cards in hand"),
    "must-draw": N_("Declining to draw"),
    "round-end": N_("End of a round and its scoring"),
    "final-turns": N_("The last turns of round 3"),
    "winner": N_("Winner and tie-breaks"),
    "game-over": N_("The game is over"),
    "action": N_("Entries the app understands"),
    "players": N_("Two players"),
}

CLARIFICATIONS: dict[str, str] = {
    "control": N_(
        "An island is controlled by the colour that owns bridges on strictly more than half of ALL "
        "its sites, free sites included: 2 of 3, 3 of 4, 3 of 5, 4 of 6. Control depends only on "
        "your own bridges, so removing an opponent's bridge can cost them an island but never "
        "gives you one."
    ),
    "double-capture": N_(
        "One bridge counts for both islands it joins, so a single bridge can take both of them; "
        "the opponent's bridges on both islands are then destroyed."
    ),
    "destroy": N_(
        "Bridges are destroyed only at the moment an island is taken. An opponent's bridge built "
        "later on an island you already hold stays (unless the Arabana option forbids building it)."
    ),
    "chain": N_(
        "A destroyed bridge can cost its owner the island at its other end: only the stone goes, "
        "their other bridges there stay. Nothing goes further, because losing bridges never gives "
        "anyone control."
    ),
    "arabana": N_(
        "With the table option Arabana (the original reading), no bridge may be built on a site "
        "touching an island the opponent controls. It is off by default: building there is allowed."
    ),
    "remove-then-build": N_(
        "After removing a bridge you may build on the freed site in the same turn with one more card, "
        "as for any free site."
    ),
    "stone-supply": N_(
        "Each player has 10 Kahuna stones and the number of stones on the board is the number of "
        "islands held. A bridge that would give a player an 11th island is therefore refused."
    ),
    "bridge-supply": N_(
        "A player with all 25 bridges on the board cannot build until one comes back."
    ),
    "first-player": N_(
        "The rule text does not say who starts: in the app White starts, so whoever should begin "
        "takes White."
    ),
    "card-count": N_(
        "The app tracks every card whose island is public: the face-up cards, cards taken from "
        "them, and played cards. A card can only be played if one of its two copies may still be in "
        "that hand. After discarding face down, the cards left in that hand count as unknown again."
    ),
    "play-limit": N_(
        "A turn plays at most 5 cards, one move at a time; a removal plays its two cards together."
    ),
    "discard": N_(
        "Discarding face down is a turn of its own: only when no card has been played this turn, "
        "and no card can be played after it. It is also how a player holding 5 cards makes room "
        "before drawing (with a card played, a hand holds at most 4)."
    ),
    "draw": N_(
        "When a face-up card is taken, the table turns up the next deck card and enters it before "
        "play goes on. Once the deck is empty, the face-up row simply shrinks."
    ),
    "hand-limit": N_(
        "A player holding 5 cards must discard at least one before drawing; a hand of 4 may draw "
        "up to 5."
    ),
    "must-draw": N_(
        "A player who declines to draw obliges the opponent to draw on their next turn. The "
        "obligation lapses when there is nothing left to draw (the last turns of round 3)."
    ),
    "round-end": N_(
        "A round ends as soon as the last card of the deck and the face-up row has been drawn. "
        "Rounds 1 and 2 are scored at once; all discards become the new deck, hands and board stay, "
        "3 cards are turned face up and the other player begins."
    ),
    "final-turns": N_(
        "In round 3, once the last card is drawn, the other player has one more turn, then the "
        "player who drew it has one more turn; nobody can draw. Then round 3 is scored and the game ends."
    ),
    "winner": N_(
        "More points wins. On equal points the player who scored in round 3 wins, then the player "
        "with more bridges on the board; otherwise it is a draw."
    ),
}


# --- sites and bridges -----------------------------------------------------------------------


def site_key(site: Site) -> str:
    """The JSON form of a site: "Aloa-Bari"."""
    return f"{site[0]}-{site[1]}"


def _short(value: Any) -> str:
    """A bounded printable form of a bad input, for refusal messages."""
    text = value if isinstance(value, str) else repr(value)
    return text[:40]


def parse_island(value: Any) -> str:
    """The island an input names (case does not matter); RuleError when none."""
    if isinstance(value, str) and value.strip().lower() in _ISLAND_BY_LOWER:
        return _ISLAND_BY_LOWER[value.strip().lower()]
    raise RuleError(
        "island-unknown",
        N_("%(value)s is not an island: the islands are %(islands)s."),
        value=_short(value),
        islands=", ".join(ISLANDS),
    )


def parse_site(value: Any) -> Site:
    """A site from "Aloa-Bari", ("Aloa", "Bari") or either order; RuleError when no such site."""
    parts: Any = value
    if isinstance(value, str):
        parts = value.split("-")
    if not isinstance(parts, (list, tuple)) or len(parts) != 2:
        raise RuleError(
            "site-unknown",
            N_("%(value)s is not a bridge site: write it like Aloa-Bari."),
            value=_short(value),
        )
    a, b = sorted((parse_island(parts[0]), parse_island(parts[1])))
    if (a, b) not in _SITE_SET:
        raise RuleError(
            "site-unknown",
            N_("No bridge site joins %(a)s and %(b)s: %(a)s has sites to %(others)s."),
            a=a,
            b=b,
            others=", ".join(_other_end((a, b)[0], s) for s in SITES_OF[a]),
        )
    return (a, b)


def _other_end(island: str, site: Site) -> str:
    return site[1] if site[0] == island else site[0]


def parse_colour(value: Any) -> str:
    """ "white" or "black"; RuleError otherwise."""
    if value in COLOURS:
        return value
    raise RuleError(
        "action", N_("%(value)s is not a colour: use white or black."), value=_short(value)
    )


def other(colour: str) -> str:
    """The opponent's colour."""
    return COLOURS[1 - COLOURS.index(colour)]


def _validated(bridges: Mapping) -> dict[Site, str]:
    """A checked copy of a bridges mapping (site -> colour) with normalised site tuples."""
    if not isinstance(bridges, Mapping):
        raise RuleError("action", N_("The bridges must be a map from site to colour."))
    return {parse_site(site): parse_colour(colour) for site, colour in bridges.items()}


def bridges_from_json(data: Mapping[str, str]) -> dict[Site, str]:
    """Bridges stored in a state ({"Aloa-Bari": "white"}) as a site-tuple mapping."""
    return _validated(data)


def bridges_to_json(bridges: Mapping[Site, str]) -> dict[str, str]:
    """Bridges as stored in a state: {"Aloa-Bari": "white"}, sorted by site."""
    return {site_key(s): bridges[s] for s in sorted(bridges)}


def bridge_counts(bridges: Mapping[Site, str]) -> dict[str, int]:
    """How many bridges each colour has on the board."""
    counts = Counter(bridges.values())
    return {c: counts[c] for c in COLOURS}


def needed(island: str) -> int:
    """Bridges a colour needs on an island to control it: strictly more than half of its sites."""
    return DEGREES[island] // 2 + 1


# --- the pure rules the issue names ----------------------------------------------------------


def control(bridges: Mapping[Site, str]) -> dict[str, str]:
    """The controlled islands, each mapped to its controller's colour.

    A colour controls an island when it owns bridges on strictly more than half of ALL the
    island's sites (free ones count too): 2 of 3, 3 of 4, 3 of 5, 4 of 6.
    """
    board = _validated(bridges)
    owned = {c: Counter() for c in COLOURS}
    for site, colour in board.items():
        owned[colour].update(site)
    return {
        island: colour
        for island in ISLANDS
        for colour in COLOURS
        if owned[colour][island] >= needed(island)
    }


def islands_held(bridges: Mapping[Site, str]) -> dict[str, int]:
    """How many islands each colour controls (= its stones on the board)."""
    held = Counter(control(bridges).values())
    return {c: held[c] for c in COLOURS}


def place(bridges: Mapping[Site, str], site: Any, colour: str) -> tuple[dict, list]:
    """Build one bridge and resolve control; returns (new bridges, removed sites).

    Each island the placement brings under the placer's control loses all the opponent's bridges
    on its sites (one bridge can do this at both of its ends). Those losses may cost the opponent
    other islands, which only removes their stones: nothing else follows, since losing bridges
    never gives anyone control. Refused: an unknown or occupied site, a 26th bridge, an 11th island.
    """
    board = _validated(bridges)
    site = parse_site(site)
    colour = parse_colour(colour)
    if site in board:
        raise RuleError(
            "site-free",
            N_("Site %(site)s already holds a %(colour)s bridge."),
            site=site_key(site),
            colour=Msg(COLOUR_WORDS[board[site]]),
        )
    if bridge_counts(board)[colour] >= BRIDGES_PER_COLOUR:
        raise RuleError(
            "bridge-supply",
            N_("All %(count)s %(colour)s bridges are on the board."),
            count=BRIDGES_PER_COLOUR,
            colour=Msg(COLOUR_WORDS[colour]),
        )
    before = control(board)
    after = dict(board)
    after[site] = colour
    now = control(after)
    gained = [i for i in site if now.get(i) == colour and before.get(i) != colour]
    if sum(1 for c in now.values() if c == colour) > STONES_PER_COLOUR:
        raise RuleError(
            "stone-supply",
            N_(
                "This bridge would give %(colour)s an island more than its "
                "%(count)s Kahuna stones can mark."
            ),
            colour=Msg(COLOUR_WORDS[colour]),
            count=STONES_PER_COLOUR,
        )
    rival = other(colour)
    removed = sorted({s for i in gained for s in SITES_OF[i] if after.get(s) == rival})
    for s in removed:
        del after[s]
    return after, removed


def remove(bridges: Mapping[Site, str], site: Any, colour: str) -> dict:
    """The bridges after the colour `colour` removes the opponent's bridge on `site`.

    Only the opponent's bridge may be removed; the two-card check is separate (see apply).
    Removing never gives the remover control: control counts only the controller's bridges.
    """
    board = _validated(bridges)
    site = parse_site(site)
    colour = parse_colour(colour)
    owner = board.get(site)
    if owner is None:
        raise RuleError(
            "remove-opponent",
            N_(
                "Site %(site)s is free: there is no bridge to remove; "
                "one card builds a bridge there."
            ),
            site=site_key(site),
        )
    if owner == colour:
        raise RuleError(
            "remove-opponent",
            N_("The bridge on %(site)s is your own: only %(rival)s bridges can be removed."),
            site=site_key(site),
            rival=Msg(COLOUR_WORDS[other(colour)]),
        )
    after = dict(board)
    del after[site]
    return after


def round_points(round_no: int, islands: dict[str, int]) -> dict[str, int]:
    """Points a scoring gives each colour, from the number of islands each controls.

    Rounds 1 and 2 give 1 and 2 points to the colour with more islands; round 3 gives it the
    difference. Equal numbers give nothing.
    """
    if type(round_no) is not int or not 1 <= round_no <= ROUNDS:
        raise ValueError(f"round_no must be 1, 2 or 3, not {round_no!r}")
    held = {c: int(islands.get(c, 0)) for c in COLOURS}
    white, black = held["white"], held["black"]
    points = {c: 0 for c in COLOURS}
    if white == black:
        return points
    leader = "white" if white > black else "black"
    points[leader] = ROUND_POINTS.get(round_no, abs(white - black))
    return points


def decide_winner(
    points: list[int], round3: list[int], bridges: list[int]
) -> tuple[int | None, str]:
    """(winning seat or None, tie-break used): points, then the round-3 scorer, then bridges."""
    for values, how in ((points, "points"), (round3, "round-3"), (bridges, "bridges")):
        if values[0] != values[1]:
            return (0 if values[0] > values[1] else 1), how
    return None, "draw"


# --- the game state -------------------------------------------------------------------------


def new(options: dict, players: int) -> dict:
    """The state of a new game: 3 cards in each hand, 3 face-up cards still to be entered."""
    if players != 2:
        raise RuleError(
            "players",
            N_("Kahuna is played by exactly 2 players, not %(count)s."),
            count=_short(players),
        )
    options = options or {}
    arabana = options.get("arabana", False)
    if not isinstance(arabana, bool):
        raise RuleError("action", N_("The Arabana option is on or off."))
    return {
        "players": 2,
        "options": {"arabana": arabana},
        "bridges": {},
        "round": 1,
        "turn": 0,  # White starts (CLARIFICATIONS["first-player"])
        "deck": DECK_SIZE - 2 * START_HAND,  # each reveal moves one of these face up
        "display": [],
        "pending_reveals": DISPLAY_SIZE,
        "hands": [START_HAND, START_HAND],
        "known": [[], []],  # cards known to be in each hand (taken from the face-up row)
        "discard_up": [],  # played cards since the last reshuffle
        "discard_down": 0,  # cards discarded face down since the last reshuffle
        "played": [],  # cards played this turn
        "discarded": 0,  # cards discarded face down this turn
        "must_draw": False,
        "final_turns": None,  # round 3: turns left after the last card is drawn
        "rounds": [],  # [{"round", "islands": [w, b], "points": [w, b]}]
        "over": False,
        "plays": 0,
        "last_changes": None,
    }


def _held_by_seat(state: dict) -> list[int]:
    held = islands_held(bridges_from_json(state["bridges"]))
    return [held[c] for c in COLOURS]


def _accounted(state: dict, island: str) -> int:
    """Copies of an island's card known to be outside the deck and the unknown hand cards."""
    return (
        state["display"].count(island)
        + state["discard_up"].count(island)
        + state["played"].count(island)
        + state["known"][0].count(island)
        + state["known"][1].count(island)
    )


def _drawable(state: dict) -> bool:
    """Is there any card left to draw this round?"""
    return state["final_turns"] is None and (state["deck"] > 0 or bool(state["display"]))


def _acting_seat(state: dict, action: dict) -> int:
    """The seat whose turn it is, checked against the action; RuleError otherwise."""
    seat = action.get("seat")
    if type(seat) is not int or seat not in (0, 1):
        raise RuleError("turn-order", N_("Say which seat acts: 0 for White or 1 for Black."))
    if state["pending_reveals"]:
        raise RuleError(
            "reveal",
            N_("First enter the face-up card just turned over (%(count)s still to enter)."),
            count=state["pending_reveals"],
        )
    if seat != state["turn"]:
        raise RuleError(
            "turn-order", N_("It is not your turn: %(seat)s plays now."), seat=Seat(state["turn"])
        )
    return seat


def _check_may_play(state: dict, seat: int, cards: int) -> None:
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
    if cards > room:
        raise RuleError(
            "play-limit",
            N_("A turn plays at most %(max)s cards; you may play %(room)s more."),
            max=MAX_CARDS_PER_TURN,
            room=room,
        )


def _check_cards_held(state: dict, seat: int, cards: list[str]) -> None:
    """These cards could all be in the seat's hand (by count and by the 2 copies of each island)."""
    hand = state["hands"][seat]
    if len(cards) > hand:
        raise RuleError(
            "card-count",
            N_("%(seat)s holds only %(count)s cards; this move needs %(need)s."),
            seat=Seat(seat),
            count=hand,
            need=len(cards),
        )
    known = Counter(state["known"][seat])
    unknown = hand - len(state["known"][seat])
    from_unknown = 0
    for island, count in Counter(cards).items():
        extra = count - known[island]
        if extra <= 0:
            continue
        if extra > CARDS_PER_ISLAND - _accounted(state, island):
            raise RuleError(
                "card-count",
                N_(
                    "There are only 2 %(island)s cards and the others are "
                    "accounted for (face up, played or known in a hand), so "
                    "%(seat)s cannot play %(count)s more."
                ),
                island=island,
                seat=Seat(seat),
                count=extra,
            )
        from_unknown += extra
    if from_unknown > unknown:
        raise RuleError(
            "card-count",
            N_("The cards in %(seat)s's hand are known: %(cards)s."),
            seat=Seat(seat),
            cards=", ".join(sorted(state["known"][seat])),
        )


def _play_cards(state: dict, seat: int, cards: list[str]) -> None:
    """Move played cards from the hand (known ones first) to this turn's played cards."""
    for island in cards:
        if island in state["known"][seat]:
            state["known"][seat].remove(island)
    state["hands"][seat] -= len(cards)
    state["played"].extend(cards)


def _check_place(state: dict, seat: int, site: Site, card: str) -> tuple[dict, list]:
    """Every check for building on `site` with `card`; returns what place() gives."""
    _check_may_play(state, seat, 1)
    bridges = bridges_from_json(state["bridges"])
    colour = COLOURS[seat]
    if site in bridges:
        raise RuleError(
            "site-free",
            N_("Site %(site)s already holds a %(colour)s bridge."),
            site=site_key(site),
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
            site=site_key(site),
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
    _check_cards_held(state, seat, [card])
    return place(bridges, site, colour)


def _check_remove(state: dict, seat: int, site: Site, cards: list[str]) -> dict:
    """Every check for removing the opponent's bridge on `site` with two cards; the new bridges."""
    _check_may_play(state, seat, 2)
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
                site=site_key(site),
                a=site[0],
                b=site[1],
            )
    _check_cards_held(state, seat, cards)
    return after


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


def options_open(state: dict) -> bool:
    """May the table options still change? Only before anything but face-up cards was entered."""
    return (
        state["round"] == 1
        and state["turn"] == 0
        and state["plays"] == 0
        and state["hands"] == [START_HAND, START_HAND]
        and not state["over"]
    )


def _do_set_option(state: dict, action: dict) -> None:
    if action.get("host") is not True:
        raise RuleError("arabana", N_("Only the host's device can change the table options."))
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


def _do_reveal(state: dict, action: dict) -> None:
    if not state["pending_reveals"]:
        raise RuleError("reveal", N_("No face-up card is waiting to be entered."))
    island = parse_island(action.get("island"))
    if _accounted(state, island) >= CARDS_PER_ISLAND:
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


def _do_place(state: dict, action: dict) -> None:
    seat = _acting_seat(state, action)
    site = parse_site(action.get("site"))
    card = parse_island(action.get("card"))
    before = bridges_from_json(state["bridges"])
    after, destroyed = _check_place(state, seat, site, card)
    _play_cards(state, seat, [card])
    state["bridges"] = bridges_to_json(after)
    _record_changes(state, seat, "place", site, [card], before, after, destroyed)


def _do_remove(state: dict, action: dict) -> None:
    seat = _acting_seat(state, action)
    site = parse_site(action.get("site"))
    raw = action.get("cards")
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise RuleError("remove-cards", N_("Removing a bridge takes exactly 2 cards."))
    cards = [parse_island(c) for c in raw]
    before = bridges_from_json(state["bridges"])
    after = _check_remove(state, seat, site, cards)
    _play_cards(state, seat, cards)
    state["bridges"] = bridges_to_json(after)
    _record_changes(state, seat, "remove", site, cards, before, after, [site])


def _do_discard(state: dict, action: dict) -> None:
    seat = _acting_seat(state, action)
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
    if type(count) is not int or not 1 <= count <= hand:
        raise RuleError(
            "discard",
            N_("Discard between 1 and %(hand)s cards (the cards in your hand)."),
            hand=hand,
        )
    state["hands"][seat] -= count
    state["discard_down"] += count
    state["discarded"] += count
    # Nobody sees which cards went: the rest of this hand is unknown again.
    state["known"][seat] = []


def _do_draw(state: dict, action: dict) -> None:
    seat = _acting_seat(state, action)
    if not _drawable(state):
        raise RuleError("final-turns", N_("There is nothing left to draw: end your turn."))
    if state["hands"][seat] >= HAND_LIMIT:
        raise RuleError(
            "hand-limit",
            N_(
                "You hold %(count)s cards, the most allowed: to draw, first "
                "discard at least one face down (possible only if you played "
                "no card this turn)."
            ),
            count=state["hands"][seat],
        )
    source = action.get("source")
    if source == "deck":
        if state["deck"] == 0:
            raise RuleError(
                "draw",
                N_("The deck is empty: take a face-up card (%(cards)s)."),
                cards=", ".join(state["display"]),
            )
        state["deck"] -= 1
    elif source == "display":
        island = parse_island(action.get("island"))
        if island not in state["display"]:
            raise RuleError(
                "draw",
                N_("%(island)s is not face up; the face-up cards are %(cards)s."),
                island=island,
                cards=", ".join(state["display"]) or "-",
            )
        state["display"].remove(island)
        state["known"][seat].append(island)
        if state["deck"] > 0:
            state["pending_reveals"] = 1  # the table turns up the next card and enters it
    else:
        raise RuleError("draw", N_("Draw from the deck or from the face-up cards."))
    state["hands"][seat] += 1
    _finish_turn(state, drew=True)


def _do_end_turn(state: dict, action: dict) -> None:
    seat = _acting_seat(state, action)
    if state["must_draw"] and _drawable(state):
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
    held = _held_by_seat(state)
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


_HANDLERS = {
    "reveal": _do_reveal,
    "place": _do_place,
    "remove": _do_remove,
    "discard": _do_discard,
    "draw": _do_draw,
    "end_turn": _do_end_turn,
    "set_option": _do_set_option,
}


def apply(state: dict, action: dict) -> dict:
    """The state after an action (a new object); RuleError when the rules do not allow it."""
    if not isinstance(action, dict):
        raise RuleError("action", N_("An entry must be a form with a type."))
    kind = action.get("type")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise RuleError(
            "action",
            N_("Unknown entry %(type)s: use one of %(types)s."),
            type=_short(kind),
            types=", ".join(_HANDLERS),
        )
    if state["over"]:
        raise RuleError("game-over", N_("The game is over: nothing more can be entered."))
    after = copy.deepcopy(state)
    handler(after, action)
    return after


# --- helpers for the web layer ---------------------------------------------------------------


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
        if state["over"]:
            raise RuleError("game-over", N_("The game is over: nothing more can be entered."))
        seat = _acting_seat(state, {"seat": seat})
        owner = state["bridges"].get(site_key(site))
        if owner == COLOURS[seat]:
            raise RuleError(
                "remove-opponent",
                N_("The bridge on %(site)s is your own: only %(rival)s bridges can be removed."),
                site=site_key(site),
                rival=Msg(COLOUR_WORDS[other(COLOURS[seat])]),
            )
        kind = "place" if owner is None else "remove"
        answer["action"] = kind
        _check_may_play(state, seat, 1 if kind == "place" else 2)
    except RuleError as err:
        answer.update(rule=err.rule, reason=err.msg)
        return answer
    for cards in _candidates(site, kind):
        try:
            if kind == "place":
                _check_place(state, seat, site, cards[0])
            else:
                _check_remove(state, seat, site, cards)
            answer["options"].append(cards)
        except RuleError as err:
            answer["refused"].append({"cards": cards, "rule": err.rule, "reason": err.msg})
    if not answer["options"] and answer["refused"]:
        answer.update(rule=answer["refused"][0]["rule"], reason=answer["refused"][0]["reason"])
    return answer


def control_report(bridges: Mapping[Site, str]) -> dict:
    """For the stand-alone control checker: who holds what and what each round would give."""
    board = _validated(bridges)
    held = islands_held(board)
    return {
        "control": control(board),
        "islands": held,
        "bridges": bridge_counts(board),
        "round_points": {r: round_points(r, held) for r in range(1, ROUNDS + 1)},
    }


def _points(state: dict) -> list[int]:
    return [sum(r["points"][s] for r in state["rounds"]) for s in (0, 1)]


def view(state: dict, seat: int | None, reveal: bool = False) -> dict:
    """What a seat (or the table, for None) may see. Kahuna has no secrets the app knows.

    Hands are only counted; "known_cards" lists the cards each hand took from the face-up row,
    which both players saw. A seat on turn also gets "options": site -> legal_cards_for() result.
    """
    bridges = bridges_from_json(state["bridges"])
    held = control(bridges)
    used = bridge_counts(bridges)
    islands_now = islands_held(bridges)
    out = {
        "islands": [
            {
                "name": i,
                "degree": DEGREES[i],
                "needed": needed(i),
                "x": LAYOUT[i][0],
                "y": LAYOUT[i][1],
                "controller": held.get(i),
                "bridges": {c: sum(1 for s in SITES_OF[i] if bridges.get(s) == c) for c in COLOURS},
            }
            for i in ISLANDS
        ],
        "sites": [{"key": site_key(s), "ends": list(s), "bridge": bridges.get(s)} for s in SITES],
        "colours": list(COLOURS),
        "bridges_left": {c: BRIDGES_PER_COLOUR - used[c] for c in COLOURS},
        "stones_left": {c: STONES_PER_COLOUR - islands_now[c] for c in COLOURS},
        "islands_held": islands_now,
        "round": state["round"],
        "turn": state["turn"],
        "turn_colour": COLOURS[state["turn"]],
        "deck": state["deck"],
        "display": list(state["display"]),
        "pending_reveals": state["pending_reveals"],
        "hands": list(state["hands"]),
        "known_cards": [list(k) for k in state["known"]],
        "played": list(state["played"]),
        "discard": {"face_up": list(state["discard_up"]), "face_down": state["discard_down"]},
        "must_draw": state["must_draw"] and _drawable(state),
        "final_turns": state["final_turns"],
        "rounds": copy.deepcopy(state["rounds"]),
        "points": _points(state),
        "last_changes": copy.deepcopy(state["last_changes"]),
        "options": dict(state["options"]),
        "over": state["over"],
        "seat": seat,
        "colour": COLOURS[seat] if seat in (0, 1) else None,
    }
    out["can"] = _can(state, seat)
    out["site_options"] = (
        {s["key"]: legal_cards_for(state, seat, s["key"]) for s in out["sites"]}
        if out["can"]["play"]
        else {}
    )
    return out


def _can(state: dict, seat: int | None) -> dict:
    """Which kinds of entry this seat may make now (the web layer shows those forms)."""
    my_turn = (
        seat in (0, 1)
        and seat == state["turn"]
        and not state["over"]
        and not state["pending_reveals"]
    )
    hand = state["hands"][seat] if seat in (0, 1) else 0
    may_draw = my_turn and _drawable(state) and hand < HAND_LIMIT
    return {
        "reveal": state["pending_reveals"] > 0 and not state["over"],
        "play": my_turn
        and not state["discarded"]
        and len(state["played"]) < MAX_CARDS_PER_TURN
        and hand > 0,
        "discard": my_turn and not state["played"] and hand > 0,
        "draw_deck": may_draw and state["deck"] > 0,
        "draw_display": sorted(set(state["display"])) if may_draw else [],
        "end_turn": my_turn and not (state["must_draw"] and _drawable(state)),
    }


def result(state: dict) -> dict | None:
    """Final scores with their breakdown and the tie-break used; None while the game goes on.

    {"points": [white, black], "rounds": [{"round", "islands": [w, b], "points": [w, b]}],
     "islands": [w, b] at the end, "bridges": [w, b] on the board at the end,
     "winner": seat or None (a draw), "tie_break": "points" | "round-3" | "bridges" | "draw"}
    """
    if not state["over"]:
        return None
    points = _points(state)
    round3 = next((r["points"] for r in state["rounds"] if r["round"] == ROUNDS), [0, 0])
    counts = bridge_counts(bridges_from_json(state["bridges"]))
    bridges = [counts[c] for c in COLOURS]
    winner, how = decide_winner(points, round3, bridges)
    return {
        "points": points,
        "rounds": copy.deepcopy(state["rounds"]),
        "islands": _held_by_seat(state),
        "bridges": bridges,
        "winner": winner,
        "tie_break": how,
    }


# --- history lines ---------------------------------------------------------------------------


def _join(items: list[str]) -> Any:
    """ "A", "A and B", "A, B and C" as a translatable message."""
    if len(items) == 1:
        return items[0]
    return Msg(N_("%(first)s and %(last)s"), first=", ".join(items[:-1]), last=items[-1])


def _play_lines(changes: dict) -> list[Msg]:
    seat = changes["seat"]
    colour = COLOURS[seat]
    rival = other(colour)
    lines = []
    if changes["kind"] == "place":
        lines.append(
            Msg(
                N_("%(seat)s built a bridge on %(site)s (card %(card)s)"),
                seat=Seat(seat),
                site=changes["site"],
                card=changes["cards"][0],
            )
        )
    else:
        lines.append(
            Msg(
                N_(
                    "%(seat)s removed the %(colour)s bridge on %(site)s (cards %(first)s and "
                    "%(second)s)"
                ),
                seat=Seat(seat),
                colour=Msg(COLOUR_WORDS[rival]),
                site=changes["site"],
                first=changes["cards"][0],
                second=changes["cards"][1],
            )
        )
    for island in changes["gained"][colour]:
        gone = [k for k in changes["destroyed"] if island in k.split("-")]
        if changes["kind"] == "remove" or not gone:
            lines.append(Msg(N_("%(seat)s took %(island)s"), seat=Seat(seat), island=island))
        elif len(gone) == 1:
            lines.append(
                Msg(
                    N_("%(seat)s took %(island)s: %(colour)s bridge %(sites)s destroyed"),
                    seat=Seat(seat),
                    island=island,
                    colour=Msg(COLOUR_WORDS[rival]),
                    sites=gone[0],
                )
            )
        else:
            lines.append(
                Msg(
                    N_("%(seat)s took %(island)s: %(colour)s bridges %(sites)s destroyed"),
                    seat=Seat(seat),
                    island=island,
                    colour=Msg(COLOUR_WORDS[rival]),
                    sites=_join(gone),
                )
            )
    for island in changes["lost"][rival]:
        lines.append(Msg(N_("%(seat)s lost %(island)s"), seat=Seat(1 - seat), island=island))
    return lines


def describe_play(changes: dict | None) -> list[Msg]:
    """The history lines of a play stored in state["last_changes"] (for the board's caption)."""
    return _play_lines(changes) if changes else []


def describe_scoring(entry: dict) -> list[Msg]:
    """The history lines of one entry of state["rounds"] (for the round panel's message)."""
    return _round_lines(entry)


def _round_lines(entry: dict) -> list[Msg]:
    islands, points = entry["islands"], entry["points"]
    lines = [
        Msg(
            N_("Round %(round)s scored: islands held: White %(white)s, Black %(black)s"),
            round=entry["round"],
            white=islands[0],
            black=islands[1],
        )
    ]
    if points == [0, 0]:
        lines.append(Msg(N_("Equal islands: nobody scores")))
    else:
        winner = 0 if points[0] else 1
        lines.append(
            Msg(N_("Points: %(seat)s +%(points)s"), seat=Seat(winner), points=points[winner])
        )
    return lines


def describe(before: dict, action: dict, after: dict) -> list[Msg]:
    """History lines for an accepted action, including control changes and scorings it caused."""
    kind = action.get("type")
    seat = action.get("seat")
    lines: list[Msg] = []
    if kind == "reveal":
        lines.append(Msg(N_("Face-up card entered: %(island)s"), island=after["display"][-1]))
    elif kind in ("place", "remove"):
        lines.extend(_play_lines(after["last_changes"]))
    elif kind == "discard":
        lines.append(
            Msg(
                N_("%(seat)s discarded face down: %(count)s cards"),
                seat=Seat(seat),
                count=action["count"],
            )
        )
    elif kind == "draw" and action.get("source") == "deck":
        lines.append(Msg(N_("%(seat)s drew the top card of the deck"), seat=Seat(seat)))
    elif kind == "draw":
        lines.append(
            Msg(
                N_("%(seat)s took %(island)s from the face-up cards"),
                seat=Seat(seat),
                island=parse_island(action.get("island")),
            )
        )
    elif kind == "set_option":
        lines.append(
            Msg(
                N_(
                    "Table option Arabana switched on: no bridge may touch an island the "
                    "opponent controls"
                )
                if after["options"]["arabana"]
                else N_("Table option Arabana switched off: bridges may touch any island")
            )
        )
    elif kind == "end_turn":
        lines.append(Msg(N_("%(seat)s ended the turn without drawing"), seat=Seat(seat)))
        if after["must_draw"] and _drawable(after):
            lines.append(Msg(N_("%(seat)s must draw next turn"), seat=Seat(after["turn"])))
    for entry in after["rounds"][len(before["rounds"]) :]:
        lines.extend(_round_lines(entry))
    if after["final_turns"] is not None and before["final_turns"] is None:
        lines.append(
            Msg(
                N_("No cards left: each player has one more turn, starting with %(seat)s"),
                seat=Seat(after["turn"]),
            )
        )
    if after["round"] > before["round"]:
        lines.append(
            Msg(
                N_("Round %(round)s begins: turn up 3 cards; %(seat)s plays first"),
                round=after["round"],
                seat=Seat(after["turn"]),
            )
        )
    if after["over"] and not before["over"]:
        final = result(after)
        if final["winner"] is None:
            lines.append(
                Msg(N_("Game over: a draw at %(points)s points each"), points=final["points"][0])
            )
        else:
            lines.append(
                Msg(
                    N_("Game over: %(seat)s wins with %(points)s points to %(other)s"),
                    seat=Seat(final["winner"]),
                    points=final["points"][final["winner"]],
                    other=final["points"][1 - final["winner"]],
                )
            )
            if final["tie_break"] == "round-3":
                lines.append(
                    Msg(
                        N_("Equal points: %(seat)s scored in round 3 and wins the tie"),
                        seat=Seat(final["winner"]),
                    )
                )
            elif final["tie_break"] == "bridges":
                lines.append(
                    Msg(
                        N_(
                            "Equal points and no round-3 score: %(seat)s has more bridges on "
                            "the board (%(mine)s to %(theirs)s)"
                        ),
                        seat=Seat(final["winner"]),
                        mine=final["bridges"][final["winner"]],
                        theirs=final["bridges"][1 - final["winner"]],
                    )
                )
    return lines


def seat_may_undo(before: dict, action: dict, after: dict) -> bool:
    """The acting seat may take back a play, a discard or a decline, but not a drawn card it has
    seen, nor anything that ended a round (new cards go face up then)."""
    if action.get("type") not in ("place", "remove", "discard", "end_turn", "draw"):
        return False
    if (
        after["round"] != before["round"]
        or after["over"]
        or after["final_turns"] != before["final_turns"]
    ):
        return False
    return not (action.get("type") == "draw" and action.get("source") == "deck")
