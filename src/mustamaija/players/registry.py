"""The bot registry: names mapped to factories, and bot specs such as ``heuristic:seed=3``.

A *bot spec* names a registered bot and, optionally, parameters for its
factory: ``name`` or ``name:key=value:key=value`` (parameters are separated
by colons, so that commas can separate the seats of a lineup). A value is
read as an int, a float, ``true``/``false`` or ``none`` when it looks like
one, else kept as a string.

>>> spec = parse_bot_spec("heuristic:q_spade=late:depth=2")
>>> spec.name, dict(spec.params), str(spec)
('heuristic', {'q_spade': 'late', 'depth': 2}, 'heuristic:depth=2:q_spade=late')
>>> make_bot("random", seed=1).name
'random'
>>> make_bot("nobody", seed=1)
Traceback (most recent call last):
...
mustamaija.core.errors.MustamaijaError: unknown bot 'nobody' (known bots: ...)

A factory takes the spec's parameters (a dict) and a seed, and returns a
player: an object with a ``name`` and ``act(view) -> step``. Other modules add
their bots with :func:`register_bot` when they are imported; the modules of
:data:`PLUGIN_MODULES` are imported lazily the first time a name is looked
up, so that a search bot living in ``mustamaija.games.mustamaija.players.ismcts`` only needs::

    from mustamaija.players.registry import register_bot
    register_bot("ismcts", lambda params, seed: IsmctsPlayer(seed=seed, **params))

A player whose attribute ``sees_all`` is true is an *open-hand* bot (an upper
bound for experiments, never a fair player): game drivers such as the
tournament call its ``act_open(state)`` with the true state instead of
``act(view)``.

Each game has its own bots, since a bot reads one game's views. The
functions take ``game`` (:data:`GAMES`; ``"mustamaija"`` by default); Black
Maria's bots come from :mod:`mustamaija.games.black_maria.players`, whose specs
(``random``, ``heuristic``, ``pimc:samples=N``) are read the same way:

>>> bot_names(game="black-maria")
['heuristic', 'pimc', 'random']
>>> make_bot("pimc:samples=8", seed=2, game="black-maria").samples
8
>>> make_bot("heuristic", seed=1, game="hearts")
Traceback (most recent call last):
...
mustamaija.core.errors.MustamaijaError: unknown game 'hearts' (known games: mustamaija, black-maria)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, overload

from mustamaija.core.errors import MustamaijaError
from mustamaija.players.base import Player

if TYPE_CHECKING:
    from mustamaija.games.black_maria.players import Player as BlackMariaPlayer

__all__ = [
    "GAMES",
    "PLUGIN_MODULES",
    "BotFactory",
    "BotSpec",
    "bot_description",
    "bot_names",
    "make_bot",
    "parse_bot_spec",
    "register_bot",
    "sees_all",
]

BotFactory = Callable[[Mapping[str, Any], int], Player]
"""A function of (parameters, seed) returning a fresh player."""

GAMES: Final = ("mustamaija", "black-maria")
"""The games bots are registered for; ``"mustamaija"`` is the default everywhere."""

PLUGIN_MODULES: Final = ("mustamaija.games.mustamaija.players.ismcts", "mustamaija.games.mustamaija.players.pimc")
"""Modules imported on the first look-up, in which other bots register themselves (missing ones are skipped)."""

_FACTORIES: dict[str, tuple[BotFactory, str]] = {}
_plugin_errors: dict[str, str] = {}
_plugins_loaded = False


def register_bot(name: str, factory: BotFactory, *, description: str = "", replace: bool = False) -> None:
    """Register ``factory`` under ``name``; registering a taken name again needs ``replace=True``."""
    if not name or not all(ch.isalnum() or ch in "-_." for ch in name):
        raise ValueError(f"bad bot name {name!r}: use letters, digits, '-', '_' and '.'")
    if name in _FACTORIES and not replace and _FACTORIES[name][0] is not factory:
        raise ValueError(f"a bot named {name!r} is already registered")
    _FACTORIES[name] = (factory, description)


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for module in PLUGIN_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name is None or not module.startswith(e.name):
                _plugin_errors[module] = f"{type(e).__name__}: {e}"
        except Exception as e:  # A broken plugin must not break the other bots; it is reported on look-up.
            _plugin_errors[module] = f"{type(e).__name__}: {e}"


def _check_game(game: str) -> bool:
    """Return whether ``game`` is Black Maria; raise for a game that has no bots."""
    if game not in GAMES:
        raise MustamaijaError(f"unknown game {game!r} (known games: {', '.join(GAMES)})")
    return game == "black-maria"


_BLACK_MARIA_DESCRIPTIONS: Final = {
    "random": "a uniformly random legal card",
    "heuristic": "the strategy notes of RULES.md Part 2: pass and play by rules of thumb",
    "pimc": "Perfect Information Monte Carlo over sampled deals, finished by the heuristic (samples=N)",
}


def bot_names(game: str = "mustamaija") -> list[str]:
    """Return the names of the bots registered for ``game``, sorted."""
    if _check_game(game):
        from mustamaija.games.black_maria.players import BOTS

        return sorted(BOTS)
    _load_plugins()
    return sorted(_FACTORIES)


def bot_description(name: str, game: str = "mustamaija") -> str:
    """Return the one-line description of a bot of ``game`` ("" for an unknown name)."""
    if _check_game(game):
        return _BLACK_MARIA_DESCRIPTIONS.get(name.removeprefix("bm-"), "")
    _load_plugins()
    return _FACTORIES[name][1] if name in _FACTORIES else ""


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@dataclass(frozen=True)
class BotSpec:
    """A bot name and its factory parameters; ``str()`` gives the canonical spec (parameters sorted)."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        parts = [self.name]
        for key in sorted(self.params):
            value = self.params[key]
            shown = "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
            parts.append(f"{key}={shown}")
        return ":".join(parts)

    def __hash__(self) -> int:
        return hash(str(self))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BotSpec) and str(self) == str(other)


