"""Mustamaija's ISMCTS players and what the generic tree search needs to know of the game.

The tree search itself is :mod:`mustamaija.search.ismcts`, the same for
every game (see there: determinise, select, expand, roll out, back up).
Mustamaija supplies, through its search kit
(:class:`~mustamaija.games.mustamaija.players.kit.MustamaijaKit`):

* the rollout policies of :mod:`.ismcts_policy` (:func:`rollout_policy`:
  ``fast``, ``random``, ``heuristic``) and rollouts cut after ``depth`` turns
  (a lead and its defence) by the fitted evaluation
  (:func:`~mustamaija.games.mustamaija.players.ismcts_policy.evaluate`);
  short rollouts ending in the evaluation beat full rollouts at equal time
  (docs/strength.md);
* the context of a decision (:func:`state_context`): the seat to act, the
  phase and, in a defence, the led card being answered (the same steps can
  lead to different contexts in different determinisations, for instance
  when a lead completes by itself because the leader holds no higher card of
  the suit);
* a fast sampler of the unseen cards (:class:`Determiniser`);
* the hand-over to the exact solver once two seats are left with cards and
  the talon is empty (:mod:`~mustamaija.games.mustamaija.endgame`).

:class:`ISMCTSPlayer` and :class:`OpenHandPlayer` are the generic players
bound to this game (the ``ismcts`` and ``open-hand`` bots).

>>> from mustamaija import State
>>> s = State.from_seed(players=3, seed=5)
>>> bot = ISMCTSPlayer(iters=200, seed=1)
>>> s.can_step(bot.act(s.view(s.to_act)))
True
>>> bot.stats["iterations"] >= 200
True
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any, Final

from mustamaija.core.cards import cards_of
from mustamaija.core.draws import shuffle
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.players.ismcts_policy import RolloutPolicy, fast_step, random_step
from mustamaija.games.mustamaija.sampling import sample_state
from mustamaija.games.mustamaija.state import DEFEND, OVER, State
from mustamaija.games.mustamaija.view import View
from mustamaija.search import ismcts as generic
from mustamaija.search.common import read_params, search_rate

__all__ = [
    "DEFAULT_C",
    "DEFAULT_DEPTH",
    "DEFAULT_ITERS",
    "DEFAULT_ROLLOUT",
    "ROLLOUTS",
    "Determiniser",
    "ISMCTSPlayer",
    "OpenHandPlayer",
    "iterations_per_second",
    "make_ismcts",
    "make_open_hand",
    "rollout_policy",
    "state_context",
]

DEFAULT_ITERS: Final = generic.DEFAULT_ITERS
DEFAULT_C: Final = generic.DEFAULT_C
DEFAULT_DEPTH: Final = 3
"""Rollout turns (a lead and its defence) before the evaluation takes over (0: play every rollout to the end).

