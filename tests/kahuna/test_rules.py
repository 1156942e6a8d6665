"""Kahuna: the pure functions (board, control, place, remove, scoring) and apply() step by step."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Msg, RuleError, copy_state
from companion.games.kahuna import rules as k
from tests.helpers import rule_ids_in
from tests.kahuna.helpers import naive_control

PACKAGE = Path(k.__file__).parent
MODULE_BOARD = PACKAGE / "data" / "kahuna_board.json"
# The board file's sha256: a change to the file must be deliberate (check it against the facts
# below and the rule text, then record the new hash here).
BOARD_SHA256 = "d450ffe2efd03cbf9b01c9095d2e8699138fc733b00ceee88a0513195b1d2fd9"
# The board: 12 islands (the rule text says so; its removal example names the site Huna-Elai).
# The names and each island's number of bridge sites are those printed on the cards and the
# board, written out here by hand so that the data file is checked against something else.
ISLAND_NAMES = (
    "Aloa", "Bari", "Coco", "Duda", "Elai", "Faaa", "Gola", "Huna", "Iffi", "Jojo", "Kahu", "Lale"
)  # fmt: skip
SITES_PER_ISLAND = {
    "Aloa": 3, "Bari": 5, "Coco": 4, "Duda": 4, "Elai": 6, "Faaa": 5,
    "Gola": 4, "Huna": 5, "Iffi": 5, "Jojo": 5, "Kahu": 5, "Lale": 3,
}  # fmt: skip


def site(text: str) -> tuple[str, str]:
    return k.parse_site(text)


def bridges(**by_colour: str) -> dict:
    """bridges(white="Aloa-Bari Aloa-Duda", black="...") -> {site: colour}."""
    return {site(s): colour for colour, text in by_colour.items() for s in text.split()}


def act(state: dict, seat: int | None, kind: str, **fields) -> dict:
    """The state after `seat` (None: the table) enters an action of this kind."""
    return k.apply(state, {"type": kind, "seat": seat, "host": False, **fields})


def started(**options) -> dict:
    """A new game with its three face-up cards entered (Coco, Gola, Lale)."""
    state = k.new(options, 2)
    for island in ("Coco", "Gola", "Lale"):
        state = act(state, None, "reveal", island=island)
    return state


def with_bridges(state: dict, board: dict) -> dict:
    state = copy_state(state)
    state["bridges"] = k.bridges_to_json(board)
    return state


def refused(state: dict, seat: int | None, kind: str, rule: str, **fields) -> RuleError:
    """The refusal of an action, which must carry the rule id `rule`."""
    with pytest.raises(RuleError) as info:
        act(state, seat, kind, **fields)
    assert info.value.rule == rule, str(info.value)
    return info.value


# --- the board ---------------------------------------------------------------------------------


def test_board_has_12_islands_27_sites_and_printed_degrees():
    assert len(k.ISLANDS) == 12 and len(k.SITES) == 27
    assert sum(k.DEGREES.values()) == 2 * 27
    assert {i: len(k.SITES_OF[i]) for i in k.ISLANDS} == k.DEGREES
    assert min(k.DEGREES.values()) == 3 and max(k.DEGREES.values()) == 6
    assert all(a < b for a, b in k.SITES)
    assert k.BRIDGES_PER_COLOUR == 25 and k.STONES_PER_COLOUR == 10 and k.DECK_SIZE == 24


def test_the_shipped_board_file_is_the_recorded_one_with_the_rule_texts_facts():
    """The board file inside the package is the one recorded here (any change is deliberate),
    and it gives the board's facts: 12 islands, each with its printed number of sites, 27 sites,
    the site of the rule text's removal example (Huna-Elai), 25 bridges and 10 stones each."""
    assert hashlib.sha256(MODULE_BOARD.read_bytes()).hexdigest() == BOARD_SHA256
    board = json.loads(MODULE_BOARD.read_text(encoding="utf-8"))
    assert tuple(board["islands"]) == ISLAND_NAMES == k.ISLANDS
    assert board["degrees"] == SITES_PER_ISLAND == k.DEGREES
    assert sum(SITES_PER_ISLAND.values()) == 2 * len(board["sites"]) == 2 * 27
    assert Counter(i for s in board["sites"] for i in s) == SITES_PER_ISLAND
    assert k.parse_site("Huna-Elai") in k.SITES
    assert board["pieces_per_player"] == {"bridges": 25, "kahuna_stones": 10}


def test_board_check_refuses_a_damaged_file():
    board = json.loads(MODULE_BOARD.read_text())
    board["degrees"]["Aloa"] = 4
    with pytest.raises(ValueError):
        k.check_board(board)
    board = json.loads(MODULE_BOARD.read_text())
    board["sites"].append(["Bari", "Aloa"])
    with pytest.raises(ValueError):
        k.check_board(board)


def test_needed_is_strictly_more_than_half():
    # 3 sites -> 2, 4 -> 3, 5 -> 3, 6 -> 4 (GAME_FACTS)
    assert {k.DEGREES[i]: k.needed(i) for i in k.ISLANDS} == {3: 2, 4: 3, 5: 3, 6: 4}


def test_parse_site_accepts_both_orders_and_lists():
    assert site("Bari-Aloa") == ("Aloa", "Bari") == k.parse_site(["bari", "aloa"])
    for bad in ("Aloa-Coco", "Aloa", "Aloa-Bari-Coco", 7, None, ["Aloa"], {"a": 1}, "Xyz-Aloa"):
        with pytest.raises(RuleError) as info:
            k.parse_site(bad)
        assert info.value.rule in ("site-unknown", "island-unknown")


