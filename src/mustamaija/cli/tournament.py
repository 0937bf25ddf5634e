"""``mustamaija tournament``: bots play duplicate deals with seat rotation; loss rates (or points) with intervals.

``--bots`` lists one bot spec per seat, separated by commas. A spec is a
registered bot name, optionally with factory parameters separated by colons
(``name:key=value:key=value``), and ``SPEC*K`` repeats a spec for K seats::

    mustamaija tournament --players 4 --bots heuristic,random*3 --deals 2000 --jobs 2

``--backend ray`` plays the same games on a Ray cluster (``--address``) or a
local Ray instance, with the same results (docs/research.md)::

    mustamaija tournament --bots ismcts,heuristic*3 --deals 5000 --backend ray --address auto

``--game black-maria`` plays Black Maria hands instead (its own bots and
rules) and reports each bot's average penalty points per hand::

    mustamaija tournament --game black-maria --players 4 --bots heuristic,random*3 --deals 2000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from mustamaija.core.errors import MustamaijaError
from mustamaija.games.mustamaija.rules import PRESETS, Rules


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "tournament",
        help="let bots play duplicate deals with seat rotation and report loss rates (Black Maria: penalty points) "
        "with 95%% intervals",
        description="Every deal is played once per rotation of the lineup through the seats, with the same deck "
        "(duplicate deals). Bot specs: NAME or NAME:key=value:key=value, one per seat, separated by commas; "
        "SPEC*K repeats a spec K times. Known Mustamaija bots: random, heuristic, and any registered by other "
        "modules; Black Maria bots: random, heuristic, pimc:samples=N. With --game black-maria every game is one "
        "hand and each bot's figure is its average penalty points per hand.",
    )
    p.add_argument("--game", choices=["mustamaija", "black-maria"], default="mustamaija",
                   help="the game to play (default mustamaija)")
    p.add_argument("--players", type=int, default=4, help="number of seats (default 4)")
    p.add_argument("--bots", default=None,
                   help="comma-separated bot specs, one per seat (default: heuristic, then random in the other seats)")
    rules = p.add_mutually_exclusive_group()
    rules.add_argument("--preset", choices=list(PRESETS), default=None,
                       help="Mustamaija rule preset (default standard)")
    rules.add_argument("--rules", metavar="JSON", default=None,
                       help="a rule set as a JSON object, or the name of a file holding one "
                       "(Black Maria keys: target_score, hands, allow_renege)")
    p.add_argument("--deals", type=int, default=200, help="number of deals, each played once per rotation (default 200)")
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    p.add_argument("--jobs", type=int, default=1,
                   help="worker processes (default 1), or CPUs of a local Ray instance; results do not depend on it")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="where to play: this machine (default) or Ray (needs mustamaija[rl]); results do not depend on it")
    p.add_argument("--address", default=None,
                   help="with --backend ray: the cluster to join ('auto', 'HOST:6379', 'ray://HOST:10001'); "
                   "default: start a local Ray instance")
    p.add_argument("--no-rotate", action="store_true", help="play each deal once, with the lineup as given")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--out", metavar="DIR", default=None, help="write every game as a record file into DIR")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="draw the loss rates (Black Maria: points per hand) with their intervals (needs matplotlib)")
    p.set_defaults(run=run)


def _lineup(text: str | None, players: int) -> list[str]:
    if text is None:
        return ["heuristic"] + ["random"] * (players - 1)
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise MustamaijaError(f"bad --bots {text!r}: an empty bot spec")
        spec, star, count = part.rpartition("*")
        if star and count.strip().isdigit():
            out.extend([spec.strip()] * int(count))
        else:
            out.append(part)
    return out


def _rules_json(args: argparse.Namespace) -> Any:
    text = args.rules.strip()
    if not text.startswith("{"):
        try:
            with open(text, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise MustamaijaError(f"--rules: cannot read {args.rules!r}: {e.strerror or e}") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise MustamaijaError(f"--rules: not valid JSON: {e}") from None
    return obj


def _rules(args: argparse.Namespace) -> tuple[Rules, str | None]:
    if args.rules is None:
        name = args.preset or "standard"
        return Rules.preset(name), name
    return Rules.from_json(_rules_json(args)), None


class _Bar:
    """A one-line progress bar on standard error."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.last < 0.2:
            return
        self.last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        width = 30
        filled = width * done // total
        bar = "#" * filled + "." * (width - filled)
        sys.stderr.write(f"\r[{bar}] {done}/{total} deals  {rate:6.1f} deals/s  eta {eta:5.0f} s ")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    """Run the tournament and print its report."""
    if args.jobs < 1:
        raise MustamaijaError(f"--jobs must be at least 1, not {args.jobs}")
    if args.address is not None and args.backend != "ray":
        raise MustamaijaError("--address needs --backend ray")
    if args.game == "black-maria":
        return _run_black_maria(args)
    from mustamaija.tournament.report import plot_loss_rates, table_lines
    from mustamaija.tournament.runner import TournamentSettings, run_tournament

    rules, preset = _rules(args)
    settings = TournamentSettings(
        players=args.players, bots=tuple(_lineup(args.bots, args.players)), rules=rules, deals=args.deals,
        seed=args.seed, rotate=not args.no_rotate, preset=preset,
    )
    # Build one of each bot now, so that a bad spec fails before any process starts.
    from mustamaija.players.registry import make_bot

    for spec in dict.fromkeys(settings.bots):
        make_bot(spec, 0)
    progress = _Bar() if sys.stderr.isatty() else None
    result = run_tournament(settings, jobs=args.jobs, out_dir=args.out, progress=progress, backend=args.backend,
                            address=args.address)
    return _report(args, result, plot_loss_rates, table_lines)


def _report(args: argparse.Namespace, result: Any, plot: Callable[[Any, str], object],
            lines: Callable[[Any], Iterable[str]]) -> int:
    """Draw the plot if asked, then print the result as JSON or as a table (either game's result and report)."""
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
    else:
        for line in lines(result):
            print(line)
        if args.out:
            print(f"records written to {args.out}")
        if args.plot:
            print(f"plot written to {args.plot}")
    return 0


def _run_black_maria(args: argparse.Namespace) -> int:
    """Run a Black Maria tournament and print its report (points per hand instead of loss rates)."""
    from mustamaija.games.black_maria.rules import Rules as BlackMariaRules
    from mustamaija.players.registry import make_bot
    from mustamaija.tournament.blackmaria import BlackMariaSettings, run_black_maria_tournament
    from mustamaija.tournament.points_report import plot_points, points_table_lines

    if args.preset is not None:
        raise MustamaijaError("--preset names a Mustamaija rule set; for Black Maria give --rules JSON")
    rules = BlackMariaRules() if args.rules is None else BlackMariaRules.from_json(_rules_json(args))
    settings = BlackMariaSettings(
        players=args.players, bots=tuple(_lineup(args.bots, args.players)), rules=rules, deals=args.deals,
        seed=args.seed, rotate=not args.no_rotate,
    )
    for spec in dict.fromkeys(settings.bots):  # A bad spec fails before any process starts.
        make_bot(spec, 0, game="black-maria")
    progress = _Bar() if sys.stderr.isatty() else None
    result = run_black_maria_tournament(settings, jobs=args.jobs, out_dir=args.out, progress=progress,
                                        backend=args.backend, address=args.address)
    return _report(args, result, plot_points, points_table_lines)
