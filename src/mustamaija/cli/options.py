"""Options that several subcommands share: the game, the number of seats and the rules.

Every choice comes from the registry of games, so a game added by another
distribution is offered too.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_game_arguments(p)
>>> from mustamaija.core.registry import get_game
>>> args = p.parse_args(["--players", "3"])
>>> game = get_game(args.game)
>>> rules, preset = game_rules(args, game)
>>> preset == game.presets[0] and rules == game.make_rules()
True
>>> game_rules(p.parse_args(["--rules", "{}"]), game) == (game.rules_from_json({}), None)
True
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Final

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, game_names

__all__ = ["DEFAULT_PLAYERS", "add_game_arguments", "failed", "game_rules", "print_json"]


DEFAULT_PLAYERS: Final = 4
"""The seats of a deal when ``--players`` is not given."""


def add_game_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``--game``, ``--players`` and the rules (``--preset`` or ``--rules`` JSON) to a subcommand."""
    p.add_argument("--game", choices=game_names(), default=DEFAULT_GAME, help=f"the game to play (default {DEFAULT_GAME})")
    p.add_argument("--players", type=int, default=DEFAULT_PLAYERS, help=f"number of seats (default {DEFAULT_PLAYERS})")
    rules = p.add_mutually_exclusive_group()
    rules.add_argument("--preset", default=None, help="a named rule set of the game (default: its first)")
    rules.add_argument("--rules", metavar="JSON", default=None,
                       help="a rule set as a JSON object, or the name of a file holding one (keys as in records)")


def _rules_json(text: str) -> Any:
    source = text.strip()
    if not source.startswith("{"):
        try:
            with open(source, encoding="utf-8") as f:
                source = f.read()
        except OSError as e:
            raise MustamaijaError(f"--rules: cannot read {text!r}: {e.strerror or e}") from None
    try:
        return json.loads(source)
    except json.JSONDecodeError as e:
        raise MustamaijaError(f"--rules: not valid JSON: {e}") from None


def game_rules(args: argparse.Namespace, game: Game) -> tuple[Any, str | None]:
    """Return the rules the arguments ask for, and the preset they come from (``None`` for ``--rules`` JSON)."""
    if args.rules is not None:
        return game.rules_from_json(_rules_json(args.rules)), None
    preset = args.preset or game.presets[0]
    return game.make_rules(preset), preset


def failed(path: str, error: Exception) -> int:
    """Say on standard error why a file could not be handled, naming it; return the exit status 1."""
    print(f"{path}: {error}", file=sys.stderr)
    return 1


def print_json(obj: Any) -> int:
    """Print one JSON object on a line (``--json``); return the exit status 0."""
    print(json.dumps(obj), flush=True)
    return 0