# --- control -----------------------------------------------------------------------------------


def test_control_counts_free_sites():
    # Aloa has 3 sites: 1 white bridge is not a majority, 2 are.
    assert k.control(bridges(white="Aloa-Bari")) == {}
    assert k.control(bridges(white="Aloa-Bari Aloa-Duda")) == {"Aloa": "white"}
    # Coco has 4 sites: 2 white (half) with 2 free is no majority.
    assert "Coco" not in k.control(bridges(white="Bari-Coco Coco-Faaa"))
    # Elai has 6: 3 is half, 4 controls.
    three = "Bari-Elai Duda-Elai Elai-Huna"
    assert "Elai" not in k.control(bridges(black=three))
    assert k.control(bridges(black=three + " Elai-Iffi"))["Elai"] == "black"


def test_control_accepts_json_keys_and_refuses_bad_colours():
    assert k.control({"Aloa-Bari": "white", "Duda-Aloa": "white"}) == {"Aloa": "white"}
    with pytest.raises(RuleError):
        k.control({"Aloa-Bari": "red"})


boards = st.lists(st.sampled_from([None, "white", "black"]), min_size=27, max_size=27).map(
    lambda colours: {s: c for s, c in zip(k.SITES, colours) if c}
)


@settings(max_examples=200, deadline=None)
@given(boards)
def test_control_is_the_strict_majority_rule(board):
    assert k.control(board) == naive_control(board)


@settings(max_examples=150, deadline=None)
@given(boards, st.data())
def test_removing_never_gives_the_remover_control(board, data):
    black = [s for s, c in board.items() if c == "black"]
    if not black:
        return
    target = data.draw(st.sampled_from(black))
    after = k.remove(board, target, "white")
    white_before = {i for i, c in k.control(board).items() if c == "white"}
    white_after = {i for i, c in k.control(after).items() if c == "white"}
    assert white_after == white_before
    assert set(after) == set(board) - {target}


@settings(max_examples=150, deadline=None)
@given(boards, st.data())
def test_place_keeps_the_majority_rule_and_only_destroys_at_gained_islands(board, data):
    free = [s for s in k.SITES if s not in board]
    if not free:
        return
    target = data.draw(st.sampled_from(free))
    colour = data.draw(st.sampled_from(k.COLOURS))
    try:
        after, removed = k.place(board, target, colour)
    except RuleError as err:
        assert err.rule in ("bridge-supply", "stone-supply")
        return
    before_ctl, after_ctl = k.control(board), k.control(after)
    gained = [i for i in target if after_ctl.get(i) == colour and before_ctl.get(i) != colour]
    # Every destroyed bridge was the opponent's and touched an island just gained, and every
    # opponent bridge at a gained island is gone.
    for s in removed:
        assert board[s] == k.other(colour) and set(s) & set(gained)
    for island in gained:
        assert not [s for s in k.SITES_OF[island] if after.get(s) == k.other(colour)]
    assert after[target] == colour
    assert set(after) == (set(board) | {target}) - set(removed)
    # The placer never loses anything; the opponent never gains anything.
    assert all(after_ctl.get(i) == colour for i, c in before_ctl.items() if c == colour)
    assert all(before_ctl.get(i) == c for i, c in after_ctl.items() if c != colour)


# --- place and remove: the worked cases --------------------------------------------------------


def test_one_bridge_takes_two_islands():
    # Aloa (3 sites) needs 2, Huna (5 sites) needs 3. White has Aloa-Bari (Aloa 1/3) and
    # Duda-Huna, Elai-Huna (Huna 2/5); Aloa-Huna makes Aloa 2/3 and Huna 3/5 at once.
    board = bridges(white="Aloa-Bari Duda-Huna Elai-Huna", black="Aloa-Duda Huna-Iffi Iffi-Lale")
    assert k.control(board) == {}
    after, removed = k.place(board, ("Aloa", "Huna"), "white")
    assert k.control(after) == {"Aloa": "white", "Huna": "white"}
    # Black loses the bridge at Aloa (Aloa-Duda) and the one at Huna (Huna-Iffi); Iffi-Lale stays.
    assert removed == [site("Aloa-Duda"), site("Huna-Iffi")]
    assert after == bridges(white="Aloa-Bari Duda-Huna Elai-Huna Aloa-Huna", black="Iffi-Lale")


CHAIN_BEFORE = bridges(
    white="Bari-Elai Duda-Elai Elai-Huna",
    # Black: Faaa 3/5 (Coco-Faaa Elai-Faaa Faaa-Gola), Jojo 3/5 (Elai-Jojo Gola-Jojo Jojo-Kahu),
    # Gola 3/4 (Faaa-Gola Gola-Jojo Gola-Kahu).
    black="Coco-Faaa Elai-Faaa Faaa-Gola Elai-Jojo Gola-Jojo Jojo-Kahu Gola-Kahu",
)


def test_chain_effect_stops_after_one_step():
    assert k.control(CHAIN_BEFORE) == {"Faaa": "black", "Jojo": "black", "Gola": "black"}
    # White's 4th bridge on Elai (6 sites, needs 4) takes it and destroys both black bridges there.
    after, removed = k.place(CHAIN_BEFORE, "Elai-Iffi", "white")
    assert removed == [site("Elai-Faaa"), site("Elai-Jojo")]
    # Black drops to 2/5 on Faaa and Jojo and loses them, but keeps its other bridges there, so it
    # still holds Gola (3/4): the chain goes no further.
    assert k.control(after) == {"Elai": "white", "Gola": "black"}
    assert {s for s, c in after.items() if c == "black"} == {
        site(s) for s in "Coco-Faaa Faaa-Gola Gola-Jojo Jojo-Kahu Gola-Kahu".split()
    }


