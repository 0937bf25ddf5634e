"""``mustamaija puzzle``: a game's endgame puzzles, checked by its solver (for the games that have puzzles).

``mustamaija puzzle`` opens the puzzle list in the terminal; ``--list``
prints it; ``mustamaija puzzle 07 --answer "9H 4H"`` checks a first move
without opening the screen. The puzzles are the game's own, found through
its terminal table (``game.renderer("tui")``).
"""

from __future__ import annotations

import argparse
import importlib

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.registry import DEFAULT_GAME, game_names, get_game


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("puzzle", help="solve endgame puzzles checked by the exact solver",
                       description="Endgame puzzles: every card is known and you move first; find the move that "
                                   "makes sure you do not lose. The solver checks your answer and refutes a wrong "
                                   "first move.")
    p.add_argument("id", nargs="?", help="open (or check) this puzzle, such as 07")
    p.add_argument("--game", choices=game_names(), default=DEFAULT_GAME, help=f"the game (default {DEFAULT_GAME})")
    p.add_argument("--level", help="only puzzles of this level (easy, medium, hard)")
    p.add_argument("--list", action="store_true", help="print the puzzles and leave")
    p.add_argument("--answer", metavar="CARDS", help="check this first move (such as '9H 4H') and print the verdict")
    p.add_argument("--position", action="store_true", help="print the puzzle's position (docs/formats.md JSON) and leave")
    p.add_argument("--file", metavar="FILE", help="use the puzzles of this file (such as mined ones) instead of the game's own")
    p.add_argument("--mine", nargs="+", metavar="PATH",
                   help="find puzzles in played deals: record files, or folders of them (tournament --out, web exports); "
                        "print the puzzle file (or write it to --out) and leave")
    p.add_argument("--out", metavar="FILE", help="with --mine: write the puzzles to this file")
    p.add_argument("--count", type=int, metavar="N",
                   help="with --mine: keep N puzzles of evenly spread difficulty (default: every one found)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """List, check or play the puzzles of the game."""
    from mustamaija.tui.plugin import table_of

    game = get_game(args.game)
    target = table_of(game).puzzles if game.renderer("tui") else None
    if not target:
        raise MustamaijaError(f"{game.title} has no puzzles")
    module, _, attr = target.partition(":")
    puzzles = getattr(importlib.import_module(module), attr or "run")
    code: int = puzzles(args)
    return code
