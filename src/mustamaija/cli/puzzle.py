"""``mustamaija puzzle``: endgame problems, checked by the exact solver.

``mustamaija puzzle`` opens the puzzle list in the terminal; ``--list``
prints it; ``mustamaija puzzle 07 --answer "9H 4H"`` checks a first lead
without opening the screen.
"""

from __future__ import annotations

import argparse
import json
import sys

from mustamaija.core.errors import IllegalActionError, MustamaijaError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("puzzle", help="solve endgame puzzles checked by the exact solver",
                       description="Endgame puzzles: you lead with every card known; make sure you are not the "
                                   "Mustamaija. The solver checks your answer and refutes a wrong first lead.")
    p.add_argument("id", nargs="?", help="open (or check) this puzzle, such as 07")
    p.add_argument("--level", choices=("easy", "medium", "hard"), help="only puzzles of this level")
    p.add_argument("--list", action="store_true", help="print the puzzles and leave")
    p.add_argument("--answer", metavar="CARDS", help="check this first lead (such as '9H 4H') and print the verdict")
    p.add_argument("--position", action="store_true", help="print the puzzle's position (FORMATS.md JSON) and leave")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """List, check or play the puzzles."""
    from mustamaija.core.cards import parse_cards
    from mustamaija.games.mustamaija.actions import Lead
    from mustamaija.tui.puzzles import PuzzleGame, load_puzzles, refutation_text

    puzzles = load_puzzles()
    if args.level:
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
    from mustamaija.tui.app import MustamaijaApp

    return int(MustamaijaApp(puzzles=puzzles, puzzle_index=index).run() or 0)