def test_removal_costs_the_opponent_an_island_and_gives_the_remover_nothing():
    board = bridges(black="Aloa-Bari Aloa-Duda", white="Aloa-Huna")
    assert k.control(board) == {"Aloa": "black"}
    after = k.remove(board, "Duda-Aloa", "white")
    assert after == bridges(black="Aloa-Bari", white="Aloa-Huna")
    assert k.control(after) == {}  # white still has 1 of Aloa's 3 sites


def test_place_refusals():
    board = bridges(white="Aloa-Bari")
    for target, rule in (
        ("Aloa-Bari", "site-free"),
        ("Aloa-Coco", "site-unknown"),
        ("nonsense", "site-unknown"),
    ):
        with pytest.raises(RuleError) as info:
            k.place(board, target, "black")
        assert info.value.rule == rule
    with pytest.raises(RuleError):
        k.place(board, "Aloa-Duda", "green")


def test_place_refuses_a_26th_bridge():
    full = {s: "white" for s in k.SITES[:25]}
    with pytest.raises(RuleError) as info:
        k.place(full, k.SITES[25], "white")
    assert info.value.rule == "bridge-supply"
    after, _ = k.place(full, k.SITES[25], "black")  # black still has all 25
    assert after[k.SITES[25]] == "black"


TEN_ISLANDS = bridges(
    white=" ".join(
        [
            "Aloa-Duda",
            "Aloa-Huna",
            "Bari-Coco",
            "Bari-Duda",
            "Bari-Faaa",
            "Coco-Faaa",
            "Coco-Kahu",
            "Duda-Huna",
            "Elai-Iffi",
            "Faaa-Gola",
            "Faaa-Jojo",
            "Gola-Kahu",
            "Huna-Lale",
            "Iffi-Jojo",
            "Iffi-Kahu",
            "Iffi-Lale",
            "Jojo-Kahu",
        ]
    )
)


def test_place_refuses_an_eleventh_island():
    # White holds 10 islands (all but Elai and Gola) with 17 bridges; Gola has Faaa-Gola and
    # Gola-Kahu (2/4), so Coco-Gola would make 3/4 and an 11th island: no stone left for it.
    assert k.islands_held(TEN_ISLANDS)["white"] == 10
    with pytest.raises(RuleError) as info:
        k.place(TEN_ISLANDS, "Coco-Gola", "white")
    assert info.value.rule == "stone-supply"
    # A bridge that takes no new island is still fine.
    after, _ = k.place(TEN_ISLANDS, "Elai-Jojo", "white")
    assert k.islands_held(after)["white"] == 10


def test_remove_refusals():
    board = bridges(white="Aloa-Bari")
    for target, colour in (("Aloa-Bari", "white"), ("Aloa-Duda", "white")):
        with pytest.raises(RuleError) as info:
            k.remove(board, target, colour)
        assert info.value.rule == "remove-opponent"
    with pytest.raises(RuleError):
        k.remove(board, "Aloa-Lale", "black")


def test_place_and_remove_do_not_mutate_their_input():
    board = dict(CHAIN_BEFORE)
    k.place(board, "Elai-Iffi", "white")
    k.remove(board, "Elai-Faaa", "white")
    assert board == CHAIN_BEFORE


# --- scoring -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "round_no,islands,points",
    [
        (1, {"white": 5, "black": 3}, {"white": 1, "black": 0}),
        (1, {"white": 0, "black": 1}, {"white": 0, "black": 1}),
        (2, {"white": 3, "black": 5}, {"white": 0, "black": 2}),
        (2, {"white": 4, "black": 4}, {"white": 0, "black": 0}),
        (3, {"white": 7, "black": 2}, {"white": 5, "black": 0}),  # 7 - 2 = 5
        (3, {"white": 1, "black": 4}, {"white": 0, "black": 3}),  # 4 - 1 = 3
        (3, {"white": 6, "black": 6}, {"white": 0, "black": 0}),
    ],
)
def test_round_points(round_no, islands, points):
    assert k.round_points(round_no, islands) == points


@pytest.mark.parametrize("bad", [0, 4, "1", True, None])
def test_round_points_refuses_other_rounds(bad):
    with pytest.raises(ValueError):
        k.round_points(bad, {"white": 1, "black": 0})


@given(st.integers(1, 3), st.integers(0, 10), st.integers(0, 10))
def test_round_points_properties(round_no, white, black):
    points = k.round_points(round_no, {"white": white, "black": black})
    assert min(points.values()) == 0  # never both score
    if white == black:
        assert points == {"white": 0, "black": 0}
    else:
        leader = "white" if white > black else "black"
        assert points[leader] == {1: 1, 2: 2, 3: abs(white - black)}[round_no]
    swapped = k.round_points(round_no, {"white": black, "black": white})
    assert swapped == {"white": points["black"], "black": points["white"]}


@pytest.mark.parametrize(
    "points,round3,bridges_on_board,expected",
    [
        ([4, 2], [0, 0], [1, 9], (0, "points")),
        ([3, 3], [0, 2], [9, 1], (1, "round-3")),
        ([3, 3], [0, 0], [12, 13], (1, "bridges")),
        ([3, 3], [0, 0], [12, 12], (None, "draw")),
    ],
)
def test_decide_winner(points, round3, bridges_on_board, expected):
    assert k.decide_winner(points, round3, bridges_on_board) == expected


