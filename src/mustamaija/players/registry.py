"""The bot registry: bot specs such as ``heuristic:seed=3``, for every game, and outside bots.

A *bot spec* names a bot and, optionally, parameters for its factory:
``name`` or ``name:key=value:key=value`` (parameters are separated by
colons, so that commas can separate the seats of a lineup). A value is read
as an int, a float, ``true``/``false`` or ``none`` when it looks like one,
else kept as a string.

>>> spec = parse_bot_spec("heuristic:q_spade=late:depth=2")
>>> spec.name, dict(spec.params), str(spec)
('heuristic', {'q_spade': 'late', 'depth': 2}, 'heuristic:depth=2:q_spade=late')
>>> make_bot("random", seed=1).name
'random'
>>> make_bot("nobody", seed=1)
Traceback (most recent call last):
...
mustamaija.core.errors.MustamaijaError: unknown ... bot 'nobody' (known bots: ...)

Where a bot comes from, in the order a name is looked up for a game:

1. bots registered with :func:`register_bot` for that game, or for every game;
2. the game's own bots (:meth:`~mustamaija.core.protocol.Game.bots`: its heuristic, its searches);
3. the bots of other distributions, through the ``mustamaija.players`` entry
   point group (the entry's name is the bot's name, its value the
   ``module:attribute`` of a factory or a player class);
4. a spec naming the code itself, ``module:Class`` or ``package.module:Class``
   (or a factory), then its parameters: ``mybots.eager:Eager:depth=2``. The
   module is imported by every process that plays, worker processes included,
   from the same ``sys.path`` as the command (its folder, ``PYTHONPATH``).

The uniformly random player is registered for every game. A factory takes
the spec's parameters (a dict) and a seed and returns a player: an object
with a ``name`` and ``act(view)`` returning a step, or a whole compound
action (see :mod:`mustamaija.players.whole`). A class is called with the
parameters as keywords, plus ``seed`` if its constructor takes one. A
factory or class with a ``games`` attribute serves only the games it names.

>>> from mustamaija.core.registry import games
>>> all({"heuristic", "pimc", "random"} <= set(bot_names(game)) for game in games())
True
>>> make_bot("mustamaija.players.random:RandomPlayer", seed=4).name
'random'

A player whose attribute ``sees_all`` is true is an *open-hand* bot (an upper
bound for experiments, never a fair player): game drivers such as the
tournament call its ``act_open(state)`` with the true state instead of
``act(view)``.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Final

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import BotFactory, Game
from mustamaija.core.registry import DEFAULT_GAME, get_game

__all__ = [
    "ENTRY_POINT_GROUP",
    "BotFactory",
    "BotSpec",
    "bot_description",
    "bot_names",
    "make_bot",
    "parse_bot_spec",
    "register_bot",
    "sees_all",
]

ENTRY_POINT_GROUP: Final = "mustamaija.players"
"""The entry point group through which other distributions add bots."""

_ANY: Final = "*"
_FACTORIES: dict[tuple[str, str], tuple[BotFactory, str]] = {}
_entry_points: dict[str, str] | None = None


def _check_name(name: str) -> None:
    if not name or not all(ch.isalnum() or ch in "-_." for ch in name):
        raise ValueError(f"bad bot name {name!r}: use letters, digits, '-', '_' and '.'")


def register_bot(name: str, factory: BotFactory, *, description: str = "", game: str | None = None,
                 replace: bool = False) -> None:
    """Register ``factory`` under ``name`` for ``game`` (every game when ``None``).

    Registering a taken name again needs ``replace=True``.
    """
    _check_name(name)
    key = (get_game(game).name if game is not None else _ANY, name)
    if key in _FACTORIES and not replace and _FACTORIES[key][0] is not factory:
        raise ValueError(f"a bot named {name!r} is already registered")
    _FACTORIES[key] = (factory, description)


def _outside() -> dict[str, str]:
    global _entry_points
    if _entry_points is None:
        _entry_points = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return _entry_points


def _import_module(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        # As ``python -m`` and uvicorn do, a module in the folder the command runs in can be named without
        # PYTHONPATH; the folder joins the search path, which worker processes inherit.
        here = os.getcwd()
        if e.name != module.partition(".")[0] or here in sys.path:
            raise
        sys.path.append(here)
        return importlib.import_module(module)


def _import(target: str) -> Any:
    module, _, attr = target.partition(":")
    try:
        obj: Any = _import_module(module)
        for part in attr.split(".") if attr else []:
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as e:
        raise MustamaijaError(f"cannot load bot {target!r}: {type(e).__name__}: {e}") from None
    return obj


def _serves(obj: Any, game: Game) -> bool:
    games = getattr(obj, "games", None)
    return games is None or any(get_game(g) is game for g in ([games] if isinstance(games, str) else games))


def _as_factory(obj: Any, where: str) -> BotFactory:
    """Return a (params, seed) factory for a player class or a factory function."""
    if inspect.isclass(obj):
        try:
            takes_seed = "seed" in inspect.signature(obj).parameters
        except (TypeError, ValueError):
            takes_seed = False

        def build(params: Mapping[str, Any], seed: int) -> Any:
            cls: Any = obj
            return cls(**params, seed=seed) if takes_seed else cls(**params)

        return build
    if callable(obj):
        return obj  # type: ignore[no-any-return]
    raise MustamaijaError(f"bot {where!r} is neither a player class nor a factory")


def _lookup(name: str, game: Game) -> tuple[BotFactory, str] | None:
    for key in ((game.name, name), (_ANY, name)):
        if key in _FACTORIES:
            return _FACTORIES[key]
    own = game.bots()
    if name in own:
        return own[name]
    target = _outside().get(name)
    if target is not None:
        obj = _import(target)
        if _serves(obj, game):
            return _as_factory(obj, target), (inspect.getdoc(obj) or "").partition("\n")[0]
    if ":" in name:
        obj = _import(name)
        if not _serves(obj, game):
            raise MustamaijaError(f"bot {name!r} does not play {game.title}")
        return _as_factory(obj, name), (inspect.getdoc(obj) or "").partition("\n")[0]
    return None


def bot_names(game: str | Game = DEFAULT_GAME) -> list[str]:
    """Return the names of the bots available for ``game``, sorted (outside bots included)."""
    g = get_game(game)
    names = {n for (owner, n) in _FACTORIES if owner in (_ANY, g.name)} | set(g.bots())
    for name, target in _outside().items():
        try:
            if _serves(_import(target), g):
                names.add(name)
        except MustamaijaError:
            continue  # A broken outside bot must not hide the others; it is reported when asked for.
    return sorted(names)


def bot_description(name: str, game: str | Game = DEFAULT_GAME) -> str:
    """Return the one-line description of a bot of ``game`` ("" for an unknown name)."""
    try:
        entry = _lookup(name, get_game(game))
    except MustamaijaError:
        return ""
    return entry[1] if entry else ""


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
    """A registered name, or ``package.module:Attribute`` for a bot named by its code."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """The factory's keyword parameters."""

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
    """Parse ``name[:key=value…]`` or ``module:Attribute[:key=value…]`` into a :class:`BotSpec`."""
    if not isinstance(text, str) or not text.strip():
        raise MustamaijaError(f"bad bot spec {text!r}: expected a bot name such as 'heuristic'")
    name, *items = text.strip().split(":")
    if items and "=" not in items[0] and ("." in name or items[0].isidentifier()):  # module:Attribute names code.
        name = f"{name}:{items.pop(0)}"
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


