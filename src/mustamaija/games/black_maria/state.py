"""The true state of one hand of Black Maria and every transition of B1-B7.

A :class:`State` is mutable, like the Mustamaija state: compound actions
(:meth:`State.pass_cards`, :meth:`State.play_card`, :meth:`State.play`) and
steps (:meth:`State.apply`) change it in place, :meth:`State.copy` is cheap
and :meth:`State.step` returns a changed copy. Every action has a
``verify_x`` / ``can_x`` / ``x`` trio.

>>> s = State.from_seed(players=4, seed=1)
>>> s.phase_name, s.to_act, s.dealer, len(s.hand(s.to_act)), s.pass_count
('pass', 2, 1, 13, 3)
>>> while not s.is_over:
...     s.apply(s.legal_actions()[0])
>>> sum(s.points()), sum(s.tricks), s.phase_name
(43, 13, 'over')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from mustamaija.core.bits import popcount
from mustamaija.core.cards import HEARTS, SUIT_MASKS, CardSet, CardsLike, card_name, cards_mask, cards_of, parse_card
from mustamaija.core.draws import below, generator
from mustamaija.core.errors import CardError, IllegalActionError, RulesError
from mustamaija.core.state import StepState, passes
from mustamaija.games.black_maria import legality as L
from mustamaija.games.black_maria.actions import PASS_ENTRY, PLAY_ENTRY, Pass, Play
from mustamaija.games.black_maria.deals import shuffled_deck
from mustamaija.games.black_maria.rules import OVER, PASS, PHASES, PLAY, Phase, Rules, check_players, in_play, pass_count
from mustamaija.games.black_maria.view import View, view_of

__all__ = ["OVER", "PASS", "PHASES", "PLAY", "RENEGE_PENALTY", "Phase", "State"]

RENEGE_PENALTY: Final = 10
"""B7: the points charged for each renege (only possible when ``allow_renege`` is true)."""

_OTHER_SUITS: Final = 0b1101  # Every suit but hearts, as a suit mask (bit s for suit s).


def _card(card: object) -> int:
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
        raise CardError(f"bad card {card!r}: expected a card string or an int from 0 to 51")
    return card


class State(StepState):
    """The whole truth of one hand: every hand, the passes, the trick, the tricks won and the log.

    Build one with :meth:`deal` or :meth:`from_seed`. Never hand a ``State``
    to a player: give it :meth:`view` instead.
    """

    NUM_STEPS = 52
    RULES = Rules
    PHASE_NAMES = PHASES
    OVER_PHASE = OVER
    """Every step is a card: one chosen for the pass, or the card played (docs/black-maria.md)."""

    __slots__ = (
        "_legal",
        "actor",
        "broken",
        "dealer",
        "deck",
        "hands",
        "k",
        "leader",
        "led",
        "log",
        "n",
        "nlog",
        "npassed",
        "passed",
        "phase",
        "played",
        "renege_ok",
        "reneges",
        "rules",
        "sel",
        "trick",
        "tricks",
        "voids",
        "won",
    )

    rules: Rules
    """The rule set."""
    renege_ok: bool
    """Whether reneging is allowed (B7: ``rules.allow_renege``), kept as a plain field: it is read at every step."""
    k: int
    """The cards each seat passes (B3)."""
    actor: int
    """The seat to act."""
    sel: int
    """The cards chosen so far for a pass being chosen step by step."""
    passed: tuple[int, ...]
    """Each seat's pass, 0 until it has passed (B3)."""
    npassed: int
    """The passes made so far."""
    leader: int
    """The seat that led the current trick (B4)."""
    trick: tuple[int, ...]
    """The cards of the current trick, in the order played."""
    led: int
    """The suit led to the current trick, -1 before its first card."""
    broken: bool
    """Whether hearts are broken (B5)."""
    played: int
    """Every card played to a trick so far."""
    tricks: tuple[int, ...]
    """The tricks each seat has won."""
    won: tuple[int, ...]
    """The cards each seat has won in tricks (B6)."""
    reneges: tuple[int, ...]
    """Each seat's reneges, charged 10 points at the end of the hand (B7)."""
    voids: tuple[int, ...]
    """The suits each seat is known to hold no card of, as masks (bit ``s`` for suit ``s``)."""

    # -- construction ------------------------------------------------------------

    @classmethod
    def deal(cls, players: int, deck: Sequence[int] | Sequence[str], rules: Rules | None = None,
             dealer: int = 0) -> State:
        """Deal a hand from an explicit deck of the cards in play, top card first (B1, B2).

        The deck is dealt out a card at a time, starting at the dealer's left
        and going clockwise, until it is used up; then every seat passes (B3).
        """
        check_players(players)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise RulesError(f"bad dealer {dealer!r}: expected a seat from 0 to {players - 1}")
        cards = tuple(_card(c) for c in deck)
        want = in_play(players)
        if len(cards) != popcount(want) or cards_mask(cards) != want:
            raise CardError(
                f"B1: a deck for {players} players must hold the {popcount(want)} cards in play once each, "
                f"got {len(cards)} cards"
            )
        return cls._dealt(players, cards, rules, dealer)

    @classmethod
    def _dealt(cls, players: int, cards: tuple[int, ...], rules: Rules | None, dealer: int) -> State:
        """Deal ``cards``, known to be the cards in play for ``players`` seats and ``dealer`` a seat (no checks)."""
        s = cls()
        s.rules = rules or Rules()
        s.renege_ok = s.rules.allow_renege
        s.n = players
        s.k = pass_count(players)
        s.dealer = dealer
        s.deck = cards
        hands = [0] * players
        size = len(cards)
        for i in range(players):  # Seat dealer + 1 + i gets every players-th card from the i-th.
            m = 0
            for j in range(i, size, players):
                m |= 1 << cards[j]
            hands[(dealer + 1 + i) % players] = m
        s.hands = hands
        s.phase = PASS
        s.actor = s.leader = (dealer + 1) % players
        s.sel = 0
        s.passed = (0,) * players
        s.npassed = 0
        s.trick = ()
        s.led = -1
        s.broken = False
        s.played = 0
        s.tricks = s.won = s.reneges = s.voids = (0,) * players
        s.log = None
        s.nlog = 0
        s._legal = -1
        return s

    @classmethod
    def from_seed(cls, players: int, seed: int | str, rules: Rules | None = None,
                  dealer: int | None = None) -> State:
        """Deal from a seed: ``random.Random(seed)`` shuffles the deck and, unless given, draws the dealer (B2)."""
        check_players(players)
        rng = generator(seed)
        deck = shuffled_deck(players, rng)  # The cards in play (B1), each once: nothing to check.
        if dealer is None:
            return cls._dealt(players, deck, rules, below(rng, players))  # randrange's number (core/draws.py).
        return cls.deal(players, deck, rules, dealer)  # Checks the dealer.


    def _key(self) -> tuple[Any, ...]:
        return (
            self.rules, self.n, self.dealer, self.deck, tuple(self.hands), self.phase, self.actor, self.sel,
            self.passed, self.leader, self.trick, self.broken, self.played, self.tricks, self.won, self.reneges,
            self.history(),
        )


    # -- read-only facts ---------------------------------------------------------------

    @property
    def pass_count(self) -> int:
        """Return how many cards each seat passes (B3)."""
        return self.k

    @property
    def to_act(self) -> int:
        """Return the seat to act, or -1 once the hand is over."""
        return self.actor

    @property
    def is_over(self) -> bool:
        """Return whether every trick has been played."""
        return self.phase == OVER  # Not inherited: this is on the hot path, and a module constant is quickest.

    @property
    def in_progress(self) -> bool:
        """Return whether the actor has chosen some cards of a pass step by step."""
        return self.sel != 0

    @property
    def received(self) -> tuple[int, ...]:
        """Return the cards each seat received (B3), all empty until every seat has passed."""
        if self.npassed < self.n:
            return (0,) * self.n
        return tuple(self.passed[(s - 1) % self.n] for s in range(self.n))

    @property
    def trick_seats(self) -> tuple[int, ...]:
        """Return the seats that played the cards of the current trick, in order."""
        return tuple((self.leader + i) % self.n for i in range(len(self.trick)))

    def hand(self, seat: int) -> CardSet:
        """Return the hand of a seat."""
        return CardSet(self.hands[seat])

    def trick_points(self) -> list[int]:
        """Return each seat's penalty points from the tricks it has won (B6)."""
        return [L.penalty_of(w) for w in self.won]

    def points(self) -> list[int]:
        """Return each seat's penalty points in this hand: tricks won (B6) plus 10 a renege (B7)."""
        return [L.penalty_of(w) + RENEGE_PENALTY * r for w, r in zip(self.won, self.reneges, strict=True)]

    def view(self, seat: int | None) -> View:
        """Return what ``seat`` can know; ``None`` gives the spectator's view."""
        return view_of(self, seat)

    # -- steps -------------------------------------------------------------------------

    def legal_mask(self) -> int:
        """Return the legal steps as a mask: bit ``c`` is set when card ``c`` may be chosen or played now."""
        m = self._legal
        if m >= 0:
            return m
        if self.phase == PASS:
            m = L.pass_mask(self.hands[self.actor], self.sel, self.k)
        elif self.phase == PLAY:
            m = L.play_mask(self.hands[self.actor], self.led, self.broken, self.renege_ok)
        else:
            m = 0
        self._legal = m
        return m

    def _explain_step(self, step: int) -> None:
        seat = self.actor
        hand = self.hands[seat]
        if self.phase == PLAY:
            L.check_play(seat, hand, step, self.led, self.broken, self.renege_ok)
        if not hand >> step & 1:
            raise IllegalActionError("B3", f"seat {seat} does not hold {card_name(step)}")
        if self.sel >> step & 1:
            raise IllegalActionError("steps", f"{card_name(step)} is already chosen for the pass")
        raise IllegalActionError(
            "steps",
            f"a pass is chosen in rising card order with room to finish it: {card_name(step)} cannot come next "
            f"(legal: {' '.join(card_name(c) for c in cards_of(self.legal_mask()))})",
        )

    def apply(self, step: int) -> None:
        """Take one step in place; an illegal step raises and changes nothing.

        A pass completes, and is logged, once it holds :attr:`pass_count` cards.
        """
        m = self._legal if self._legal >= 0 else self.legal_mask()
        if type(step) is not int or step < 0 or not m >> step & 1:
            self.verify_step(step)
        self._legal = -1
        if self.phase == PLAY:
            self._do_play(self.actor, step)
            return
        sel = self.sel | (1 << step)
        if popcount(sel) == self.k:
            self._do_pass(self.actor, sel)
        else:
            self.sel = sel

    # -- compound actions --------------------------------------------------------------

    def _over_error(self) -> IllegalActionError:
        return IllegalActionError("B4", "the hand is over: every trick has been played")

    def _check_turn(self, seat: int | None, phase: int, what: str) -> int:
        if self.phase == OVER:
            raise self._over_error()
        actor = self.actor
        doing = "pass" if self.phase == PASS else "play"
        if self.phase != phase:
            rule = "B3" if self.phase == PASS else "B4"
            when = "every seat passes before the first trick" if self.phase == PASS else "the passing is over"
            raise IllegalActionError(rule, f"it is not time to {what}: {when}, and seat {actor} is to {doing}")
        if seat is not None and seat != actor:
            rule = "B3" if phase == PASS else "B4"
            order = "seats pass in turn from the dealer's left" if phase == PASS else "play goes clockwise"
            raise IllegalActionError(rule, f"seat {seat} cannot {what} now: {order}, and seat {actor} is to {doing}")
        if self.sel:
            raise IllegalActionError("steps", f"seat {actor} is part way through a card-at-a-time pass; finish it with steps")
        return actor

    def verify_pass_cards(self, cards: CardsLike | int, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless passing ``cards`` is legal now (B3)."""
        actor = self._check_turn(seat, PASS, "pass")
        L.check_pass(actor, self.hands[actor], cards_mask(cards), self.k, self.n)

    def can_pass_cards(self, cards: CardsLike | int, seat: int | None = None) -> bool:
        """Return whether :meth:`verify_pass_cards` accepts these arguments (never raises for bad input)."""
        return passes(self.verify_pass_cards, cards, seat)

    def pass_cards(self, cards: CardsLike | int, seat: int | None = None) -> Pass:
        """Pass ``cards`` (a mask, card list or string such as ``"QS AH 2C"``) in place; return the action."""
        self.verify_pass_cards(cards, seat)
        self._legal = -1
        self._do_pass(self.actor, cards_mask(cards))
        action: Pass = self.last_action()
        return action

    def verify_play_card(self, card: int | str, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless playing ``card`` is legal now (B4, B5)."""
        actor = self._check_turn(seat, PLAY, "play")
        L.check_play(actor, self.hands[actor], _card(card), self.led, self.broken, self.renege_ok)

    def can_play_card(self, card: int | str, seat: int | None = None) -> bool:
        """Return whether :meth:`verify_play_card` accepts these arguments (never raises for bad input)."""
        return passes(self.verify_play_card, card, seat)

    def play_card(self, card: int | str, seat: int | None = None) -> Play:
        """Play ``card`` to the trick in place; return the action."""
        self.verify_play_card(card, seat)
        self._legal = -1
        self._do_play(self.actor, _card(card))
        action: Play = self.last_action()
        return action

    ACTION_KINDS = (Pass, Play)  # By entry kind: PASS_ENTRY, PLAY_ENTRY.
    ACTIONS: ClassVar[dict[type, tuple[Any, Any]]] = {
        Pass: (lambda s, a: s.verify_pass_cards(a.cards, a.seat), lambda s, a: s._do_pass(a.seat, a.cards)),
        Play: (lambda s, a: s.verify_play_card(a.card, a.seat), lambda s, a: s._do_play(a.seat, a.card)),
    }

    # -- transitions (no checks) ---------------------------------------------------------

    def _do_pass(self, seat: int, cards: int) -> None:
        self.log = ((PASS_ENTRY, seat, cards), self.log)  # The action itself is made only when read (core/history.py).
        self.nlog += 1
        self.hands[seat] &= ~cards
        passed = list(self.passed)
        passed[seat] = cards
        self.passed = tuple(passed)
        self.sel = 0
        self.npassed += 1
        n = self.n
        if self.npassed < n:
            self.actor = (seat + 1) % n
        else:  # B3: the cards change hands only once every seat has passed.
            for s in range(n):
                self.hands[(s + 1) % n] |= passed[s]
            self.phase = PLAY
            self.actor = self.leader = (self.dealer + 1) % n  # B4
        self._legal = -1

    def _do_play(self, seat: int, card: int) -> None:
        self.log = ((PLAY_ENTRY, seat, card), self.log)  # Inline: this is the hot path of random play and search.
        self.nlog += 1
        hand = self.hands[seat]
        suit = card // 13
        led = self.led
        if led < 0:
            self.led = led = suit
            if suit == HEARTS and not self.broken:  # B5: only hearts were left in this hand.
                self._add_void(seat, _OTHER_SUITS)
        elif suit != led:
            if suit == HEARTS:
                self.broken = True  # B5
            if hand & SUIT_MASKS[led]:
                self._count_renege(seat)  # B7: only reachable when reneging is allowed.
            elif not self.renege_ok:
                self._add_void(seat, 1 << led)  # Without reneging, failing to follow shows a void.
        self.hands[seat] = hand & ~(1 << card)
        self.played |= 1 << card
        trick = self.trick + (card,)  # noqa: RUF005  # Compiled, a starred display builds a list first.
        n = self.n
        if len(trick) < n:
            self.trick = trick
            self.actor = (seat + 1) % n
        else:
            winner = L.trick_winner(trick, self.leader, n)
            tricks = list(self.tricks)
            tricks[winner] += 1
            self.tricks = tuple(tricks)
            taken = 0
            for c in trick:
                taken |= 1 << c
            won = list(self.won)
            won[winner] |= taken
            self.won = tuple(won)
            self.trick = ()
            self.led = -1
            self.leader = winner
            if self.hands[winner]:
                self.actor = winner
            else:
                self.phase = OVER
                self.actor = -1
        self._legal = -1

    def _add_void(self, seat: int, suits: int) -> None:
        voids = list(self.voids)
        voids[seat] |= suits
        self.voids = tuple(voids)

    def _count_renege(self, seat: int) -> None:
        reneges = list(self.reneges)
        reneges[seat] += 1
        self.reneges = tuple(reneges)

    # -- rendering -----------------------------------------------------------------------

    def copy(self) -> State:
        """Return an independent copy; cheap, since everything but the hands list is shared or immutable.

        One assignment per slot (a loop over the slots would double the cost of search's hot path);
        ``tests/test_state_fast_paths.py`` checks that every slot is copied.
        """
        s = State()
        s._legal = self._legal
        s.actor = self.actor
        s.broken = self.broken
        s.dealer = self.dealer
        s.deck = self.deck
        s.hands = self.hands[:]
        s.k = self.k
        s.leader = self.leader
        s.led = self.led
        s.log = self.log
        s.n = self.n
        s.nlog = self.nlog
        s.npassed = self.npassed
        s.passed = self.passed
        s.phase = self.phase
        s.played = self.played
        s.reneges = self.reneges
        s.renege_ok = self.renege_ok
        s.rules = self.rules
        s.sel = self.sel
        s.trick = self.trick
        s.tricks = self.tricks
        s.voids = self.voids
        s.won = self.won
        return s

    def __copy__(self) -> State:
        """Return :meth:`copy` (what ``copy.copy`` calls)."""
        return self.copy()

    def __repr__(self) -> str:
        return f"<Black Maria state {self.n} players, {self.phase_name}, to act {self.actor}>"

    def trick_text(self) -> str:
        """Return the current trick as ``"seat:card"`` pairs, such as ``"2:9H 3:JH"``."""
        return " ".join(f"{s}:{card_name(c)}" for s, c in zip(self.trick_seats, self.trick, strict=True))