def test_control_report_for_the_checker():
    report = k.control_report({"Aloa-Bari": "white", "Aloa-Duda": "white", "Iffi-Lale": "black"})
    assert report["control"] == {"Aloa": "white"}
    assert report["islands"] == {"white": 1, "black": 0}
    assert report["bridges"] == {"white": 2, "black": 1}
    assert report["round_points"] == {
        1: {"white": 1, "black": 0},
        2: {"white": 2, "black": 0},
        3: {"white": 1, "black": 0},
    }


# --- the game: set-up and the face-up cards ----------------------------------------------------


def test_new_game_waits_for_the_three_face_up_cards():
    state = k.new({}, 2)
    assert state["deck"] == 18 and state["hands"] == [3, 3] and state["pending_reveals"] == 3
    assert state["options"] == {"arabana": False}
    refused(state, 0, "place", "reveal", site="Aloa-Bari", card="Aloa")
    state = started()
    assert state["deck"] == 15 and state["display"] == ["Coco", "Gola", "Lale"]
    assert state["pending_reveals"] == 0 and state["turn"] == 0
    json.dumps(state)  # plain JSON data


def test_new_refuses_other_player_counts_and_bad_options():
    for players in (1, 3):
        with pytest.raises(RuleError):
            k.new({}, players)
    with pytest.raises(RuleError):
        k.new({"arabana": "yes"}, 2)
    assert k.new({"arabana": True}, 2)["options"] == {"arabana": True}


def test_reveal_refuses_a_third_copy_and_extra_cards():
    state = k.new({}, 2)
    state = act(state, None, "reveal", island="Aloa")
    state = act(state, None, "reveal", island="aloa")
    refused(state, None, "reveal", "card-count", island="Aloa")
    refused(state, None, "reveal", "island-unknown", island="Atlantis")
    state = act(state, None, "reveal", island="Bari")
    refused(state, None, "reveal", "reveal", island="Coco")


# --- the game: playing cards -------------------------------------------------------------------


def test_only_the_player_on_turn_plays():
    state = started()
    refused(state, 1, "place", "turn-order", site="Aloa-Bari", card="Aloa")
    refused(state, True, "place", "action", site="Aloa-Bari", card="Aloa")
    refused(state, None, "place", "action", site="Aloa-Bari", card="Aloa")


def test_place_through_apply_uses_one_card_naming_an_end():
    state = started()
    err = refused(state, 0, "place", "place-card", site="Aloa-Bari", card="Coco")
    assert "Aloa" in str(err) and "Bari" in str(err)
    after = act(state, 0, "place", site="Bari-Aloa", card="Bari")
    assert after["bridges"] == {"Aloa-Bari": "white"}
    assert after["hands"] == [2, 3] and after["played"] == ["Bari"]
    assert state["bridges"] == {} and state["hands"] == [3, 3]  # the input is untouched
    refused(after, 0, "place", "site-free", site="Aloa-Bari", card="Aloa")


def test_a_card_whose_both_copies_are_face_up_cannot_be_played():
    state = k.new({}, 2)
    for island in ("Coco", "Coco", "Lale"):
        state = act(state, None, "reveal", island=island)
    refused(state, 0, "place", "card-count", site="Bari-Coco", card="Coco")
    act(state, 0, "place", site="Bari-Coco", card="Bari")


def test_a_hand_cannot_play_more_cards_than_it_holds():
    state = started()
    for s, card in (("Aloa-Bari", "Aloa"), ("Aloa-Duda", "Duda"), ("Aloa-Huna", "Huna")):
        state = act(state, 0, "place", site=s, card=card)
    assert state["hands"][0] == 0
    refused(state, 0, "place", "card-count", site="Duda-Elai", card="Elai")


def test_known_cards_from_the_face_up_row_are_used_first_and_limit_the_hand():
    state = started()
    state = act(state, 0, "draw", source="display", island="Gola")
    state = act(state, None, "reveal", island="Aloa")
    assert state["known"] == [["Gola"], []] and state["hands"] == [4, 3]
    state = act(state, 1, "end_turn")
    state = act(state, 0, "draw", source="display", island="Lale")
    state = act(state, None, "reveal", island="Aloa")
    # Gola: one copy known in white's hand, so black may still hold the other one.
    act(state, 1, "place", site="Faaa-Gola", card="Gola")
    state = act(state, 1, "end_turn")
    # White's hand: 5 cards, Gola and Lale known. Playing both Gola copies needs the unknown copy,
    # and the other copy is not accounted for anywhere, so it may be in white's hand too.
    state = act(state, 0, "place", site="Faaa-Gola", card="Gola")
    assert state["known"][0] == ["Lale"]
    state = act(state, 0, "place", site="Gola-Jojo", card="Gola")
    assert state["known"][0] == ["Lale"]
    # Both Aloa copies are face up: white cannot hold one.
    refused(state, 0, "place", "card-count", site="Aloa-Bari", card="Aloa")


