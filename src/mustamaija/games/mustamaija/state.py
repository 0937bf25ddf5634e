"""The true state of a Mustamaija deal and every transition of docs/rules.md.

A :class:`State` is mutable, like a chess board: compound actions
(:meth:`State.lead`, :meth:`State.beat`, :meth:`State.declare`) and steps of
the card-at-a-time decomposition (:meth:`State.apply`) change it in place,
:meth:`State.copy` is cheap, and :meth:`State.step` returns a changed copy.
Every action has a ``verify_x`` / ``can_x`` / ``x`` trio.

>>> from mustamaija import State, Rules
>>> s = State.from_seed(players=3, seed=1)
>>> s.phase_name, s.to_act, len(s.hand(s.to_act))
('lead', 1, 5)
>>> s.can_lead("2S 3S")
False
>>> first = s.legal_actions()[0]
>>> s.step(first).phase_name in ("lead", "defend")
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mustamaija.core.bits import popcount
from mustamaija.core.cards import (
    QS,
    SPADES,
    CardSet,
    CardsLike,
    card_name,
    cards_mask,
    cards_of,
    parse_card,
    parse_suit,
)
from mustamaija.core.draws import below, generator
from mustamaija.core.errors import CardError, FormatError, IllegalActionError, RulesError
from mustamaija.core.state import StepState, passes
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import BEAT_ENTRY, DECLARE, DECLARE_ENTRY, LEAD_ENTRY, STOP, Beat, Declare, Lead, step_name
from mustamaija.games.mustamaija.deals import shuffled_deck
from mustamaija.games.mustamaija.playout import play_out_randomly
from mustamaija.games.mustamaija.rules import DEFEND, LEAD, OVER, PHASES, Phase, Rules
from mustamaija.games.mustamaija.view import View, view_of

if TYPE_CHECKING:
    from mustamaija.games.mustamaija.position import Position

__all__ = ["DEFEND", "LEAD", "OVER", "PHASES", "Phase", "State"]


FIXED_BEFORE: Final = -2
"""The ``declarer`` of a position whose marriage trumps were declared before it was set up."""



class State(StepState):
    """The whole truth of one deal: every hand, the talon order, the table and the log.

    Build one with :meth:`deal`, :meth:`from_seed`, :meth:`from_position` (a talon-empty endgame) or
    :meth:`from_setup` (any position).
    Never hand a ``State`` to a player: give it :meth:`view` instead (M22).
    """

    NUM_STEPS = 57
    RULES = Rules
    PHASE_NAMES = PHASES
    OVER_PHASE = OVER
    """Steps 0-51 are cards, 52 is ``STOP`` and 53-56 declare a marriage (docs/architecture.md)."""

    __slots__ = (
        "_legal",
        "attacker",
        "dealer",
        "deck",
        "declared",
        "declarer",
        "defender",
        "discard",
        "facts",
        "hands",
        "led",
        "limit",
        "log",
        "loser",
        "n",
        "nlog",
        "out",
        "outmask",
        "pairs",
        "phase",
        "public",
        "rem",
        "revealed",
        "sel",
        "stopped",
        "talon",
        "tknown",
        "tpos",
        "trump",
        "trump_card",
        "turn_pending",
        "turns",
        "used",
    )

    facts: L.RuleFacts
    """The rule set (``facts.rules``, also :attr:`rules`) with the rules the transitions read at every step as plain
    fields."""
    talon: tuple[int, ...]
    """The talon, top card first; cards above :attr:`tpos` have been drawn."""
    tpos: int
    """The index of the talon's current top card."""
    trump: int
    """The trump suit, -1 while there is none (M6, V2, V3)."""
    trump_card: int
    """The turned trump card, -1 when none was turned (M6)."""
    turn_pending: bool
    """Whether the first lead must still turn the trump card (M6)."""
    revealed: int
    """Spades turned and put back into the talon (M7)."""
    tknown: int
    """The talon cards whose place is public: the spades put back and the trump card."""
    public: int
    """Cards everybody knows the place of while they are held: picked-up cards, a declared marriage (M22)."""
    discard: int
    """Cards out of play (M14)."""
    attacker: int
    """The seat that leads this turn (M9)."""
    defender: int
    """The seat that defends this turn (M9)."""
    led: int
    """The led cards on the table while the defender answers."""
    sel: int
    """The cards chosen so far for a lead being chosen step by step."""
    rem: int
    """The led cards a defence under way has not yet beaten or left."""
    used: int
    """The beating cards a defence under way has played so far."""
    pairs: tuple[tuple[int, int], ...]
    """The (led card, beating card) pairs of a defence under way."""
    limit: int
    """The most cards the current lead may hold (M11)."""
    out: tuple[int, ...]
    """The seats that are out, in the order they went out (M18)."""
    outmask: int
    """The seats that are out, as a mask (bit ``s`` for seat ``s``)."""
    turns: int
    """Completed turns, a lead and its defence each (M21)."""
    declarer: int
    """The seat that declared the marriage, -1 before (V3)."""
    declared: int
    """The suit of the declared marriage, -1 before (V3)."""
    loser: int
    """The seat left holding cards, -1 until the deal ends with one (M19)."""
    stopped: bool
    """Whether the turn limit stopped the deal unfinished (M21)."""

    # -- construction ------------------------------------------------------------

    @classmethod
    def deal(cls, players: int, deck: Sequence[int] | Sequence[str], rules: Rules | None = None,
             dealer: int = 0) -> State:
        """Deal a new deal from an explicit deck, top card first (M4, docs/formats.md).

        Cards go one at a time from the top to seat ``dealer + 1`` and on
        clockwise; the rest is the talon. The trump is turned now or after
        the first lead, as the rules say (M6).
        """
        rules = rules or Rules()
        rules.check_players(players)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise RulesError(f"bad dealer {dealer!r}: expected a seat from 0 to {players - 1}")
        cards = tuple(c if isinstance(c, int) else parse_card(c) for c in deck)
        if len(cards) != 52 or cards_mask(cards) != (1 << 52) - 1:
            raise CardError(f"a deck must hold all 52 cards once each, got {len(cards)} cards")
        return cls._dealt(players, cards, rules, dealer)

    @classmethod
    def _dealt(cls, players: int, cards: tuple[int, ...], rules: Rules, dealer: int) -> State:
        """Deal ``cards``, known to be the 52 cards once each, ``players`` known to fit ``rules`` and ``dealer`` a seat."""
        s = cls._blank(rules, players, dealer)
        s.deck = cards
        hs = s.facts.hand_size
        hands = s.hands
        dealt = players * hs
        for i in range(players):  # Seat dealer + 1 + i gets every players-th card from the i-th.
            m = 0
            for j in range(i, dealt, players):
                m |= 1 << cards[j]
            hands[(dealer + 1 + i) % players] = m
        s.talon = cards[dealt:]
        if rules.trump == "turned":
            if rules.trump_turn == "after_deal":
                s._turn_trump()
            else:
                s.turn_pending = True
        elif rules.trump == "fixed":
            s.trump = parse_suit(rules.trump_suit)
        s._begin_turn((dealer + 1) % players)
        return s

    @classmethod
    def from_seed(cls, players: int, seed: int | str, rules: Rules | None = None,
                  dealer: int | None = None) -> State:
        """Deal from a seed: the deck is shuffled, and unless given the dealer drawn, by ``random.Random(seed)``."""
        rules = rules or Rules()
        rules.check_players(players)
        rng = generator(seed)
        deck = shuffled_deck(rng)  # The 52 cards once each: nothing to check.
        if dealer is None:
            return cls._dealt(players, deck, rules, below(rng, players))
        return cls.deal(players, deck, rules, dealer)  # Checks the dealer.

    @classmethod
    def from_position(cls, hands: Sequence[Iterable[int] | str | CardSet], attacker: int,
                      trump_suit: int | None, rules: Rules | None = None) -> State:
        """Set up a talon-empty endgame (the solver's position): known hands, ``attacker`` to lead.

        Seats with an empty hand are out. There is no deck, so such a state
        cannot become a record.
        """
        rules = rules or Rules()
        players = len(hands)
        if not 2 <= players <= 8:
            raise RulesError(f"a position needs 2 to 8 seats, got {players}")
        s = cls._blank(rules, players, 0)
        seen = 0
        for i, h in enumerate(hands):
            m = cards_mask(h)
            if m & seen:
                raise CardError(f"card {card_name(cards_of(m & seen)[0])} is in more than one hand")
            seen |= m
            s.hands[i] = m
        if not seen >> QS & 1:
            raise CardError("the queen of spades must be in some hand: she never leaves play (M19)")
        if isinstance(attacker, bool) or not isinstance(attacker, int) or not 0 <= attacker < players:
            raise RulesError(f"bad attacker {attacker!r}: expected a seat from 0 to {players - 1}")
        if not s.hands[attacker]:
            raise RulesError(f"the attacker, seat {attacker}, holds no cards")
        s.trump = -1 if trump_suit is None else trump_suit
        if rules.trump == "marriage" and trump_suit is not None:
            s.declarer = FIXED_BEFORE  # Trumps were fixed before the position: no marriage counts.
            s.declared = trump_suit
        s.public = seen
        s.discard = ((1 << 52) - 1) & ~seen
        for i in range(players):
            if not s.hands[i]:
                s.out += (i,)
                s.outmask |= 1 << i
        s._begin_turn(attacker)
        return s

    @classmethod
    def from_setup(cls, position: Position, seed: int | str | None = None) -> State:
        """Set up any position (``mustamaija-position/2``, docs/formats.md): every fact as the position gives it.

        ``position`` is a validated :class:`~mustamaija.games.mustamaija.position.Position`
        (``Position.to_state`` calls this). A talon of unknown order is
        shuffled with ``random.Random(seed)``, its cards whose place is public
        (the trump card, spades put back) staying where they are. There is no
        deck, so such a state cannot become a record.

        >>> from mustamaija.games.mustamaija.position import Position
        >>> p = Position.parse("5_sQh56-hK.d2_~c3A4_c4_l1")
        >>> s = State.from_setup(p, seed=3)
        >>> s.talon_size, card_name(s.talon_cards[-1]), s.view(0).known[1] == 1 << parse_card("2D")
        (3, '4C', True)
        """
        p = position
        s = cls._blank(p.rules, len(p.hands), p.dealer)
        s.hands = list(p.hands)
        talon = list(p.talon)
        card = -1 if p.trump_card is None else p.trump_card
        tknown = p.revealed | (1 << card if card >= 0 else 0)
        if p.talon_order == "unknown":
            if seed is None:
                raise FormatError("the talon's order is unknown ('talon_order': 'unknown'): give a seed to shuffle it")
            free = [i for i, c in enumerate(talon) if not tknown >> c & 1]
            cards = [talon[i] for i in free]
            random.Random(seed).shuffle(cards)
            for i, c in zip(free, cards, strict=True):
                talon[i] = c
        s.talon = tuple(talon)
        s.trump = -1 if p.trump_suit is None else p.trump_suit
        s.trump_card = card
        s.turn_pending = bool(p.turn_pending)
        s.revealed = p.revealed
        s.tknown = tknown if card >= 0 else 0
        s.public = p.public
        s.discard = p.discard
        s.phase = PHASES.index(p.phase)
        s.attacker = p.attacker
        s.defender = p.defender
        if s.phase == DEFEND:
            s.led = p.led
            s.pairs = p.beaten
            beaten = 0
            for led, beater in p.beaten:
                beaten |= 1 << led
                s.used |= 1 << beater
            s.rem = p.led & ~beaten & ~p.left
        s.sel = p.selected
        s.limit = p.limit
        s.out = tuple(p.out or ())
        for seat in s.out:
            s.outmask |= 1 << seat
        s.turns = p.turns
        s.declarer = p.declarer
        s.declared = -1 if p.declarer == -1 else s.trump
        s.stopped = p.stopped
        if s.phase == OVER and not p.stopped:
            s.loser = next(seat for seat, h in enumerate(s.hands) if h)
        return s

    @classmethod
    def _blank(cls, rules: Rules, players: int, dealer: int) -> State:
        s = cls()
        s.facts = L.RuleFacts(rules)
        s.n = players
        s.dealer = dealer
        s.deck = None
        s.hands = [0] * players
        s.talon = ()
        s.tpos = 0
        s.trump = -1
        s.trump_card = -1
        s.turn_pending = False
        s.revealed = 0
        s.tknown = 0
        s.public = 0
        s.discard = 0
        s.phase = LEAD
        s.attacker = s.defender = -1
        s.led = s.sel = s.rem = s.used = 0
        s.pairs = ()
        s.limit = L.NO_LIMIT
        s.out = ()
        s.outmask = 0
        s.turns = 0
        s.declarer = -1
        s.declared = -1
        s.log = None
        s.nlog = 0
        s.loser = -1
        s.stopped = False
        s._legal = -1
        return s


    def _key(self) -> tuple[Any, ...]:
        return (
            self.rules, self.n, self.dealer, self.deck, tuple(self.hands), self.talon[self.tpos:], self.trump,
            self.trump_card, self.turn_pending, self.revealed, self.public, self.discard, self.phase, self.attacker,
            self.defender, self.led, self.sel, self.rem, self.used, self.pairs, self.limit, self.out, self.turns,
            self.declarer, self.declared, self.loser, self.stopped, self.history(),
        )


    # -- read-only facts ---------------------------------------------------------

    @property
    def to_act(self) -> int:
        """Return the seat to act, or -1 once the deal is over."""
        p = self.phase
        return self.attacker if p == LEAD else self.defender if p == DEFEND else -1

    @property
    def is_over(self) -> bool:
        """Return whether no more actions can be taken: a loser is known, or M21 stopped the deal."""
        return self.phase == OVER  # Not inherited: this is on the hot path, and a module constant is quickest.

    @property
    def finished(self) -> bool:
        """Return whether the deal ended with a loser (a deal stopped by M21 is not finished)."""
        return self.loser >= 0

    @property
    def rules(self) -> Rules:
        """Return the rule set."""
        return self.facts.rules

    @property
    def hs(self) -> int:
        """Return the hand size: cards dealt to each seat, and the number a seat draws up to (M4, M12)."""
        return self.facts.hand_size

    @property
    def talon_size(self) -> int:
        """Return the number of cards left in the talon."""
        return len(self.talon) - self.tpos

    @property
    def talon_cards(self) -> tuple[int, ...]:
        """Return the talon, top card first."""
        return self.talon[self.tpos:]

    @property
    def trump_suit(self) -> int | None:
        """Return the trump suit index, or ``None`` while there are no trumps."""
        return None if self.trump < 0 else self.trump

    @property
    def in_progress(self) -> bool:
        """Return whether the actor has taken steps of an action that is not yet complete."""
        return bool(self.sel) if self.phase == LEAD else self.phase == DEFEND and self.rem != self.led

    def view(self, seat: int | None) -> View:
        """Return what ``seat`` can know (M22); ``None`` gives the spectator's view."""
        return view_of(self, seat)

    def hand(self, seat: int) -> CardSet:
        """Return the hand of a seat."""
        return CardSet(self.hands[seat])

    def hand_sizes(self) -> list[int]:
        """Return every seat's number of cards."""
        return [popcount(h) for h in self.hands]

    # -- steps: the card-at-a-time decomposition ---------------------------------

    def legal_mask(self) -> int:
        """Return the legal steps as a mask: bit ``i`` is set when step ``i`` is legal (0 when over)."""
        m = self._legal
        if m >= 0:
            return m
        p = self.phase
        if p == OVER:
            m = 0
        else:
            seat = self.attacker if p == LEAD else self.defender
            hand = self.hands[seat]
            decl = L.declarable_suits(self.rules, hand, self.declarer) if self.facts.marriage else 0
            m = L.step_mask(p, hand, self.sel, self.limit, self.rem, self.used, self.trump, decl, self.in_progress)
        self._legal = m
        return m

    def _explain_step(self, step: int) -> None:
        seat = self.to_act
        if step >= DECLARE:
            if self.in_progress:
                raise IllegalActionError("V4", "a marriage is declared only before the first card of one's action")
            L.check_declare(self.rules, seat, self.hands[seat], step - DECLARE, self.declarer, self.declared)
        if step == STOP:
            raise IllegalActionError("steps", "'stop' ends a lead only after its first card")
        hand = self.hands[seat]
        if not hand >> step & 1:
            raise IllegalActionError("M10" if self.phase == LEAD else "M13", f"seat {seat} does not hold {card_name(step)}")
        if self.phase == LEAD:
            top = self.sel.bit_length() - 1
            if popcount(self.sel) >= self.limit:
                raise IllegalActionError("M11", f"the lead already has the most cards allowed ({self.limit})")
            if step // 13 != top // 13:
                raise IllegalActionError("M10", f"a lead must be all one suit: {card_name(step)} is not a {'SHDC'[top // 13]}")
            raise IllegalActionError("steps", f"a lead is chosen in rising order: after {card_name(top)} add a higher card or 'stop'")
        cur = L.current_led(self.rem, hand & ~self.used, self.trump)
        if cur < 0:
            raise IllegalActionError("M13", "no undecided led card can still be beaten: 'stop' picks up the rest")
        if self.used >> step & 1:
            raise IllegalActionError("M13", f"{card_name(step)} already beats a card: one beating card beats one led card")
        raise IllegalActionError("M13", f"{card_name(step)} does not beat {card_name(cur)}, the led card to answer now")

    def apply(self, step: int) -> None:
        """Take one step in place; an illegal step raises and changes nothing.

        A lead completes when the actor stops or no further card can be
        added; a defence completes when no undecided led card can still be
        beaten. Completing an action logs it as a compound action.
        """
        m = self._legal if self._legal >= 0 else self.legal_mask()
        if type(step) is not int or step < 0 or not m >> step & 1:
            self.verify_step(step)
        self._legal = -1
        if step >= DECLARE:
            self._do_declare(step - DECLARE)
            return
        if self.phase == LEAD:
            if step == STOP:
                self._do_lead(self.sel)
                return
            sel = self.sel | (1 << step)
            hand = self.hands[self.attacker]
            if popcount(sel) >= self.limit or not hand & L.above_in_suit(step):
                self._do_lead(sel)
            else:
                self.sel = sel
            return
        hand = self.hands[self.defender]
        trump = self.trump
        rem = self.rem
        cur = L.current_led(rem, hand & ~self.used, trump)
        if cur >= 0:
            rem &= ~(1 << cur)
            if step != STOP:
                self.pairs = self.pairs + ((cur, step),)  # noqa: RUF005  # Compiled, a starred display builds a list.
                self.used |= 1 << step
            self.rem = rem
            if L.current_led(rem, hand & ~self.used, trump) >= 0:
                return
        self._do_beat(self.defender, self.pairs)

    def play_out_randomly(self, rng: random.Random) -> int:
        """Play uniformly random legal steps to the end of the deal, in place; return the number of steps.

        The steps and draws of the generic loop, made by
        :func:`~mustamaija.games.mustamaija.playout.play_out_randomly` on the state's fields.
        """
        return play_out_randomly(self, rng)

    def describe_step(self, step: int) -> str:
        """Return what a step would do now, for people, such as ``"beat 9H with JH"``."""
        if step >= DECLARE or self.phase == LEAD:
            return step_name(step) if step != STOP else "end the lead"
        cur = L.current_led(self.rem, self.hands[self.defender] & ~self.used, self.trump)
        if cur < 0:
            return "pick up the rest"
        return f"leave {card_name(cur)}" if step == STOP else f"beat {card_name(cur)} with {card_name(step)}"

    # -- compound actions ------------------------------------------------------------

    def _check_turn(self, seat: int | None, phase: int, what: str) -> int:
        if self.phase == OVER:
            raise self._over_error()
        actor = self.to_act
        if seat is not None and seat != actor:
            role = "lead" if self.phase == LEAD else "defend"
            raise IllegalActionError("M9", f"seat {seat} cannot {what} now: seat {actor} is to {role}")
        if self.phase != phase:
            role = "lead" if self.phase == LEAD else "defend"
            raise IllegalActionError("M9", f"it is not time to {what}: seat {actor} is to {role}")
        if self.in_progress:
            raise IllegalActionError("steps", f"seat {actor} is part way through a card-at-a-time action; finish it with steps")
        return actor

    def _over_error(self) -> IllegalActionError:
        if self.stopped:
            return IllegalActionError("M21", f"the deal was stopped unfinished after {self.turns} turns")
        return IllegalActionError("M19", f"the deal is over: seat {self.loser} lost")

    def verify_lead(self, cards: CardsLike | int, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless leading ``cards`` is legal now (M9-M11)."""
        actor = self._check_turn(seat, LEAD, "lead")
        mask = cards if isinstance(cards, int) else cards_mask(cards)
        L.check_lead(actor, self.hands[actor], mask, self.rules,
                     popcount(self.hands[self.defender]), self.talon_size)

    def can_lead(self, cards: CardsLike | int, seat: int | None = None) -> bool:
        """Return whether :meth:`verify_lead` accepts these arguments (never raises for bad input)."""
        return passes(self.verify_lead, cards, seat)

    def lead(self, cards: CardsLike | int, seat: int | None = None) -> Lead:
        """Lead ``cards`` (a mask, card list or string such as ``"9H 4H"``) in place; return the action."""
        self.verify_lead(cards, seat)
        mask = cards if isinstance(cards, int) else cards_mask(cards)
        self._legal = -1
        self._do_lead(mask)
        action: Lead = self.last_action()
        return action

    def _pairs(self, defence: Mapping[Any, Any] | str | Beat) -> tuple[tuple[int, int], ...]:
        if isinstance(defence, Beat):
            return defence.pairs
        if isinstance(defence, str):
            items: dict[Any, Any] = {}
            text = defence.strip()
            if text.lower() not in ("", "take", "{}"):
                for part in text.replace(",", " ").split():
                    led, sep, beater = part.partition(":")
                    if not sep:
                        raise CardError(f"bad pair {part!r}: write led:beater, such as 9H:JH, or 9H:- to leave it")
                    if beater.strip() not in ("-", ""):
                        items[led] = beater
            defence = items
        out = []
        for k, v in defence.items():
            a = k if isinstance(k, int) else parse_card(k)
            b = v if isinstance(v, int) else parse_card(v)
            out.append((a, b))
        out.sort()
        for i in range(1, len(out)):
            if out[i][0] == out[i - 1][0]:
                raise CardError(f"led card {card_name(out[i][0])} is beaten twice")
        return tuple(out)

    def verify_beat(self, defence: Mapping[Any, Any] | str | Beat, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless the defence is legal now (M2, M9, M13).

        ``defence`` maps led cards to beating cards (cards as strings or
        ints), or is a string such as ``"9H:JH 4H:-"`` or ``"take"``.
        """
        actor = self._check_turn(seat, DEFEND, "defend")
        L.check_beat(actor, self.hands[actor], self.led, self._pairs(defence), self.trump)

    def can_beat(self, defence: Mapping[Any, Any] | str | Beat, seat: int | None = None) -> bool:
        """Return whether :meth:`verify_beat` accepts these arguments (never raises for bad input)."""
        return passes(self.verify_beat, defence, seat)

    def beat(self, defence: Mapping[Any, Any] | str | Beat, seat: int | None = None) -> Beat:
        """Defend in place: beat the mapped led cards and pick up the rest; return the action."""
        self.verify_beat(defence, seat)
        self._legal = -1
        self._do_beat(self.defender, self._pairs(defence))
        action: Beat = self.last_action()
        return action

    def verify_declare(self, suit: int | str, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless the actor may declare the marriage in ``suit`` now (V2-V4)."""
        if self.phase == OVER:
            raise self._over_error()
        actor = self.to_act
        if seat is not None and seat != actor:
            raise IllegalActionError(
                "V4", f"seat {seat} cannot declare now: a marriage is declared only as the first part of one's own action"
            )
        if self.in_progress:
            raise IllegalActionError("V4", "a marriage is declared only before the first card of one's action")
        s = parse_suit(suit) if isinstance(suit, str) else suit
        L.check_declare(self.rules, actor, self.hands[actor], s, self.declarer, self.declared)

    def can_declare(self, suit: int | str, seat: int | None = None) -> bool:
        """Return whether :meth:`verify_declare` accepts these arguments (never raises for bad input)."""
        return passes(self.verify_declare, suit, seat)

    def declare(self, suit: int | str, seat: int | None = None) -> Declare:
        """Declare the marriage in ``suit`` in place; its suit becomes trumps. Return the action."""
        self.verify_declare(suit, seat)
        self._legal = -1
        self._do_declare(parse_suit(suit) if isinstance(suit, str) else suit)
        action: Declare = self.last_action()
        return action

    def legal_leads(self) -> Iterator[Lead]:
        """Yield every legal lead now, lazily (nothing when it is not time to lead)."""
        if self.phase != LEAD or self.in_progress:
            return
        a = self.attacker
        for m in L.iter_leads(self.hands[a], self.limit):
            yield Lead(a, m)

    def legal_beats(self) -> Iterator[Beat]:
        """Yield every legal defence now, lazily, starting with picking up everything."""
        if self.phase != DEFEND or self.in_progress:
            return
        d = self.defender
        for pairs in L.iter_beats(self.hands[d], self.led, self.trump):
            yield Beat(d, pairs)

    def legal_declares(self) -> list[Declare]:
        """Return the marriages the actor may declare now."""
        if self.phase == OVER or self.in_progress or self.rules.trump != "marriage":
            return []
        seat = self.to_act
        decl = L.declarable_suits(self.rules, self.hands[seat], self.declarer)
        return [Declare(seat, s) for s in range(4) if decl >> s & 1]

    ACTION_KINDS = (Lead, Beat, Declare)  # By entry kind: LEAD_ENTRY, BEAT_ENTRY, DECLARE_ENTRY.
    ACTIONS: ClassVar[dict[type, tuple[Any, Any]]] = {
        Lead: (lambda s, a: s.verify_lead(a.cards, a.seat), lambda s, a: s._do_lead(a.cards)),
        Beat: (lambda s, a: s.verify_beat(a, a.seat), lambda s, a: s._do_beat(a.seat, a.pairs)),
        Declare: (lambda s, a: s.verify_declare(a.suit, a.seat), lambda s, a: s._do_declare(a.suit)),
    }

    # -- transitions (no checks) -------------------------------------------------------

    def _turn_trump(self) -> None:
        """Turn the trump card from the talon per docs/formats.md (M6-M8)."""
        t = list(self.talon[self.tpos:])
        self.turn_pending = False
        if not t:
            return
        j = 0
        if not self.facts.spades_can_be_trump:
            while j < len(t) and t[j] // 13 == SPADES:
                j += 1
            if j == len(t):
                j = 0  # Only spades: the top card stands as trump.
        card, block, others = t[j], t[:j], t[j + 1:]
        half = len(others) // 2
        self.talon = (*others[:half], *block, *others[half:], card)
        self.tpos = 0
        self.trump = card // 13
        self.trump_card = card
        self.revealed = sum(1 << c for c in block)
        self.tknown = self.revealed | (1 << card)

    def _draw(self, seat: int, hand: int) -> int:
        """Give ``seat``, holding ``hand``, its cards from the talon (M12); store and return its new hand.

        The caller passes the hand it has just worked out, and reads back the one returned: compiled, every
        read of the list of hands unboxes a two-digit int and every write boxes one.
        """
        need = self.facts.hand_size - popcount(hand)
        end = len(self.talon)
        if need > 0 and self.tpos < end:
            stop = min(end, self.tpos + need)
            talon = self.talon
            m = 0
            for i in range(self.tpos, stop):
                m |= 1 << talon[i]
            self.tpos = stop
            hand |= m
            if m & self.tknown:
                self.public |= m & self.tknown
        self.hands[seat] = hand
        return hand

    def _do_lead(self, cards: int) -> None:
        a = self.attacker
        self.log = ((LEAD_ENTRY, a, cards), self.log)  # The action itself is made only when read (core/history.py).
        self.nlog += 1
        hand = self.hands[a] & ~cards
        self.sel = 0
        if self.turn_pending:
            self._turn_trump()
        if not self._draw(a, hand) and self.tpos >= len(self.talon):
            self._go_out(a)  # M18: out at once; the defence still happens.
        self.phase = DEFEND
        self.led = self.rem = cards
        self.used = 0
        self.pairs = ()
        self._legal = -1

    def _do_beat(self, seat: int, pairs: tuple[tuple[int, int], ...]) -> None:
        self.log = ((BEAT_ENTRY, seat, pairs), self.log)
        self.nlog += 1
        beaten = beaters = 0
        for led, b in pairs:
            beaten |= 1 << led
            beaters |= 1 << b
        taken = self.led & ~beaten
        self.public |= taken
        self.discard |= beaten | beaters
        hand = self._draw(seat, (self.hands[seat] & ~beaters) | taken)
        self.turns += 1
        self.led = self.rem = self.used = 0
        self.pairs = ()
        if not hand and self.tpos >= len(self.talon):
            self._go_out(seat)
        self._next_turn(seat if not taken else (seat + 1) % self.n)
        self._legal = -1

    def _do_declare(self, suit: int) -> None:
        seat = self.to_act
        self._push(DECLARE_ENTRY, seat, suit)
        self.trump = suit
        self.declarer = seat
        self.declared = suit
        self.public |= L.MARRIAGES[suit]
        self._legal = -1

    def _go_out(self, seat: int) -> None:
        if not self.outmask >> seat & 1:
            self.outmask |= 1 << seat
            self.out = self.out + (seat,)  # noqa: RUF005  # As in apply.

    def _next_turn(self, start: int) -> None:
        """Pick the next attacker from ``start`` on, skipping empty hands (M16), or end the deal (M19, M21)."""
        hands = self.hands
        holders = 0
        last = -1
        for s in range(self.n):  # Counted, not listed: this runs every turn.
            if hands[s]:
                holders += 1
                last = s
        if holders <= 1:
            self.phase = OVER
            self.loser = last
            self.attacker = self.defender = -1
            return
        if self.turns >= self.facts.max_turns:
            self.phase = OVER
            self.stopped = True
            self.attacker = self.defender = -1
            return
        a = start
        while not hands[a]:
            a = (a + 1) % self.n
        self._begin_turn(a)

    def _begin_turn(self, attacker: int) -> None:
        n = self.n
        d = (attacker + 1) % n
        while not self.hands[d] and d != attacker:
            d = (d + 1) % n
        self.attacker = attacker
        self.defender = d
        self.phase = LEAD
        self.sel = 0
        if d == attacker:  # A position with one holder: nothing to play.
            self.phase = OVER
            self.loser = attacker
            self.attacker = self.defender = -1
            return
        self.limit = L.lead_limit(self.facts, popcount(self.hands[d]), len(self.talon) - self.tpos)
        self._legal = -1

    # -- rendering ----------------------------------------------------------------------

    def copy(self) -> State:
        """Return an independent copy; cheap, since everything but the hands list is shared or immutable.

        One assignment per slot (a loop over the slots would double the cost of search's hot path);
        ``tests/test_state_fast_paths.py`` checks that every slot is copied.
        """
        s = State()
        s._legal = self._legal
        s.attacker = self.attacker
        s.dealer = self.dealer
        s.deck = self.deck
        s.declared = self.declared
        s.declarer = self.declarer
        s.defender = self.defender
        s.discard = self.discard
        s.facts = self.facts
        s.hands = self.hands[:]
        s.led = self.led
        s.limit = self.limit
        s.log = self.log
        s.loser = self.loser
        s.n = self.n
        s.nlog = self.nlog
        s.out = self.out
        s.outmask = self.outmask
        s.pairs = self.pairs
        s.phase = self.phase
        s.public = self.public
        s.rem = self.rem
        s.revealed = self.revealed
        s.sel = self.sel
        s.stopped = self.stopped
        s.talon = self.talon
        s.tknown = self.tknown
        s.tpos = self.tpos
        s.trump = self.trump
        s.trump_card = self.trump_card
        s.turn_pending = self.turn_pending
        s.turns = self.turns
        s.used = self.used
        return s

    def __copy__(self) -> State:
        """Return :meth:`copy` (what ``copy.copy`` calls)."""
        return self.copy()

    def __repr__(self) -> str:
        return f"<State {self.n} players, {self.phase_name}, turn {self.turns}, to act {self.to_act}>"

    def table_text(self) -> str:
        """Return the cards on the table, such as ``"9H 4H"`` or ``"9H/JH 4H"`` during steps."""
        if self.phase != DEFEND:
            return ""
        beaten = {a: b for a, b in self.pairs}
        return " ".join(f"{card_name(c)}/{card_name(beaten[c])}" if c in beaten else card_name(c)
                        for c in cards_of(self.led))

