"""The one legality mechanism: what beats what, lead limits, and the checks behind every action.

Everything here is a pure function of plain masks and numbers, so the true
state (:class:`~mustamaija.games.mustamaija.state.State`) and a seat's view
(:class:`~mustamaija.games.mustamaija.view.View`) share it: checking an action, testing
whether it is legal and listing the legal ones all come from these functions.

>>> from mustamaija.core.cards import parse_card as c, HEARTS, CLUBS
>>> beats(c("JH"), c("9H"), trump=CLUBS), beats(c("2C"), c("AH"), trump=CLUBS)
(True, True)
>>> beats(c("QS"), c("2S"), trump=-1), beats(c("AS"), c("QS"), trump=0)
(False, False)
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Final

from mustamaija.core.bits import popcount
from mustamaija.core.cards import QS, SPADES, SUIT_MASKS, SUITS, card_name, card_symbol, cards_of
from mustamaija.core.errors import IllegalActionError
from mustamaija.games.mustamaija.actions import DECLARE, STOP
from mustamaija.games.mustamaija.rules import LEAD, Rules

__all__ = [
    "BEATERS",
    "MARRIAGES",
    "RuleFacts",
    "above_in_suit",
    "beaters",
    "beats",
    "check_beat",
    "check_declare",
    "check_lead",
    "current_led",
    "declarable_suits",
    "iter_beats",
    "iter_leads",
    "lead_limit",
    "lead_list",
    "step_mask",
]

NO_LIMIT: Final = 52
_QS_BIT: Final = 1 << QS
MARRIAGES: Final = tuple((1 << (s * 13 + 11)) | (1 << (s * 13 + 10)) for s in range(4))
"""The king and queen of each suit, by suit: a marriage (V3) when held together."""


def above_in_suit(card: int) -> int:
    """Return the cards of ``card``'s suit ranked above it, worked out (compiled, a table read would unbox).

    >>> above_in_suit(11) == 1 << 12  # Above K of spades, only A
    True
    """
    return (0x1FFF << card // 13 * 13) & ~((2 << card) - 1)


def _beater_mask(led: int, trump: int) -> int:
    """Return the mask of cards that beat ``led`` when ``trump`` (-1: none) is trumps (M2, M13): the rule itself.

    The legal steps work it out each time (compiled, reading :data:`BEATERS` unboxes a two-digit int); the
    table is made from it.
    """
    if led == QS:  # M2: Maija led is never beaten, not even by a trump.
        return 0
    suit = led // 13
    m = above_in_suit(led)
    if trump >= 0 and suit != trump:
        m |= 0x1FFF << 13 * trump
    return m & ~_QS_BIT  # M2: Maija never beats.


BEATERS: Final = tuple(tuple(_beater_mask(led, t) for led in range(52)) for t in (0, 1, 2, 3, -1))
"""``BEATERS[trump][led]``: the mask of cards that beat ``led`` (M2, M13).

