"""What a game tells the generic searches: :class:`BasicKit`, the defaults of the search-kit protocol, and exact solvers.

The searches of this package (:mod:`~mustamaija.search.pimc`,
:mod:`~mustamaija.search.ismcts`, :mod:`~mustamaija.search.hints`) run on
the game protocol alone; what only a game knows comes from its *search kit*
(:class:`~mustamaija.core.protocol.SearchKit`, from ``game.search_kit()``).
:class:`BasicKit` gives every member a default that needs nothing but the
protocol: every legal step is a candidate "plan", playouts and rollouts take
uniformly random steps, and a finished deal is worth its
:meth:`~mustamaija.core.protocol.Game.returns` scaled to [0, 1]. A game
subclasses it and overrides what it knows better: its candidate actions, its
playout policy, its fast sampler, an exact endgame solver.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     kit = BasicKit(game)
...     s = game.deal(game.min_players, seed=1)
...     plans, preferred = kit.candidates(s.view(s.to_act))
...     kit.playout(s, random.Random(2))
...     print(plans == game.deal(game.min_players, seed=1).legal_actions(), preferred, s.is_over,
...           all(0 <= v <= 1 for v in kit.values(s)))
True 0 True True
True 0 True True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from mustamaija.core.protocol import Game

__all__ = ["BasicKit", "ExactSolver", "Guarded", "random_step", "scaled_returns"]


def random_step(state: Any, rng: random.Random) -> int:
    """Return a uniformly random legal step of ``state``."""
    mask: int = state.legal_mask()
    k = rng.randrange(mask.bit_count())
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


class Guarded:
    """A rollout policy that falls back to a random legal step where the policy's own step is illegal.

    A game's rule-of-thumb policy may not expect a part-done action it did
    not begin itself (the tree search begins actions step by step).
    """

    __slots__ = ("policy",)

    def __init__(self, policy: Callable[[Any, random.Random], int]) -> None:
        self.policy = policy

    def __call__(self, state: Any, rng: random.Random) -> int:
        step = self.policy(state, rng)
        if step.__class__ is int and step >= 0 and state.legal_mask() >> step & 1:
            return step
        return random_step(state, rng)


def scaled_returns(game: Game, state: Any) -> list[float]:
    """Return every seat's :meth:`~mustamaija.core.protocol.Game.returns` scaled from the game's utility range to [0, 1]."""
    lo, hi = game.utility_range(state.players, getattr(state, "rules", None))
    span = hi - lo if hi > lo else 1.0
    return [(r - lo) / span for r in game.returns(state)]


@runtime_checkable
class ExactSolver(Protocol):
    """A game's exact endgame analysis, for hints (a proven verdict per candidate) and the ``solve`` command."""

    formats: Sequence[str]
    """The JSON formats the ``solve`` command reads for this game (a position, a record...)."""

    def hint(self, game: Game, view: Any, force: bool, you: bool = False) -> Any:
        """Return a :class:`~mustamaija.search.hints.HintResult` with proven verdicts, or ``None``.

        With ``you`` its words are for the seat's player ("you", moves as they say them).

        ``None`` means the position is not one the solver settles (hidden cards,
        or too big for a hint's time); with ``force`` the solver is used whatever
        the size, and a position it cannot settle raises a ``MustamaijaError`` saying why.
        """

    def reads(self, obj: object) -> bool:
        """Return whether the ``solve`` command should hand this parsed JSON object to this solver."""

    def load(self, obj: object) -> Any:
        """Return the state to solve from a parsed JSON object; raise ``FormatError`` naming the problem."""

    def solve(self, state: Any) -> Any:
        """Return the solution of ``state``: an object with ``to_json()`` (docs/formats.md)."""

    def describe(self, state: Any, result: Any) -> list[str]:
        """Return a solution told for people, one line each."""