def test_remove_takes_two_cards_naming_the_ends_and_the_site_can_be_rebuilt():
    state = with_bridges(started(), bridges(black="Elai-Huna Elai-Iffi"))
    refused(state, 0, "remove", "remove-cards", site="Elai-Huna", cards=["Elai"])
    refused(state, 0, "remove", "remove-cards", site="Elai-Huna", cards="Elai")
    err = refused(state, 0, "remove", "remove-cards", site="Elai-Huna", cards=["Elai", "Iffi"])
    assert "Elai+Huna" in str(err)
    refused(state, 0, "remove", "remove-opponent", site="Aloa-Bari", cards=["Aloa", "Bari"])
    for cards in (["Elai", "Elai"], ["Huna", "Elai"], ["Huna", "Huna"]):
        act(state, 0, "remove", site="Huna-Elai", cards=cards)
    state = act(state, 0, "remove", site="Elai-Huna", cards=["Huna", "Elai"])
    assert state["bridges"] == {"Elai-Iffi": "black"} and state["hands"][0] == 1
    state = act(state, 0, "place", site="Elai-Huna", card="Huna")
    assert state["bridges"] == {"Elai-Huna": "white", "Elai-Iffi": "black"}
    assert state["played"] == ["Huna", "Elai", "Huna"]


def test_removal_through_apply_costs_the_opponent_an_island():
    state = with_bridges(started(), bridges(black="Aloa-Bari Aloa-Duda", white="Aloa-Huna"))
    state = act(state, 0, "remove", site="Aloa-Duda", cards=["Aloa", "Duda"])
    changes = state["last_changes"]
    assert changes["lost"] == {"white": [], "black": ["Aloa"]}
    assert changes["gained"] == {"white": [], "black": []}
    assert changes["destroyed"] == ["Aloa-Duda"]


def test_own_bridges_cannot_be_removed():
    state = with_bridges(started(), bridges(white="Aloa-Bari"))
    refused(state, 0, "remove", "remove-opponent", site="Aloa-Bari", cards=["Aloa", "Bari"])


def test_chain_through_apply_records_changes_and_history():
    before = with_bridges(started(), CHAIN_BEFORE)
    after = act(before, 0, "place", site="Elai-Iffi", card="Elai")
    changes = after["last_changes"]
    assert changes["gained"] == {"white": ["Elai"], "black": []}
    assert changes["lost"] == {"white": [], "black": ["Faaa", "Jojo"]}
    assert changes["destroyed"] == ["Elai-Faaa", "Elai-Jojo"]
    lines = k.describe(
        before, {"type": "place", "seat": 0, "site": "Elai-Iffi", "card": "Elai"}, after
    )
    assert [str(m) for m in lines] == [
        "Player 1 built a bridge on Elai–Iffi (card Elai).",
        "Player 1 took Elai: black bridges Elai–Faaa and Elai–Jojo destroyed.",
        "Player 2 lost Faaa.",
        "Player 2 lost Jojo.",
    ]
    # The messages keep their msgids and parameters for translation, and survive JSON.
    assert all(Msg.from_json(json.loads(json.dumps(m.to_json()))) == m for m in lines)


def test_history_for_one_destroyed_bridge_and_for_a_quiet_capture():
    board = bridges(white="Aloa-Bari Duda-Huna Elai-Huna", black="Aloa-Duda Iffi-Lale")
    before = with_bridges(started(), board)
    after = act(before, 0, "place", site="Aloa-Huna", card="Huna")
    lines = [str(m) for m in k.describe(before, {"type": "place", "seat": 0}, after)]
    assert lines[1:] == [
        "Player 1 took Aloa: black bridge Aloa–Duda destroyed.",
        "Player 1 took Huna.",
    ]


def test_arabana_option_forbids_building_next_to_an_opponent_island():
    board = bridges(black="Aloa-Bari Aloa-Duda")
    plain = with_bridges(started(), board)
    act(plain, 0, "place", site="Aloa-Huna", card="Huna")  # allowed by default
    strict = with_bridges(started(arabana=True), board)
    err = refused(strict, 0, "place", "arabana", site="Aloa-Huna", card="Huna")
    assert "Aloa" in str(err)
    act(strict, 0, "place", site="Duda-Huna", card="Huna")  # Duda is nobody's


def test_eleventh_island_refused_through_apply():
    state = with_bridges(started(), TEN_ISLANDS)
    refused(state, 0, "place", "stone-supply", site="Coco-Gola", card="Gola")


def test_at_most_five_cards_a_turn():
    # A crafted state (5 already played and one more card said to be in hand): the limit holds
    # even if the counts were off.
    state = started()
    state["played"] = ["Aloa", "Bari", "Duda", "Elai", "Faaa"]
    refused(state, 0, "place", "play-limit", site="Huna-Iffi", card="Huna")


# --- discarding, drawing, declining ------------------------------------------------------------


def test_discard_face_down_is_a_turn_without_plays():
    state = started()
    played = act(state, 0, "place", site="Aloa-Bari", card="Aloa")
    refused(played, 0, "discard", "discard", count=1)
    for bad in (0, 4, -1, "2", True, None):
        refused(state, 0, "discard", "discard", count=bad)
    state = act(state, 0, "discard", count=2)
    assert state["hands"] == [1, 3] and state["discard_down"] == 2
    refused(state, 0, "place", "discard", site="Aloa-Bari", card="Aloa")
    state = act(state, 0, "draw", source="deck")
    assert state["hands"] == [2, 3] and state["turn"] == 1 and state["deck"] == 14


def test_hand_never_above_five():
    state = started()
    state["hands"][0] = 5
    refused(state, 0, "draw", "hand-limit", source="deck")
    state = act(state, 0, "discard", count=1)
    state = act(state, 0, "draw", source="deck")
    assert state["hands"][0] == 5


