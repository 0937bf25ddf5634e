"""``mustamaija puzzle`` for Mustamaija: list the endgame puzzles, check a first lead, or play them in the terminal.

The command line itself (:mod:`mustamaija.cli.puzzle`) is the same for every
game; it finds this module through the Mustamaija terminal table.
"""

from __future__ import annotations

import argparse
import json
import sys

from mustamaija.core.cards import parse_cards
from mustamaija.core.errors import IllegalActionError, MustamaijaError
from mustamaija.games.mustamaija.actions import Lead
from mustamaija.games.mustamaija.puzzles import LEVELS, PuzzleGame, load_puzzles, refutation_text

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """List, check or play the puzzles (``args``: ``id``, ``level``, ``list``, ``answer``, ``position``)."""
    puzzles = load_puzzles()
    if args.level:
        if args.level not in LEVELS:
            raise MustamaijaError(f"unknown level {args.level!r} (levels: {', '.join(LEVELS)})")
        puzzles = [p for p in puzzles if p.level == args.level]
    index = None
    if args.id is not None:
        ids = [p.id for p in puzzles]
        key = args.id.zfill(2)
        if key not in ids:
            raise MustamaijaError(f"no puzzle {args.id!r} (puzzles: {', '.join(ids)})")
        index = ids.index(key)
    if args.list:
        for p in puzzles:
            print(f"{p.id}  {p.level:<6}  {p.title}")
        return 0
    if args.position or args.answer is not None:
        if index is None:
            raise MustamaijaError("name the puzzle, such as: mustamaija puzzle 07 --answer '9H 4H'")
        puzzle = puzzles[index]
        if args.position:
            print(json.dumps(puzzle.position_json(), ensure_ascii=False))
            return 0
        game = PuzzleGame(puzzle)
        try:
            verdict = game.play(Lead(0, sum(1 << c for c in parse_cards(args.answer))))
        except IllegalActionError as e:
            raise MustamaijaError(str(e).replace("seat 0 does not hold", "you do not hold")) from None
        print(verdict.message)
        for line in refutation_text(verdict.refutation):
            print("  " + line)
        return 0 if verdict.ok else 1
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise MustamaijaError("puzzle needs a terminal (or use --list, --position or --answer)")
    from mustamaija.games.mustamaija.puzzles.screen import PuzzleMenu, PuzzleScreen
    from mustamaija.tui.app import TableApp

    menu = PuzzleMenu(puzzles)
    screens = [menu] if index is None else [menu, PuzzleScreen(menu, index)]
    return int(TableApp(screens=screens).run() or 0)
