"""Mustamaija's Monte Carlo search bots: ``pimc`` (views only) and ``open-hand-pimc``.

They are the generic PIMC players of :mod:`mustamaija.search.pimc` with
Mustamaija's search kit (:class:`~mustamaija.games.mustamaija.players.kit.MustamaijaKit`):
at the start of its action the player lists the heuristic's candidate
leads or defences, deals the cards it cannot see among the deals consistent
with its view (picked-up cards, revealed spades, the trump card's holder,
hand sizes) by how likely each is to be in each hand (the kit's model of
what players keep; ``beliefs=off``: uniformly), plays every candidate out on
the same sampled deals with every seat playing as the heuristic player does
(its own weights, a whole action at a time), spends the budget by
sequential halving, and plays its choice card by card. Two seats left with
cards and an empty talon hand over to the exact solver
(:mod:`~mustamaija.games.mustamaija.endgame`).

>>> from mustamaija import State
>>> s = State.from_seed(players=3, seed=5)
>>> bot = PIMCPlayer(iters=60, seed=1)
>>> s.can_step(bot.act(s.view(s.to_act)))
True
>>> 0 < bot.stats["iterations"] <= 60
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mustamaija.games.mustamaija.players.kit import DEFAULT_ITERS, playout
from mustamaija.search import pimc as generic
from mustamaija.search.common import PIMC_PARAMS, read_params, search_rate

__all__ = ["DEFAULT_ITERS", "OpenHandPIMCPlayer", "PIMCPlayer", "make_open_hand_pimc", "make_pimc", "playout",
           "playouts_per_second"]


class PIMCPlayer(generic.PIMCPlayer):
    """The PIMC search player (:class:`mustamaija.search.pimc.PIMCPlayer`) of Mustamaija.

    Budget: ``iters`` playouts, or ``time`` seconds, per decision (both: the
    first reached; neither: :data:`DEFAULT_ITERS`), or ``samples`` deals
    with every candidate on each. ``workers`` > 1 adds root parallelism;
    ``solver`` hands two-seat talon-empty endgames to the exact solver (up
    to ``solver_cards`` cards).
    """

    def __init__(self, **params: Any) -> None:
        super().__init__("mustamaija", **params)


class OpenHandPIMCPlayer(generic.OpenHandPIMCPlayer):
    """The same search on the true state (no sampling): an upper bound for experiments only; :meth:`act` raises."""

    def __init__(self, **params: Any) -> None:
        super().__init__("mustamaija", **params)


def playouts_per_second(players: int = 4, preset: str = "standard", iters: int = 600, deals: int = 5) -> float:
    """Return the search's playouts per second of CPU time at the first decision of ``deals`` seeded deals.

    CPU time of this process is used, so the figure is for one core even on a busy machine.

    >>> playouts_per_second(players=3, iters=30, deals=1) > 0
    True
    """
    return search_rate(lambda seed: PIMCPlayer(iters=iters, seed=seed), players, preset, deals, "mustamaija")


PARAMS: Final = PIMC_PARAMS
"""The registry parameters of ``pimc`` and ``open-hand-pimc``: their types and defaults."""


def make_pimc(params: Mapping[str, Any], seed: int) -> PIMCPlayer:
    """Build a :class:`PIMCPlayer` from registry parameters (see :data:`PARAMS`)."""
    return PIMCPlayer(seed=seed, **read_params(params, PARAMS, "pimc"))


def make_open_hand_pimc(params: Mapping[str, Any], seed: int) -> OpenHandPIMCPlayer:
    """Build an :class:`OpenHandPIMCPlayer` from the same parameters."""
    return OpenHandPIMCPlayer(seed=seed, **read_params(params, PARAMS, "open-hand-pimc"))
