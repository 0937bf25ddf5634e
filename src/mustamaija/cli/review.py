"""``mustamaija review RECORD [--json] [--iters N] [--worlds N] [--seed S] [--seat K] [--time SECONDS]``: a deal judged.

Every decision of a record of any game is judged and marked. The record's
game is found by its format (:func:`~mustamaija.core.registry.game_for_record`),
as ``replay`` does. Each decision is judged from the acting seat's own view
only (:mod:`mustamaija.search.review`): the text lists every decision with
its mark, each seat's accuracy and a small chart of each seat's figure over
the deal; ``--json`` prints the review as one JSON object. The budget is
counted in playouts, so the same record, budget and seed give the same
review on every machine (``--time`` trades that for a cap on each decision).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable, Iterator

from mustamaija.cli.options import failed, print_json
from mustamaija.core.errors import MustamaijaError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    from mustamaija.search.review import DEFAULT_ITERS

    p = sub.add_parser("review", help="judge every decision of a deal record, from each acting seat's own view",
                       description="Review a deal record of any game, as a chess site's game analysis does: every "
                       "decision is judged against the best action found from the acting seat's view (the game's "
                       "exact solver where it settles the position, else PIMC), marked best, inaccuracy, mistake "
                       "or blunder, and summed up as each seat's accuracy.")
    p.add_argument("file", metavar="RECORD", help="a game record of any game (docs/formats.md)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--iters", type=int, default=DEFAULT_ITERS, metavar="N",
                   help=f"playouts of the search for the best action at each decision (default {DEFAULT_ITERS})")
    p.add_argument("--worlds", type=int, default=None, metavar="N",
                   help="worlds in which the played and the best actions are played out side by side "
                        "(default: half of --iters)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the searches (default 0)")
    p.add_argument("--seat", type=int, action="append", default=None, metavar="K",
                   help="review only this seat's decisions (repeatable; default: every seat)")
    p.add_argument("--time", type=float, default=None, metavar="SECONDS",
                   help="at most this many seconds a decision (the review then depends on the machine's speed)")
    p.set_defaults(run=run)


@contextlib.contextmanager
def _progress(what: str) -> Iterator[Callable[[int, int], None] | None]:
    """Yield ``progress(done, total)`` drawing a bar of decisions on standard error, or ``None`` when it is no terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    with Progress(TextColumn(f"[bold]{what}"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
                  TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(), console=Console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task(what, total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield progress


def run(args: argparse.Namespace) -> int:
    """Print the review, or the error on standard error."""
    from mustamaija.cli.replay import load_record
    from mustamaija.search.review import describe_review, review

    start = time.perf_counter()
    try:
        game, record = load_record(args.file)
        with _progress("review") as progress:
            result = review(game, record, iters=args.iters, worlds=args.worlds, seed=args.seed, seats=args.seat,
                            seconds=args.time, progress=progress)
    except MustamaijaError as e:
        return failed(args.file, e)
    if args.json:
        return print_json(result.to_json())
    for line in describe_review(result, title=f"{args.file} ({game.title})", names=record.seat_names()):
        print(line)
    print(f"\nReviewed in {time.perf_counter() - start:.1f} s.")
    return 0
