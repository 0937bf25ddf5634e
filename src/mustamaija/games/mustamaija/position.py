"""Positions: any Mustamaija position, what each seat knows of it, and deals played from one (docs/formats.md).

Two formats hold a position. ``mustamaija-position/1`` is the contract's
endgame: the talon empty, every hand known and public, the attacker about
to lead. ``mustamaija-position/2`` is this project's extension and holds
any position a deal can reach, and more: hands of any sizes, a talon in a
known or unknown order, the trump card and the spades put back (M6-M8),
the cards on the table during a defence (even part way through one chosen
card by card), the lead limit in force (M11), the seats out (M18), the
turn count (M21), a declared marriage (V3), the dealer, and what every
seat knows: which hand cards are public (M22). A :class:`Position` reads
both, writes /1 whenever the position means no more than /1 can say, and
sets up the engine's state with :meth:`Position.to_state`.

>>> p = Position.loads('{"format": "mustamaija-position/1", "rules": {}, "trump_suit": "C",'
...                    ' "hands": [["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], "attacker": 0}')
>>> p.trump_suit, p.attacker, [CardSet(h).names() for h in p.hands]
(3, 0, [['QS', '5H', '6H', '3C', 'AC'], ['KH', '2D']])
>>> s = p.to_state()
>>> s.phase_name, s.to_act, s.limit
('lead', 0, 2)
>>> Position.from_json({"hands": [["AC"], ["2D"]], "attacker": 0})
Traceback (most recent call last):
...
mustamaija.core.errors.FormatError: Q♠ (QS) is in no hand: she never leaves play (M2, M19), so some seat must hold her

Any state reached in play has a position, and the position sets up a state
that every seat sees exactly as it saw the original:

>>> from mustamaija import State
>>> s = State.from_seed(players=3, seed=5)
>>> _ = s.lead("3C QC"), s.beat({"3C": "6C"})
>>> p = Position.from_state(s)
>>> p.to_json()["format"], p.talon_size, CardSet(p.public).names()
('mustamaija-position/2', 35, ['QC'])
>>> t = Position.loads(p.dumps()).to_state()
>>> state_differences(s, t), all(t.view(seat).known == s.view(seat).known for seat in (0, 1, 2, None))
([], True)
>>> text = p.to_text()
>>> text.split("_")[1], text.split("_")[3:]
('h7d8QcJ.cQ-sJhAd34cK-sKh6TdAcA', ['d7', 'l1', 'd1.t1'])
>>> Position.parse(text) == p
True

The one-line text puts the rules, the hands (each seat's private cards,
then ``.`` and its public ones), the talon, the trump and the turn in
fields joined by ``_``, and the extras last (here the dealer and the turn
count): see docs/formats.md.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Final, Literal, cast

from mustamaija.core.cards import ALL_CARDS, QS, RANKS, SPADES, SUIT_MASKS, SUITS, CardSet, card_name, cards_of, parse_suit
from mustamaija.core.errors import CardError, FormatError, IllegalActionError, RulesError
from mustamaija.core.records import JsonDocument, Replayable, card_at, read_actions, read_int, read_json
from mustamaija.core.state import state_fields
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import Action, action_from_json
from mustamaija.games.mustamaija.rules import DEFAULT_MAX_TURNS, DEFEND, LEAD, PHASES, Rules
from mustamaija.games.mustamaija.state import FIXED_BEFORE, State

if TYPE_CHECKING:
    from mustamaija.games.mustamaija.view import View

__all__ = [
    "POSITION2_FORMAT",
    "POSITION_FORMAT",
    "POSITION_FORMATS",
    "Position",
    "PositionFormats",
    "PositionRecord",
    "state_differences",
    "view_differences",
]

POSITION_FORMAT: Final = "mustamaija-position/1"
"""The contract's endgame positions: talon empty, every hand public, the attacker to lead."""
POSITION2_FORMAT: Final = "mustamaija-position/2"
"""This project's extension: any position a deal can reach, with what each seat knows."""
POSITION_FORMATS: Final = (POSITION_FORMAT, POSITION2_FORMAT)

TalonOrder = Literal["known", "unknown"]
"""Whether a position's talon lists its real order, or the engine shuffles it when it sets the position up."""
PhaseName = Literal["lead", "defend", "over"]

_KNOWN1: Final = ("format", "rules", "trump_suit", "hands", "attacker")
_KNOWN2: Final = (
    "format", "rules", "dealer", "hands", "public", "talon", "talon_order", "trump_suit", "trump_card", "turn_pending",
    "revealed", "discard", "phase", "attacker", "defender", "table", "selected", "limit", "out", "turns", "declarer",
    "stopped",
)
_ALL_PUBLIC: Final = -1
"""The default of :attr:`Position.public`: every hand card, as in /1."""
_THE_REST: Final = -1
"""The default of :attr:`Position.discard`: every card in no other place."""
_DERIVED: Final = -3
"""The default of the fields the other fields decide (:attr:`Position.limit`, :attr:`Position.defender`,
:attr:`Position.declarer`)."""


def _names(mask: int) -> list[str]:
    return CardSet(mask).names()


def _listed(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask))


def _first(mask: int) -> str:
    return card_name((mask & -mask).bit_length() - 1)


def _trump_of(value: object, rules: Rules) -> int | None:
    """Return the trump suit index of the ``trump_suit`` value (``None``: no trumps), checked against the rules."""
    if value is None:
        if rules.trump == "fixed":
            raise FormatError(
                f"'trump_suit' is null, but under 'trump': 'fixed' the rules make {rules.trump_suit} trumps"
            )
        return None
    if not isinstance(value, str):
        raise FormatError(f"'trump_suit' must be a suit letter (S, H, D or C) or null, not {value!r}")
    try:
        suit = parse_suit(value)
    except CardError:
        raise FormatError(f"bad 'trump_suit' {value!r}: expected one of S, H, D, C or null") from None
    if len(value.strip()) != 1:
        raise FormatError(f"bad 'trump_suit' {value!r}: expected one of S, H, D, C or null")
    if rules.trump == "none":
        raise FormatError(f"'trump_suit' is {SUITS[suit]}, but the rules say there are no trumps ('trump': 'none')")
    if rules.trump == "fixed" and suit != parse_suit(rules.trump_suit):
        raise FormatError(
            f"'trump_suit' is {SUITS[suit]}, but under 'trump': 'fixed' the rules make {rules.trump_suit} trumps"
        )
    if suit == SPADES and rules.trump == "marriage":
        raise FormatError("'trump_suit' is S, but a marriage can never make spades trumps (V3)")
    # Under 'turned' rules spades can be trumps even when spades_can_be_trump is false: M7 keeps the last
    # spade turned when only spades are left in the talon.
    return suit


def _holders(hands: Sequence[int], start: int) -> Iterator[int]:
    """Yield the seats after ``start`` clockwise (``start`` last) that hold cards."""
    n = len(hands)
    for i in range(1, n + 1):
        seat = (start + i) % n
        if hands[seat]:
            yield seat


