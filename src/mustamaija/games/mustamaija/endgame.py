"""Hand-over to the exact solver once two seats are left with cards and the talon is empty.

Then a seat's view holds the other hand completely (counting, M22), so the
position is fully known and :class:`~mustamaija.games.mustamaija.solver.Solver` can
answer exactly. :func:`endgame_step` returns the next step of a winning
line: a safe lead (card by card, in rising order, ``STOP`` to end it), or a
defence that keeps the defender safe (beater by beater in the engine's step
order). It returns ``None`` when the position is lost against best play,
when it is too big for the time a move may take, or when trumps may still
change (an undeclared marriage), so that the caller can search instead.

:func:`exact_plan` is the same hand-over for search playouts: a whole safe
action on a full :class:`~mustamaija.games.mustamaija.state.State`, with no
view built.

The solver is called through its public methods only: ``leads``,
``lead_safe``, ``defences``, ``resolve`` and ``after``. The install compiles
this module (docs/architecture.md#builds): the heuristic player and every
search playout ask it at each action of a small two-seat endgame.
"""

from __future__ import annotations

from itertools import islice
from typing import Final

from mustamaija.core.bits import popcount64
from mustamaija.core.cards import SUIT_MASKS
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import STOP
from mustamaija.games.mustamaija.rules import LEAD, Rules
from mustamaija.games.mustamaija.solver import Solver
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.view import View

__all__ = ["LOST", "MAX_SOLVER_CARDS", "EndgameSolver", "endgame_step", "exact_plan"]

MAX_SOLVER_CARDS: Final = 20
"""Positions with more cards left than this are searched instead of solved.

Endgames that arise in play solve in well under a second up to about 23
cards, but the worst positions (random hands split evenly) take seconds at
20 cards and a minute or more at 24, so the default stays at 20; the search
plays on until the position is small enough.
"""

_FALLBACK_LEADS: Final = 512
_FALLBACK_DEFENCES: Final = 2048

Pairs = tuple[tuple[int, int], ...]


class EndgameSolver:
    """Keeps one :class:`Solver` (and its tables) for the endgames of a game: the last rule set, trump and seat count asked for.

    A solver whose tables hold more than ``max_table`` positions is replaced by a fresh one, to bound the memory.
    """

    def __init__(self, max_cards: int = MAX_SOLVER_CARDS, max_table: int = 500_000) -> None:
        self.max_cards = max_cards
        self.max_table = max_table
        self._key: tuple[Rules, int, int] | None = None
        self._solver: Solver | None = None
        self.calls = 0

    def solver(self, rules: Rules, trump: int, players: int = 2) -> Solver:
        """Return the solver for ``players`` seats (two: a two-seat endgame) under ``rules`` and ``trump``."""
        key = (rules, trump, players)
        solver = self._solver
        if solver is None or self._key != key or len(solver.table) + len(solver.mtable) > self.max_table:
            solver = self._solver = Solver(rules, trump, players)
            self._key = key
        return solver

    def step(self, view: View) -> int | None:
        """Return the solver's step for ``view`` (see :func:`endgame_step`), or ``None``."""
        return endgame_step(view, self)

    def __reduce__(self) -> tuple[type[EndgameSolver], tuple[int, int]]:
        """Pickle as its limits alone, without the solver and its table.

        A search kit holding this cache goes to worker processes with every round, and the table stays behind
        (the compiled class has no ``__dict__`` to pickle either).
        """
        return EndgameSolver, (self.max_cards, self.max_table)


def applies(view: View) -> bool:
    """Return whether ``view`` is a two-holder, talon-empty position that the solver can take over."""
    if view.seat is None or not view.my_turn or view.talon_size:
        return False
    if view.rules.trump == "marriage" and view.declarer == -1:
        return False  # A marriage could still change the trumps; the solver does not model that.
    holders = [s for s in range(view.players) if view.hand_sizes[s]]
    if view.seat not in holders:
        return False
    if view.phase == LEAD:
        return len(holders) == 2
    # Defending: the attacker may have just gone out by leading their last cards.
    return len(holders) <= 2 and view.attacker != view.seat


def _two_seat_hands(view: View) -> tuple[tuple[int, int], int] | None:
    """Return (attacker's hand, defender's hand) and the hero's index (0 or 1) in that pair."""
    a, d, me = view.attacker, view.defender, view.seat
    assert me is not None
    other = d if me == a else a
    theirs = view.known[other]
    if view.unseen or theirs.bit_count() != view.hand_sizes[other]:
        return None  # Not fully known: should not happen with two holders and an empty talon.
    for s in range(view.players):
        if s not in (a, d) and view.hand_sizes[s]:
            return None
    if me == a:
        return (view.hand, theirs), 0
    return (theirs, view.hand), 1


