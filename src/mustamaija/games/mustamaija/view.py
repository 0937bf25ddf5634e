"""The one visibility function: what a seat, or a spectator, can know of a deal (M22).

:func:`view_of` turns the true :class:`~mustamaija.games.mustamaija.state.State` into a
:class:`View`. Bots, clients, spectators and logs consume views only, so a
card a seat could not know never reaches it.

A seat knows its own hand and everything public: the trump card, spades
turned and put back and where they lie in the talon, hand and talon sizes,
every action taken, the cards each player picked up (and so still holds),
who drew a known talon card (such as the trump card), a declared marriage,
and what follows from all that by counting (once every unseen card must be
in one place, it is known to be there).

>>> from mustamaija import State
>>> s = State.from_seed(players=3, seed=1)
>>> v = s.view(0)
>>> v.hand == s.hands[0], v.hand_sizes, v.talon_size
(True, (5, 5, 5), 37)
>>> s.view(None).hand
0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mustamaija.core.cards import SUITS, card_name, cards_of
from mustamaija.core.history import History
from mustamaija.core.view import ViewBase, check_seat
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.knowledge import Knowledge, knowledge
from mustamaija.games.mustamaija.rules import DEFEND, LEAD, OVER

if TYPE_CHECKING:
    from mustamaija.games.mustamaija.state import State

__all__ = ["Knowledge", "View", "knowledge", "view_of"]



def _names(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask)) or "-"


@dataclass(frozen=True, slots=True)
class View(ViewBase):
    """What one seat (``seat``) or a spectator (``seat is None``) knows; every card set is a mask.

    ``known[s]`` holds the cards known to be in seat ``s``'s hand (for the
    viewing seat, only those the others know too). ``unseen`` holds the
    cards whose place the viewer does not know: they are in other hands or in
    the talon. ``sel``, ``rem``, ``used`` and ``pairs`` show an action the
    viewer has begun step by step; they are empty in everybody else's view.
    """

    attacker: int
    """The seat that leads this turn (M9)."""
    defender: int
    """The seat that defends this turn (M9)."""
    talon_size: int
    """The cards left in the talon."""
    talon_known: tuple[tuple[int, int], ...]
    """(depth from the top, card) of the talon cards whose place is public: the trump card, spades put back."""
    trump: int
    """The trump suit, -1 while there is none."""
    trump_card: int
    """The turned trump card, -1 when none was turned."""
    revealed: int
    """Spades turned and put back into the talon (M7)."""
    discard: int
    """Cards out of play (M14)."""
    led: int
    """The led cards on the table while the defender answers."""
    sel: int
    """The cards the viewer has chosen so far for its lead (0 in every other view)."""
    rem: int
    """The led cards the viewer's defence under way has not yet decided (the whole table in other views)."""
    used: int
    """The beating cards of the viewer's defence under way (0 in other views)."""
    pairs: tuple[tuple[int, int], ...]
    """The (led, beating card) pairs of the viewer's defence under way (empty in other views)."""
    limit: int
    """The most cards the current lead may hold (M11)."""
    out: tuple[int, ...]
    """The seats that are out, in order (M18)."""
    loser: int
    """The loser, -1 until known (M19)."""
    stopped: bool
    """Whether the turn limit stopped the deal (M21)."""
    turns: int
    """Completed turns (M21)."""
    declarer: int
    """The seat that declared the marriage, -1 before (V3)."""
    declared: int
    """The suit of the declared marriage, -1 before (V3)."""
    history: History
    """Every compound action so far, oldest first (all are public)."""

    # -- acting -----------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """Return whether the actor has taken steps of an action that is not yet complete (as :attr:`State.in_progress`)."""
        return bool(self.sel) if self.phase == LEAD else self.phase == DEFEND and self.rem != self.led

    def legal_mask(self) -> int:
        """Return the legal steps as a mask when it is the viewer's turn, else 0 (same rules as the state)."""
        if not self.my_turn:
            return 0
        decl = L.declarable_suits(self.rules, self.hand, self.declarer)
        return L.step_mask(self.phase, self.hand, self.sel, self.limit, self.rem, self.used, self.trump, decl,
                           self.in_progress)

    def beaters(self, led: int) -> int:
        """Return the cards in the viewer's hand that beat ``led`` under the current trumps."""
        return self.hand & L.BEATERS[self.trump][led]

    # -- rendering ------------------------------------------------------------------

    def render(self) -> str:
        """Return a plain-text account of the view, one fact a line (used by golden tests and logs)."""
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        phase = ("lead", "defend", "over")[self.phase]
        lines = [f"{who} | {phase} | turn {self.turns} | attacker {self.attacker} | defender {self.defender}"]
        if self.trump < 0:
            trump = "none yet" if self.rules.trump in ("turned", "marriage") and self.declarer < 0 else "none"
        else:
            trump = SUITS[self.trump]
            if self.trump_card >= 0:
                trump += f" (turned {card_name(self.trump_card)})"
            if self.declarer >= 0:
                trump += f" (marriage of seat {self.declarer})"
        lines.append(f"trump {trump} | talon {self.talon_size} | discard {self.discard.bit_count()}")
        if self.talon_known:
            lines.append("talon known: " + " ".join(f"{card_name(c)}@{d}" for d, c in self.talon_known))
        if self.seat is not None:
            lines.append(f"hand: {_names(self.hand)}")
        for s in range(self.players):
            state = "out" if s in self.out else f"{self.hand_sizes[s]} cards"
            lines.append(f"  {s}: {state}, known {_names(self.known[s])}")
        if self.led:
            beaten = dict(self.pairs)
            table = " ".join(
                f"{card_name(c)}/{card_name(beaten[c])}" if c in beaten else card_name(c) for c in cards_of(self.led)
            )
            lines.append(f"table: {table}")
        if self.sel:
            lines.append(f"choosing: {_names(self.sel)}")
        if self.phase == OVER:
            lines.append("result: " + ("stopped unfinished (M21)" if self.stopped else f"seat {self.loser} lost"))
        return "\n".join(lines)


def view_of(state: State, seat: int | None) -> View:
    """Return what ``seat`` can know of ``state``; ``None`` gives the spectator's view (M22).

    This is the only place where hidden information is filtered: what the
    seat knows comes from :func:`knowledge`, the rest is public.
    """
    n = state.n
    check_seat(seat, n)
    own, known, unseen, talon, sel, rem, used, pairs = knowledge(state, seat)
    tpos = state.tpos
    # The talon's known cards at their public depths.
    talon_known = tuple((depth, c) for depth, c in enumerate(state.talon[tpos:]) if talon >> c & 1) if talon else ()
    return View(
        # The fields every view has (ViewBase), by position:
        seat, state.rules, n, tuple(h.bit_count() for h in state.hands), state.dealer, state.phase, state.to_act,
        tuple(known), own, unseen,
        # The turn and the talon, public to all:
        attacker=state.attacker, defender=state.defender, limit=state.limit, turns=state.turns,
        talon_size=state.talon_size, talon_known=talon_known, revealed=state.revealed,
        trump=state.trump, trump_card=state.trump_card, declarer=state.declarer, declared=state.declared,
        led=state.led, discard=state.discard, out=state.out, loser=state.loser, stopped=state.stopped,
        # The seat's own action under way (empty in everybody else's view):
        sel=sel, rem=rem, used=used, pairs=pairs,
        history=state.history(),
    )
