"""Serengeti (Michael Schacht, Abacus 2007) and its original "Don" rules: one package, two
lobby entries that share the rules (the variant is an option of new())."""

from companion.games.base import N_, GameInfo

# BoardGameGeek files Don (Queen Games, 2001) and Serengeti as one game, Serengeti; its id is
# left at 0 until its BGG page is cited here (a wrong id files plays under another game).
ENTRIES = (
    GameInfo(
        "serengeti", N_("Serengeti"), __name__, 3, 5, {"variant": "abacus"}, bgg_name="Serengeti"
    ),
    GameInfo(
        "don",
        N_("Serengeti — original Don rules"),
        __name__,
        3,
        5,
        {"variant": "don"},
        rules_key="serengeti",
        bgg_name="Serengeti",
        bgg_game="serengeti",  # the exports file a Don play as Serengeti, played with Don rules
        variant="Don rules",
    ),
)
