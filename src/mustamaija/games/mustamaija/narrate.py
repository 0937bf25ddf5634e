"""Turn a record into a human-readable account of the deal, turn by turn."""

from __future__ import annotations

from collections.abc import Iterator

from mustamaija.core.cards import card_symbol, cards_of
from mustamaija.core.records import play_indexed
from mustamaija.games.mustamaija.actions import Beat, Declare, Lead
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.rules import LEAD, PRESETS, Rules
from mustamaija.games.mustamaija.state import State

SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def _cards(mask: int) -> str:
    return " ".join(card_symbol(c) for c in cards_of(mask)) or "-"


def rules_name(rules: Rules) -> str:
    """Return the preset name of a rule set, or ``"custom"``."""
    return next((name for name, r in PRESETS.items() if r == rules), "custom")


def narrate(record: Record) -> Iterator[str]:
    """Yield the lines of a turn-by-turn account of the record; raises on an illegal action.

    Seats go by their players' names when the record has them (``names``).
    """
    s = record.start()
    who = record.seat_names()
    yield (f"Mustamaija, {record.players} players, dealer {who[record.dealer]}, "
           f"rules {rules_name(record.rules)} ({record.rules.describe()})")
    for seat in range(s.n):
        label = who[seat] if who[seat] == f"seat {seat}" else f"{who[seat]} (seat {seat})"
        yield f"  {label}: {_cards(s.hands[seat])}"
    yield f"  talon: {s.talon_size} cards"
    if s.trump >= 0:
        yield _trump_line(s)
    for i, action in enumerate(record.actions):
        before = s.copy()
        play_indexed(s, i, action)
        yield from _describe(before, s, action, who)
    yield ""
    if s.finished:
        yield f"{_cap(who[s.loser])} is Mustamaija, left holding {_cards(s.hands[s.loser])}, after {s.turns} turns."
    elif s.stopped:
        yield f"The deal was stopped unfinished after {s.turns} turns (M21)."
    else:
        what = "lead" if s.phase == LEAD else "defend"
        yield f"The record ends here: {who[s.to_act]} is to {what}."


def _cap(name: str) -> str:
    return name[:1].upper() + name[1:]


def _trump_line(s: State) -> str:
    if s.trump_card >= 0:
        line = f"  trump card turned: {card_symbol(s.trump_card)}, {SUIT_WORDS[s.trump]} are trumps"
        if s.revealed:
            line += f" (spades turned and put back into the talon: {_cards(s.revealed)})"
        return line
    return f"  {SUIT_WORDS[s.trump]} are trumps"


def _describe(before: State, after: State, action: Lead | Beat | Declare, who: list[str]) -> Iterator[str]:
    seat = action.seat
    name = who[seat]
    if isinstance(action, Declare):
        yield f"  {name} declares the marriage K Q of {SUIT_WORDS[action.suit]}: {SUIT_WORDS[action.suit]} are trumps"
        return
    if isinstance(action, Lead):
        yield f"{after.turns + 1:3d}. {name} leads {_cards(action.cards)} to {who[before.defender]}"
        if before.trump_card < 0 <= after.trump_card:
            yield _trump_line(after)
    else:
        beaten = "; ".join(f"{card_symbol(a)} with {card_symbol(b)}" for a, b in action.pairs)
        taken = before.led & ~action.beaten
        parts = []
        if beaten:
            parts.append(f"beats {beaten}")
        if taken:
            parts.append(f"picks up {_cards(taken)}")
        yield f"     {name} " + ", ".join(parts)
    drawn = after.hands[seat] & ~before.hands[seat]
    if isinstance(action, Beat):
        drawn &= ~before.led
    if drawn:
        yield f"     {name} draws {_cards(drawn)} ({after.talon_size} left in the talon)"
    for out in after.out[len(before.out):]:
        yield f"     {who[out]} is out"