def _lead_fits(lead: int, sel: int, limit: int) -> bool:
    """Return whether ``lead`` can still be chosen when ``sel`` has been chosen (same suit, ``sel`` its lowest cards)."""
    if not sel:
        return 0 < lead.bit_count() <= limit
    top = sel.bit_length() - 1
    return lead & ((2 << top) - 1) == sel and not lead & ~SUIT_MASKS[top // 13] and lead.bit_count() <= limit


def _next_lead_step(lead: int, sel: int) -> int:
    rest = lead & ~sel
    return (rest & -rest).bit_length() - 1 if rest else STOP


def endgame_step(view: View, cache: EndgameSolver) -> int | None:
    """Return the next step of a line that keeps ``view.seat`` safe, or ``None`` (see the module docstring)."""
    if not applies(view):
        return None
    pos = _two_seat_hands(view)
    if pos is None:
        return None
    hands, hero = pos
    if hands[0].bit_count() + hands[1].bit_count() + view.led.bit_count() > cache.max_cards:
        return None
    solver = cache.solver(view.rules, view.trump)
    cache.calls += 1
    if view.phase == LEAD:
        return _lead_step(view, solver, hands)
    return _defence_step(view, solver, hands, hero)


def _first_safe_lead(solver: Solver, hands: tuple[int, int], sel: int, limit: int, tried: set[int]) -> int | None:
    """Return the first lead, one per class in the solver's order, that fits ``sel`` and keeps the leader safe."""
    for lead in solver.leads(hands[0], hands[1], hands[1]):
        if _lead_fits(lead, sel, limit):
            tried.add(lead)
            if solver.lead_safe(hands, 0, lead, 0):
                return lead
    return None


def _first_safe_defence(solver: Solver, hands: tuple[int, int], avail: int, rem: int, led: int, fixed: Pairs,
                        hero: int) -> Pairs | None:
    """Return the pairs that, with ``fixed``, make the first defence of ``rem`` after which ``hero`` is safe."""
    for rest in islice(solver.defences(avail, rem, hands[0] | led), _FALLBACK_DEFENCES):
        # If the attacker went out by leading, resolve ends the deal and ``after`` checks the hero's hand.
        after, nxt = solver.resolve(hands, 0, 1, led, tuple(sorted(fixed + rest)))
        if solver.after(after, nxt, hero):
            return rest
    return None


def _lead_step(view: View, solver: Solver, hands: tuple[int, int]) -> int | None:
    sel = view.sel
    limit = min(view.limit, hands[1].bit_count())
    tried: set[int] = set()
    lead = _first_safe_lead(solver, hands, sel, limit, tried)
    if lead is not None:
        return _next_lead_step(lead, sel)
    if not sel:
        return None  # The solver's classes cover every lead: none is safe.
    # Part of a lead is chosen: look at every lead that extends it, not just one per class.
    for lead in islice(L.iter_leads(hands[0], limit), _FALLBACK_LEADS * 8):
        if lead not in tried and _lead_fits(lead, sel, limit) and solver.lead_safe(hands, 0, lead, 0):
            return _next_lead_step(lead, sel)
    return None


def _defence_step(view: View, solver: Solver, hands: tuple[int, int], hero: int) -> int | None:
    avail = view.hand & ~view.used
    cur = L.current_led(view.rem, avail, view.trump)
    if cur < 0:
        return STOP
    rest = _first_safe_defence(solver, hands, avail, view.rem, view.led, view.pairs, hero)
    if rest is None:
        return None
    for t, b in rest:
        if t == cur:
            return b
    return STOP


LOST: Final = -1
"""What :func:`exact_plan` returns when the seat to act cannot be made safe."""


def exact_plan(state: State, cache: EndgameSolver) -> int | tuple[tuple[int, int], ...] | None:
    """Return a whole action that keeps the seat to act safe in ``state``, :data:`LOST` or ``None``, for search playouts.

    The state must be at the start of an action. Like :func:`endgame_step`,
    it answers only two-holder, talon-empty positions of at most
    ``cache.max_cards`` cards with no marriage still to come (``None``
    otherwise): a lead (a card set) or a defence (its sorted ``(led,
    beater)`` pairs), the first safe one in the solver's order, or
    :data:`LOST` when there is none. Such a position stays in scope for the
    rest of the deal (the cards only leave play or change hands), and a seat
    that is lost stays lost while the other plays safe moves.
    """
    if state.talon_size or state.in_progress or (state.rules.trump == "marriage" and state.declarer == -1):
        return None
    hands = state.hands
    a, d = state.attacker, state.defender
    for s in range(state.n):
        if s != a and s != d and hands[s]:
            return None
    mine, theirs, led = hands[a], hands[d], state.led
    if (not mine and not led) or not theirs:
        return None
    if popcount64(mine) + popcount64(theirs) + popcount64(led) > cache.max_cards:
        return None
    solver = cache.solver(state.rules, state.trump)
    cache.calls += 1
    pair = (mine, theirs)
    if state.phase == LEAD:
        lead = _first_safe_lead(solver, pair, 0, min(state.limit, int(popcount64(theirs))), set())
        return LOST if lead is None else lead
    rest = _first_safe_defence(solver, pair, theirs, led, led, (), 1)
    return LOST if rest is None else tuple(sorted(rest))