class BasicKit:
    """The search kit of a game that tells the searches nothing: every default of :class:`~mustamaija.core.protocol.SearchKit`.

    Subclass it and override what the game knows. Kits are handed to worker
    processes, so keep them picklable (no open files, no lambdas).
    """

    default_budget: Mapping[str, int] = {"iters": 300}
    playout_seeds = True
    rollouts: Sequence[str] = ("random",)
    default_depth = 0

    def __init__(self, game: Game) -> None:
        self.game = game
        self.beliefs = False
        """Whether :meth:`sampler` deals by the game's model of how players play: a kit with one sets it."""

    # -- PIMC ---------------------------------------------------------------------------

    def decision_seed(self, seed: int | None, rng: random.Random, view: Any) -> int | str:
        """Return the seed of one decision's search: the next number of the player's generator."""
        return rng.getrandbits(62)

    def sampler(self, view: Any) -> Callable[[random.Random], Any]:
        """Return a function dealing a state ``view`` cannot tell from the truth: :meth:`Game.sample` (uniform)."""
        return _Sampler(self.game, view)

    def fixed_step(self, view: Any, seed: int | None) -> int | None:
        """Return a step the search takes without searching (``None``: search): never, by default."""
        return None

    def candidates(self, view: Any) -> tuple[list[Any], int]:
        """Return the plans worth searching and the index of the preferred one: every legal step, the lowest preferred."""
        return view.legal_actions(), 0

    def plan_key(self, view: Any) -> Any:
        """Return what identifies the action a plan was made for (``None``: a plan is one step, nothing to keep)."""
        return None

    def plan_step(self, plan: Any, view: Any) -> int:
        """Return the next step of ``plan`` in ``view``: a plan is a step."""
        return int(plan)

    def apply(self, state: Any, plan: Any) -> None:
        """Take the whole of ``plan`` in ``state``: one step."""
        state.apply(plan)

    def playout(self, state: Any, rng: random.Random | None) -> None:
        """Play ``state`` to the end in place, every seat taking uniformly random steps."""
        r = rng if rng is not None else random.Random(0)
        while not state.is_over:
            state.apply(random_step(state, r))

    def playout_return(self, state: Any, rng: random.Random | None, seat: int) -> float:
        """Return ``seat``'s :meth:`~mustamaija.core.protocol.Game.returns` once :meth:`playout` has ended the deal.

        A game whose playouts can tell a seat's return before the end overrides this to stop there: PIMC and
        the hints ask one seat's return of every playout, so the rest of the deal is work for nothing.
        """
        self.playout(state, rng)
        return float(self.game.returns(state)[seat])

    def endgame(self, max_cards: int | None) -> Callable[[Any], int | None] | None:
        """Return the exact endgame hand-over for a player (a view in, a step or ``None`` out): none."""
        return None

    # -- ISMCTS -------------------------------------------------------------------------

    def policy(self, name: str) -> Callable[[Any, random.Random], int]:
        """Return the rollout policy called ``name`` (``random``)."""
        if name == "random":
            return random_step
        raise ValueError(f"unknown rollout policy {name!r}: expected {', '.join(self.rollouts)}")

    def rollout(self, name: str, depth: int) -> Callable[[Any, random.Random], list[float]]:
        """Return a rollout: play on with policy ``name`` to the end and return :meth:`values` (``depth`` is not used)."""
        return _Rollout(self, self.policy(name))

    def values(self, state: Any) -> list[float]:
        """Return every seat's value of a finished deal in [0, 1]: its returns scaled by the utility range."""
        return scaled_returns(self.game, state)

    def context(self, state: Any) -> Any:
        """Return what tells apart decisions reached by the same steps: the seat to act."""
        return state.to_act

    # -- exact analysis -----------------------------------------------------------------

    def solver(self) -> ExactSolver | None:
        """Return the game's exact solver for hints and ``solve``: none."""
        return None


class _Sampler:
    """``game.sample`` bound to a view, as a picklable object."""

    __slots__ = ("game", "view")

    def __init__(self, game: Game, view: Any) -> None:
        self.game = game
        self.view = view

    def __call__(self, rng: random.Random) -> Any:
        return self.game.sample(self.view, rng)


class _Rollout:
    """Play a policy to the end of the deal and return the kit's values."""

    __slots__ = ("kit", "policy")

    def __init__(self, kit: BasicKit, policy: Callable[[Any, random.Random], int]) -> None:
        self.kit = kit
        self.policy = policy

    def __call__(self, state: Any, rng: random.Random) -> list[float]:
        policy = self.policy
        while not state.is_over:
            state.apply(policy(state, rng))
        return self.kit.values(state)
