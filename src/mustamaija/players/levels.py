"""Strength levels and bot labels, for every game: what the terminal game, the web lobby and hints offer.

A seat's bot is given as a *level* or as a bot spec of the registry
(``heuristic``, ``pimc:iters=1000``). Each game names the spec of every level
(:attr:`~mustamaija.core.protocol.Game.levels`); for the default game:

==========  =====================================================
level       bot
==========  =====================================================
``easy``    ``random``: a uniformly random legal move
``medium``  ``heuristic``: the strategy knowledge of docs/rules.md
``hard``    ``pimc:iters=250:time=2``: the search bot, 250 playouts an action
``expert``  ``pimc:iters=1500:time=4``: the search bot, 1,500 playouts an action
==========  =====================================================

Levels count playouts, not seconds, so that a level is as strong on a slow
or busy machine as on a fast one; the ``time`` after them is a wall-clock
cap for safety, which an idle machine never reaches.

>>> resolve_level("medium"), resolve_level("ismcts:iters=50"), resolve_level("search")
('heuristic', 'ismcts:iters=50', 'pimc')
>>> split_bots("easy, hard", 3)
['easy', 'hard']
>>> split_bots("medium", 4)
['medium', 'medium', 'medium']
>>> make_player("easy", seed=1).name
'random'
>>> seat_label(2, "hard"), seat_label(0, "pimc:iters=50")
('bot 2 · hard', 'bot 0 · pimc')
"""

from __future__ import annotations

from typing import Any, Final

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, get_game
from mustamaija.players import registry

__all__ = ["LEVEL_NAMES", "bot_choices", "describe_bot", "levels", "make_player", "resolve_level", "seat_label", "split_bots"]

LEVEL_NAMES: Final = ("easy", "medium", "hard", "expert")
"""The level names every game's :attr:`~mustamaija.core.protocol.Game.levels` fills in, weakest first."""

_ALIASES: Final = {"search": "pimc"}


def levels(game: str | Game = DEFAULT_GAME) -> dict[str, str]:
    """Return the levels of ``game`` and the bot spec of each, weakest first."""
    return dict(get_game(game).levels)


def resolve_level(spec: str, game: str | Game = DEFAULT_GAME) -> str:
    """Return the bot spec for a level or alias, or the spec itself."""
    text = spec.strip()
    low = text.lower()
    table = get_game(game).levels
    if low in table:
        return table[low]
    name, sep, rest = text.partition(":")
    return _ALIASES.get(name.lower(), name) + sep + rest


def split_bots(text: str, players: int) -> list[str]:
    """Split a comma-separated ``--bots`` value into one spec per other seat (a single spec serves them all).

    >>> split_bots("easy,medium,hard", 3)
    Traceback (most recent call last):
    ...
    mustamaija.core.errors.MustamaijaError: --bots names 3 bots, but 3 players need 2 (or name one bot for every seat)
    """
    parts = [p.strip() for p in text.split(",") if p.strip()]
    need = players - 1
    if not parts:
        raise MustamaijaError("--bots needs at least one bot, such as 'heuristic' or 'easy'")
    if len(parts) == 1:
        return parts * need
    if len(parts) != need:
        raise MustamaijaError(
            f"--bots names {len(parts)} bots, but {players} players need {need} (or name one bot for every seat)"
        )
    return parts


def make_player(spec: str, seed: int, game: str | Game = DEFAULT_GAME) -> Any:
    """Return a fair player of ``game`` for a level or bot spec; an open-hand bot is refused."""
    player = registry.make_bot(resolve_level(spec, game), seed, game)
    if registry.sees_all(player):
        raise MustamaijaError(f"bot {spec!r} sees every card: it cannot sit at a fair table")
    return player


def describe_bot(spec: str, game: str | Game = DEFAULT_GAME) -> str:
    """Return a short label for a level or spec, such as ``"hard · search 250 playouts"``.

    >>> describe_bot("hard"), describe_bot("heuristic"), describe_bot("pimc:samples=60")
    ('hard · search 250 playouts', 'heuristic', 'search 60 samples')
    >>> describe_bot("pimc:time=0.5")
    'search 0.5 s'
    """
    low = spec.strip().lower()
    resolved = resolve_level(spec, game)
    name, _, params = resolved.partition(":")
    label = "search" if name in ("pimc", "ismcts") else name
    items = dict(item.partition("=")[::2] for item in params.split(":")) if params else {}
    for key, value in items.items():
        if key == "time" and ("iters" in items or "samples" in items):
            continue  # Only a wall-clock cap: the playouts say how strong the bot is.
        words = {"time": "s", "samples": "samples", "iters": "playouts" if name == "pimc" else "iterations"}
        label += f" {value} {words[key]}" if key in words else f" {key}={value}"
    return f"{low} · {label}" if low in get_game(game).levels else label


def seat_label(seat: int, spec: str, game: str | Game = DEFAULT_GAME) -> str:
    """Return how a bot's seat is named to people: ``"bot 2 · hard"``, or the bot's name for a spec."""
    low = spec.strip().lower()
    if low in get_game(game).levels:
        return f"bot {seat} · {low}"
    return f"bot {seat} · {resolve_level(spec, game).partition(':')[0]}"


def bot_choices(game: str | Game = DEFAULT_GAME) -> list[tuple[str, str]]:
    """Return (label, spec) pairs for a bot menu: the levels, then the other fair bots that need no parameters."""
    table = get_game(game).levels
    out = [(f"{level} ({describe_bot(level, game).split(' · ')[1]})", level) for level in table]
    taken = {resolve_level(level, game).partition(":")[0] for level in table}
    for name in registry.bot_names(game):
        if name in taken:
            continue
        try:
            make_player(name, 0, game)
        except (MustamaijaError, ImportError, TypeError, ValueError):
            continue  # Open-hand bots and bots that need parameters are not offered.
        out.append((name, name))
    return out