def test_drawing_a_face_up_card_waits_for_the_refill():
    state = started()
    refused(state, 0, "draw", "draw", source="display", island="Aloa")
    refused(state, 0, "draw", "draw", source="pocket")
    state = act(state, 0, "draw", source="display", island="Gola")
    assert state["display"] == ["Coco", "Lale"] and state["pending_reveals"] == 1
    assert state["deck"] == 15 and state["turn"] == 1
    refused(state, 1, "place", "reveal", site="Aloa-Bari", card="Aloa")
    state = act(state, None, "reveal", island="Huna")
    assert state["display"] == ["Coco", "Lale", "Huna"] and state["deck"] == 14


def test_declining_to_draw_obliges_the_opponent():
    state = started()
    state = act(state, 0, "end_turn")
    assert state["must_draw"] and state["turn"] == 1
    refused(state, 1, "end_turn", "must-draw")
    state = act(state, 1, "place", site="Aloa-Bari", card="Bari")
    refused(state, 1, "end_turn", "must-draw")
    state = act(state, 1, "draw", source="deck")
    assert not state["must_draw"]
    state = act(state, 0, "end_turn")
    state["hands"][1] = 5
    err = refused(state, 1, "end_turn", "must-draw")
    assert "discard" in str(err)
    state = act(state, 1, "discard", count=1)
    state = act(state, 1, "draw", source="display", island="Coco")
    assert state["hands"][1] == 5


def test_empty_deck_means_face_up_cards_only():
    state = started()
    state["deck"] = 0
    state["hands"] = [3, 3]
    refused(state, 0, "draw", "draw", source="deck")
    state = act(state, 0, "draw", source="display", island="Coco")
    assert state["pending_reveals"] == 0 and state["display"] == ["Gola", "Lale"]


# --- rounds and the end ------------------------------------------------------------------------


def last_card_state(round_no: int, board: dict) -> dict:
    """Round `round_no` with one face-up card (Lale) left and the deck empty; white to play."""
    state = with_bridges(started(), board)
    state.update(
        round=round_no,
        deck=0,
        display=["Lale"],
        hands=[3, 3],
        discard_up=["Aloa"] * 2,
        discard_down=13,
    )  # 13 + 2 + 1 + 6 in hands = 22 of 24; 2 are played below
    return state


def test_round_one_scores_at_once_and_the_discards_become_the_deck():
    board = bridges(white="Aloa-Bari Aloa-Duda")  # white holds Aloa: 1 island to 0
    state = last_card_state(1, board)
    state = act(state, 0, "place", site="Bari-Elai", card="Bari")
    before = state
    state = act(state, 0, "draw", source="display", island="Lale")
    assert state["rounds"] == [{"round": 1, "islands": [1, 0], "points": [1, 0]}]
    assert state["round"] == 2 and state["turn"] == 1
    assert state["hands"] == [3, 3]  # 2 after playing, then the drawn card
    assert state["deck"] == 18 and state["pending_reveals"] == 3  # 24 - 6 in hands
    assert state["discard_up"] == [] and state["discard_down"] == 0
    assert state["known"] == [["Lale"], []]
    lines = [
        str(m)
        for m in k.describe(
            before, {"type": "draw", "seat": 0, "source": "display", "island": "Lale"}, state
        )
    ]
    assert lines == [
        "Player 1 took Lale from the face-up cards.",
        "Round 1 scored: islands held: White 1, Black 0.",
        "Player 1 scored 1 point.",
        "Round 2 begins: turn up 3 cards; Player 2 plays first.",
    ]
    assert k.GAME.seat_may_undo(before, {"type": "draw", "source": "display"}, state)


def test_round_two_gives_two_points_and_a_tie_gives_none():
    state = act(
        last_card_state(2, bridges(black="Aloa-Bari Aloa-Duda")),
        0,
        "draw",
        source="display",
        island="Lale",
    )
    assert state["rounds"][-1] == {"round": 2, "islands": [0, 1], "points": [0, 2]}
    state = act(last_card_state(2, {}), 0, "draw", source="display", island="Lale")
    assert state["rounds"][-1]["points"] == [0, 0]


def test_round_three_gives_each_player_one_more_turn_then_scores_the_difference():
    board = bridges(white="Aloa-Bari Aloa-Duda Iffi-Lale Huna-Lale", black="Coco-Gola Gola-Kahu")
    state = last_card_state(3, board)
    state["rounds"] = [
        {"round": 1, "islands": [1, 0], "points": [1, 0]},
        {"round": 2, "islands": [0, 1], "points": [0, 2]},
    ]
    state = act(state, 0, "draw", source="display", island="Lale")
    assert state["final_turns"] == 2 and state["turn"] == 1 and not state["over"]
    refused(state, 1, "draw", "final-turns", source="deck")
    # Black's extra turn: Faaa-Gola makes Gola 3/4 for black.
    state = act(state, 1, "place", site="Faaa-Gola", card="Faaa")
    state = act(state, 1, "end_turn")
    assert state["turn"] == 0 and state["final_turns"] == 1 and k.result(state) is None
    # White's extra turn: nothing; the game ends. White 2 islands (Aloa, Lale), black 1 (Gola).
    before = state
    state = act(state, 0, "end_turn")
    assert state["over"]
    final = k.result(state)
    assert final["rounds"][-1] == {"round": 3, "islands": [2, 1], "points": [1, 0]}
    # 1 + 0 + 1 = 2 for white, 0 + 2 + 0 = 2 for black: equal, white scored round 3.
    assert final["points"] == [2, 2]
    assert final["winner"] == 0 and final["tie_break"] == "round-3"
    assert final["bridges"] == [4, 3] and final["islands"] == [2, 1]
    lines = [str(m) for m in k.describe(before, {"type": "end_turn", "seat": 0}, state)]
    assert lines[-2:] == [
        "Game over: Player 1 wins with 2 points to 2.",
        "Equal points: Player 1 scored in round 3 and wins the tie.",
    ]
    err = refused(state, 1, "end_turn", "game-over")
    assert str(err) == "The game is over: nothing more can be entered."
    assert refused(state, 1, "fly", "action")  # an unknown entry is named as such, even now


