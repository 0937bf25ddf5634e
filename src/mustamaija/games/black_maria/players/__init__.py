"""Black Maria players: a view goes in, one step comes out; and a small registry of bot specs.

>>> make_bot("heuristic").name, make_bot("pimc:samples=8", seed=2).samples
('heuristic', 8)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from mustamaija.core.errors import MustamaijaError
from mustamaija.games.black_maria.players.heuristic import HeuristicPlayer, heuristic_step
from mustamaija.games.black_maria.players.pimc import PimcPlayer
from mustamaija.games.black_maria.players.random import RandomPlayer
from mustamaija.games.black_maria.view import View

__all__ = ["BOTS", "HeuristicPlayer", "PimcPlayer", "Player", "RandomPlayer", "heuristic_step", "make_bot"]


@runtime_checkable
class Player(Protocol):
    """Something that chooses a legal step for the seat whose view it is given (views only)."""

    name: str

    def act(self, view: View) -> int:
        """Return a legal step for ``view.seat``."""
        ...


BOTS: dict[str, Callable[[dict[str, Any], int | None], Player]] = {
    "random": lambda params, seed: RandomPlayer(seed=seed),
    "heuristic": lambda params, seed: HeuristicPlayer(),
    "pimc": lambda params, seed: PimcPlayer(seed=seed, **params),
}
"""Bot factories of (parameters, seed) by name; ``bm-<name>`` is the spec the library-wide registry should use."""


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(text)
    except ValueError:
        return text


def make_bot(spec: str, seed: int | None = None) -> Player:
    """Return a fresh player from a spec ``name`` or ``name:key=value:…`` (an optional ``bm-`` prefix is ignored)."""
    name, *parts = spec.split(":")
    name = name.removeprefix("bm-")
    if name not in BOTS:
        raise MustamaijaError(f"unknown Black Maria bot {name!r} (known bots: {', '.join(BOTS)})")
    params = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep:
            raise MustamaijaError(f"bad bot parameter {part!r} in {spec!r}: expected key=value")
        params[key] = _value(value)
    try:
        return BOTS[name](params, seed)
    except TypeError as e:
        raise MustamaijaError(f"bad parameters for bot {name!r}: {e}") from None
