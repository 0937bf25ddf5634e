"""Turn a Black Maria record into a turn-by-turn account of the hand, for people.

>>> from mustamaija.games.black_maria.players import HeuristicPlayer
>>> from mustamaija.games.black_maria.play import play_hand
>>> text = narrate(play_hand([HeuristicPlayer()] * 3, seed=2).record)
>>> print(text.splitlines()[0])
Black Maria, 3 players, dealer seat 1, to 50 points, reneging forbidden
>>> print(text.splitlines()[-1])
Points this hand: seat 0 19, seat 1 7, seat 2 17
"""

from __future__ import annotations

from mustamaija.core.cards import card_symbol, cards_of
from mustamaija.core.records import play_indexed
from mustamaija.games.black_maria.actions import Pass
from mustamaija.games.black_maria.legality import penalty_of
from mustamaija.games.black_maria.record import Record
from mustamaija.games.black_maria.rules import removed_cards

__all__ = ["narrate"]


def _cards(mask: int) -> str:
    return " ".join(card_symbol(c) for c in cards_of(mask)) or "-"


def narrate(record: Record) -> str:
    """Return the account of the record, one event a line; an illegal action raises :class:`RecordError`."""
    s = record.start()
    n = s.n
    who = record.seat_names()
    lines = [f"Black Maria, {n} players, dealer {who[record.dealer]}, {record.rules.describe()}"]
    lines.append(f"Removed from the pack (B1): {_cards(removed_cards(n))}")
    for seat in range(n):
        label = who[seat] if who[seat] == f"seat {seat}" else f"{who[seat]} (seat {seat})"
        lines.append(f"  {label}: {_cards(s.hands[seat])}")
    trick_no = 0
    for i, action in enumerate(record.actions):
        was_leading = not s.trick
        broken = s.broken
        reneges = s.reneges
        play_indexed(s, i, action)
        if isinstance(action, Pass):
            lines.append(f"{_cap(who[action.seat])} passes {_cards(action.cards)} to {who[(action.seat + 1) % n]} (B3)")
            if s.npassed == n:
                lines.append("The passed cards change hands; "
                             f"{who[s.actor]} leads to the first trick (B4)")
            continue
        if was_leading:
            trick_no += 1
            lines.append(f"Trick {trick_no}:")
        note = ""
        if s.broken and not broken:
            note = " (hearts are broken, B5)"
        if s.reneges != reneges:
            note += " (a renege, charged at the end of the hand, B7)"
        lines.append(f"  {who[action.seat]} plays {card_symbol(action.card)}{note}")
        if not s.trick:  # The play completed the trick.
            w = s.leader
            pts = penalty_of(s.won[w])
            lines.append(f"  {who[w]} wins the trick; {who[w]} has {pts} points from tricks")
    if s.is_over:
        if any(s.reneges):
            lines.append("Reneges: " + ", ".join(f"{who[p]} {r}" for p, r in enumerate(s.reneges) if r))
        lines.append("Points this hand: " + ", ".join(f"{who[p]} {pts}" for p, pts in enumerate(s.points())))
    else:
        lines.append(f"(the record stops here: {who[s.actor]} is to {s.phase_name})")
    return "\n".join(lines)


def _cap(name: str) -> str:
    return name[:1].upper() + name[1:]