def test_result_tie_breaks_on_bridges_then_draw():
    state = started()
    state["over"] = True
    state["rounds"] = [
        {"round": 1, "islands": [2, 1], "points": [1, 0]},
        {"round": 2, "islands": [1, 2], "points": [0, 2]},
        {"round": 3, "islands": [3, 3], "points": [0, 0]},
    ]
    state["bridges"] = k.bridges_to_json(bridges(white="Aloa-Bari", black="Coco-Gola"))
    # 1 + 0 + 0 = 1 against 0 + 2 + 0 = 2: black wins on points.
    assert k.result(state)["winner"] == 1 and k.result(state)["tie_break"] == "points"
    state["rounds"][1]["points"] = [0, 1]  # 1 against 1
    assert (k.result(state)["winner"], k.result(state)["tie_break"]) == (None, "draw")
    state["bridges"]["Duda-Huna"] = "white"  # 2 bridges against 1
    assert (k.result(state)["winner"], k.result(state)["tie_break"]) == (0, "bridges")


def test_result_is_none_while_playing():
    assert k.result(started()) is None


# --- view, the card helper, undo ---------------------------------------------------------------


def test_view_for_the_seat_on_turn_and_for_the_table():
    state = with_bridges(started(), CHAIN_BEFORE)
    state = act(state, 0, "place", site="Elai-Iffi", card="Elai")
    mine = k.view(state, 0)
    table = k.view(state, None)
    assert mine["colour"] == "white" and table["colour"] is None
    assert mine["can"]["play"] and not table["can"]["play"] and not k.view(state, 1)["can"]["play"]
    assert mine["can"]["draw_deck"] and mine["can"]["draw_display"] == ["Coco", "Gola", "Lale"]
    assert not mine["can"]["discard"]  # a card was played this turn
    assert k.legal_cards_for(state, 0, "Aloa-Bari")["options"]
    islands = {i["name"]: i for i in table["islands"]}
    assert islands["Elai"]["controller"] == "white" and islands["Elai"]["needed"] == 4
    assert islands["Gola"]["bridges"] == {"white": 0, "black": 3}
    assert table["islands_held"] == {"white": 1, "black": 1}
    assert table["stones_left"] == {"white": 9, "black": 9}
    assert table["bridges_left"] == {"white": 21, "black": 20}
    assert table["last_changes"]["destroyed"] == ["Elai-Faaa", "Elai-Jojo"]
    assert len(table["sites"]) == 27 and table["hands"] == [2, 3]
    json.dumps(mine)
    json.dumps(table)


def test_legal_cards_for_offers_only_cards_that_make_the_move_legal():
    state = with_bridges(started(), bridges(black="Elai-Huna", white="Aloa-Bari"))
    free = k.legal_cards_for(state, 0, "Iffi-Lale")
    assert free["action"] == "place" and free["options"] == [["Iffi"], ["Lale"]]
    removal = k.legal_cards_for(state, 0, ("Huna", "Elai"))
    assert removal["action"] == "remove"
    assert removal["options"] == [["Elai", "Elai"], ["Elai", "Huna"], ["Huna", "Huna"]]
    own = k.legal_cards_for(state, 0, "Aloa-Bari")
    assert own["options"] == [] and own["rule"] == "remove-opponent"
    wrong_seat = k.legal_cards_for(state, 1, "Iffi-Lale")
    assert wrong_seat["options"] == [] and wrong_seat["rule"] == "turn-order"
    assert k.legal_cards_for(state, 0, "Aloa-Lale")["rule"] == "site-unknown"
    # Lale is face up once; with the second Lale face up too, only Iffi is offered.
    state["display"].append("Lale")
    free = k.legal_cards_for(state, 0, "Iffi-Lale")
    assert free["options"] == [["Iffi"]]
    assert free["refused"][0]["rule"] == "card-count"
    # Every offered option is accepted by apply().
    act(state, 0, "place", site="Iffi-Lale", card="Iffi")


def test_legal_cards_for_explains_when_nothing_works():
    state = with_bridges(started(arabana=True), bridges(black="Aloa-Bari Aloa-Duda"))
    answer = k.legal_cards_for(state, 0, "Aloa-Huna")
    assert answer["options"] == [] and answer["rule"] == "arabana" and "Aloa" in answer["reason"]


def test_seat_may_undo_what_it_entered_but_not_a_card_drawn_from_the_deck():
    """The one undo policy: plays, a decline, a face-up card turned up, a round's end; the one
    exception is a card drawn from the face-down deck (its drawer has seen it, rule "draw")."""
    may = k.GAME.seat_may_undo
    state = started()
    placed = act(state, 0, "place", site="Aloa-Bari", card="Aloa")
    assert may(state, {"type": "place"}, placed)
    drawn = act(placed, 0, "draw", source="deck")
    assert not may(placed, {"type": "draw", "source": "deck"}, drawn)
    declined = act(placed, 0, "end_turn")
    assert may(placed, {"type": "end_turn"}, declined)
    revealed = act(k.new({}, 2), None, "reveal", island="Aloa")
    assert may(k.new({}, 2), {"type": "reveal"}, revealed)
    assert not may(k.new({}, 2), {"type": "set_option", "host": True}, k.new({}, 2))


