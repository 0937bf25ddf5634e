"""Bots for the terminal game: strength levels, bot specs and safe fallbacks.

A seat's bot is given as a *level* or as a bot spec of the bot registry
(``heuristic``, ``ismcts:time=2``). The levels are:

==========  =====================================================
level       bot
==========  =====================================================
``easy``    ``random``: a uniformly random legal move
``medium``  ``heuristic``: the strategy knowledge of RULES.md
``hard``    ``pimc:time=0.5``: the search bot, half a second an action
``expert``  ``pimc:time=2``: the search bot, two seconds an action
==========  =====================================================

>>> resolve_level("medium"), resolve_level("ismcts:iters=50"), resolve_level("search")
('heuristic', 'ismcts:iters=50', 'pimc')
>>> split_bots("easy, hard", 3)
['easy', 'hard']
>>> split_bots("medium", 4)
['medium', 'medium', 'medium']
>>> make_player("easy", seed=1).name
'random'
"""

from __future__ import annotations

from typing import Final

from mustamaija.core.errors import MustamaijaError
from mustamaija.players.base import Player
from mustamaija.players.random import RandomPlayer

__all__ = ["LEVELS", "bot_choices", "describe_bot", "make_player", "resolve_level", "split_bots"]

LEVELS: Final = {
    "easy": "random",
    "medium": "heuristic",
    "hard": "pimc:time=0.5",
    "expert": "pimc:time=2",
}
"""Strength levels and the bot spec each stands for."""

_ALIASES: Final = {"search": "pimc"}
_LEVEL_FALLBACK: Final = {"pimc": "heuristic", "ismcts": "heuristic", "heuristic": "random"}


def resolve_level(spec: str) -> str:
    """Return the bot spec for a level or alias, or the spec itself."""
    text = spec.strip()
    low = text.lower()
    if low in LEVELS:
        return LEVELS[low]
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


def _registry_make(spec: str, seed: int) -> Player:
    try:
        from mustamaija.players import registry
    except ImportError:  # pragma: no cover - the registry ships with the package; this keeps old trees working.
        player = _builtin_make(spec, seed)
    else:
        player = registry.make_bot(spec, seed)
    if getattr(player, "sees_all", False):
        raise MustamaijaError(f"bot {spec!r} sees every card: it cannot sit at a fair table")
    return player


def _builtin_make(spec: str, seed: int) -> Player:  # pragma: no cover - used only without the registry
    name = spec.partition(":")[0]
    if name == "random":
        return RandomPlayer(seed=seed)
    if name == "heuristic":
        from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer

        return HeuristicPlayer(seed=seed)
    raise MustamaijaError(f"unknown bot {name!r} (known bots: random, heuristic)")


def make_player(spec: str, seed: int) -> Player:
    """Return a player for a level or bot spec.

    A level whose bot is not available (the search bot in an old
    installation, say) falls back to the next weaker bot; an explicit spec
    that cannot be built is an error naming it.
    """
    resolved = resolve_level(spec)
    is_level = spec.strip().lower() in LEVELS
    while True:
        try:
            return _registry_make(resolved, seed)
        except (MustamaijaError, ImportError):
            fallback = _LEVEL_FALLBACK.get(resolved.partition(":")[0])
            if not is_level or fallback is None:
                raise
            resolved = fallback


def describe_bot(spec: str) -> str:
    """Return a short label for a level or spec, such as ``"medium · heuristic"``.

    >>> describe_bot("hard"), describe_bot("heuristic")
    ('hard · search 0.5 s', 'heuristic')
    """
    low = spec.strip().lower()
    resolved = resolve_level(spec)
    name, _, params = resolved.partition(":")
    label = "search" if name in ("pimc", "ismcts") else name
    for item in params.split(":") if params else []:
        key, _, value = item.partition("=")
        label += f" {value} s" if key == "time" else f" {key}={value}"
    return f"{low} · {label}" if low in LEVELS else label


def bot_choices() -> list[tuple[str, str]]:
    """Return (label, spec) pairs for a bot menu: the levels, then other registered bots."""
    out = [(f"{level} ({describe_bot(level).split(' · ')[1]})", level) for level in LEVELS]
    try:
        from mustamaija.players.registry import bot_names
    except ImportError:  # pragma: no cover
        return out
    taken = {"random", "heuristic", "pimc"}
    for name in bot_names():
        if name in taken:
            continue
        try:
            _registry_make(name, 0)
        except (MustamaijaError, ImportError, TypeError, ValueError):
            continue  # Open-hand bots and bots that need parameters are not offered.
        out.append((name, name))
    return out
