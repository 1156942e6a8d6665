"""The words of a question and of a page: normalised, stemmed (English and Russian, Snowball via
PyStemmer), cut into tokens; Japanese runs of one script; the words of a question's grammar
(STOP_WORDS, JA_STOP) and the number words."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import Stemmer

STEMMERS = {"latin": Stemmer.Stemmer("english"), "cyrillic": Stemmer.Stemmer("russian")}

# The words of a question's grammar: too common to narrow anything down. Game words and numbers
# are never here. (English and Russian, compared before stemming.)
STOP_WORDS = set(
    # English: question words, pronouns, auxiliaries, fillers
    "a an and are as at be been being by can could did do does doing done for from had has have "
    "having he her hers him his how i if in into is it its just let lets may me might mine must "
    "my now of off on or our ours shall she should so some such than that the their theirs them "
    "then there these they this those to too us very was we were what whats when where which "
    "while who whom whose why will with would you your yours yourself anything something "
    "anyone someone somebody anybody happen happens happened happening get gets got getting "
    "not ok okay please tell know really also still about thing things way like want need needs "
    "again mean means exactly actually else".split()
    # Russian: question words, pronouns, particles, prepositions, быть and its forms
    + "а в во и или как ли на не о об по с со у что чтобы это этот эта эти я мне меня мой моя "
    "мои моё мое моих ты тебе тебя вы вам вас ваш ваши он она оно они его ее её их им ему ей нам "
    "нас мы наш наши можно нельзя ли если какой какая какое какие каких каком сколько кто кого "
    "кому чем чём где когда почему зачем то так же бы быть будет будут было был была были есть "
    "ещё еще уже того тогда этого за до из от при про для к ко да нет ну вот тут там тогда потом надо нужно "
    "скажите подскажите вообще всё все всех всем сам сама сами сразу именно типа разве".split()
)

# Question endings and fillers cut from a Japanese question before it is split into terms
# (longest first, so どうなるの goes before どうなる).
JA_STOP = sorted(
    """どうなりますか どうなるんですか どうなるの どうなる どうなります どうする どうしたら
    どうすれば ですか ますか でしょうか できますか できるの できる できます いいですか
    いいの ていい てもいい でもいい もいい いい なかったら だったら かったら たら ったら
    ってる って っていう ときは とき 場合は 場合 何枚 何点 何本 何個 何人 何回 何度
    何 なに なん どっち どちら どれ いくつ いつ
    もらえる もらえます ありますか あるの ある あります いる います なる なります
    する します した しても したら ですが けど のか のは""".split(),
    key=len,
    reverse=True,
)

# Number words a question may use instead of digits (English and Russian, as stems).
NUMBER_WORDS = {
    **{w: n for n, w in enumerate("zero one two three four five six seven eight nine ten".split())},
    **{w: n for n, w in enumerate("ноль один два три четыре пять шесть семь восемь девять".split())},
    "нуль": 0, "одна": 1, "одну": 1, "две": 2, "десять": 10,
    "единичк": 1, "единиц": 1, "двойк": 2, "тройк": 3, "четверк": 4, "пятерк": 5,
    "шестерк": 6, "семерк": 7, "восьмерк": 8, "девятк": 9, "десятк": 10,
}  # fmt: skip

# Russian verb prefixes: a perfective form (спасовать, заплатить, выиграть) is the same act as
# the word without it (пасовать, платить, играть) for the search.
VERB_PREFIXES = (
    "пере", "при", "про", "раз", "рас", "вы", "за", "на", "от", "по", "до", "с", "у",
)  # fmt: skip


def verb_prefixed(word: str, start: str) -> bool:
    """Whether a Russian word is `start…` behind a verb prefix (спасую for пас…)."""
    return bool(start) and any(
        word.startswith(prefix) and word[len(prefix) :].startswith(start)
        for prefix in VERB_PREFIXES
    )


def without_verb_prefix(word_stem: str) -> list[str]:
    """A Russian stem without each verb prefix it may start with (спас -> пас), longest first."""
    if script_of(word_stem) != "cyrillic":
        return []
    return [
        word_stem[len(prefix) :]
        for prefix in VERB_PREFIXES
        if word_stem.startswith(prefix) and len(word_stem) - len(prefix) >= 4
    ]


KANJI = r"\u3400-\u9fff々〆"
KATAKANA = r"\u30a0-\u30ff\uff66-\uff9fー"
HIRAGANA = r"\u3040-\u309f"
TOKEN = re.compile(
    rf"\d+|[a-z\u00c0-\u024f]+|[а-яё]+|[{KANJI}]+|[{KATAKANA}]+|[{HIRAGANA}]+", re.IGNORECASE
)
# A Russian stem ending in a consonant, е or о, and к: the genitive plural of a noun in -ка.
FLEETING = re.compile(r"[^аеиоуыэюяй][ео]к$")
CJK = re.compile(rf"[{KANJI}{KATAKANA}{HIRAGANA}]")
CONTRACTIONS = [
    (re.compile(r"\bcan['’]?t\b|\bcannot\b"), "can not"),
    (re.compile(r"\bwon['’]t\b"), "will not"),
    (re.compile(r"n['’]t\b"), " not"),
    (re.compile(r"['’](s|ve|re|ll|d|m)\b"), ""),
]


def normalize(text: str) -> str:
    """Lower case, full-width letters and digits as ASCII, ё as е, English contractions spelt
    out ("can't" -> "can not")."""
    text = unicodedata.normalize("NFKC", text).lower().replace("ё", "е")
    for pattern, replacement in CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text


@lru_cache(maxsize=65536)
def script_of(word: str) -> str:
    """ "cjk", "cyrillic" or "latin" (digits count as Latin)."""
    if CJK.search(word):
        return "cjk"
    if re.search(r"[\u0400-\u04ff]", word):
        return "cyrillic"
    return "latin"


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The word's stem in its own script's language (English or Russian), lower-cased."""
    word = unicodedata.normalize("NFKC", word).lower().replace("ё", "е")
    script = script_of(word)
    stemmer = STEMMERS.get(script)
    found = stemmer.stemWord(word) if stemmer else word
    if script == "cyrillic" and len(found) >= 5 and FLEETING.search(found):
        # A fleeting vowel: фишек and ставок are фишка and ставка (Snowball keeps the е/о).
        found = found[:-2] + "к"
    return found


def tokens(text: str) -> list[tuple[str, str, str]]:
    """The text's tokens in order: (kind, key, raw) with kind "word" (key: the stem), "num"
    (key: the digits) or "ja" (key: a run of one Japanese script)."""
    found = []
    for match in TOKEN.finditer(normalize(text)):
        raw = match.group()
        if raw.isdigit():
            found.append(("num", str(int(raw)) if len(raw) < 6 else raw, raw))
        elif script_of(raw) == "cjk":
            found.append(("ja", raw, raw))
        else:
            found.append(("word", stem(raw), raw))
    return found
