"""``mustamaija solve FILE [--json]``: solve an endgame exactly, for a game that has an exact solver.

FILE is a position (or a game saved from one, or a position's one-line
text) or a record of a game whose search kit has an exact solver
(:class:`mustamaija.search.kit.ExactSolver`, from ``kit.solver()``); the
solver says which formats it reads and which positions it can solve,
naming the problem otherwise (see docs/formats.md). With ``--json`` the
solver's result object is printed; without it, the solver's account for
people. A game without a solver gets an error saying so.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mustamaija.core.errors import FormatError, MustamaijaError
from mustamaija.core.records import read_json


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("solve", help="solve an endgame exactly: can the seat to act make sure of the result?")
    p.add_argument("file", metavar="FILE",
                   help="a position (or its one-line text), or a record whose final position is an endgame the game's "
                        "solver takes (docs/formats.md)")
    p.add_argument("--json", action="store_true", help="print the docs/formats.md result object")
    p.set_defaults(run=run)


def solver_for(obj: object) -> Any:
    """Return the exact solver of the game a parsed position or record belongs to; raise naming the problem."""
    from mustamaija.core.registry import games

    solvers = [(game, game.search_kit().solver()) for game in games()]
    for _, solver in solvers:
        if solver is not None and solver.reads(obj):
            return solver
    for game, _ in solvers:
        if game.is_record(obj):
            raise MustamaijaError(f"{game.title} has no exact solver: solve reads only the games that have one")
    formats = [f for _, solver in solvers if solver is not None for f in solver.formats]
    found = obj.get("format") if isinstance(obj, dict) else None
    raise FormatError(f"unknown format {found!r}: expected {' or '.join(repr(f) for f in formats)}")


def run(args: argparse.Namespace) -> int:
    """Solve the file; print the result, or the error on standard error."""
    from mustamaija.cli.deals import is_position_text, load_deal

    try:
        try:
            data: bytes | None = Path(args.file).read_bytes()
        except OSError:
            data = None
        # A position's one-line text, in a file or given as it is, is read as a position (load_deal names a missing file).
        text = data is None or is_position_text(data)
        obj = load_deal(args.file)[1].to_json() if text else read_json(data or b"")
        solver = solver_for(obj)
        state = solver.load(obj)
        result = solver.solve(state)
    except MustamaijaError as e:
        print(f"{args.file}: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json()), flush=True)
    else:
        for line in solver.describe(state, result):
            print(line)
    return 0
