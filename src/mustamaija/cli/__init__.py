"""The ``mustamaija`` command line."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.registry import game_names

# Every module of this package with an ``add_parser`` function is a subcommand; modules
# must import heavy dependencies inside ``run`` so that start-up stays quick.
_ORDER = ("play", "demo", "replay", "review", "solve", "hint", "tournament", "ratings", "serve", "loadtest", "bench")


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog=__name__.partition(".")[0],
        description=f"Card games to play, replay, analyse and benchmark ({', '.join(game_names())}).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = [m.name for m in pkgutil.iter_modules(__path__)]
    names.sort(key=lambda n: (_ORDER.index(n) if n in _ORDER else len(_ORDER), n))
    for name in names:
        module = importlib.import_module(f"{__name__}.{name}")
        if hasattr(module, "add_parser"):
            module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo", *(argv or [])])
    try:
        return int(args.run(args))
    except MustamaijaError as e:
        print(f"mustamaija {args.command}: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
