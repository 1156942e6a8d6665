"""Africana's set-up guide: the rule text's set-up (seed 000, ja L113-143; seed 004, ru L63) for
this player count, each line with the sentence it comes from, and what each seat receives."""

from __future__ import annotations

from companion.games.africana.facts import (
    C_CARDS_REMOVED,
    EXPEDITION_CARDS,
    STARTING_COINS,
    SWITCHABLE_READINGS,
    company_facts,
)
from companion.games.base import N_, Msg, Plural, Seat, SetupStep, table_readings


def setup(options: dict, players: int) -> list[SetupStep]:
    """The set-up of a table of `players` (2 to 4)."""
    removed = C_CARDS_REMOVED.get(players, 0)
    steps = [
        SetupStep(
            "adventures",
            Msg(
                N_(
                    "Sort the adventure cards by frame and shuffle each: white frames on the "
                    "northern book, brown frames on the southern book."
                )
            ),
            "ru L63",
            "Разделите карты приключений в соответствии с цветом рамок и по отдельности "
            "перетасуйте обе колоды. Положите карты с белой рамкой на одну сторону северной "
            "книги. Карточки с коричневой рамкой кладутся на южную книгу.",
            lang="ru",
            rendering=N_(
                "Sort the adventure cards by the colour of their frames and shuffle both decks "
                "separately. Put the white-framed cards on the northern book; the brown-framed "
                "cards go on the southern book."
            ),
            rule="buy-adventure",
        ),
        SetupStep(
            "expeditions",
            Plural(
                "Sort the expedition cards by their backs (A, B, C), shuffle each, and put "
                "%(num)s C card back in the box unseen: %(deck)s cards stay.",
                "Sort the expedition cards by their backs (A, B, C), shuffle each, and put "
                "%(num)s C cards back in the box unseen: %(deck)s cards stay.",
                "num",
                num=removed,
                deck=EXPEDITION_CARDS - removed,
            ),
            "ja L113-119",
            "背面のアルファベットに従って、A、B、Cに分け、それぞれを良くきります。"
            "…Cの山札からカードの中身を見ないようにゲームから除外します：4人プレイ：4枚 "
            "3人プレイ：7枚 2人プレイ：10枚",
            rendering=N_(
                "Sort them into A, B and C by the letter on the back and shuffle each well. "
                "Remove cards from the C deck without looking: 4 with 4 players, 7 with 3, 10 "
                "with 2."
            ),
            rule="set-up",
        ),
        SetupStep(
            "row",
            Msg(
                N_(
                    "Stack C on the lower-left space, B on it, A on top; deal the top 5 (all A) "
                    "to the expedition spaces, left to right."
                )
            ),
            "ja L121",
            "最初にCの山札をゲームボードの左下のスペースに置き、その上にBを置き、最後にAの山札を"
            "重ねて置きます。その後、探検カードの山札の上から5枚を引き（全て背面Aのはずです）、"
            "5つの探検スペースに左から右に向かって並べます。",
            rendering=N_(
                "Put the C deck on the lower-left space of the board, B on it and A on top. "
                "Then draw the top 5 expedition cards (all should have A backs) and lay them on "
                "the 5 expedition spaces from left to right."
            ),
            rule="refill-row",
        ),
        SetupStep(
            "guides-movement",
            Msg(
                N_(
                    "Lay the guide cards face up beside the board; shuffle the movement cards "
                    "face down beside it, with room for a discard pile."
                )
            ),
            "ja L123-124",
            "案内人カードを表向きにゲームボードの隣に並べます。"
            "移動カードを良くきり、裏向きの山札としてゲームボードの隣に置きます。",
            rendering=N_(
                "Lay the guide cards face up beside the board. Shuffle the movement cards well "
                "and put them face down beside the board as a deck."
            ),
            rule="guide-penalty",
        ),
        SetupStep(
            "bank",
            Msg(N_("Gold and silver coins beside the board are the bank: 1 gold = 5 silver.")),
            "ja L127-128",
            "金貨と銀貨をゲームボードの横に置き、銀行とします。"
            "金貨1枚は銀貨5枚の価値を持ち、自由に両替することができます。",
            rendering=N_(
                "Put the gold and silver coins beside the board as the bank. A gold coin is "
                "worth 5 silver coins, and you may change them freely."
            ),
            rule="no-debt",
        ),
    ]
    steps += _companies(options, players)
    if players < 4:
        steps.append(_BOX)
    return steps


def _companies(options: dict, players: int) -> list[SetupStep]:
    """What each seat receives, its starting coins as the table reads them: silver (ours) or
    gold (the game option readings = {"starting-coins-silver": "literal"})."""
    in_gold = STARTING_COINS in table_readings(options, SWITCHABLE_READINGS, "set-up")
    return [_company(seat, in_gold) for seat in range(players)]


def _company(seat: int, in_gold: bool) -> SetupStep:
    """What a seat receives: its company, explorer, markers, coins and hand (ja L138-141); the
    coins as silver coins (ours) or as gold coins (the table's other reading)."""
    company = company_facts(seat, in_gold)
    facts = {
        "seat": Seat(seat),
        "number": company["number"],
        "company": company["name"],
        "colour": Msg(company["colour"]),
        "start": company["start"],
        "coins": company["printed"],
    }
    if in_gold:
        line = Plural(
            "%(seat)s: company %(number)s, %(company)s: the %(colour)s explorer on "
            "%(start)s, 4 markers, %(coins)s gold coin (%(silver)s silver), 1 joker and 1 "
            "movement card.",
            "%(seat)s: company %(number)s, %(company)s: the %(colour)s explorer on "
            "%(start)s, 4 markers, %(coins)s gold coins (%(silver)s silver), 1 joker and 1 "
            "movement card.",
            "coins",
            silver=company["coins"],
            **facts,
        )
    else:
        line = Msg(
            N_(
                "%(seat)s: company %(number)s, %(company)s: the %(colour)s explorer on "
                "%(start)s, 4 markers, %(coins)s silver, 1 joker and 1 movement card."
            ),
            **facts,
        )
    return SetupStep(
        f"company-{seat + 1}",
        line,
        "ja L138-141",
        "スタートプレイヤーを決定し、そのプレイヤーに1番の会社カード：イタリアを渡します。"
        "それ以外のプレイヤーは、時計回りの順で、残りの会社カードを番号順に受け取ります。",
        rendering=N_(
            "Choose the start player and give them company card 1, Italy. The other "
            "players take the other company cards in number order, clockwise."
        ),
        rule="set-up",
        filled=(
            N_(
                "The rule text does not say whether the starting coins are silver or gold: "
                "this table reads gold."
            )
            if in_gold
            else N_(
                "The rule text does not say whether the starting coins are silver or gold: "
                "the app reads silver."
            )
        ),
    )


# With fewer than 4 players, what is not used goes back in the box.
_BOX = SetupStep(
    "box",
    Msg(N_("Put the unused companies' cards, markers and explorers back in the box.")),
    "ja L143",
    "メモ：4人未満で遊ぶ時は、使用しない道具（会社カード、会社マーカー、探検家駒）を箱に戻します。",
    rendering=N_(
        "Note: with fewer than 4, put the unused pieces (company cards, company markers, "
        "explorers) back in the box."
    ),
    rule="players",
)
