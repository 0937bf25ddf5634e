"""What the other seats' play since the talon emptied says about their hands, for the search's dealt deals.

Once the talon is empty nothing is drawn, so a dealt deal fixes each seat's
hand at every turn since: taking the turns back
(:mod:`~mustamaija.games.mustamaija.takeback`) gives the position each of
those actions was chosen in. A deal in which the other seats played as the
heuristic player would have played from those hands is likelier than one in
which they did not. :class:`PlayEvidence` weighs a dealt deal by that: a
factor of :data:`MISS` for each action of another seat that the heuristic
would not have taken (with three or more seats holding cards; two holders
play their endgame exactly). :meth:`Evidence.dealer` turns any dealer
into one that keeps a deal with chance equal to its weight, drawing again
up to :data:`TRIES` times and keeping the heaviest deal drawn if none is
kept. The factor is not 0, so a seat that plays otherwise (a person, another
bot) leaves every deal possible, and the heaviest ones are those its play
fits best.

The beliefs model (:mod:`.beliefs`) weighs the cards while the talon lasts;
this takes over once it is empty, where the model deals uniformly.
:class:`TalonEvidence` reads the play while the talon lasts too, the draws
since dealt back at random (:mod:`~mustamaija.games.mustamaija.redraw`); it
gained nothing over the model (docs/strength.md), so the search kit leaves
it off unless asked (``MustamaijaKit.recent``). The
deal's view is the seat's, so nothing here reads a hidden card: the deals
are the search's guesses, and the actions are the public log.

>>> import random
>>> from mustamaija import State
>>> from mustamaija.players.registry import make_bot
>>> s = State.from_seed(players=4, seed=2)
>>> bots = [make_bot("heuristic", k) for k in range(4)]
>>> while s.talon_size:
...     s.apply(bots[s.to_act].act(s.view(s.to_act)))
>>> empty = s.turns
>>> while s.turns < empty + 3 or s.in_progress:  # Three turns with the talon empty.
...     s.apply(bots[s.to_act].act(s.view(s.to_act)))
>>> evidence = PlayEvidence.of(s.view(s.to_act))
>>> evidence is not None and evidence.weight(s) == 1.0  # The true deal: the heuristic played it.
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from mustamaija.games.mustamaija.players.heuristic import Weights, apply_plan, heuristic_agrees
from mustamaija.games.mustamaija.redraw import Redraw
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.takeback import Entry, Takeback, plans_of
from mustamaija.games.mustamaija.view import View

__all__ = ["FEW_TRIES", "MISS", "RECENT", "TALON_MISS", "TRIES", "Evidence", "PlayEvidence", "TalonEvidence"]

MISS: Final = 0.05
"""The factor of a deal's weight for each action of another seat the heuristic would not have taken.

On 1,000 positions of four-player games at the first lead after the talon emptied (docs/strength.md), the
search lost 98 with uniform deals, 80 with this factor (84 with 0.2, 79 with 0.01 in a first version), and 54
when it was shown the true deal."""

TRIES: Final = 40
"""Deals drawn at most for one kept deal."""

FEW_TRIES: Final = 4
"""Deals drawn at most for one kept deal once the evidence has shown that it explains the play poorly."""

RECENT: Final = 8
"""The log entries :class:`TalonEvidence` reads back, about: two rounds of four players."""

TALON_MISS: Final = 0.3
""":data:`MISS` while the talon lasts, where the draws dealt back make a deal explain the play less often."""


class Evidence:
    """What the other seats' play says of a dealt deal: its weight, and a dealer that draws deals by it."""

    def __init__(self, span: list[Entry], seat: int, weights: Weights | None, miss: float) -> None:
        self.seat = seat
        self.weights = weights or Weights()
        self.miss = miss
        self.plans = plans_of(span)
        """The span's actions as whole plans, oldest first."""

    def weight(self, deal: State, floor: float = 0.0, rng: random.Random | None = None) -> float:
        """Return ``deal``'s weight in [0, 1], or a value below ``floor`` once it is known to be below it."""
        raise NotImplementedError

    def _replay(self, s: State, span: list[Entry], floor: float) -> float:
        """Play ``span`` on ``s``, taken back to its start; return :attr:`miss` to the power of the others' misses.

        An action of another seat counts with three or more seats holding
        cards (two holders play their endgame exactly). The count stops once
        the weight is below ``floor``.
        """
        w = 1.0
        for (_, seat, _), plan in zip(span, self.plans, strict=True):
            if seat != self.seat and _holders(s) > 2 and not heuristic_agrees(s, plan, self.weights):
                w *= self.miss
                if w < floor:
                    return w
            apply_plan(s, plan)
        return w

    def dealer(self, draw: Callable[[random.Random], State], tries: int = TRIES) -> Callable[[random.Random], State]:
        """Return a dealer that keeps each deal of ``draw`` with chance equal to its weight (module docstring).

        When the evidence explains the play poorly (after :data:`FEW_TRIES`
        deals or more, fewer than one draw in :data:`TRIES` kept), the seats
        do not play as the heuristic does, and each deal then takes at most
        :data:`FEW_TRIES` draws: the cost of a search stays bounded whoever
        it plays against.
        """
        deals = 0
        drawn = 0
        kept = 0

        def deal(rng: random.Random) -> State:
            nonlocal deals, drawn, kept
            deals += 1
            limit = FEW_TRIES if deals > FEW_TRIES and kept * TRIES < drawn else tries
            best = None
            best_weight = -1.0
            for _ in range(limit):
                guess = draw(rng)
                drawn += 1
                u = rng.random()
                w = self.weight(guess, u, rng)
                if w >= u:
                    kept += 1
                    return guess
                if w > best_weight:
                    best, best_weight = guess, w
            assert best is not None  # At least one draw.
            return best

        return deal


