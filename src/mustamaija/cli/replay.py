"""``mustamaija replay FILE... [--json]``: replay records of either game, checking every action (FORMATS.md).

Each file is dispatched on its ``format`` (or ``game``) key: a
``black-maria-record/1`` replays as Black Maria, anything else as a
Mustamaija record, so lists mixing both games work.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mustamaija.core.errors import FormatError
from mustamaija.games.black_maria import record as bm_record
from mustamaija.games.mustamaija.narrate import narrate
from mustamaija.games.mustamaija.record import Record, state_to_json

AnyRecord = Record | bm_record.Record


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "replay", help="replay game records (Mustamaija or Black Maria), checking every action against the rules",
        description="Replay records, checking every action. Files may mix mustamaija-record/1 and "
        "black-maria-record/1; each is replayed by the game its format names.",
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="record files (mustamaija-record/1 or black-maria-record/1)")
    p.add_argument("--json", action="store_true", help="print the final state of each file as one JSON line")
    p.add_argument("--tui", action="store_true",
                   help="step through a Mustamaija deal on screen (the default for one Mustamaija file when run "
                   "in a terminal); Black Maria records are always told as text")
    p.add_argument("--text", action="store_true", help="print the turn-by-turn account even in a terminal")
    p.set_defaults(run=run)


def load_record(path: str) -> AnyRecord:
    """Read a record file of either game, choosing the game by the record's ``format`` (or ``game``) key."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise FormatError(f"cannot read the file: {e.strerror or e}") from None
    try:
        obj: Any = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return Record.loads(data)  # Raises the Mustamaija loader's "not valid JSON" error.
    if bm_record.is_record(obj):
        return bm_record.Record.from_json(obj)
    return Record.from_json(obj)


def replay_line(record: AnyRecord, as_json: bool) -> str:
    """Return a replayed record's output: its FORMATS.md JSON object on one line, or its turn-by-turn account."""
    if isinstance(record, bm_record.Record):
        if as_json:
            return json.dumps(bm_record.replay_json(record))
        from mustamaija.games.black_maria.narrate import narrate as bm_narrate

        return bm_narrate(record)
    return json.dumps(state_to_json(record.replay())) if as_json else "\n".join(narrate(record))


def run(args: argparse.Namespace) -> int:
    """Replay each file; print its final state (``--json``) or its story; report failures on stderr.

    In a terminal, one Mustamaija file without ``--json`` or ``--text`` opens the interactive stepper.
    """
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.text
    if not args.json and len(args.files) == 1 and (args.tui or interactive):
        path = args.files[0]
        try:
            record = load_record(path)
            record.replay()  # An illegal action is reported here, not on screen.
        except FormatError as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 1
        if isinstance(record, Record):
            from mustamaija.tui.app import MustamaijaApp

            return int(MustamaijaApp(record=record, record_title=path).run() or 0)
    failed = False
    for path in args.files:
        try:
            line = replay_line(load_record(path), args.json)
        except FormatError as e:
            print(f"{path}: {e}", file=sys.stderr)
            failed = True
            continue
        print(line, flush=True)
    return 1 if failed else 0