def make_bot(spec: str | BotSpec, seed: int, game: str | Game = DEFAULT_GAME) -> Any:
    """Return a fresh player of ``game`` for a spec (a :class:`BotSpec` or its text), seeded with ``seed``.

    A player reads one game's views; a bot that does not play ``game`` is an error naming it.
    """
    if isinstance(spec, str):
        spec = parse_bot_spec(spec)
    g = get_game(game)
    entry = _lookup(spec.name, g)
    if entry is None:
        raise MustamaijaError(f"unknown {g.title} bot {spec.name!r} (known bots: {', '.join(bot_names(g))})")
    try:
        player = entry[0](dict(spec.params), seed)
    except (TypeError, ValueError) as e:
        if isinstance(e, MustamaijaError):
            raise
        raise MustamaijaError(f"bot {str(spec)!r}: {e}") from None
    from mustamaija.players.whole import as_step_player

    return as_step_player(player, g, seed)  # A player of whole actions gives them a step at a time.


def sees_all(player: object) -> bool:
    """Return whether a player is an open-hand bot, to be given the true state (``act_open``)."""
    return bool(getattr(player, "sees_all", False))


def _random_factory(params: Mapping[str, Any], seed: int) -> Any:
    from mustamaija.players.random import RandomPlayer

    if params:
        raise ValueError(f"the random bot takes no parameters, got {', '.join(params)}")
    return RandomPlayer(seed=seed)


register_bot("random", _random_factory, description="a uniformly random legal step")

