"""``mustamaija tournament``: bots play duplicate deals with seat rotation; loss rates or points with intervals.

``--bots`` lists one bot spec per seat, separated by commas. A spec is a
registered bot name, optionally with factory parameters separated by colons
(``name:key=value:key=value``), an outside bot named by its code
(``mybots:Eager``, importable from the current folder or ``PYTHONPATH``), and
``SPEC*K`` repeats a spec for K seats. A level (``easy``, ``medium``,
``hard``, ``expert``: docs/strength.md) stands for the game's bot of that
level, and the report names that bot::

    mustamaija tournament --players 4 --bots heuristic,random*3 --deals 2000 --jobs 2
    mustamaija tournament --players 2 --bots expert,hard --deals 500 --jobs 2

``--game`` chooses the game (its bots, its rules: ``--preset`` or ``--rules``
JSON); the report gives loss rates or mean points per deal, as the game
scores a deal. ``--backend ray`` plays the same games on a Ray cluster
(``--address``) or a local Ray instance, with the same results (docs/research.md)::

    mustamaija tournament --bots ismcts,heuristic*3 --deals 5000 --backend ray --address auto

``--out DIR`` keeps a journal of the results beside the records, and
``--resume`` goes on from it: a run stopped halfway (Ctrl-C, a lost
machine) plays only the deals it had not finished, and the same command
with more ``--deals`` extends a finished run. The report is the same as
that of one run of all the deals::

    mustamaija tournament --players 2 --bots expert,hard --deals 500 --out runs/eh --resume
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mustamaija.cli.options import add_game_arguments, game_rules
from mustamaija.cli.progress import deal_progress
from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import get_game
from mustamaija.players.levels import resolve_level


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "tournament",
        help="let bots play duplicate deals with seat rotation and report loss rates or points with 95%% intervals",
        description="Every deal is played once per rotation of the lineup through the seats, with the same deck "
        "(duplicate deals). Bot specs: NAME or NAME:key=value:key=value, or MODULE:CLASS for a bot of your own, "
        "one per seat, separated by commas; SPEC*K repeats a spec K times. A game where one seat loses reports "
        "loss rates with Wilson intervals; a game of penalty points reports mean points per deal.",
    )
    add_game_arguments(p)
    p.add_argument("--bots", default=None,
                   help="comma-separated bot specs or levels (easy, medium, hard, expert), one per seat, NAME*K for K "
                   "seats (default: the game's medium level, then random)")
    p.add_argument("--deals", type=int, default=200, help="number of deals, each played once per rotation (default 200)")
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    p.add_argument("--jobs", type=int, default=1,
                   help="worker processes (default 1), or CPUs of a local Ray instance; results do not depend on it")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="where to play: this machine (default) or Ray (needs mustamaija[ray]); results do not depend on it")
    p.add_argument("--address", default=None,
                   help="with --backend ray: the cluster to join ('auto', 'HOST:6379', 'ray://HOST:10001'); "
                   "default: start a local Ray instance")
    p.add_argument("--no-rotate", action="store_true", help="play each deal once, with the lineup as given")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write every game as a record file into DIR, and a journal of the results (games.jsonl)")
    p.add_argument("--resume", action="store_true",
                   help="go on with the run whose --out DIR this is: the deals its journal holds are not played "
                   "again; more --deals than it had extend it (the other settings must be the same)")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="draw every bot's figure with its interval (needs matplotlib)")
    p.set_defaults(run=run)


def _lineup(text: str | None, players: int, game: Game) -> list[str]:
    if text is None:
        return [game.levels.get("medium", "random")] + ["random"] * (players - 1)
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise MustamaijaError(f"bad --bots {text!r}: an empty bot spec")
        spec, star, count = part.rpartition("*")
        if star and count.strip().isdigit():
            out.extend([resolve_level(spec, game)] * int(count))
        else:
            out.append(resolve_level(part, game))
    return out


def run(args: argparse.Namespace) -> int:
    """Run the tournament and print its report."""
    if args.jobs < 1:
        raise MustamaijaError(f"--jobs must be at least 1, not {args.jobs}")
    if args.address is not None and args.backend != "ray":
        raise MustamaijaError("--address needs --backend ray")
    if args.resume and not args.out:
        raise MustamaijaError("--resume needs the --out DIR of the run to go on with")
    from mustamaija.players.registry import make_bot
    from mustamaija.tournament.report import plot, table_lines
    from mustamaija.tournament.runner import TournamentSettings, run_tournament

    game = get_game(args.game)
    rules, preset = game_rules(args, game)
    settings = TournamentSettings(
        players=args.players, bots=tuple(_lineup(args.bots, args.players, game)), game=game.name, rules=rules,
        deals=args.deals, seed=args.seed, rotate=not args.no_rotate, preset=preset,
    )
    for spec in dict.fromkeys(settings.bots):  # A bad spec fails before any process starts.
        make_bot(spec, 0, game)
    try:
        with deal_progress("tournament") as progress:
            result = run_tournament(settings, jobs=args.jobs, out_dir=args.out, progress=progress,
                                    backend=args.backend, address=args.address, resume=args.resume)
    except (KeyboardInterrupt, SystemExit):  # Ctrl-C, or SIGTERM (the local backend raises SystemExit for it).
        if args.out:
            print(f"stopped: the finished games are kept in {args.out}; the same command with --resume goes on "
                  "from them", file=sys.stderr)
        raise
    if args.plot:
        try:
            plot(result, args.plot)
        except ImportError:
            raise MustamaijaError("--plot needs matplotlib: pip install 'mustamaija[plot]'") from None
    if args.json:
        obj: dict[str, Any] = result.to_json()
        if args.out:
            obj["out"] = args.out
        if args.plot:
            obj["plot"] = args.plot
        print(json.dumps(obj))
        return 0
    for line in table_lines(result):
        print(line)
    if args.out:
        print(f"records written to {args.out}")
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0
