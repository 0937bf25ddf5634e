"""The registry of games: the one place that knows which games exist.

The games that ship with mustamaija are listed in :data:`BUILTIN_GAMES`; a
game from another distribution registers through the ``mustamaija.games``
entry point group, whose value is the module that registers it (or a
``module:attribute`` naming a :class:`~mustamaija.core.protocol.Game`
object). Modules are imported on first look-up, so a command that plays one
game never imports the others.

>>> game_names()
['black-maria', 'mustamaija']
>>> get_game("black_maria").name, get_game("Black-Maria").title
('black-maria', 'Black Maria')
>>> get_game("bridge")
Traceback (most recent call last):
...
mustamaija.core.errors.UnknownGameError: unknown game 'bridge' (known games: black-maria, mustamaija)
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any, Final

from mustamaija.core.errors import UnknownGameError
from mustamaija.core.protocol import Game, protocol_members

__all__ = [
    "BUILTIN_GAMES", "DEFAULT_GAME", "ENTRY_POINT_GROUP", "game_for_position", "game_for_record", "game_names", "games",
    "get_game", "load_target", "register_game",
]

BUILTIN_GAMES: Final = {
    "mustamaija": "mustamaija.games.mustamaija.game",
    "black-maria": "mustamaija.games.black_maria.game",
}
"""The games of this package and the module that registers each."""

DEFAULT_GAME: Final = "mustamaija"
"""The game a command plays when none is named, and the game of a record that names none (docs/formats.md)."""

ENTRY_POINT_GROUP: Final = "mustamaija.games"
"""The entry point group through which other distributions add games."""

_GAMES: dict[str, Game] = {}
_MODULES: dict[str, str] = dict(BUILTIN_GAMES)
_scanned = False


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def register_game(game: object, *, replace: bool = False) -> Game:
    """Make ``game`` available to every layer under ``game.name``; return it."""
    if not isinstance(game, Game):
        missing = sorted(m for m in protocol_members(Game) if not hasattr(game, m))
        raise TypeError(f"{game!r} does not implement the game protocol (missing: {', '.join(missing)})")
    key = _key(game.name)
    if key in _GAMES and _GAMES[key] is not game and not replace:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[key] = game
    return game


def _scan_entry_points() -> None:
    global _scanned
    if _scanned:
        return
    _scanned = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        _MODULES.setdefault(_key(ep.name), ep.value)


def load_target(target: str, default: str = "") -> Any:
    """Return what a ``module:attribute`` target names (``attribute`` may be dotted; none: ``default``, or the module).

    The one way games name the pieces the layers load (entry points, renderers, puzzle services).

    >>> load_target("mustamaija.core.registry:load_target") is load_target, load_target("json", "dumps").__name__
    (True, 'dumps')
    """
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in (attr or default).split(".") if attr or default else ():
        obj = getattr(obj, part)
    return obj


def _load(key: str) -> Game | None:
    target = _MODULES.get(key)
    if target is None:
        return None
    obj = load_target(target)
    if ":" in target:  # A module alone registers its games as it is imported.
        register_game(obj)
    return _GAMES.get(key)


def game_names() -> list[str]:
    """Return the names of every game that can be loaded, sorted."""
    _scan_entry_points()
    return sorted(set(_GAMES) | set(_MODULES))


def get_game(name: str | Game) -> Game:
    """Return the game ``name`` (case, ``_`` and ``-`` do not matter), importing it on first use."""
    if not isinstance(name, str):
        return name
    key = _key(name)
    game = _GAMES.get(key)
    if game is None:
        _scan_entry_points()
        game = _load(key)
    if game is None:
        raise UnknownGameError(f"unknown game {name!r} (known games: {', '.join(game_names())})")
    return game


def games() -> list[Game]:
    """Return every game that can be loaded, sorted by name."""
    return [get_game(name) for name in game_names()]


def game_for_record(obj: object) -> Game:
    """Return the game a parsed record belongs to, by its ``format`` (then its ``game`` key)."""
    from mustamaija.core.errors import FormatError

    if not isinstance(obj, dict):
        raise FormatError("a record is a JSON object")
    for game in games():
        if game.is_record(obj):
            return game
    fmt = obj.get("format")
    if fmt is None and obj.get("game") is None:
        return get_game(DEFAULT_GAME)
    known = ", ".join(g.record_format for g in games())
    raise FormatError(f"unknown record format {fmt!r} (known formats: {known})")


def game_for_position(obj: object) -> Game | None:
    """Return the game whose positions (``game.positions()``) read a parsed JSON object; ``None`` if no game's do.

    A record is never a position, even for a game whose positions take objects without a ``format``.
    """
    for game in games():
        positions = game.positions()
        if positions is not None and positions.reads(obj) and not game.is_record(obj):
            return game
    return None