``trump`` is a suit index, or -1 for no trumps, which Python's indexing maps
to the last row.
"""


def beaters(led: int, trump: int) -> int:
    """Return the mask of cards that beat ``led`` when ``trump`` (-1: none) is trumps."""
    return BEATERS[trump][led]


def beats(card: int, led: int, trump: int) -> bool:
    """Return whether ``card`` beats ``led`` when ``trump`` (-1: none) is trumps (M2, M13)."""
    return bool(BEATERS[trump][led] >> card & 1)


class RuleFacts:
    """The rules a deal's transitions read at every step or turn, as plain fields of one rule set.

    A rule set stays interpreted (docs/architecture.md#builds), so in the compiled build each read of one
    of its fields is a generic attribute lookup; a state keeps these instead, made once per deal.

    >>> f = RuleFacts(Rules(trump="marriage", max_lead=3))
    >>> f.marriage, f.max_lead, f.limit_always, f.max_turns == Rules().max_turns, f.hand_size
    (True, 3, False, True, 5)
    >>> import pickle; pickle.loads(pickle.dumps(f)).max_lead
    3
    """

    __slots__ = ("hand_size", "limit_always", "marriage", "max_lead", "max_turns", "rules", "spades_can_be_trump")

    def __init__(self, rules: Rules) -> None:
        self.rules: Final = rules
        """The rule set these are read from."""
        self.hand_size: Final = rules.hand_size
        """The cards dealt to each seat, and the number a seat draws up to (V1, M4, M12)."""
        self.marriage: Final = rules.trump == "marriage"
        """Whether the trump is made by a marriage (V3)."""
        self.max_turns: Final = rules.max_turns
        """The turn cap (M21)."""
        self.limit_always: Final = rules.attack_limit == "always"
        """Whether a lead is capped by the defender's hand while the talon lasts too (M11, M17)."""
        self.max_lead: Final = rules.max_lead if rules.max_lead is not None else NO_LIMIT
        """The most cards any lead may hold (``max_lead``; 52: no cap)."""
        self.spades_can_be_trump: Final = rules.spades_can_be_trump
        """Whether a turned spade stands as trump (M7)."""

    def __reduce__(self) -> tuple[type[RuleFacts], tuple[Rules]]:
        """Pickle as the rule set, which makes the rest (a compiled class would be unpickled without it)."""
        return RuleFacts, (self.rules,)


def lead_limit(facts: RuleFacts, defender_cards: int, talon_size: int) -> int:
    """Return the most cards the attacker may lead (M11, M17, ``max_lead``); 52 means no limit."""
    limit = defender_cards if talon_size == 0 or facts.limit_always else NO_LIMIT
    cap = facts.max_lead
    return limit if limit < cap else cap


def declarable_suits(rules: Rules, hand: int, declarer: int) -> int:
    """Return a 4-bit mask of the suits whose marriage ``hand`` may declare now (V3)."""
    if rules.trump != "marriage" or declarer != -1:
        return 0
    out = 0
    for s in (1, 2, 3):  # V3: never spades.
        if hand & MARRIAGES[s] == MARRIAGES[s]:
            out |= 1 << s
    return out


def current_led(rem: int, avail: int, trump: int) -> int:
    """Return the lowest undecided led card that ``avail`` can still beat, or -1.

    In the step decomposition a defence walks the led cards in rising order;
    a led card that nothing left in hand can beat is picked up without a
    decision, because leaving it is the only choice.
    """
    while rem:
        low = rem & -rem
        led = low.bit_length() - 1
        if _beater_mask(led, trump) & avail:
            return led
        rem ^= low
    return -1


def step_mask(
    phase: int,
    hand: int,
    sel: int,
    limit: int,
    rem: int,
    used: int,
    trump: int,
    decl: int,
    started: bool,
) -> int:
    """Return the legal steps as a mask over the step numbers (bit ``i`` is step ``i``).

    ``phase`` is 0 to lead, 1 to defend; ``sel`` the cards chosen so far for a
    lead; ``rem`` the undecided led cards and ``used`` the beaters chosen so
    far in a defence; ``decl`` the declarable suits; ``started`` whether the
    actor has already taken a step of this action.
    """
    extra = 0 if started else decl << DECLARE
    if phase == LEAD:
        if not sel:
            return hand | extra
        top = sel.bit_length() - 1
        if popcount(sel) >= limit:
            return 1 << STOP
        return (hand & above_in_suit(top)) | (1 << STOP)
    avail = hand & ~used
    led = current_led(rem, avail, trump)
    if led < 0:
        return (1 << STOP) | extra
    return (avail & _beater_mask(led, trump)) | (1 << STOP) | extra


# -- compound checks ------------------------------------------------------------


def check_lead(seat: int, hand: int, cards: int, rules: Rules, defender_cards: int, talon_size: int) -> None:
    """Raise :class:`IllegalActionError` unless leading ``cards`` from ``hand`` is legal (M2, M10, M11)."""
    if not cards:
        raise IllegalActionError("M10", "a lead needs at least one card")
    missing = cards & ~hand
    if missing:
        raise IllegalActionError("M10", f"seat {seat} does not hold {card_name(cards_of(missing)[0])}")
    first = (cards & -cards).bit_length() - 1
    others = cards & ~SUIT_MASKS[first // 13]
    if others:
        other = cards_of(others)[0]
        note = " (Q♠ counts as a spade, M2)" if QS in (first, other) else ""
        raise IllegalActionError(
            "M10", f"a lead must be all one suit: {card_name(first)} and {card_name(other)} differ{note}"
        )
    n = popcount(cards)
    if rules.max_lead is not None and n > rules.max_lead:
        raise IllegalActionError("max_lead", f"a lead of {n} cards exceeds the rule set's cap of {rules.max_lead}")
    if (talon_size == 0 or rules.attack_limit == "always") and n > defender_cards:
        why = "the talon is empty" if talon_size == 0 else "the limit applies all deal (attack_limit: always)"
        raise IllegalActionError(
            "M11", f"a lead of {n} cards exceeds the defender's {defender_cards} cards in hand ({why})"
        )


def check_beat(seat: int, hand: int, led: int, pairs: tuple[tuple[int, int], ...], trump: int) -> None:
    """Raise :class:`IllegalActionError` unless the defence ``pairs`` against ``led`` is legal (M2, M13)."""
    used = 0
    done = 0
    trumps = "no trumps" if trump < 0 else f"trumps: {SUITS[trump]}"
    for target, beater in pairs:
        if not led >> target & 1:
            raise IllegalActionError("M13", f"{card_name(target)} was not led")
        if done >> target & 1:
            raise IllegalActionError("M13", f"{card_name(target)} is beaten twice: one beating card beats exactly one led card")
        done |= 1 << target
        if not hand >> beater & 1:
            raise IllegalActionError("M13", f"seat {seat} does not hold {card_name(beater)}")
        if used >> beater & 1:
            raise IllegalActionError(
                "M13", f"{card_name(beater)} is used twice: one beating card beats exactly one led card"
            )
        used |= 1 << beater
        if target == QS:
            raise IllegalActionError("M2", "Q♠ led can never be beaten, not even by a trump")
        if beater == QS:
            raise IllegalActionError("M2", "Q♠ can never beat a card")
        if not BEATERS[trump][target] >> beater & 1:
            raise IllegalActionError(
                "M13", f"{card_symbol(beater)} does not beat {card_symbol(target)} ({trumps})"
            )


def check_declare(rules: Rules, seat: int, hand: int, suit: int, declarer: int, declared: int) -> None:
    """Raise :class:`IllegalActionError` unless ``seat`` may declare the marriage in ``suit`` (V2-V4)."""
    if rules.trump != "marriage":
        raise IllegalActionError("V2", f"marriages are not played under these rules (trump: {rules.trump})")
    if declarer == -2:
        raise IllegalActionError("V3", f"trumps ({SUITS[declared]}) were fixed by a marriage before this position")
    if declarer >= 0:
        raise IllegalActionError(
            "V3", f"trumps are already fixed by seat {declarer}'s marriage in {SUITS[declared]}: only the first declaration counts"
        )
    if suit == SPADES:
        raise IllegalActionError("V3", "a marriage in spades cannot be declared: spades are never trumps by marriage")
    if hand & MARRIAGES[suit] != MARRIAGES[suit]:
        raise IllegalActionError("V3", f"seat {seat} does not hold both K{SUITS[suit]} and Q{SUITS[suit]}")


# -- listing compound actions --------------------------------------------------------


def iter_leads(hand: int, limit: int) -> Iterator[int]:
    """Yield every legal lead from ``hand`` as a mask, lazily: each nonempty subset of one suit up to ``limit``."""
    for s in range(4):
        cards = cards_of(hand & SUIT_MASKS[s])
        for k in range(1, min(limit, len(cards)) + 1):
            for combo in combinations(cards, k):
                m = 0
                for c in combo:
                    m |= 1 << c
                yield m


def lead_list(hand: int, limit: int) -> list[int]:
    """Return every legal lead from ``hand`` as masks, in the order of :func:`iter_leads`, as one list.

    Each suit's subsets by size, in the order of ``itertools.combinations``, by an index walk: compiled, a
    list built in place costs a fraction of a generator's steps.

    >>> hand = (1 << 0) | (1 << 1) | (1 << 5) | (1 << 14)
    >>> lead_list(hand, 2) == list(iter_leads(hand, 2))
    True
    """
    out: list[int] = []
    for s in range(4):
        cards = cards_of(hand & SUIT_MASKS[s])
        n = len(cards)
        for k in range(1, min(limit, n) + 1):
            idx = [0] * k
            for i in range(k):
                idx[i] = i
            while True:
                m = 0
                for i in idx:
                    m |= 1 << cards[i]
                out.append(m)
                j = k - 1
                while j >= 0 and idx[j] == j + n - k:
                    j -= 1
                if j < 0:
                    break
                idx[j] = idx[j] + 1
                for i in range(j + 1, k):
                    idx[i] = idx[i - 1] + 1
    return out


def iter_beats(hand: int, led: int, trump: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Yield every legal defence against ``led`` as sorted (led, beater) pairs, lazily, picking up everything first."""
    targets = cards_of(led)

    def rec(i: int, avail: int) -> Iterator[tuple[tuple[int, int], ...]]:
        if i == len(targets):
            yield ()
            return
        t = targets[i]
        yield from rec(i + 1, avail)
        for b in cards_of(avail & BEATERS[trump][t]):
            for rest in rec(i + 1, avail & ~(1 << b)):
                yield ((t, b), *rest)

    yield from rec(0, hand)