def parse_bot_spec(text: str) -> BotSpec:
    """Parse ``name`` or ``name:key=value:key=value`` into a :class:`BotSpec`."""
    if not isinstance(text, str) or not text.strip():
        raise MustamaijaError(f"bad bot spec {text!r}: expected a bot name such as 'heuristic'")
    name, *items = text.strip().split(":")
    params: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise MustamaijaError(f"bad bot spec {text!r}: parameters are written name:key=value:key=value")
        if key in params:
            raise MustamaijaError(f"bad bot spec {text!r}: parameter {key!r} is given twice")
        params[key] = _value(value.strip())
    return BotSpec(name.strip(), params)


@overload
def make_bot(spec: str | BotSpec, seed: int) -> Player: ...
@overload
def make_bot(spec: str | BotSpec, seed: int, game: Literal["mustamaija"]) -> Player: ...
@overload
def make_bot(spec: str | BotSpec, seed: int, game: Literal["black-maria"]) -> BlackMariaPlayer: ...
@overload
def make_bot(spec: str | BotSpec, seed: int, game: str) -> Player | BlackMariaPlayer: ...


def make_bot(spec: str | BotSpec, seed: int, game: str = "mustamaija") -> Player | BlackMariaPlayer:
    """Return a fresh player of ``game`` for a spec (a :class:`BotSpec` or its text), seeded with ``seed``.

    A Mustamaija player reads Mustamaija views, a Black Maria player Black Maria views; the two never mix.
    """
    if isinstance(spec, str):
        spec = parse_bot_spec(spec)
    if _check_game(game):
        return _make_black_maria_bot(spec, seed)
    _load_plugins()
    entry = _FACTORIES.get(spec.name)
    if entry is None:
        known = ", ".join(sorted(_FACTORIES))
        notes = "".join(f"; {m} could not be loaded ({err})" for m, err in _plugin_errors.items())
        raise MustamaijaError(f"unknown bot {spec.name!r} (known bots: {known}){notes}")
    try:
        return entry[0](dict(spec.params), seed)
    except (TypeError, ValueError) as e:
        if isinstance(e, MustamaijaError):
            raise
        raise MustamaijaError(f"bot {str(spec)!r}: {e}") from None


def _make_black_maria_bot(spec: BotSpec, seed: int) -> BlackMariaPlayer:
    from mustamaija.games.black_maria.players import make_bot as bm_make_bot

    return bm_make_bot(str(spec), seed=seed)


def sees_all(player: object) -> bool:
    """Return whether a player is an open-hand bot, to be given the true state (``act_open``)."""
    return bool(getattr(player, "sees_all", False))


def _random_factory(params: Mapping[str, Any], seed: int) -> Player:
    from mustamaija.players.random import RandomPlayer

    if params:
        raise ValueError(f"the random bot takes no parameters, got {', '.join(params)}")
    return RandomPlayer(seed=seed)


def _heuristic_factory(params: Mapping[str, Any], seed: int) -> Player:
    from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer

    return HeuristicPlayer(seed=seed, **params)


register_bot("random", _random_factory, description="a uniformly random legal step")
register_bot("heuristic", _heuristic_factory, description="rule-based play from the strategy knowledge of RULES.md")