@dataclass(frozen=True)
class Position(JsonDocument):
    """A position of a deal, whole: every hand, the talon, the table, the turn, and what is public (M22).

    Build one with :meth:`from_json` (or :meth:`load`/:meth:`loads`),
    :meth:`parse` (the one-line text form), :meth:`from_state`, or directly;
    every way validates, and a fault raises :class:`FormatError` naming the
    field and the rule. ``extra`` keeps optional keys of a document, which
    survive a load and dump.

    The first five fields are /1's; built with them alone, a position means
    what /1 means (the talon empty, every hand card public, every other card
    discarded). The others default to that meaning, and those the other
    fields decide (``public``, ``discard``, ``turn_pending``, ``defender``,
    ``limit``, ``out``, ``declarer``) are filled in when left out, so two
    positions are equal exactly when they set up the same state.

    Card sets are masks; ``talon`` is a tuple of cards, top first;
    ``attacker`` and ``defender`` are -1 once the deal is over; ``declarer``
    is a seat, :data:`~mustamaija.games.mustamaija.state.FIXED_BEFORE`
    (trumps fixed by a marriage before the position) or -1; ``limit`` 52
    means no limit (M11).
    """

    hands: tuple[int, ...]
    """Every seat's hand, as a card mask."""
    attacker: int
    """The seat that leads this turn (M9); -1 once the deal is over."""
    trump_suit: int | None = None
    """The trump suit, ``None`` while there are none (M6, V2, V3)."""
    rules: Rules = field(default_factory=Rules)
    """The rule set."""
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """Keys of other programs (comments, names, a saved game's actions...), kept as they were."""
    public: int = _ALL_PUBLIC
    """The hand cards everybody knows the place of (M22): picked up, a marriage shown, a known talon card drawn."""
    talon: tuple[int, ...] = ()
    """The talon, top card first."""
    talon_order: TalonOrder = "known"
    """``"unknown"``: :meth:`to_state` shuffles the talon's cards whose place is not public."""
    trump_card: int | None = None
    """The turned trump card (M6, M8), wherever it is now."""
    revealed: int = 0
    """Spades turned and put back into the talon (M7), wherever they are now."""
    turn_pending: bool | None = None
    """Whether the first lead must still turn the trump card (M6)."""
    discard: int = _THE_REST
    """Cards out of play (M14)."""
    phase: PhaseName = "lead"
    """Who acts: the attacker leads, the defender answers, or the deal is over."""
    defender: int = _DERIVED
    """The seat that defends this turn (M9); -1 once the deal is over."""
    led: int = 0
    """The led cards on the table during a defence."""
    beaten: tuple[tuple[int, int], ...] = ()
    """(led card, beating card) pairs of a defence under way, chosen card by card (in rising led card order)."""
    left: int = 0
    """Led cards a defence under way has chosen to leave (to pick up)."""
    selected: int = 0
    """Cards chosen so far for a lead under way, chosen card by card."""
    limit: int = _DERIVED
    """The most cards the current lead may hold (M11); 52: no limit."""
    out: tuple[int, ...] | None = None
    """The seats that are out (M18), in the order they went out."""
    turns: int = 0
    """Completed turns (M21)."""
    declarer: int = _DERIVED
    """The seat that declared the marriage (V3), ``FIXED_BEFORE``, or -1."""
    stopped: bool = False
    """Whether the turn limit stopped the deal unfinished (M21)."""
    dealer: int = 0
    """The dealer."""

    def __post_init__(self) -> None:
        self._fill()
        self.validate()

    # -- derived facts ------------------------------------------------------------

    @property
    def players(self) -> int:
        """Return the number of seats."""
        return len(self.hands)

    @property
    def talon_size(self) -> int:
        """Return the number of cards in the talon."""
        return len(self.talon)

    @property
    def tknown(self) -> int:
        """Return the cards whose place in the talon is public wherever they are: the trump card and the spades put back."""
        return self.revealed | (1 << self.trump_card if self.trump_card is not None else 0)

    @property
    def in_hands(self) -> int:
        """Return every card held."""
        m = 0
        for h in self.hands:
            m |= h
        return m

    @property
    def in_progress(self) -> bool:
        """Return whether the actor is part way through an action chosen card by card."""
        return bool(self.selected or self.beaten or self.left)

    @property
    def fits_v1(self) -> bool:
        """Return whether ``mustamaija-position/1`` says all of this position: /1 reads it back to the same state."""
        defaults = Position(self.hands, self.attacker, self.trump_suit, self.rules) if self._v1_shape() else None
        return defaults is not None and defaults == self

    def _v1_shape(self) -> bool:
        holders = sum(1 for h in self.hands if h)
        return (not self.talon and self.phase == "lead" and holders >= 2 and 0 <= self.attacker < len(self.hands)
                and bool(self.hands[self.attacker]) and self.in_hands >> QS & 1 == 1)

    def _fill(self) -> None:
        """Fill in the fields the others decide (a frozen dataclass: once, as it is made)."""
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        # Lists are accepted where tuples are declared, and kept as tuples, so that positions compare equal.
        raw: dict[str, Any] = {"hands": self.hands, "talon": self.talon, "beaten": self.beaten, "out": self.out}
        for name, value in raw.items():
            if isinstance(value, list):
                put(name, tuple(value))
        hands = self.hands
        if any(isinstance(h, bool) or not isinstance(h, int) or not 0 <= h <= ALL_CARDS for h in hands):
            return  # validate names the bad hand.
        held = 0
        for h in hands:
            held |= h
        if self.public == _ALL_PUBLIC:
            put("public", held)
        if self.discard == _THE_REST and all(isinstance(c, int) for c in self.talon):
            elsewhere = held | self.led
            for c in self.talon:
                elsewhere |= 1 << c
            put("discard", ALL_CARDS & ~elsewhere)
        if self.out is None:
            put("out", tuple(s for s, h in enumerate(hands) if not h))
        if self.beaten:
            put("beaten", tuple(sorted(self.beaten)))
        if self.turn_pending is None:
            r = self.rules
            pending = (isinstance(r, Rules) and r.trump == "turned" and r.trump_turn == "after_first_lead"
                       and self.trump_suit is None and self.trump_card is None and bool(self.talon))
            put("turn_pending", pending)
        if self.declarer == _DERIVED:
            marriage = isinstance(self.rules, Rules) and self.rules.trump == "marriage"
            put("declarer", FIXED_BEFORE if marriage and self.trump_suit is not None else -1)
        a = self.attacker
        n = len(hands)
        if self.phase == "over":
            if self.defender == _DERIVED:
                put("defender", -1)
            if self.limit == _DERIVED:
                put("limit", L.NO_LIMIT)
            return
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < n:
            return
        if self.defender == _DERIVED:
            put("defender", next((s for s in _holders(hands, a) if s != a), -1))
        d = self.defender
        if self.limit == _DERIVED and isinstance(self.rules, Rules) and 0 <= d < n:
            put("limit", L.lead_limit(L.RuleFacts(self.rules), hands[d].bit_count(), len(self.talon)))

    # -- checking -----------------------------------------------------------------

    def validate(self) -> None:
        """Raise :class:`FormatError` naming the field and the rule unless this is a position the engine can play.

        Every card is in exactly one place (a hand, the talon, the table or
        the discard), and every fact agrees with the rules of docs/rules.md:
        the trump card with the trump suit and the talon's bottom (M6-M8),
        the spades put back (M7), the table with the lead (M10, M11, M13),
        a defence or lead under way with the order of steps, the seats out
        with the empty hands (M18), the turn count (M21), the marriage (V3).
        """
        rules = self.rules
        if not isinstance(rules, Rules):
            raise FormatError(f"'rules' must be a Rules, not {rules!r}")
        self._check_seats()
        self._check_places()
        self._check_trumps()
        self._check_turn()
        self._check_marriage()

    def _check_seats(self) -> None:
        n = len(self.hands)
        rules = self.rules
        if n < 2:
            raise FormatError(f"'hands' must list at least 2 seats, got {n}")
        if n > rules.max_players:
            raise FormatError(
                f"'hands' lists {n} seats, but these rules allow at most {rules.max_players} players "
                f"(hand size {rules.hand_size}, V1)"
            )
        for seat, h in enumerate(self.hands):
            if isinstance(h, bool) or not isinstance(h, int) or not 0 <= h <= ALL_CARDS:
                raise FormatError(f"hand of seat {seat} must be a card mask, not {h!r}")
        d = self.dealer
        if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < n:
            raise FormatError(f"'dealer' must be a seat from 0 to {n - 1}, not {d!r}")
        t = self.turns
        if isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise FormatError(f"'turns' must be a whole number of turns, not {t!r}")

    def _check_places(self) -> None:
        seen = 0
        for h in self.hands:
            if h & seen:
                raise FormatError(f"card {_first(h & seen)} is in more than one hand")
            seen |= h
        held = seen
        if self.public & ~held:
            raise FormatError(
                f"'public' lists {_first(self.public & ~held)}, which is in no hand: 'public' names the hand cards "
                "everybody knows the place of (M22)"
            )
        talon = 0
        for i, c in enumerate(self.talon):
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
                raise FormatError(f"talon[{i}] must be a card, not {c!r}")
            if talon >> c & 1:
                raise FormatError(f"card {card_name(c)} appears twice in the talon")
            if held >> c & 1:
                raise FormatError(f"card {card_name(c)} is both in a hand and in the talon")
            talon |= 1 << c
        if self.talon_order not in ("known", "unknown"):
            raise FormatError(f"'talon_order' must be 'known' or 'unknown', not {self.talon_order!r}")
        for name, m in (("'led'", self.led), ("'left'", self.left), ("'selected'", self.selected),
                        ("'revealed'", self.revealed), ("'discard'", self.discard)):
            if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m <= ALL_CARDS:
                raise FormatError(f"{name} must be a card mask, not {m!r}")
        if self.led & (held | talon):
            where = "a hand" if self.led & held else "the talon"
            raise FormatError(f"card {_first(self.led & (held | talon))} is both on the table and in {where}")
        elsewhere = held | talon | self.led
        if self.discard & elsewhere:
            raise FormatError(f"card {_first(self.discard & elsewhere)} is in 'discard' and also in play")
        missing = ALL_CARDS & ~(elsewhere | self.discard)
        if missing:
            raise FormatError(
                f"cards in no place: {_listed(missing)}: every card is in a hand, the talon, on the table or in 'discard'"
            )
        if not elsewhere >> QS & 1:
            if not talon | self.led:
                raise FormatError("Q♠ (QS) is in no hand: she never leaves play (M2, M19), so some seat must hold her")
            raise FormatError("Q♠ (QS) is out of play, but she is never beaten, so she never leaves play: she is in a "
                              "hand, the talon or on the table (M2, M19)")

    def _check_trumps(self) -> None:
        rules = self.rules
        trump = self.trump_suit
        if trump is not None:
            if isinstance(trump, bool) or not isinstance(trump, int) or not 0 <= trump < 4:
                raise FormatError(f"'trump_suit' must be a suit index from 0 to 3 or None, not {trump!r}")
            _trump_of(SUITS[trump], rules)
        elif rules.trump == "fixed":
            _trump_of(None, rules)
        card = self.trump_card
        talon = self.talon
        if card is not None:
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
                raise FormatError(f"'trump_card' must be a card, not {card!r}")
            if rules.trump != "turned":
                raise FormatError(f"'trump_card' is {card_name(card)}, but only 'trump': 'turned' turns a card (M6, V2)")
            if trump != card // 13:
                raise FormatError(
                    f"'trump_card' {card_name(card)} is not of the trump suit {'none' if trump is None else SUITS[trump]}:"
                    " the turned card makes its suit trumps (M6)"
                )
            if talon and talon[-1] != card:
                where = f"at depth {talon.index(card)} of the talon" if card in talon else "out of the talon"
                raise FormatError(
                    f"'trump_card' {card_name(card)} is {where}, but the talon still has cards: the turned card "
                    "lies at its bottom and is drawn last (M8)"
                )
            self._check_known_held(1 << card, "the trump card", "M8, M22")
        elif trump is not None and rules.trump == "turned" and talon:
            raise FormatError(
                f"'trump_card' is missing: under 'trump': 'turned' the trump suit {SUITS[trump]} comes from a turned "
                "card, which lies at the bottom of the talon while it has cards (M6, M8)"
            )
        if self.revealed:
            if self.revealed & ~SUIT_MASKS[SPADES]:
                raise FormatError(
                    f"'revealed' lists {_first(self.revealed & ~SUIT_MASKS[SPADES])}: only spades are put back (M7)"
                )
            if card is None:
                raise FormatError("'revealed' lists spades put back, but no trump card was turned (M6, M7)")
            if rules.spades_can_be_trump:
                raise FormatError("'revealed' lists spades put back, but under 'spades_can_be_trump' the first card "
                                  "turned stands as trump (M7)")
            if self.revealed >> card & 1:
                raise FormatError(f"'revealed' lists the trump card {card_name(card)}: it was not put back (M7, M8)")
            self._check_known_held(self.revealed, "a spade put back", "M7, M22")
        pending = self.turn_pending
        if not isinstance(pending, bool):
            raise FormatError(f"'turn_pending' must be true or false, not {pending!r}")
        if pending:
            if rules.trump != "turned" or rules.trump_turn != "after_first_lead":
                raise FormatError("'turn_pending' is true, but only 'trump': 'turned' with 'trump_turn': "
                                  "'after_first_lead' leaves the trump card to the first lead (M6)")
            if trump is not None or card is not None:
                raise FormatError("'turn_pending' is true, but a trump is already set: the first lead turns it (M6)")
            if not talon:
                raise FormatError("'turn_pending' is true, but the talon is empty: there is no card to turn (M6)")
            if self.phase != "lead":
                raise FormatError("'turn_pending' is true, but only a lead turns the trump card (M6)")

    def _check_known_held(self, cards: int, what: str, rule: str) -> None:
        for seat, h in enumerate(self.hands):
            hidden = h & cards & ~self.public
            if hidden:
                raise FormatError(
                    f"{what} {_first(hidden)} is in seat {seat}'s hand but not in 'public': its place in the talon was "
                    f"public, so everybody knows who drew it ({rule})"
                )

    def _check_turn(self) -> None:
        n = len(self.hands)
        hands = self.hands
        holders = [s for s in range(n) if hands[s]]
        rules = self.rules
        phase = self.phase
        out = self.out if self.out is not None else ()
        for i, s in enumerate(out):
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
                raise FormatError(f"'out' must list seats from 0 to {n - 1}, not {s!r}")
            if s in out[:i]:
                raise FormatError(f"'out' lists seat {s} twice")
            if hands[s]:
                raise FormatError(f"seat {s} is in 'out' but holds {_listed(hands[s])}: a seat out holds no cards (M18)")
        for s in range(n):
            if not hands[s] and s not in out:
                if self.talon:
                    raise FormatError(
                        f"seat {s} holds no cards while the talon has {len(self.talon)}: it would have drawn (M12, M15)"
                    )
                raise FormatError(
                    f"seat {s} holds no cards but is not in 'out': a seat with no cards once the talon is empty is "
                    "out (M18)"
                )
        if phase not in PHASES:
            raise FormatError(f"'phase' must be one of {', '.join(repr(p) for p in PHASES)}, not {phase!r}")
        stopped = self.stopped
        if not isinstance(stopped, bool):
            raise FormatError(f"'stopped' must be true or false, not {stopped!r}")
        if phase != "defend" and (self.led or self.beaten or self.left):
            raise FormatError(f"the table holds cards, but in the {phase!r} phase nothing is on the table (M9)")
        if phase != "lead" and self.selected:
            raise FormatError(f"'selected' holds cards, but only a lead is chosen card by card, not in the {phase!r} phase")
        if phase == "over":
            self._check_limit()
            self._check_over(holders)
            return
        a = self.attacker
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < n:
            raise FormatError(f"'attacker' must be a seat from 0 to {n - 1}, not {a!r}")
        if stopped:
            raise FormatError(f"'stopped' is true, but the deal is not over (phase {phase!r}) (M21)")
        if self.turns >= rules.max_turns:
            raise FormatError(
                f"'turns' is {self.turns}, but after {rules.max_turns} turns ('max_turns') the deal is stopped (M21)"
            )
        if phase == "lead":
            if len(holders) < 2:
                raise FormatError(
                    f"only {len(holders)} seat{'s' if len(holders) != 1 else ''} hold{'s' if len(holders) == 1 else ''} "
                    "cards: the deal is already over (M19); a position needs at least 2 seats with cards"
                )
            if not hands[a]:
                raise FormatError(f"the attacker, seat {a}, holds no cards: a seat with an empty hand is out (M18)")
        expected = next((s for s in _holders(hands, a) if s != a), -1)
        if expected < 0:
            raise FormatError(f"no seat but the attacker, seat {a}, holds cards: nobody can defend (M9, M19)")
        if self.defender != expected:
            raise FormatError(
                f"'defender' is {self.defender}, but the defender is the next seat to the attacker's left that holds "
                f"cards: seat {expected} (M9)"
            )
        self._check_limit()
        if phase == "lead":
            computed = L.lead_limit(L.RuleFacts(rules), hands[expected].bit_count(), len(self.talon))
            if self.limit != computed:
                raise FormatError(
                    f"'limit' is {self.limit}, but before a lead the limit is {computed}: the defender's cards or none, "
                    "by the talon and the rules (M11)"
                )
            self._check_selected()
        else:
            self._check_table()

    def _check_limit(self) -> None:
        limit = self.limit
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= L.NO_LIMIT:
            raise FormatError(f"'limit' must be a positive number of cards or null (no limit), not {limit!r}")

    def _check_over(self, holders: list[int]) -> None:
        if self.attacker != -1 or self.defender != -1:
            raise FormatError("'attacker' and 'defender' must be null once the deal is over")
        if self.stopped:
            if self.turns < self.rules.max_turns:
                raise FormatError(
                    f"'stopped' is true after {self.turns} turns, but the deal is stopped only after {self.rules.max_turns}"
                    " ('max_turns', M21)"
                )
            if len(holders) < 2:
                raise FormatError("'stopped' is true, but at most one seat holds cards: that deal ended with a loser (M19)")
        elif len(holders) != 1:
            raise FormatError(
                f"the deal is over, but {len(holders)} seats hold cards: it ends when one seat is left holding cards "
                "(M19), or is stopped after 'max_turns' turns ('stopped', M21)"
            )

    def _check_selected(self) -> None:
        sel = self.selected
        if not sel:
            return
        a = self.attacker
        hand = self.hands[a]
        if sel & ~hand:
            raise FormatError(f"'selected' lists {_first(sel & ~hand)}, which the attacker, seat {a}, does not hold (M10)")
        top = sel.bit_length() - 1
        if sel & ~SUIT_MASKS[top // 13]:
            raise FormatError(f"'selected' mixes suits: {_listed(sel)}; a lead is all one suit (M10)")
        if sel.bit_count() >= self.limit:
            raise FormatError(f"'selected' holds {sel.bit_count()} cards, the lead limit {self.limit}: that lead is "
                              "already made (M11, steps)")
        if not hand & SUIT_MASKS[top // 13] & ~((2 << top) - 1):
            raise FormatError(f"'selected' ends with {card_name(top)}, the attacker's highest card of the suit: that "
                              "lead is already made (steps)")

    def _check_table(self) -> None:
        led = self.led
        d = self.defender
        if not led:
            raise FormatError("the phase is 'defend', but no led card is on the table: give 'table' with 'led' (M10)")
        first = (led & -led).bit_length() - 1
        if led & ~SUIT_MASKS[first // 13]:
            raise FormatError(f"the led cards {_listed(led)} are not all one suit (M10)")
        if led.bit_count() > self.limit:
            raise FormatError(f"{led.bit_count()} cards are led, more than the limit {self.limit} (M11)")
        hand = self.hands[d]
        trump = -1 if self.trump_suit is None else self.trump_suit
        used = 0
        try:
            L.check_beat(d, hand, led, self.beaten, trump)
        except IllegalActionError as e:
            raise FormatError(f"table: {e}") from None
        beaten = 0
        for target, beater in self.beaten:
            beaten |= 1 << target
            used |= 1 << beater
        if self.left & ~led:
            raise FormatError(f"table: 'left' lists {_first(self.left & ~led)}, which was not led")
        if self.left & beaten:
            raise FormatError(f"table: {_first(self.left & beaten)} is both beaten and left")
        # A defence chosen card by card decides the led cards from the lowest one that can still be beaten up.
        decided = beaten | self.left
        pairs = dict(self.beaten)
        rem = led
        avail = hand
        for c in cards_of(decided):
            cur = L.current_led(rem, avail, trump)
            if cur != c:
                now = "no led card can be beaten any more" if cur < 0 else f"{card_name(cur)} is decided first"
                raise FormatError(f"table: {card_name(c)} cannot be decided yet: {now} (a defence is chosen from the "
                                  "lowest led card that can still be beaten up, steps)")
            rem &= ~(1 << c)
            if c in pairs:
                avail &= ~(1 << pairs[c])
        if decided and L.current_led(rem, avail, trump) < 0:
            raise FormatError("table: no undecided led card can still be beaten, so this defence is already made (steps)")

    def _check_marriage(self) -> None:
        rules = self.rules
        decl = self.declarer
        n = len(self.hands)
        if isinstance(decl, bool) or not isinstance(decl, int) or not (decl in (-1, FIXED_BEFORE) or 0 <= decl < n):
            raise FormatError(f"'declarer' must be a seat from 0 to {n - 1}, 'before' or null, not {decl!r}")
        if rules.trump != "marriage":
            if decl != -1:
                raise FormatError(f"'declarer' is set, but marriages are not played under 'trump': {rules.trump!r} (V2)")
            return
        trump = self.trump_suit
        if trump is None:
            if decl != -1:
                raise FormatError("'declarer' is set, but 'trump_suit' is null: a marriage makes its suit trumps (V3)")
            return
        if decl == -1:
            raise FormatError(f"'trump_suit' is {SUITS[trump]}, but under 'trump': 'marriage' only a declared marriage "
                              "makes trumps: give 'declarer' (a seat or 'before') (V3)")
        if decl >= 0:
            pair = L.MARRIAGES[trump]
            talon = 0
            for c in self.talon:
                talon |= 1 << c
            if pair & talon:
                raise FormatError(f"{_first(pair & talon)} is in the talon, but seat {decl} declared it (V3)")
            for seat, h in enumerate(self.hands):
                hidden = h & pair & ~self.public
                if hidden:
                    raise FormatError(f"{_first(hidden)} is in seat {seat}'s hand but not in 'public': a declared "
                                      "marriage is shown (V4, M22)")

    # -- reading ----------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: object) -> Position:
        """Build a position from its JSON object (/1 or /2, by ``format``), checking every key; errors name the fault."""
        if not isinstance(obj, Mapping):
            raise FormatError(f"a position must be a JSON object, not {type(obj).__name__}")
        fmt = obj.get("format", POSITION_FORMAT)
        if fmt not in POSITION_FORMATS:
            raise FormatError(f"unknown format {fmt!r}: expected {POSITION_FORMAT!r} or {POSITION2_FORMAT!r}")
        rules = _rules_of(obj.get("rules"))
        if "hands" not in obj:
            raise FormatError("a position needs 'hands': one list of cards per seat")
        hands = _read_hands(obj["hands"], rules)
        if fmt == POSITION_FORMAT:
            if "attacker" not in obj:
                raise FormatError("a position needs 'attacker': the seat about to lead")
            attacker = read_int(obj["attacker"], "'attacker'")
            trump = _trump_of(obj["trump_suit"], rules) if "trump_suit" in obj else rules.fixed_trump
            extra = {k: v for k, v in obj.items() if k not in _KNOWN1}
            return cls(hands, attacker, trump, rules, extra)
        return cls._from_json2(obj, rules, hands)

    @classmethod
    def _from_json2(cls, obj: Mapping[str, Any], rules: Rules, hands: tuple[int, ...]) -> Position:
        if "public" not in obj:
            raise FormatError("a /2 position needs 'public': the hand cards everybody knows the place of (M22), "
                              "[] when none")
        phase = obj.get("phase", "lead")
        if phase not in PHASES:
            raise FormatError(f"'phase' must be one of {', '.join(repr(p) for p in PHASES)}, not {phase!r}")
        if phase != "over" and "attacker" not in obj:
            raise FormatError("a position needs 'attacker': the seat that leads this turn (null once the deal is over)")
        talon = _read_cards(obj.get("talon", []), "talon")
        card = obj.get("trump_card")
        trump_card = None if card is None else card_at(card, "'trump_card'")
        if "trump_suit" in obj:
            trump = _trump_of(obj["trump_suit"], rules)
        else:
            trump = trump_card // 13 if trump_card is not None else rules.fixed_trump
        order = obj.get("talon_order", "known")
        if order not in ("known", "unknown"):
            raise FormatError(f"'talon_order' must be 'known' or 'unknown', not {order!r}")
        table = obj.get("table", {})
        if not isinstance(table, Mapping):
            raise FormatError(f"'table' must be an object with 'led' (and 'beaten', 'left'), not {table!r}")
        beaten_obj = table.get("beaten", {})
        if not isinstance(beaten_obj, Mapping):
            raise FormatError(f"table: 'beaten' must be an object of led card to beating card, not {beaten_obj!r}")
        beaten = tuple((card_at(k, "table: a beaten card"), card_at(v, f"table: the card beating {k}"))
                       for k, v in beaten_obj.items())
        pending = obj.get("turn_pending")
        if pending is not None and not isinstance(pending, bool):
            raise FormatError(f"'turn_pending' must be true or false, not {pending!r}")
        stopped = obj.get("stopped", False)
        if not isinstance(stopped, bool):
            raise FormatError(f"'stopped' must be true or false, not {stopped!r}")
        out_obj = obj.get("out")
        if out_obj is not None and not isinstance(out_obj, list):
            raise FormatError(f"'out' must be a list of seats, not {out_obj!r}")
        return cls(
            hands,
            _seat_or_null(obj.get("attacker"), "'attacker'"),
            trump,
            rules,
            {k: v for k, v in obj.items() if k not in _KNOWN2},
            public=_read_set(obj["public"], "public"),
            talon=tuple(talon),
            talon_order=order,
            trump_card=trump_card,
            revealed=_read_set(obj.get("revealed", []), "revealed"),
            turn_pending=pending,
            discard=_read_set(obj["discard"], "discard") if "discard" in obj else _THE_REST,
            phase=phase,
            defender=_seat_or_null(obj["defender"], "'defender'") if "defender" in obj else _DERIVED,
            led=_read_set(table.get("led", []), "table: led"),
            beaten=beaten,
            left=_read_set(table.get("left", []), "table: left"),
            selected=_read_set(obj.get("selected", []), "selected"),
            limit=_read_limit(obj["limit"]) if "limit" in obj else _DERIVED,
            out=None if out_obj is None else tuple(read_int(s, "a seat in 'out'") for s in out_obj),
            turns=read_int(obj.get("turns", 0), "'turns'"),
            declarer=_read_declarer(obj["declarer"]) if "declarer" in obj else _DERIVED,
            stopped=stopped,
            dealer=read_int(obj.get("dealer", 0), "'dealer'"),
        )

    # -- writing ------------------------------------------------------------------------

    def to_json(self, format: str | None = None) -> dict[str, Any]:
        """Return the JSON object: /1 when it says all of this position (or ``format`` asks for it), else /2.

        Keys come in the docs/formats.md order, then the extra keys; card
        sets are listed suit by suit, rising, the talon top first.
        """
        if format is None:
            format = POSITION_FORMAT if self.fits_v1 else POSITION2_FORMAT
        if format == POSITION_FORMAT:
            if not self.fits_v1:
                raise FormatError("this position says more than mustamaija-position/1 can: write it as "
                                  f"{POSITION2_FORMAT!r}")
            head: dict[str, Any] = {
                "format": POSITION_FORMAT,
                "rules": self.rules.format_json(),
                "trump_suit": None if self.trump_suit is None else SUITS[self.trump_suit],
                "hands": [_names(h) for h in self.hands],
                "attacker": self.attacker,
            }
            return {**head, **{k: v for k, v in self.extra.items() if k not in _KNOWN1}}
        if format != POSITION2_FORMAT:
            raise FormatError(f"unknown format {format!r}: expected {POSITION_FORMAT!r} or {POSITION2_FORMAT!r}")
        over = self.phase == "over"
        out: dict[str, Any] = {
            "format": POSITION2_FORMAT,
            "rules": self.rules.format_json(),
            "dealer": self.dealer,
            "hands": [_names(h) for h in self.hands],
            "public": _names(self.public),
            "talon": [card_name(c) for c in self.talon],
            "talon_order": self.talon_order,
            "trump_suit": None if self.trump_suit is None else SUITS[self.trump_suit],
            "trump_card": None if self.trump_card is None else card_name(self.trump_card),
            "turn_pending": self.turn_pending,
            "revealed": _names(self.revealed),
            "discard": _names(self.discard),
            "phase": self.phase,
            "attacker": None if over else self.attacker,
            "defender": None if over else self.defender,
        }
        if self.phase == "defend":
            table: dict[str, Any] = {"led": _names(self.led)}
            if self.beaten:
                table["beaten"] = {card_name(a): card_name(b) for a, b in self.beaten}
            if self.left:
                table["left"] = _names(self.left)
            out["table"] = table
        if self.selected:
            out["selected"] = _names(self.selected)
        out["limit"] = None if self.limit >= L.NO_LIMIT else self.limit
        out["out"] = list(self.out or ())
        out["turns"] = self.turns
        if self.rules.trump == "marriage":
            out["declarer"] = {-1: None, FIXED_BEFORE: "before"}.get(self.declarer, self.declarer)
        if over:
            out["stopped"] = self.stopped
        return {**out, **{k: v for k, v in self.extra.items() if k not in _KNOWN2}}

    def dumps(self, indent: int | None = None, format: str | None = None) -> str:
        """Return the position as JSON text (see :meth:`to_json` for ``format``)."""
        text = json.dumps(self.to_json(format), indent=indent, ensure_ascii=False)
        return text + ("\n" if indent is None else "")

    def dump(self, path: str | os.PathLike[str], format: str | None = None) -> None:
        """Write the position to a file."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.dumps(indent=2, format=format) + "\n")

    # -- the one-line text form ------------------------------------------------------------

    def to_text(self) -> str:
        """Return the one-line text form (docs/formats.md): only ``A-Z a-z 0-9 - . _ ~``, fit for a link's query.

        >>> p = Position.from_json({"hands": [["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], "attacker": 0,
        ...                         "trump_suit": "C"})
        >>> p.to_text()
        '5_.sQh56c3A-.hKd2__c_l0'
        >>> Position.parse(p.to_text()) == p
        True
        """
        hands = []
        for h in self.hands:
            mine, known = h & ~self.public, h & self.public
            hands.append(_seq(cards_of(mine)) + ("." + _seq(cards_of(known)) if known else ""))
        talon = ("~" if self.talon_order == "unknown" else "") + _seq(self.talon)
        if self.turn_pending:
            trump = "p"
        elif self.trump_suit is None:
            trump = "n"
        else:
            trump = "shdc"[self.trump_suit] + (RANKS[self.trump_card % 13] if self.trump_card is not None else "")
        if self.revealed:
            trump += "." + _seq(cards_of(self.revealed))
        if self.phase == "lead":
            turn = f"l{self.attacker}" + ("." + _seq(cards_of(self.selected)) if self.selected else "")
        elif self.phase == "defend":
            turn = f"d{self.attacker}.{_seq(cards_of(self.led))}"
            if self.in_progress:
                turn += "." + _seq(c for pair in self.beaten for c in pair) + "." + _seq(cards_of(self.left))
        else:
            turn = "x" if self.stopped else "o"
        extras = []
        if self.dealer:
            extras.append(f"d{self.dealer}")
        if self.turns:
            extras.append(f"t{self.turns}")
        if self.declarer != self._default_declarer():
            extras.append("m" + ("b" if self.declarer == FIXED_BEFORE else str(self.declarer)))
        if self.out != tuple(s for s, h in enumerate(self.hands) if not h):
            extras.append("o" + "".join(str(s) for s in self.out or ()))
        if self.limit != self._default_limit():
            extras.append("k" + ("n" if self.limit >= L.NO_LIMIT else str(self.limit)))
        fields_ = [_rules_text(self.rules), "-".join(hands), talon, trump, turn]
        if extras:
            fields_.append(".".join(extras))
        return "_".join(fields_)

    def _default_declarer(self) -> int:
        return FIXED_BEFORE if self.rules.trump == "marriage" and self.trump_suit is not None else -1

    def _default_limit(self) -> int:
        if self.phase == "over" or not 0 <= self.defender < len(self.hands):
            return L.NO_LIMIT
        return L.lead_limit(L.RuleFacts(self.rules), self.hands[self.defender].bit_count(), len(self.talon))

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the one-line text form of :meth:`to_text`; a fault raises :class:`FormatError` naming the field.

        >>> p = Position.parse("5_sQh56c3A-hKd2__c_l0")
        >>> p.public, p.trump_suit, p.limit
        (0, 3, 2)
        >>> Position.parse("5_sQ-hK__c_l2")
        Traceback (most recent call last):
        ...
        mustamaija.core.errors.FormatError: 'attacker' must be a seat from 0 to 1, not 2
        """
        if not isinstance(text, str):
            raise FormatError(f"a position's text must be a string, not {type(text).__name__}")
        parts = text.strip().split("_")
        if not 5 <= len(parts) <= 6:
            raise FormatError(f"a position's text has 5 or 6 fields separated by '_' (rules, hands, talon, trump, turn"
                              f" and the extras), not {len(parts)}")
        rules_text, hands_text, talon_text, trump_text, turn_text = parts[:5]
        rules = _parse_rules(rules_text)
        hands = []
        public = 0
        for seat, hand_text in enumerate(hands_text.split("-")):
            mine, _, known = hand_text.partition(".")
            h = _mask(_parse_seq(mine, f"hands: seat {seat}"), f"hands: seat {seat}")
            k = _mask(_parse_seq(known, f"hands: seat {seat}'s public cards"), f"hands: seat {seat}")
            if h & k:
                raise FormatError(f"hands: seat {seat} lists {_first(h & k)} twice")
            hands.append(h | k)
            public |= k
        order: TalonOrder = "unknown" if talon_text.startswith("~") else "known"
        talon = tuple(_parse_seq(talon_text.removeprefix("~"), "talon"))
        head, _, revealed_text = trump_text.partition(".")
        pending = head == "p"
        trump: int | None = None
        card: int | None = None
        if head not in ("p", "n"):
            if not head or head[0].lower() not in "shdc" or len(head) > 2:
                raise FormatError(f"trump: {trump_text!r} is not 'n' (no trumps), 'p' (the first lead turns the card), "
                                  "a suit letter, or a suit letter and the trump card's rank such as 'h7'")
            trump = "shdc".index(head[0].lower())
            if len(head) == 2:
                seq = _parse_seq(head, "trump")
                card = seq[0]
        revealed = _mask(_parse_seq(revealed_text, "trump: the spades put back"), "trump: the spades put back")
        kind, attacker_text, table = turn_text[:1], turn_text[1:], ""
        attacker_text, _, table = attacker_text.partition(".")
        phase: PhaseName
        led = left = selected = 0
        beaten: list[tuple[int, int]] = []
        stopped = False
        attacker = -1
        if kind in ("l", "d"):
            phase = "lead" if kind == "l" else "defend"
            if not attacker_text.isdigit():
                raise FormatError(f"turn: {turn_text!r} must name the attacker's seat after '{kind}', as in '{kind}0'")
            attacker = int(attacker_text)
            if kind == "l":
                selected = _mask(_parse_seq(table, "turn: the cards selected"), "turn: the cards selected")
            else:
                led_text, _, rest = table.partition(".")
                led = _mask(_parse_seq(led_text, "turn: the led cards"), "turn: the led cards")
                pairs_text, _, left_text = rest.partition(".")
                pair_cards = _parse_seq(pairs_text, "turn: the beaten pairs")
                if len(pair_cards) % 2:
                    raise FormatError("turn: the beaten pairs must list a led card and its beating card, pair by pair")
                beaten = [(pair_cards[i], pair_cards[i + 1]) for i in range(0, len(pair_cards), 2)]
                left = _mask(_parse_seq(left_text, "turn: the cards left"), "turn: the cards left")
        elif turn_text in ("o", "x"):
            phase = "over"
            stopped = turn_text == "x"
        else:
            raise FormatError(f"turn: {turn_text!r} must be 'l' or 'd' and the attacker's seat (then the cards of the "
                              "table), 'o' (over) or 'x' (stopped by M21)")
        options: dict[str, Any] = {}
        for token in parts[5].split(".") if len(parts) == 6 and parts[5] else ():
            tag, value = token[:1], token[1:]
            if tag in options:
                raise FormatError(f"extras: {tag!r} is given twice")
            if tag in ("d", "t") and value.isdigit():
                options[tag] = int(value)
            elif tag == "m" and (value == "b" or value.isdigit()):
                options[tag] = FIXED_BEFORE if value == "b" else int(value)
            elif tag == "o" and value.isdigit():
                options[tag] = tuple(int(ch) for ch in value)
            elif tag == "k" and (value == "n" or value.isdigit()):
                options[tag] = L.NO_LIMIT if value == "n" else int(value)
            else:
                raise FormatError(f"extras: bad token {token!r}: expected d<dealer>, t<turns>, m<seat> or mb "
                                  "(the marriage), o<seats out> or k<limit> (kn: none)")
        return cls(
            tuple(hands), attacker, trump, rules, public=public, talon=talon, talon_order=order, trump_card=card,
            revealed=revealed, turn_pending=pending, phase=phase, led=led, beaten=tuple(beaten), left=left,
            selected=selected, limit=options.get("k", _DERIVED), out=options.get("o"), turns=options.get("t", 0),
            declarer=options.get("m", _DERIVED), stopped=stopped, dealer=options.get("d", 0),
        )

    # -- states ----------------------------------------------------------------------

    def to_state(self, seed: int | str | None = None) -> State:
        """Return the engine's state of this position (:meth:`State.from_setup`).

        A talon of unknown order is shuffled with ``random.Random(seed)``
        (its cards whose place is public stay where they are); such a
        position needs a seed.
        """
        return State.from_setup(self, seed)

    @classmethod
    def from_state(cls, state: State) -> Position:
        """Return the position of any state reached in play, between actions or part way through one.

        The talon keeps its real order; the public hand cards are the
        state's public cards still held (M22). ``from_state(s).to_state()``
        is ``s`` in every field but the action log and the deck (see
        :func:`state_differences`).
        """
        held = 0
        for h in state.hands:
            held |= h
        beaten = state.pairs if state.phase == DEFEND else ()
        done = 0
        for target, _ in beaten:
            done |= 1 << target
        return cls(
            tuple(state.hands), state.attacker, state.trump_suit, state.rules,
            public=state.public & held,
            talon=state.talon_cards,
            trump_card=state.trump_card if state.trump_card >= 0 else None,
            revealed=state.revealed,
            turn_pending=state.turn_pending,
            discard=state.discard,
            phase=cast(PhaseName, PHASES[state.phase]),
            defender=state.defender,
            led=state.led,
            beaten=beaten,
            left=state.led & ~state.rem & ~done if state.phase == DEFEND else 0,
            selected=state.sel if state.phase == LEAD else 0,
            limit=state.limit,
            out=state.out,
            turns=state.turns,
            declarer=state.declarer,
            stopped=state.stopped,
            dealer=state.dealer,
        )


# -- reading helpers ---------------------------------------------------------------------------


def _read_hands(obj: object, rules: Rules) -> tuple[int, ...]:
    if not isinstance(obj, list):
        raise FormatError(f"'hands' must be a list of card lists, one per seat, not {obj!r}")
    if len(obj) < 2:
        raise FormatError(f"'hands' must list at least 2 seats, got {len(obj)}")
    if len(obj) > rules.max_players:
        raise FormatError(
            f"'hands' lists {len(obj)} seats, but these rules allow at most {rules.max_players} players "
            f"(hand size {rules.hand_size}, V1)"
        )
    hands = []
    where: dict[int, int] = {}
    for seat, hand_obj in enumerate(obj):
        if not isinstance(hand_obj, list):
            raise FormatError(f"hands[{seat}] must be a list of card strings, not {hand_obj!r}")
        m = 0
        for i, text in enumerate(hand_obj):
            c = _BY_NAME.get(text) if isinstance(text, str) else None
            if c is None:
                c = card_at(text, f"hands[{seat}][{i}]")
            if c in where:
                other = where[c]
                place = "twice in that hand" if other == seat else f"in the hands of seats {other} and {seat}"
                raise FormatError(f"card {card_name(c)} appears {place}")
            where[c] = seat
            m |= 1 << c
        hands.append(m)
    return tuple(hands)


_BY_NAME: Final = {card_name(c): c for c in range(52)}
"""Cards by their canonical names: what the project writes is read without parsing."""


def _read_cards(obj: object, what: str) -> list[int]:
    if not isinstance(obj, list):
        raise FormatError(f"'{what}' must be a list of card strings, not {obj!r}")
    out = []
    seen = 0
    for i, text in enumerate(obj):
        c = _BY_NAME.get(text) if isinstance(text, str) else None
        if c is None:
            c = card_at(text, f"{what}[{i}]")
        if seen >> c & 1:
            raise FormatError(f"{what}: card {card_name(c)} appears twice")
        seen |= 1 << c
        out.append(c)
    return out


def _read_set(obj: object, what: str) -> int:
    m = 0
    for c in _read_cards(obj, what):
        m |= 1 << c
    return m


def _seat_or_null(value: object, what: str) -> int:
    return -1 if value is None else read_int(value, what)


def _read_limit(value: object) -> int:
    return L.NO_LIMIT if value is None else read_int(value, "'limit'")


def _read_declarer(value: object) -> int:
    if value is None:
        return -1
    if value == "before":
        return FIXED_BEFORE
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FormatError(f"'declarer' must be a seat, 'before' or null, not {value!r}")
    return value


# -- the text form's pieces ---------------------------------------------------------------------

_SUIT_LETTERS: Final = "shdc"
_RULE_TOKENS: Final = {"turned": "", "fixed": "f", "marriage": "m", "none": "n"}


def _seq(cards: Iterable[int]) -> str:
    """Return cards in order as text: a suit letter whenever the suit changes, then ranks (``h49sQ``)."""
    out = []
    suit = -1
    for c in cards:
        if c // 13 != suit:
            suit = c // 13
            out.append(_SUIT_LETTERS[suit])
        out.append(RANKS[c % 13])
    return "".join(out)


_SEQ_CHARS: Final = {**{ch: -1 - i for i, ch in enumerate(_SUIT_LETTERS + _SUIT_LETTERS.upper())},
                     **{ch: r for r, ch in enumerate(RANKS)}, **{ch.lower(): r for r, ch in enumerate(RANKS) if ch.isalpha()}}
"""The characters of the text form's card lists: a rank (0-12) or a suit letter (-1 - suit, either case)."""


def _parse_seq(text: str, where: str) -> list[int]:
    """Read cards written by :func:`_seq` (either case), in order."""
    out = []
    base = -1
    for ch in text:
        v = _SEQ_CHARS.get(ch)
        if v is None:
            raise FormatError(f"{where}: {ch!r} is neither a suit letter (s h d c) nor a rank (2-9 T J Q K A)")
        if v < 0:
            base = (-1 - v) % 4 * 13
        elif base < 0:
            raise FormatError(f"{where}: rank {ch} comes before any suit letter: write the suit first, as in h49 for 4H 9H")
        else:
            out.append(base + v)
    return out


def _mask(cards: list[int], where: str) -> int:
    m = 0
    for c in cards:
        if m >> c & 1:
            raise FormatError(f"{where}: card {card_name(c)} is given twice")
        m |= 1 << c
    return m


def _rules_text(r: Rules) -> str:
    out = str(r.hand_size) + _RULE_TOKENS[r.trump]
    if r.trump_suit != "D":
        out += "t" + r.trump_suit.lower()
    if r.trump_turn == "after_deal":
        out += "a"
    if r.spades_can_be_trump:
        out += "s"
    if r.attack_limit == "always":
        out += "l"
    if r.max_lead is not None:
        out += f"x{r.max_lead}"
    if r.max_turns != DEFAULT_MAX_TURNS:
        out += f"z{r.max_turns}"
    if r.next_dealer == "loser":
        out += "o"
    return out


def _rules_of(obj: Any) -> Rules:
    """Return the rule set of a position's ``rules`` value; rule sets met before are not checked again."""
    key = tuple(sorted(obj.items())) if isinstance(obj, dict) else None
    if key is not None:
        try:
            return _rules_from_items(key)
        except TypeError:  # A value that cannot be a key (a list...): Rules.from_json names it.
            pass
    try:
        return Rules.from_json(obj)
    except RulesError as e:
        raise FormatError(f"rules: {e}") from None


@functools.lru_cache(maxsize=256)
def _rules_from_items(items: tuple[tuple[str, Any], ...]) -> Rules:
    try:
        return Rules.from_json(dict(items))
    except RulesError as e:
        raise FormatError(f"rules: {e}") from None


@functools.lru_cache(maxsize=256)
def _parse_rules(text: str) -> Rules:
    if not text or text[0] not in "356":
        raise FormatError(f"rules: {text!r} must start with the hand size, 3, 5 or 6 (V1)")
    obj: dict[str, Any] = {"hand_size": int(text[0])}
    i = 1
    modes = {v: k for k, v in _RULE_TOKENS.items() if v}
    while i < len(text):
        ch = text[i]
        i += 1
        key = {"f": "trump", "m": "trump", "n": "trump", "t": "trump_suit", "a": "trump_turn", "s": "spades_can_be_trump",
               "l": "attack_limit", "x": "max_lead", "z": "max_turns", "o": "next_dealer"}.get(ch)
        if key is None:
            raise FormatError(f"rules: unknown letter {ch!r} in {text!r} (f m n: trumps fixed, by marriage, none; "
                              "t<suit>; a; s; l; x<cards>; z<turns>; o)")
        if key in obj:
            raise FormatError(f"rules: {key!r} is given twice in {text!r}")
        if ch in modes:
            obj[key] = modes[ch]
        elif ch == "t":
            if i >= len(text) or text[i] not in _SUIT_LETTERS:
                raise FormatError(f"rules: 't' must be followed by a suit letter (s h d c) in {text!r}")
            obj[key] = text[i].upper()
            i += 1
        elif ch in "xz":
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            if j == i:
                raise FormatError(f"rules: {ch!r} must be followed by a number in {text!r}")
            obj[key] = int(text[i:j])
            i = j
        else:
            obj[key] = {"a": "after_deal", "s": True, "l": "always", "o": "loser"}[ch]
    try:
        return Rules.from_json(obj)
    except RulesError as e:
        raise FormatError(f"rules: {e}") from None


# -- comparing states ----------------------------------------------------------------------------

_SKIPPED: Final = frozenset(("log", "nlog", "deck", "_legal", "talon", "tpos", "public", "facts"))


def state_differences(a: State, b: State) -> list[str]:
    """Return the fields in which two states differ as positions, ``[]`` when they are the same position.

    Every slot is compared but the history (``log``, ``nlog``), the deck it
    was dealt from and the legal-step cache; the rules (held in the rules'
    facts); the talon from its current top;
    and the public cards among the cards held, the only ones whose being
    public still tells anybody anything (M22).
    """
    out = [name for name in state_fields(State) if name not in _SKIPPED and getattr(a, name) != getattr(b, name)]
    if a.rules != b.rules:
        out.append("rules")
    if a.talon_cards != b.talon_cards:
        out.append("talon")
    held_a = held_b = 0
    for h in a.hands:
        held_a |= h
    for h in b.hands:
        held_b |= h
    if a.public & held_a != b.public & held_b:
        out.append("public")
    return out


_VIEW_FIELDS: dict[type, tuple[str, ...]] = {}


def view_differences(a: View, b: View) -> list[str]:
    """Return the fields in which two views differ, leaving out the history of actions."""
    names = _VIEW_FIELDS.get(type(a))
    if names is None:
        names = _VIEW_FIELDS[type(a)] = tuple(f.name for f in fields(a) if f.name != "history")
    return [name for name in names if getattr(a, name) != getattr(b, name)]


# -- deals played from a position ------------------------------------------------------------------


@dataclass(frozen=True)
class PositionRecord(Replayable, JsonDocument):
    """A deal played from a position: the position it started from and the compound actions taken since.

    It is written as the position's JSON object with an ``actions`` key (the
    record actions of docs/formats.md), and it replays as a record does:
    ``start()``, ``states()``, ``replay()``, with errors naming the action's
    index, seat and rule. Its talon order must be known, since the cards
    drawn decide which actions are legal.

    >>> p = Position.from_json({"hands": [["9H"], ["JH", "QS"]], "attacker": 0, "trump_suit": "C"})
    >>> rec = PositionRecord.from_json({**p.to_json(), "actions": [{"seat": 0, "lead": ["9H"]}]})
    >>> rec.replay().phase_name, rec.to_json()["actions"]
    ('defend', [{'seat': 0, 'lead': ['9H']}])
    """

    position: Position
    actions: tuple[Action, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)
    seed: int | str | None = None
    """The seed that shuffles a talon of unknown order (a deal with actions has a known order)."""

    def __post_init__(self) -> None:
        if self.actions and self.position.talon_order != "known":
            raise FormatError("'actions' are played from a position, so its talon order must be known "
                              "('talon_order': 'known'): the cards drawn decide which actions are legal")

    @property
    def players(self) -> int:
        """Return the number of seats."""
        return self.position.players

    @property
    def dealer(self) -> int:
        """Return the dealer."""
        return self.position.dealer

    @property
    def rules(self) -> Rules:
        """Return the rule set."""
        return self.position.rules

    @classmethod
    def from_json(cls, obj: object) -> PositionRecord:
        """Read the position and its ``actions`` (a malformed action raises :class:`RecordError` with its index)."""
        position = Position.from_json(obj)
        assert isinstance(obj, Mapping)
        actions = read_actions(obj, lambda a: action_from_json(a, position.players),
                               lambda before: cls(position, before).replay())
        extra = {k: v for k, v in position.extra.items() if k != "actions"}
        return cls(position, actions, extra)

    def seat_names(self) -> list[str]:
        """Return how an account of the deal names each seat: its player's name from ``names``, else ``seat N``."""
        names = self.extra.get("names")
        if not isinstance(names, list) or len(names) != self.players:
            names = [None] * self.players
        return [" ".join(n.split())[:40] if isinstance(n, str) and n.strip() else f"seat {s}"
                for s, n in enumerate(names)]

    def to_json(self) -> dict[str, Any]:
        """Return the position's JSON object with the ``actions`` and the extra keys."""
        obj = self.position.to_json()
        obj["actions"] = [a.to_json() for a in self.actions]
        obj.update({k: v for k, v in self.extra.items() if k not in obj})
        return obj

    def with_actions(self, actions: Sequence[Action]) -> PositionRecord:
        """Return a copy with another action list."""
        return PositionRecord(self.position, tuple(actions), self.extra, self.seed)

    def start(self) -> State:
        """Return the state of the position."""
        return self.position.to_state(self.seed)



class PositionFormats:
    """Mustamaija's positions as the layers above the games use them (``game.positions()``)."""

    formats = POSITION_FORMATS

    def reads(self, obj: object) -> bool:
        """Return whether a parsed JSON object is a position (a /1 position may leave out its format)."""
        if not isinstance(obj, Mapping):
            return False
        if "format" in obj:
            return obj["format"] in POSITION_FORMATS
        return "hands" in obj and "deck" not in obj

    def load(self, source: object, seed: int | str | None = None) -> PositionRecord:
        """Return the deal a position sets up: a parsed JSON object, JSON text or the one-line text form."""
        if isinstance(source, bytes):
            source = source.decode("utf-8", errors="replace")
        if isinstance(source, str):
            text = source.strip()
            source = read_json(text) if text.startswith("{") else None
            if source is None:
                return PositionRecord(Position.parse(text), seed=seed)
        record = PositionRecord.from_json(source)
        return PositionRecord(record.position, record.actions, record.extra, seed)

    def record(self, start: State, state: State, **extra: Any) -> PositionRecord:
        """Return the document of a deal set up at ``start`` and played on to ``state``."""
        return PositionRecord(Position.from_state(start), tuple(state.actions()[start.nlog:]), extra)

    def text(self, state: State) -> str:
        """Return the one-line text form of a state's position."""
        return Position.from_state(state).to_text()