Short rollouts ending in the fitted evaluation beat full rollouts at equal time (docs/strength.md)."""
DEFAULT_ROLLOUT: Final = "fast"
ROLLOUTS: Final = ("fast", "random", "heuristic", "auto")
"""The rollout policies by name; the first is the default."""

_POLICIES: dict[str, RolloutPolicy] = {}


# -- rollout policies ------------------------------------------------------------------


def rollout_policy(name: str) -> RolloutPolicy:
    """Return the rollout policy called ``name``: ``fast``, ``random``, or ``heuristic``.

    ``heuristic`` is :func:`mustamaija.games.mustamaija.players.heuristic.heuristic_step` when
    that module exists, else ``fast``; ``auto`` is the same as ``heuristic``.
    """
    if name == "fast":
        return fast_step
    if name == "random":
        return random_step
    if name in ("heuristic", "auto"):
        if "heuristic" not in _POLICIES:
            try:
                module = importlib.import_module("..players.heuristic", __package__)
            except ImportError:
                module = None
            step = getattr(module, "heuristic_step", None)
            _POLICIES["heuristic"] = _guarded(step) if callable(step) else fast_step
        return _POLICIES["heuristic"]
    raise ValueError(f"unknown rollout policy {name!r}: expected fast, random, heuristic or auto")


def _guarded(policy: Callable[[State, random.Random], int]) -> RolloutPolicy:
    """Wrap a policy from elsewhere: where its step is illegal (say, in a lead the tree began), use :func:`fast_step`."""

    def step(state: State, rng: random.Random) -> int:
        s = policy(state, rng)
        if s.__class__ is int and s >= 0 and state.legal_mask() >> s & 1:
            return s
        return fast_step(state, rng)

    step.__name__ = getattr(policy, "__name__", "policy") + "_guarded"
    return step


# -- determinisation -------------------------------------------------------------------


class Determiniser:
    """Deals the unseen cards of a view over the unknown places, uniformly: a fast :func:`sample_state`.

    The history and every public fact are copied from one state built by
    :func:`sample_state`; each :meth:`draw` only re-deals the unseen cards, in
    the same order as :func:`sample_state` (hands seat by seat, then the
    talon's unknown places top first), so for the same generator state both
    give the same deal.

    >>> from mustamaija import State
    >>> v = State.from_seed(players=4, seed=2).view(1)
    >>> d = Determiniser(v)
    >>> d.draw(random.Random(7)) == sample_state(v, random.Random(7))
    True
    """

    __slots__ = ("_base", "_fill", "_hands", "_pool", "_talon", "_unknown")

    def __init__(self, view: View) -> None:
        self._base = sample_state(view, random.Random(0))
        self._pool = cards_of(view.unseen)
        hands = list(view.known)
        if view.seat is not None:
            hands[view.seat] = view.hand
        self._hands = hands
        self._fill = [(s, view.hand_sizes[s] - hands[s].bit_count()) for s in range(view.players)]
        talon = [-1] * view.talon_size
        for depth, c in view.talon_known:
            talon[depth] = c
        self._talon = talon
        self._unknown = [i for i, c in enumerate(talon) if c < 0]

    def draw(self, rng: random.Random) -> State:
        """Return a new state with the unseen cards dealt at random."""
        pool = self._pool[:]
        shuffle(rng, pool)
        hands = self._hands[:]
        k = 0
        for s, need in self._fill:
            if need:
                h = hands[s]
                for c in pool[k:k + need]:
                    h |= 1 << c
                hands[s] = h
                k += need
        return self._state(hands, pool, k)

    def _state(self, hands: list[int], cards: list[int], k: int) -> State:
        """Return the state with ``hands`` dealt and the talon's unknown places filled from ``cards[k:]``, in order."""
        st = self._base.copy()
        st.hands = hands
        if self._unknown:
            talon = self._talon[:]
            for i in self._unknown:
                talon[i] = cards[k]
                k += 1
            st.talon = tuple(talon)
        st._legal = -1
        return st


# -- contexts -----------------------------------------------------------------------------


def _context(phase: int, to_act: int, rem: int, avail: int, trump: int) -> int:
    """Return the code of a decision's context: the seat to act, the phase, and the led card to answer."""
    if phase == DEFEND:
        return (to_act * 3 + 1) << 6 | (L.current_led(rem, avail, trump) + 1)
    return (to_act * 3 + phase) << 6


def state_context(st: State) -> int:
    """Return the context key of the decision in ``st`` (the key of a node's children in the tree)."""
    p = st.phase
    if p == OVER:
        return -1
    if p == DEFEND:
        d = st.defender
        return _context(p, d, st.rem, st.hands[d] & ~st.used, st.trump)
    return _context(p, st.attacker, 0, 0, 0)


# -- the players -----------------------------------------------------------------------------


class ISMCTSPlayer(generic.ISMCTSPlayer):
    """The ISMCTS search player (:class:`mustamaija.search.ismcts.ISMCTSPlayer`) of Mustamaija.

    Keyword arguments as there; ``rollout`` is one of :data:`ROLLOUTS`
    (default ``fast``) and ``depth`` defaults to :data:`DEFAULT_DEPTH`.
    """

    def __init__(self, **params: Any) -> None:
        super().__init__("mustamaija", **params)


class OpenHandPlayer(generic.OpenHandPlayer):
    """The same search on the true state (:class:`mustamaija.search.ismcts.OpenHandPlayer`) of Mustamaija."""

    def __init__(self, **params: Any) -> None:
        super().__init__("mustamaija", **params)


# -- measuring ---------------------------------------------------------------------------------


def iterations_per_second(players: int = 4, preset: str = "standard", iters: int = 2000, deals: int = 3,
                          **params: Any) -> float:
    """Return ISMCTS iterations per second of CPU time at the first decision of ``deals`` seeded deals.

    ``params`` go to :class:`ISMCTSPlayer` (``rollout``, ``depth``, ``c``...).
    CPU time of this process is used, so the figure is for one core even on
    a busy machine.

    >>> iterations_per_second(players=3, iters=50, deals=1, rollout="fast") > 0
    True
    """
    return search_rate(lambda seed: ISMCTSPlayer(iters=iters, seed=seed, reuse=False, **params), players, preset, deals,
                       "mustamaija")


# -- the bot registry --------------------------------------------------------------------------


PARAMS: Final = generic.PARAMS
"""The registry parameters of ``ismcts`` and ``open-hand``: their types and defaults."""


def make_ismcts(params: Mapping[str, Any], seed: int) -> ISMCTSPlayer:
    """Build an :class:`ISMCTSPlayer` from registry parameters (see :data:`PARAMS`)."""
    return ISMCTSPlayer(seed=seed, **read_params(params, PARAMS, "ismcts"))


def make_open_hand(params: Mapping[str, Any], seed: int) -> OpenHandPlayer:
    """Build an :class:`OpenHandPlayer` from the same parameters."""
    return OpenHandPlayer(seed=seed, **read_params(params, PARAMS, "open-hand"))
