"""Africana's moves: one handler per action type (the formats are in rules.py), each changing
its own copy of the state or refusing with the rule, and the shared dispatcher that applies them.

Play entries go through the turn's checks (turn.py): the current player, the turn's one action
(the first entry chooses it), coins that never go below 0. Ending a turn checks the adventure
limit, refills the row and decides the last round and the end of play; the scoring sheets come
once play is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.games.africana.facts import (
    ADVENTURE_CARDS,
    ADVENTURE_PRICE,
    ARTIFACT_COPIES,
    ARTIFACT_KINDS,
    COLOUR_CHANGE_PRICE,
    GUIDE_ADVENTURES,
    KIND_KEYS,
    KIND_NAME_MAX,
    MARKERS,
    MAX_COINS,
    MAX_PRINTED,
    ROW_SPACES,
    TURN_ACTION_LABELS,
    TURN_ACTIONS,
    company_name,
    page_cost,
)
from companion.games.africana.fields import int_field
from companion.games.africana.phrases import listing, silver
from companion.games.africana.scoring import check_sheet
from companion.games.africana.sets import too_many_of_a_kind
from companion.games.africana.state import (
    kind_key,
    kind_label,
    known_unfinished_artifacts,
    markers_used,
)
from companion.games.africana.turn import (
    book,
    charge,
    check_adventure_limit,
    not_on_turn,
    over_message,
    refill_row,
    require_action,
    require_playing,
    require_turn,
    seat_of,
    turn,
)
from companion.games.base import (
    ANYONE,
    HOST,
    N_,
    OWN,
    Move,
    Moves,
    Msg,
    Plural,
    RuleError,
    acting_seat,
)


def _slot(state: dict, action: Mapping, rule: str = "action") -> int:
    return int_field(action, "slot", 1, ROW_SPACES, rule) - 1


def _open_slots(state: dict) -> str | Msg:
    return listing([i + 1 for i, card in enumerate(state["row"]) if card])


# --- action handlers: each gets a private copy of the state and may change it -------------


def _choose_action(state: dict, action: Mapping) -> None:
    seat = acting_seat(action)
    require_turn(state, seat)
    choice = action.get("action")
    if choice not in TURN_ACTIONS:
        raise RuleError("one-action", N_("Choose draw, buy or move."))
    turn = state["turn"]
    if turn["action"] == choice:
        raise RuleError("one-action", N_("That action is already chosen for this turn."))
    if turn["action"] is not None and turn["entries"]:
        raise RuleError(
            "one-action",
            N_(
                "This turn's action is already to %(chosen)s and "
                "entries were made for it; undo them to change it."
            ),
            chosen=Msg(TURN_ACTION_LABELS[turn["action"]]),
        )
    turn["action"] = choice


def _buy_adventure(state: dict, action: Mapping) -> None:
    seat = acting_seat(action)
    require_action(state, seat, "buy")
    left = ADVENTURE_CARDS - state["bought"]
    if left == 0:
        raise RuleError("buy-adventure", N_("All 30 adventure cards have been bought."))
    cards = int_field(action, "cards", 1, left, "buy-adventure", default=1)
    have = state["seats"][seat]["coins"]
    if cards * ADVENTURE_PRICE > have:
        raise RuleError.of(
            "no-debt",
            Plural(
                "Adventure cards cost 5 silver each: %(cards)s card costs %(cost)s, but "
                "you have %(have)s (enough for %(can)s).",
                "Adventure cards cost 5 silver each: %(cards)s cards cost %(cost)s, but "
                "you have %(have)s (enough for %(can)s).",
                "cards",
                cards=cards,
                cost=silver(cards * ADVENTURE_PRICE),
                have=silver(have),
                can=have // ADVENTURE_PRICE,
            ),
        )
    charge(state, seat, "buy_adventure", cards * ADVENTURE_PRICE, count=cards)
    state["seats"][seat]["adventures_open"] += cards
    state["bought"] += cards


def _turn_pages(state: dict, action: Mapping) -> None:
    seat = acting_seat(action)
    require_action(state, seat, "buy")
    pages = int_field(action, "pages", 1, 99, "page-turn")
    before = state["turn"]["pages"]
    cost = page_cost(before, pages)
    have = state["seats"][seat]["coins"]
    if cost > have:
        can = have + (1 if before == 0 else 0)
        raise RuleError.of(
            "no-debt",
            Plural(
                "Turning %(pages)s page costs %(cost)s (the first page of a turn is free, then "
                "1 silver each), but you have %(have)s (enough for %(can)s).",
                "Turning %(pages)s pages costs %(cost)s (the first page of a turn is free, then "
                "1 silver each), but you have %(have)s (enough for %(can)s).",
                "pages",
                pages=pages,
                cost=silver(cost),
                have=silver(have),
                can=can,
            ),
        )
    state["turn"]["pages"] = before + pages
    book(state, seat, "turn_pages", -cost, count=pages)


def _change_colour(state: dict, action: Mapping) -> None:
    seat = acting_seat(action)
    require_action(state, seat, "move")
    cards = int_field(action, "cards", 1, 99, "change-colour", default=1)
    have = state["seats"][seat]["coins"]
    if cards * COLOUR_CHANGE_PRICE > have:
        raise RuleError.of(
            "no-debt",
            Plural(
                "A colour change costs 5 silver per card: %(cards)s card costs %(cost)s, but "
                "you have %(have)s (enough for %(can)s).",
                "A colour change costs 5 silver per card: %(cards)s cards cost %(cost)s, but "
                "you have %(have)s (enough for %(can)s).",
                "cards",
                cards=cards,
                cost=silver(cards * COLOUR_CHANGE_PRICE),
                have=silver(have),
                can=have // COLOUR_CHANGE_PRICE,
            ),
        )
    charge(state, seat, "change_colour", cards * COLOUR_CHANGE_PRICE, count=cards)


def _expedition_for_move(state: dict, action: Mapping, rule: str) -> tuple[int, int, dict]:
    """The moving seat, the row space the action names, and the expedition lying there."""
    seat = acting_seat(action)
    require_action(state, seat, "move")
    slot = _slot(state, action, rule)  # a missing space is refused under the move's own rule
    card = state["row"][slot]
    if card is None:
        raise RuleError(
            rule,
            N_("Space %(slot)s has no expedition; expeditions lie in spaces %(open)s."),
            slot=slot + 1,
            open=_open_slots(state),
        )
    return seat, slot, card


def _join_expedition(state: dict, action: Mapping) -> None:
    seat, slot, card = _expedition_for_move(state, action, "join-expedition")
    if seat in card["joined"]:
        raise RuleError(
            "join-expedition",
            N_("You have already joined the expedition in space %(slot)s: once per expedition."),
            slot=slot + 1,
        )
    if markers_used(state, seat) >= MARKERS:
        raise RuleError(
            "join-expedition",
            N_("All 4 of your markers are on expeditions: complete one to free a marker."),
        )
    bonus = int_field(action, "bonus_coins", 0, MAX_PRINTED, "join-expedition", default=0)
    card["joined"].append(seat)
    book(state, seat, "join_expedition", bonus, slot=slot + 1)


def _complete_expedition(state: dict, action: Mapping) -> None:
    seat, slot, card = _expedition_for_move(state, action, "complete-expedition")
    if seat not in card["joined"]:
        raise RuleError(
            "complete-expedition",
            N_(
                "You have no marker on the expedition "
                "in space %(slot)s: only players who joined "
                "it may complete it."
            ),
            slot=slot + 1,
        )
    coins = int_field(action, "coins", 0, MAX_PRINTED, "complete-expedition")
    points = int_field(action, "points", 0, MAX_PRINTED, "complete-expedition")
    state["row"][slot] = None  # the card goes under the company card, all markers go home
    state["seats"][seat]["tally"]["expeditions"].append(points)
    book(state, seat, "complete_expedition", coins, slot=slot + 1)


def _take_open_adventure(state: dict, seat: int) -> None:
    record = state["seats"][seat]
    if record["adventures_open"] < 1:
        raise RuleError(
            "complete-adventure",
            N_(
                "You have no unfinished adventure card "
                "in the app: buy it first (or ask the host to "
                "fix the entries)."
            ),
        )
    record["adventures_open"] -= 1


def _complete_artifact(state: dict, action: Mapping) -> None:
    seat = acting_seat(action)
    require_action(state, seat, "move")
    kind = kind_key(state, action.get("kind"))
    if state["completed_kinds"][kind] >= ARTIFACT_COPIES:
        raise RuleError(
            "artifact-limits",
            N_("All 4 artifact cards of kind %(kind)s are already completed."),
            kind=state["kind_names"][KIND_KEYS.index(kind)],
        )
    coins = int_field(action, "coins", 0, MAX_PRINTED, "complete-adventure")
    points = int_field(action, "points", 0, MAX_PRINTED, "complete-adventure")
    _take_open_adventure(state, seat)
    state["completed_kinds"][kind] += 1
    state["seats"][seat]["tally"]["artifacts"].append([kind, points])
    book(state, seat, "complete_artifact", coins)


def _complete_guide(state: dict, action: Mapping) -> None:
    seat = acting_seat(action)
    require_action(state, seat, "move")
    if state["completed_guides"] >= GUIDE_ADVENTURES:
        raise RuleError("complete-adventure", N_("All 10 guide adventures are already completed."))
    _take_open_adventure(state, seat)
    state["completed_guides"] += 1
    state["seats"][seat]["tally"]["guides"] += 1


def _end_turn(state: dict, action: Mapping) -> None:
    seat = acting_seat(action)
    require_turn(state, seat)
    turn = state["turn"]
    if turn["action"] is None:
        raise RuleError(
            "one-action",
            N_("Choose the turn's action first: draw 2 movement cards, buy adventures or move."),
        )
    record = state["seats"][seat]
    discarded = int_field(
        action, "discarded_adventures", 0, record["adventures_open"], "adventure-limit", default=0
    )
    override = check_adventure_limit(record["adventures_open"], discarded, seat, action)
    record["adventures_open"] -= discarded
    row, deck, filled, gap = refill_row(state["row"], state["deck"])
    for i in filled:
        row[i]["card"] = state["next_card"]
        state["next_card"] += 1
    state["row"], state["deck"] = row, deck
    announced = gap and not state["last_round"]
    if gap:
        state["last_round"] = True
    # Rule "game-end": the round is completed, so the game ends after the last seat's turn.
    game_over = state["last_round"] and seat == state["players"] - 1
    state["last_end"] = {
        "seat": seat,
        "turn": turn["number"],
        "discarded": discarded,
        "adventures_open": record["adventures_open"],
        "override": override,
        "filled": [i + 1 for i in filled],
        "announced": announced,
        "game_over": game_over,
    }
    if game_over:
        state["phase"] = "over"
        state["ended_by"] = "deck"
        return
    state["turn"] = {
        "seat": (seat + 1) % state["players"],
        "number": turn["number"] + 1,
        "action": None,
        "pages": 0,
        "entries": 0,
    }


def _rename_kinds(state: dict, action: Mapping) -> None:
    if action.get("seat") is not None:  # the table's entry: the seat that sent it, if any
        seat_of(state, action)
    if state["kinds_renamed"]:
        raise RuleError(
            "kind-names",
            N_("The artifact kinds were already renamed: the table may rename them once."),
        )
    names = action.get("names")
    if not isinstance(names, list) or len(names) != ARTIFACT_KINDS:
        raise RuleError("kind-names", N_("Give all five artifact kinds a name."))
    clean = []
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise RuleError("kind-names", N_("Every artifact kind needs a name."))
        name = " ".join(name.split())
        if len(name) > KIND_NAME_MAX:
            raise RuleError.of(
                "kind-names",
                Plural(
                    "A kind's name can have at most %(max)s character.",
                    "A kind's name can have at most %(max)s characters.",
                    "max",
                    max=KIND_NAME_MAX,
                ),
            )
        clean.append(name)
    if len(set(clean)) != len(clean):
        raise RuleError("kind-names", N_("Two artifact kinds cannot have the same name."))
    for name in clean:
        if name in KIND_KEYS and KIND_KEYS.index(name) != clean.index(name):
            raise RuleError(
                "kind-names",
                N_("'%(name)s' is another kind's letter: choose a different name."),
                name=name,
            )
    state["kind_names"] = clean
    state["kinds_renamed"] = True


def _submit_sheet(state: dict, action: Mapping) -> None:
    seat = acting_seat(action)
    if state["phase"] == "playing":
        raise RuleError("game-end", N_("Scoring sheets are filled in once the game is over."))
    raw = dict(action)
    cards = raw.get("artifact_cards", [])
    if isinstance(cards, Sequence) and not isinstance(cards, (str, bytes)):
        converted = []
        for card in cards:
            if isinstance(card, Sequence) and not isinstance(card, (str, bytes)) and len(card) == 2:
                converted.append([kind_key(state, card[0]), card[1]])
            else:
                converted.append(card)  # check_sheet refuses it with the reason
        raw["artifact_cards"] = converted
        keys = [card[0] for card in converted if isinstance(card, list)]
        for key in KIND_KEYS:
            if keys.count(key) > ARTIFACT_COPIES:
                raise RuleError.of(
                    "artifact-limits", too_many_of_a_kind(keys.count(key), kind_label(state, key))
                )
    held = state["seats"][seat]["adventures_open"]
    if raw.get("unfinished_artifacts") is None and known_unfinished_artifacts(state, seat) is None:
        raise RuleError.of(
            "other-points",
            Plural(
                "You have %(n)s unfinished adventure in the app, which cannot tell guides "
                "from artifacts: enter 1 if it is an artifact adventure, 0 if it is a guide.",
                "You have %(n)s unfinished adventures in the app, which cannot tell guides "
                "from artifacts: enter how many of them are artifact adventures (0 if all are "
                "guides).",
                "n",
                n=held,
            ),
        )
    state["seats"][seat]["sheet"] = check_sheet(raw)


def _correct_coins(state: dict, action: Mapping) -> None:
    require_playing(state)
    seat = seat_of(state, action)
    amount = int_field(action, "amount", -MAX_COINS, MAX_COINS)
    if amount == 0:
        raise RuleError("action", N_("A correction needs an amount other than 0."))
    if state["seats"][seat]["coins"] + amount < 0:
        raise RuleError(
            "no-debt",
            N_("%(company)s has %(have)s: a correction can take at most that much."),
            company=company_name(seat),
            have=silver(state["seats"][seat]["coins"]),
        )
    book(state, seat, "correct_coins", amount)


def _finish_game(state: dict, action: Mapping) -> None:
    require_playing(state)
    state["phase"] = "over"
    state["ended_by"] = "host"


def play_is_over(state: dict) -> bool:
    """Play is over (the last round was played, or the host ended the game)."""
    return state["phase"] != "playing"


# A turn's entries are the seat's on turn; a completed card's points are private when entered
# (a sheet too); once play is over the scoring sheets are handed in (each seat's own, never
# during play) and the kinds may still be named (the table's: anyone): those two stay open, every
# play move is refused with rule "game-over". A ledger correction and ending early are the host's.
MOVES = Moves(
    {
        "choose_action": Move(_choose_action),
        "buy_adventure": Move(_buy_adventure),
        "turn_pages": Move(_turn_pages),
        "change_colour": Move(_change_colour),
        "join_expedition": Move(_join_expedition),
        "complete_expedition": Move(_complete_expedition, secret=True),
        "complete_artifact": Move(_complete_artifact, secret=True),
        "complete_guide": Move(_complete_guide, secret=True),
        "end_turn": Move(_end_turn),
        "rename_kinds": Move(_rename_kinds, ANYONE, after_end=True),
        "submit_sheet": Move(
            _submit_sheet,
            OWN,
            lambda state: state["phase"] != "playing",
            after_end=True,
            secret=True,
        ),
        "correct_coins": Move(_correct_coins, HOST),
        "finish_game": Move(_finish_game, HOST),
    },
    is_over=play_is_over,
    over_message=over_message,
    turn=turn,
    not_on_turn=not_on_turn,
    host_rule="host-only",
)
apply = MOVES.apply
