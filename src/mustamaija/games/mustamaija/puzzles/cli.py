"""``mustamaija puzzle`` for Mustamaija: list the endgame puzzles, check a first lead, or play them in the terminal.

The command line itself (:mod:`mustamaija.cli.puzzle`) is the same for every
game; it finds this module through the Mustamaija terminal table.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mustamaija.core.cards import parse_cards
from mustamaija.core.errors import IllegalActionError, MustamaijaError
from mustamaija.games.mustamaija.actions import Lead
from mustamaija.games.mustamaija.puzzles import LEVELS, PuzzleGame, load_puzzles, refutation_text

__all__ = ["run"]


def _mine(paths: list[str], out: str | None, count: int | None = None) -> int:
    """Find puzzles in the records at ``paths`` (files or folders); print or write the puzzle file."""
    from mustamaija.cli.replay import load_record
    from mustamaija.games.mustamaija.puzzles.maker import dumps
    from mustamaija.games.mustamaija.puzzles.mining import mine

    files: list[Path] = []
    for path in map(Path, paths):
        files.extend(sorted(path.rglob("*.json")) if path.is_dir() else [path])
    records, skipped = [], 0
    for file in files:
        try:
            game, record = load_record(str(file))
        except MustamaijaError:
            skipped += 1  # Not a record (a summary, a puzzle file): nothing to mine.
            continue
        if game.name == "mustamaija":
            records.append(record)
        else:
            skipped += 1
    puzzles = mine(records, count=count)
    text = dumps(puzzles)
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    levels = ", ".join(f"{sum(p.level == level for p in puzzles)} {level}" for level in LEVELS)
    print(f"{len(puzzles)} puzzles ({levels}) from {len(records)} deals"
          + (f"; {skipped} files were not Mustamaija records" if skipped else "")
          + (f"; written to {out}" if out else ""), file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    """List, check, play or mine the puzzles (``args``: ``id``, ``level``, ``list``, ``answer``, ``position``, ``file``, ``mine``)."""
    if getattr(args, "mine", None):
        count = getattr(args, "count", None)
        if count is not None and count < 1:
            raise MustamaijaError(f"--count must be at least 1, not {count}")
        return _mine(args.mine, args.out, count)
    if getattr(args, "file", None):
        try:
            puzzles = load_puzzles(Path(args.file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise MustamaijaError(f"{args.file}: cannot read the puzzles ({e})") from None
    else:
        puzzles = load_puzzles()
    if args.level:
        if args.level not in LEVELS:
            raise MustamaijaError(f"unknown level {args.level!r} (levels: {', '.join(LEVELS)})")
        puzzles = [p for p in puzzles if p.level == args.level]
    index = None
    if args.id is not None:
        ids = [p.id for p in puzzles]
        key = args.id if args.id in ids else args.id.zfill(2)
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
    from mustamaija.games.mustamaija.puzzles.progress import Progress
    from mustamaija.games.mustamaija.puzzles.screen import PuzzleMenu, PuzzleScreen
    from mustamaija.tui.app import TableApp

    menu = PuzzleMenu(puzzles, Progress.load())
    screens = [menu] if index is None else [menu, PuzzleScreen(menu, index)]
    return int(TableApp(screens=screens).run() or 0)