# --- bad input and bookkeeping -----------------------------------------------------------------

junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.text(max_size=12)
    | st.sampled_from(list(k.ISLANDS) + ["Aloa-Bari", "Elai-Huna", "deck", "display"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["reveal", "place", "remove", "discard", "draw", "end_turn", "fly", None, 3]),
    junk,
    junk,
    junk,
    junk,
    st.booleans(),
)
def test_bad_input_only_ever_raises_rule_error(kind, seat, site, card, extra, fresh):
    state = k.new({}, 2) if fresh else with_bridges(started(), bridges(black="Elai-Huna"))
    frozen = copy_state(state)
    action = {
        "type": kind,
        "seat": seat,
        "host": False,
        "site": site,
        "card": card,
        "cards": extra,
        "count": extra,
        "source": site,
        "island": card,
    }
    try:
        after = k.apply(state, action)
    except RuleError as err:
        assert err.rule in k.RULES
    else:
        json.dumps(after)
    assert state == frozen


def test_non_dict_actions_are_refused():
    for action in (None, [], "place", 3):
        with pytest.raises(RuleError) as info:
            k.apply(started(), action)
        assert info.value.rule == "action"
        assert str(info.value) == "This game has no entry called None."


def test_unknown_entries_and_bad_host_flags_get_the_shared_wording():
    err = refused(started(), 0, "fly", "action")
    assert str(err) == "This game has no entry called fly."
    with pytest.raises(RuleError) as info:
        k.apply(started(), {"type": "end_turn", "seat": 0, "host": "yes"})
    assert info.value.rule == "action"
    assert str(info.value) == "The host flag must be true or false."


def test_every_rule_id_used_is_listed_and_every_string_is_marked():
    # All modules together: a refusal (RuleError.of) may be built in one and raised in another.
    used = rule_ids_in(*(path.read_text(encoding="utf-8") for path in PACKAGE.glob("*.py")))
    assert {"action", "game-over", "turn-order", "card-count", "stone-supply"} <= used
    assert used <= set(k.RULES), used - set(k.RULES)
    assert {
        "control",
        "chain",
        "arabana",
        "must-draw",
        "final-turns",
        "double-capture",
    } <= set(k.CLARIFICATIONS)
    assert "winner" in k.RULES and "winner" not in k.CLARIFICATIONS  # the tie-breaks are printed
    assert k.SEAT_LABELS == ("White", "Black")


# --- the table option, set by the host before the first turn action --------------------------


def test_host_sets_the_arabana_option_before_the_first_turn_action():
    state = k.new({}, 2)
    on = k.apply(state, {"type": "set_option", "seat": None, "host": True, "arabana": True})
    assert on["options"] == {"arabana": True} and state["options"] == {"arabana": False}
    assert k.describe(state, {"type": "set_option"}, on)[0].msgid.startswith(
        "Table option Arabana switched on"
    )
    off = k.apply(on, {"type": "set_option", "seat": 0, "host": True, "arabana": False})
    assert "switched off" in k.describe(on, {"type": "set_option"}, off)[0]
    # After the face-up cards were entered it is still open; the option then refuses bridges.
    for island in ("Coco", "Gola", "Lale"):
        on = act(on, None, "reveal", island=island)
    assert k.options_open(on)
    on = with_bridges(on, bridges(black="Aloa-Bari Aloa-Duda"))
    refused(on, 0, "place", "arabana", site="Aloa-Huna", card="Huna")


def test_the_option_is_refused_to_players_after_the_start_and_for_bad_values():
    state = started()
    with pytest.raises(RuleError) as info:
        k.apply(state, {"type": "set_option", "seat": 0, "host": False, "arabana": True})
    assert info.value.rule == "arabana" and "host" in str(info.value)
    for bad in (None, "yes", 1, [True]):
        with pytest.raises(RuleError) as info:
            k.apply(state, {"type": "set_option", "seat": None, "host": True, "arabana": bad})
        assert info.value.rule == "arabana"
    played = act(state, 0, "place", site="Aloa-Bari", card="Aloa")
    assert not k.options_open(played)
    for later in (played, act(state, 0, "end_turn"), act(state, 0, "discard", count=1)):
        with pytest.raises(RuleError) as info:
            k.apply(later, {"type": "set_option", "seat": None, "host": True, "arabana": True})
        assert info.value.rule == "arabana" and "before the first turn action" in str(info.value)


def _msgs_in(value) -> list:
    if isinstance(value, Msg):
        return [value]
    if isinstance(value, dict):
        return [m for v in value.values() for m in _msgs_in(v)]
    if isinstance(value, (list, tuple)):
        return [m for v in value for m in _msgs_in(v)]
    return []


def test_the_state_keeps_no_msg_objects_and_survives_json():
    """A Msg stored in the JSON state would lose its msgid (it is a str): none may be kept."""
    state = with_bridges(started(), CHAIN_BEFORE)
    state = act(state, 0, "place", site="Elai-Iffi", card="Elai")
    state = act(state, 0, "end_turn")
    assert _msgs_in(state) == []
    assert json.loads(json.dumps(state)) == state
    lines = k.describe(state, {"type": "place", "seat": 0}, state)
    assert lines and all(Msg.from_json(json.loads(json.dumps(m.to_json()))) == m for m in lines)
    assert [Msg.from_json(m.to_json()).msgid for m in lines] == [m.msgid for m in lines]
