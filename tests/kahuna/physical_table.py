"""The simulated physical Kahuna table: Table plays with real (simulated) cards: it shuffles the
24 cards, deals, turns cards face up and lets both players pick random moves their real hands
allow, checking the app's state against the cards after every entry. It ends its turns as the
game's random-game generator does (companion/games/kahuna/random_play.py: finish_turn).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

from companion.games.base import Msg, RuleError
from companion.games.kahuna import rules as k
from companion.games.kahuna.random_play import (  # noqa: F401  (tests import them here)
    BOARD_RULES,
    PLAY_TURN,
    STRAY,
    finish_turn,
    next_action,
)
from tests.kahuna.helpers import naive_control


def _holds_msg(value) -> bool:
    if isinstance(value, Msg):
        return True
    if isinstance(value, dict):
        return any(_holds_msg(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_msg(v) for v in value)
    return False


class Table:
    """The physical game: real cards in a real deck, hands, face-up row and discard pile."""

    def __init__(self, rng: random.Random, arabana: bool) -> None:
        self.rng = rng
        self.deck = [i for i in k.ISLANDS for _ in range(2)]
        rng.shuffle(self.deck)
        self.hands = [[self.deck.pop() for _ in range(3)] for _ in range(2)]
        self.display: list[str] = []
        self.discards: list[str] = []
        self.state = k.new({"arabana": arabana}, 2)
        self.steps = 0
        self.arabana = arabana

    # -- sending actions ------------------------------------------------------------------

    def send(self, action: dict, physical=lambda: None) -> dict:
        """Enter an action; once accepted, do the same with the real cards, then check."""
        action = {"host": False, **action}
        before = self.state
        frozen = copy.deepcopy(before)
        after = k.apply(before, action)
        assert before == frozen, "apply() changed its input"
        k.describe(before, action, after)  # must not fail for an accepted action
        self.state = after
        physical()
        if after["round"] != before["round"]:
            # The table gathers every discard and shuffles it into the new deck.
            assert not self.deck and not self.display
            self.deck, self.discards = self.discards, []
            self.rng.shuffle(self.deck)
        self.steps += 1
        self.check()
        return after

    def try_send(self, action: dict, physical) -> bool:
        try:
            self.send(action, physical)
            return True
        except RuleError as err:
            assert err.rule in BOARD_RULES, f"a move the cards allow was refused: {err.rule}: {err}"
            return False

    # -- the invariants -------------------------------------------------------------------

    def check(self) -> None:
        s = self.state
        board = k.bridges_from_json(s["bridges"])
        counts = k.bridge_counts(board)
        assert all(n <= 25 for n in counts.values())
        held = k.islands_held(board)
        assert all(n <= 10 for n in held.values())
        assert k.control(board) == naive_control(board)
        if self.arabana:
            # Taking an island destroys the opponent's bridges there and Arabana forbids new ones.
            for island, colour in k.control(board).items():
                assert all(board.get(x) != k.other(colour) for x in k.SITES_OF[island])
        # The app counts the cards the table really has.
        assert s["hands"] == [len(h) for h in self.hands]
        assert all(n <= 5 for n in s["hands"])
        assert s["deck"] == len(self.deck)
        assert sorted(s["display"]) == sorted(self.display)
        total = (
            s["deck"]
            + len(s["display"])
            + sum(s["hands"])
            + len(s["discard_up"])
            + s["discard_down"]
            + len(s["played"])
        )
        assert total == 24
        assert len(s["discard_up"]) + s["discard_down"] + len(s["played"]) == len(self.discards)
        # What the app believes about hands is true, and no island has more than 2 cards placed.
        for seat in (0, 1):
            assert not Counter(s["known"][seat]) - Counter(self.hands[seat])
        for island in k.ISLANDS:
            assert k.accounted(s, island) <= 2
        # The state is stored as JSON: it must hold plain data only (a Msg would lose its msgid).
        assert json.loads(json.dumps(s)) == s and not _holds_msg(s)

    # -- one turn -------------------------------------------------------------------------

    def reveal(self) -> None:
        card = self.deck[-1]

        def turn_up():
            self.display.append(self.deck.pop())

        self.send({"type": "reveal", "seat": None, "island": card}, turn_up)

    def moves(self, seat: int) -> list[dict]:
        """Every play the real hand allows on the current board."""
        hand = Counter(self.hands[seat])
        bridges = self.state["bridges"]
        mine = k.COLOURS[seat]
        out = []
        for site in k.SITES:
            key = k.site_key(site)
            owner = bridges.get(key)
            if owner is None:
                out += [
                    {"type": "place", "seat": seat, "site": key, "card": c} for c in site if hand[c]
                ]
            elif owner != mine:
                a, b = site
                for pair in ([a, a], [a, b], [b, b]):
                    if not Counter(pair) - hand:
                        out.append({"type": "remove", "seat": seat, "site": key, "cards": pair})
        return out

    def play_cards(self, seat: int) -> None:
        for _ in range(self.rng.randint(0, 5)):
            options = self.moves(seat)
            if not options:
                return
            move = self.rng.choice(options)
            cards = [move["card"]] if move["type"] == "place" else move["cards"]
            offered = k.legal_cards_for(self.state, seat, move["site"])["options"]

            def lay_down(cards=cards):
                for c in cards:
                    self.hands[seat].remove(c)
                    self.discards.append(c)

            if self.try_send(move, lay_down):
                assert sorted(cards) in [sorted(o) for o in offered]
            else:
                assert sorted(cards) not in [sorted(o) for o in offered]

    def discard_face_down(self, seat: int, count: int) -> None:
        self.rng.shuffle(self.hands[seat])

        def put_down():
            for _ in range(count):
                self.discards.append(self.hands[seat].pop())

        self.send({"type": "discard", "seat": seat, "count": count}, put_down)

    def finish(self, seat: int) -> None:
        """End the turn as finish_turn() says, doing the same with the real cards."""
        action = finish_turn(self.state, self.rng)
        while action["type"] == "discard":
            # A hand of 5 makes room first; with a card played a hand holds at most 4.
            assert not self.state["played"], "hand of 5 after playing"
            self.discard_face_down(seat, action["count"])
            action = finish_turn(self.state, self.rng)
        if action["type"] == "draw" and action["source"] == "display":
            card = action["island"]

            def take():
                self.display.remove(card)
                self.hands[seat].append(card)

            self.send(action, take)
        elif action["type"] == "draw":
            self.send(action, lambda: self.hands[seat].append(self.deck.pop()))
        else:
            can_draw = self.state["final_turns"] is None and (self.deck or self.display)
            assert not (self.state["must_draw"] and can_draw), "declined while obliged to draw"
            self.send(action)

    def turn(self) -> None:
        seat = self.state["turn"]
        if self.rng.random() < PLAY_TURN or not self.hands[seat]:
            self.play_cards(seat)
        else:
            self.discard_face_down(seat, self.rng.randint(1, len(self.hands[seat])))
        self.finish(seat)

    def play(self) -> None:
        while not self.state["over"]:
            assert self.steps < 4000, "the game does not end"
            if self.state["pending_reveals"]:
                self.reveal()
            else:
                self.turn()
