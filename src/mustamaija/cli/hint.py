"""``mustamaija hint RECORD [--seat S] [--json]``: what to play in a record's final position, and why.

The hint uses only what the seat can know (M22); see :mod:`mustamaija.games.mustamaija.analysis`.
"""

from __future__ import annotations

import argparse
import json
import sys

from mustamaija.core.errors import FormatError, MustamaijaError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("hint", help="say what to play in a record's final position, and why (from one seat's view)")
    p.add_argument("file", metavar="RECORD", help="a game record (mustamaija-record/1)")
    p.add_argument("--seat", type=int, default=None, help="the seat to advise (default: the seat to act)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--method", choices=("auto", "solver", "pimc", "ismcts", "sampled"), default="auto",
                   help="auto (default): the exact solver when the seat knows every hand (and the position is small), "
                        "else the search bot pimc; ismcts: the ISMCTS bot; sampled: every legal candidate played out "
                        "in sampled worlds")
    p.add_argument("--iters", type=int, default=None,
                   help="search playouts (default 1000 for pimc, 4000 for ismcts), or sampled worlds with "
                        "--method sampled (default 200)")
    p.add_argument("--time", type=float, default=None, help="at most this many seconds (the result then depends on speed)")
    p.add_argument("--seed", type=int, default=0, help="seed of the search or sampling (default 0)")
    p.add_argument("--max-candidates", type=int, default=None, help="candidates tried when sampling (default 24)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the hint, or the error on standard error."""
    from mustamaija.games.mustamaija.analysis import DEFAULT_MAX_CANDIDATES, describe_candidates, hint
    from mustamaija.games.mustamaija.record import Record

    try:
        try:
            with open(args.file, "rb") as f:
                data = f.read()
        except OSError as e:
            raise FormatError(f"cannot read the file: {e.strerror or e}") from None
        record = Record.loads(data)
        result = hint(record, seat=args.seat, iters=args.iters, time=args.time, seed=args.seed, method=args.method,
                      max_candidates=args.max_candidates or DEFAULT_MAX_CANDIDATES)
    except MustamaijaError as e:
        print(f"{args.file}: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json()), flush=True)
        return 0
    best = result.best
    role = "lead" if result.phase == "lead" else "defend"
    print(f"Seat {result.seat} is to {role}.")
    if best is not None:
        print(f"Hint: {best.words()}.")
    print(result.text)
    print("Candidates:")
    for line in describe_candidates(result):
        print(line)
    return 0
