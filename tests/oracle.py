"""Rules written out from docs/rules.md independently of the engine, for tests to check the engine against."""

from mustamaija.core.cards import QS


def oracle_beats(card: int, led: int, trump: int) -> bool:
    """M2, M13, written out from the rule text rather than taken from the engine."""
    if card == QS or led == QS:
        return False
    if card // 13 == led // 13:
        return card % 13 > led % 13
    return trump >= 0 and card // 13 == trump
