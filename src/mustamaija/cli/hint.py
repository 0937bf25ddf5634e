"""``mustamaija hint FILE [--seat S] [--json]``: what to play in a record's or a position's last position, and why.

FILE is a record of any game (found by its format,
:func:`~mustamaija.core.registry.game_for_record`), a position of a game
that has positions, a game saved from one, or a position's one-line text
(read by ``--game``; see docs/formats.md). The hint uses only what the
seat can know (:mod:`mustamaija.search.hints`): for a position, what the
position makes public.
"""

from __future__ import annotations

import argparse

from mustamaija.cli.options import failed, print_json
from mustamaija.core.errors import MustamaijaError
from mustamaija.core.registry import game_names
from mustamaija.search.hints import METHODS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("hint", help="say what to play in a record's or a position's last position, and why (from one "
                                    "seat's view)")
    p.add_argument("file", metavar="FILE",
                   help="a game record of any game, a position (or a game saved from one), or a position's one-line "
                        "text (docs/formats.md)")
    p.add_argument("--game", choices=game_names(), default=None,
                   help="the game of a position's one-line text (default: the default game)")
    p.add_argument("--seat", type=int, default=None, help="the seat to advise (default: the seat to act)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--method", choices=METHODS, default="auto",
                   help="auto (default): the game's exact solver when it settles the position, else pimc; pimc: the "
                        "PIMC search; sampled: every candidate played out in every sampled world; ismcts: the ISMCTS "
                        "search; solver: the exact solver only")
    p.add_argument("--iters", type=int, default=None,
                   help="search playouts (default 1000 for pimc, 4000 for ismcts), or sampled worlds with "
                        "--method sampled (default 60)")
    p.add_argument("--time", type=float, default=None, help="at most this many seconds (the result then depends on speed)")
    p.add_argument("--seed", type=int, default=0, help="seed of the search or sampling (default 0)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the hint, or the error on standard error."""
    from mustamaija.cli.deals import load_deal
    from mustamaija.search.hints import describe_candidates, hint, view_for

    try:
        # A position's talon of unknown order is shuffled with the seed: the seat's view is the same whatever the order.
        game, record = load_deal(args.file, seed=args.seed, game=args.game)
        view = view_for(game, record, args.seat)
        result = hint(game, view, method=args.method, iters=args.iters, seconds=args.time, seed=args.seed)
    except MustamaijaError as e:
        return failed(args.file, e)
    if args.json:
        return print_json(result.to_json())
    best = result.best
    print(f"Seat {result.seat} is to act ({result.phase}).")
    if best is not None:
        print(f"Hint: {best.words}.")
    print(result.text)
    print("Candidates:")
    for line in describe_candidates(result):
        print(line)
    return 0
