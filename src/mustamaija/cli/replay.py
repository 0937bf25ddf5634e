"""``mustamaija replay FILE... [--json]``: replay records, checking every action (FORMATS.md)."""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import FormatError
from ..formats.record import Record, state_to_json
from .narrate import narrate


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("replay", help="replay game records, checking every action against the rules")
    p.add_argument("files", nargs="+", metavar="FILE", help="record files (mustamaija-record/1)")
    p.add_argument("--json", action="store_true", help="print the final state of each file as one JSON line")
    p.add_argument("--tui", action="store_true",
                   help="step through the deal on screen (the default for one file when run in a terminal)")
    p.add_argument("--text", action="store_true", help="print the turn-by-turn account even in a terminal")
    p.set_defaults(run=run)


def _load(path: str) -> Record:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise FormatError(f"cannot read the file: {e.strerror or e}") from None
    return Record.loads(data)


def run(args: argparse.Namespace) -> int:
    """Replay each file; print its final state (``--json``) or its story; report failures on stderr.

    In a terminal, one file without ``--json`` or ``--text`` opens the interactive stepper.
    """
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.text
    if not args.json and len(args.files) == 1 and (args.tui or interactive):
        from ..tui.app import MustamaijaApp

        path = args.files[0]
        try:
            record = _load(path)
            record.replay()  # An illegal action is reported here, not on screen.
        except FormatError as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 1
        return int(MustamaijaApp(record=record, record_title=path).run() or 0)
    failed = False
    for path in args.files:
        try:
            record = _load(path)
            line = json.dumps(state_to_json(record.replay())) if args.json else "\n".join(narrate(record))
        except FormatError as e:
            print(f"{path}: {e}", file=sys.stderr)
            failed = True
            continue
        print(line, flush=True)
    return 1 if failed else 0
