"""Serengeti (Michael Schacht, Abacus 2007) and its original "Don" rules: one package, two
lobby entries that share the rules (the variant is an option of new())."""

from companion.games.base import N_, GameInfo

ENTRIES = (
    GameInfo("serengeti", N_("Serengeti"), __name__, 3, 5, {"variant": "abacus"}),
    GameInfo(
        "don",
        N_("Serengeti — original Don rules"),
        __name__,
        3,
        5,
        {"variant": "don"},
        rules_key="serengeti",
    ),
)