class PlayEvidence(Evidence):
    """Weighs deals dealt from ``seat``'s view by the other seats' play since the talon emptied (module docstring)."""

    def __init__(self, back: Takeback, seat: int, weights: Weights | None = None, miss: float = MISS) -> None:
        super().__init__(back.span, seat, weights, miss)
        self.back = back

    def __reduce__(self) -> tuple[type[PlayEvidence], tuple[Takeback, int, Weights, float]]:
        """Pickle by the constructor's arguments, as in the pure build (a compiled class has no ``__dict__``)."""
        return PlayEvidence, (self.back, self.seat, self.weights, self.miss)

    @classmethod
    def of(cls, view: View, miss: float = MISS) -> PlayEvidence | None:
        """Return the evidence in ``view``'s log, or ``None`` when there is none to weigh deals by.

        None: the talon is not empty, every card's place is known (two
        players, or counting), no other seat has acted since the talon
        emptied, or a marriage may still be declared (V4: the heuristic's
        plan would declare it).
        """
        seat = view.seat
        if seat is None or view.talon_size or not view.unseen or (view.rules.trump == "marriage" and view.declarer == -1):
            return None
        back = Takeback.of(view.history.node, len(view.history), view.rules.hand_size, view.hand_sizes, 0)
        if back is None or all(entry[1] == seat for entry in back.span):
            return None
        return cls(back, seat, miss=miss)

    def weight(self, deal: State, floor: float = 0.0, rng: random.Random | None = None) -> float:
        """Return ``deal``'s weight: :attr:`miss` to the power of the others' actions the heuristic would not take.

        The count stops once the weight is below ``floor``: what it returns
        then is below ``floor``, and at least the full weight. ``rng`` is not
        read: nothing is drawn since the talon emptied.
        """
        return self._replay(self.back.rewind(deal), self.back.span, floor)


class TalonEvidence(Evidence):
    """Weighs deals dealt from ``seat``'s view by the other seats' last actions while the talon lasts.

    Each action is followed by its seat's draw (M12, M15), so a deal alone
    does not fix the hand an action was chosen from: :class:`~mustamaija.games.mustamaija.redraw.Redraw`
    deals the draws back at random, and the deal weighs :attr:`miss` to the
    power of the actions the heuristic would not have taken from the hands
    so found. A deal and its draws together are a uniform draw of the
    history, so weighing both weighs the deal rightly; the true deal of
    heuristic players no longer weighs 1 every time, only when its draws
    are dealt back as they were drawn, or differently where it does not
    matter to the play.
    """

    def __init__(self, back: Redraw, seat: int, weights: Weights | None = None, miss: float = TALON_MISS) -> None:
        super().__init__(back.span, seat, weights, miss)
        self.back = back

    def __reduce__(self) -> tuple[type[TalonEvidence], tuple[Redraw, int, Weights, float]]:
        """Pickle by the constructor's arguments, as in the pure build (a compiled class has no ``__dict__``)."""
        return TalonEvidence, (self.back, self.seat, self.weights, self.miss)

    @classmethod
    def of(cls, view: View, recent: int = RECENT, miss: float = TALON_MISS) -> TalonEvidence | None:
        """Return the evidence of the last ``recent`` or so entries of ``view``'s log, or ``None``.

        None: the talon is empty (:class:`PlayEvidence` reads that phase),
        fewer than three players, no unseen card, a marriage may still be
        declared (V4), the span cannot be taken back
        (:meth:`~mustamaija.games.mustamaija.redraw.Redraw.of`), or no other
        seat acted in it.
        """
        seat = view.seat
        if (seat is None or not view.talon_size or view.players < 3 or not view.unseen
                or (view.rules.trump == "marriage" and view.declarer == -1)):
            return None
        back = Redraw.of(view, recent)
        if back is None or all(entry[1] == seat for entry in back.span):
            return None
        return cls(back, seat, miss=miss)

    def weight(self, deal: State, floor: float = 0.0, rng: random.Random | None = None) -> float:
        """Return ``deal``'s weight with its draws dealt back by ``rng``; see :meth:`PlayEvidence.weight`."""
        return self._replay(self.back.rewind(deal, rng or random.Random(0)), self.back.span, floor)


def _holders(state: State) -> int:
    return sum(1 for h in state.hands if h)
