"""``mustamaija replay FILE... [--json]``: replay records of any game, checking every action (docs/formats.md).

Each file is replayed by the game its ``format`` (or ``game``) key names
(:func:`~mustamaija.core.registry.game_for_record`; a record naming neither
is of the default game), so lists mixing games work. A deal played from a
position has no deck: it is saved as the position with its ``actions``
(docs/formats.md), and replayed from the position.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mustamaija.core.errors import FormatError
from mustamaija.core.protocol import Game
from mustamaija.core.records import read_json
from mustamaija.core.registry import game_for_position, game_for_record


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "replay", help="replay game records of any game, checking every action against the rules",
        description="Replay records, checking every action. Files may mix the record formats of every game "
        "(docs/formats.md); each is replayed by the game its format names.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="record files of any game")
    p.add_argument("--json", action="store_true", help="print the final state of each file as one JSON line")
    p.add_argument("--tui", action="store_true",
                   help="step through a deal on screen (the default for one file when run in a terminal), for a "
                   "game that has a terminal table; other records are told as text")
    p.add_argument("--text", action="store_true", help="print the turn-by-turn account even in a terminal")
    p.set_defaults(run=run)


def load_record(path: str) -> tuple[Game, Any]:
    """Read a record file of any game; return the game its ``format`` (or ``game``) key names and the record."""
    try:
        obj = read_json(Path(path).read_bytes())  # Bad JSON: a FormatError naming the parser's reason.
    except OSError as e:
        raise FormatError(f"cannot read the file: {e.strerror or e}") from None
    owner = game_for_position(obj)
    positions = owner.positions() if owner is not None else None
    if owner is not None and positions is not None:  # A deal played from a position (it replays as a record does).
        return owner, positions.load(obj)
    game = game_for_record(obj)
    return game, game.load_record(obj)


def replay_text(game: Game, record: Any, as_json: bool) -> str:
    """Return a replayed record's output: its docs/formats.md JSON object on one line, or its turn-by-turn account."""
    if as_json:
        return json.dumps(game.state_to_json(record.replay()))
    return "\n".join(game.narrate(record))  # An illegal action raises before any of the story is told.


def _step_through(game: Game, record: Any, title: str) -> int | None:
    """Open the terminal stepper on a record of a game with a terminal table; ``None`` for a game without one."""
    if game.renderer("tui") is None or not game.is_record(record.to_json()):  # The stepper shows dealt records.
        return None
    from mustamaija.tui.app import TableApp

    return int(TableApp(record=record, record_title=title).run() or 0)


def run(args: argparse.Namespace) -> int:
    """Replay each file; print its final state (``--json``) or its story; report failures on stderr.

    In a terminal, one file without ``--json`` or ``--text`` opens the interactive stepper, for a game that has one.
    """
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.text
    if not args.json and len(args.files) == 1 and (args.tui or interactive):
        path = args.files[0]
        try:
            game, record = load_record(path)
            record.replay()  # An illegal action is reported here, not on screen.
        except FormatError as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 1
        code = _step_through(game, record, path)
        if code is not None:
            return code
    failed = False
    for path in args.files:
        try:
            game, record = load_record(path)
            line = replay_text(game, record, args.json)
        except FormatError as e:
            print(f"{path}: {e}", file=sys.stderr)
            failed = True
            continue
        print(line, flush=True)
    return 1 if failed else 0
