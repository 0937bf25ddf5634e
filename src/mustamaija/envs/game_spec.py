"""What the research adapters need to know about a game, and the registry of games they can serve.

The PettingZoo environment, the Gymnasium wrapper and the OpenSpiel game are
written once, against :class:`GameSpec`. A game plugs in with one small
module that describes its rules, its deal, its step space, its observation
encoding and its rewards, and registers itself with :func:`register_game`.

>>> spec = game_spec("mustamaija")
>>> spec.num_steps, spec.obs_size, spec.max_players
(57, 1056, 8)
>>> game_spec("bridge")
Traceback (most recent call last):
...
KeyError: "unknown game 'bridge' (known games: black_maria, mustamaija)"
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

__all__ = ["GameSpec", "GameState", "game_names", "game_spec", "register_game"]


@runtime_checkable
class GameState(Protocol):
    """The engine state the adapters drive: the card-at-a-time step API of ``State``."""

    @property
    def to_act(self) -> int:
        """Return the seat to act (-1 once over)."""

    @property
    def is_over(self) -> bool:
        """Return whether the deal is over."""

    def legal_mask(self) -> int:
        """Return the legal steps as a bit mask."""

    def apply(self, step: int) -> None:
        """Take one step in place."""

    def view(self, seat: int | None) -> Any:
        """Return what a seat can know."""

    def copy(self) -> Any:
        """Return an independent copy."""


class GameSpec(Protocol):
    """A game as the adapters see it; every method works from the rules, the state or a seat's view."""

    name: str
    """The short name used in environment ids and OpenSpiel game names."""
    long_name: str
    num_steps: int
    """The size of the fixed step (action) space."""
    obs_size: int
    """The length of the observation vector (sized for :attr:`max_players`)."""
    max_players: int
    min_players: int
    rule_defaults: Mapping[str, Any]
    """Every rule option with its default; each becomes an environment argument and an OpenSpiel parameter."""
    presets: Sequence[str]

    def make_rules(self, preset: str, overrides: Mapping[str, Any]) -> Any:
        """Return the rule set of ``preset`` with ``overrides`` applied, validated."""

    def check_players(self, rules: Any, players: int) -> None:
        """Raise ``ValueError`` naming the problem unless ``players`` can play these rules."""

    def new_deal(self, players: int, seed: int, rules: Any) -> GameState:
        """Deal a new deal from a seed (deck and dealer)."""

    def deal_from_deck(self, players: int, deck: Sequence[int], dealer: int, rules: Any) -> GameState:
        """Deal a new deal from an explicit deck, top card first, and a dealer."""

    def encode(self, view: Any, out: npt.NDArray[np.float32]) -> None:
        """Write the observation of ``view`` into ``out`` (zeroed, length :attr:`obs_size`)."""

    def returns(self, state: Any) -> list[float]:
        """Return every seat's reward for the deal (0 for all while it is not over)."""

    def truncated(self, state: Any) -> bool:
        """Return whether a deal that is over was stopped unfinished (no result: a truncation)."""

    def utility_range(self, players: int, rules: Any) -> tuple[float, float]:
        """Return the worst and the best reward of a deal."""

    def deck(self, players: int) -> int:
        """Return the mask of the cards dealt (the OpenSpiel game deals them one at a time)."""

    def resample(self, view: Any, seed: int) -> GameState:
        """Return a full state drawn uniformly among those ``view`` cannot tell apart (for search)."""

    def make_bot(self, spec: str, seed: int) -> Any:
        """Return a fresh bot of this game from a bot spec (``random``, ``heuristic``...): ``act(view) -> step``."""

    def step_text(self, view: Any) -> str:
        """Return what the view's text leaves out of an action being chosen step by step ("" if nothing)."""

    def history_text(self, view: Any) -> str:
        """Return the actions the view's seat has seen, oldest first, as one line."""

    def step_name(self, step: int) -> str:
        """Return a short readable name of a step."""

    def max_steps(self, players: int, rules: Any) -> int:
        """Return an upper bound on the number of steps of a deal."""


_GAMES: dict[str, GameSpec] = {}
_MODULES: dict[str, str] = {
    "mustamaija": "mustamaija.games.mustamaija.observation",
    "black_maria": "mustamaija.games.black_maria.observation",
}
"""Game modules imported on first look-up; each calls :func:`register_game`."""


def register_game(spec: GameSpec) -> None:
    """Make ``spec`` available to every adapter under ``spec.name``."""
    _GAMES[spec.name] = spec


def game_names() -> list[str]:
    """Return the names of the games the adapters can serve."""
    return sorted(set(_GAMES) | set(_MODULES))


def game_spec(name: str) -> GameSpec:
    """Return the spec of game ``name``, importing its module on first use."""
    if name not in _GAMES and name in _MODULES:
        importlib.import_module(_MODULES[name])
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r} (known games: {', '.join(game_names())})") from None
