"""The ``mustamaija`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..errors import MustamaijaError
from . import bench, demo, replay


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="mustamaija",
        description="Mustamaija, the Finnish card game: play, replay, analyse and benchmark.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in (demo, replay, bench):
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
