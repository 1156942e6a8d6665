"""Kahuna: the words players say at the table, mapped to the ids of the rules page's entries they
mean (the rules search, companion/search/, ranks those entries first). Listed and explained in
docs/terms/kahuna.md ("Asking the rules"); every id must be an anchor of the rules page
(tests/test_search_terms.py). The format is Serengeti's (its search_terms.py says it).
"""

from __future__ import annotations

from companion.games.base import SearchTerms

CONTROL = ("control", "double-capture")
REMOVE = ("remove-opponent", "remove-cards", "remove-then-build")
HAND = ("hand-limit", "discard")
NO_DRAW = ("must-draw",)
FIRST = ("first-player", "turn-order")
THEIR_BRIDGES = ("destroy", "double-capture", "chain")
ROUND_POINTS = ("round-end", "final-turns")
TIE = ("winner",)
PLAY_LIMIT = ("play-limit",)
STONES = ("stone-supply",)
BRIDGES = ("bridge-supply",)
REBUILD = ("remove-then-build",)
BUILD = ("site-free", "place-card", "arabana")
CARDS = ("card-count",)
ONE_BRIDGE = ("double-capture",)
NEXT_TO = ("arabana",)

PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "take over": CONTROL,
        "conquer": CONTROL,
        "own an island": CONTROL,
        "win an island": CONTROL,
        "get an island": CONTROL,
        "take an island": CONTROL,
        "majority": CONTROL,
        "get rid of": REMOVE,
        "remove": REMOVE,
        "knock down": REMOVE,
        "take away a bridge": REMOVE,
        "break a bridge": REMOVE,
        "hand limit": HAND,
        "how many cards can i hold": HAND,
        "hold": HAND,
        "keep in my hand": HAND,
        "skip drawing": NO_DRAW,
        "not draw": NO_DRAW,
        "without drawing": NO_DRAW,
        "no draw": NO_DRAW,
        "decline": NO_DRAW,
        "who goes first": FIRST,
        "who starts": FIRST,
        "who begins": FIRST,
        "first player": FIRST,
        "their bridges": THEIR_BRIDGES,
        "capture": THEIR_BRIDGES + ("control",),
        "bridges disappear": THEIR_BRIDGES,
        "points": ROUND_POINTS,
        "score*": ROUND_POINTS,
        "after each round": ROUND_POINTS,
        "same points": TIE,
        "same score": TIE,
        "equal points": TIE,
        "tie": TIE,
        "tied": TIE,
        "cards per turn": PLAY_LIMIT,
        "how many cards can i play": PLAY_LIMIT,
        "stones": STONES,
        "how many bridges": BRIDGES,
        "run out of bridges": BRIDGES,
        "rebuild": REBUILD,
        "build there": REBUILD,
        "build a bridge": BUILD,
        "build on": BUILD,
        "how many cards are there": CARDS,
        "cards in the deck": CARDS,
        "one bridge": ONE_BRIDGE,
        "single bridge": ONE_BRIDGE,
        "next to": NEXT_TO,
        "adjacent": NEXT_TO,
        "touching": NEXT_TO,
    },
    "ja": {
        "島を取": CONTROL,
        "支配": CONTROL,
        "奪": CONTROL,
        "過半数": CONTROL,
        "外す": REMOVE,
        "外せ": REMOVE,
        "取り除": REMOVE,
        "壊": REMOVE,
        "どか": REMOVE,
        "手札は最大": HAND,
        "手札の上限": HAND,
        "何枚持て": HAND,
        "引かない": NO_DRAW,
        "引かず": NO_DRAW,
        "補充しない": NO_DRAW,
        "補充せず": NO_DRAW,
        "先攻": FIRST,
        "先手": FIRST,
        "誰から": FIRST,
        "相手の橋は": THEIR_BRIDGES,
        "取ったら": THEIR_BRIDGES,
        "得点": ROUND_POINTS,
        "同点": TIE,
        "点数が同じ": TIE,
        "引き分け": TIE,
        "何枚まで出せ": PLAY_LIMIT,
        "出せる": PLAY_LIMIT,
        "ストーン": STONES,
        "石": STONES,
        "橋は全部で": BRIDGES,
        "橋は何本": BRIDGES,
        "橋の数": BRIDGES,
        "橋をかけ": BUILD,
        "全部で何枚": CARDS,
        "カードは何枚": CARDS,
        "1本の橋": ONE_BRIDGE,
        "一本の橋": ONE_BRIDGE,
        "隣": NEXT_TO,
        "接する": NEXT_TO,
        "隣接": NEXT_TO,
    },
    "ru": {
        "захват*": CONTROL,
        "взять остров": CONTROL,
        "контрол*": CONTROL,
        "большинств*": CONTROL,
        "снести": REMOVE,
        "снос*": REMOVE,
        "убрать": REMOVE,
        "удалить": REMOVE,
        "сломать": REMOVE,
        "в руке": HAND,
        "на руке": HAND,
        "держать": HAND,
        "не брать": NO_DRAW,
        "без добора": NO_DRAW,
        "не добирать": NO_DRAW,
        "не тянуть": NO_DRAW,
        "кто ходит первым": FIRST,
        "кто начинает": FIRST,
        "первый ход": FIRST,
        "происход* с мост*": THEIR_BRIDGES,
        "мост* противник*": THEIR_BRIDGES,
        "мост* соперник*": REMOVE + THEIR_BRIDGES,
        "очков за раунд": ROUND_POINTS,
        "за раунд": ROUND_POINTS,
        "подсчет": ROUND_POINTS,
        "поровну": TIE,
        "ничья": TIE,
        "одинаково очков": TIE,
        "равн*": TIE,
        "камн*": STONES,
        "сколько мостов": BRIDGES,
        "строить мост": BUILD,
        "построить мост": BUILD,
        "сколько всего карт": CARDS,
        "карт в колоде": CARDS,
        "один мост": ONE_BRIDGE,
        "одним мостом": ONE_BRIDGE,
        "рядом": NEXT_TO,
        "соседн*": NEXT_TO,
    },
}

READS: dict[str, str] = {
    "double-capture": "control",
    "chain": "destroy",
    "remove-then-build": "site-free",
    "first-player": "turn-order",
}


#: What the rules search reads (companion.games.base.SearchTerms).
TERMS = SearchTerms(PHRASES, READS)
