"""``mustamaija play``: a match against bots in the terminal (a Textual app).

With no game options a setup screen opens; with any of ``--players``,
``--bots``, ``--preset``, ``--rule``, ``--seed`` or ``--load`` the match
starts at once::

    mustamaija play --players 4 --bots heuristic,heuristic,ismcts --preset standard --seed 7

``--game black-maria`` plays Black Maria (RULES.md Part 2) instead, at once::

    mustamaija play --game black-maria --players 5 --bots heuristic,pimc --seed 7 --target-score 50
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from mustamaija.core.errors import MustamaijaError
from mustamaija.games.mustamaija.rules import PRESETS, Rules


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("play", help="play a match against bots in the terminal",
                       description="Play Mustamaija (or, with --game black-maria, Black Maria) against bots in the "
                                   "terminal. Without game options a setup screen opens; with any of them the match "
                                   "starts at once.")
    p.add_argument("--game", choices=("mustamaija", "black-maria"), default="mustamaija",
                   help="the game (default mustamaija); black-maria starts at once")
    p.add_argument("--players", type=int, default=None, help="number of seats, you included (default 4)")
    p.add_argument("--bots", default=None, metavar="LIST",
                   help="bots for the other seats, clockwise from your left, comma-separated: a level (easy, medium, "
                        "hard, expert) or a bot spec (random, heuristic, ismcts:time=1); one name serves every seat "
                        "(default medium)")
    p.add_argument("--preset", choices=list(PRESETS), default=None, help="rule preset (default standard)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="set one rule option over the preset, such as hand_size=3 or trump=marriage (repeatable)")
    p.add_argument("--deals", type=int, default=None, help="deals in the match (default 5)")
    p.add_argument("--losses", type=int, default=None, help="end the match when a player has this many losses")
    p.add_argument("--seed", type=int, default=None, help="seed of the shuffles and bots (default: random)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--rated", action="store_true", help="a rated match: no undo and no hints")
    p.add_argument("--pace", type=float, default=0.8, metavar="SECONDS",
                   help="time each bot move stays on screen before the next (default 0.8; + and - change it)")
    p.add_argument("--hint-time", type=float, default=1.0, metavar="SECONDS", help="search time of a hint (default 1)")
    p.add_argument("--load", metavar="RECORD", help="resume a saved game (any record file) at its last position")
    p.add_argument("--autosave", default=None, metavar="FILE",
                   help="where Ctrl-C saves the game in progress (default ./mustamaija-autosave.json)")
    p.add_argument("--save-dir", default=None, metavar="DIR", help="also save every finished deal's record in DIR")
    p.add_argument("--setup", action="store_true", help="open the setup screen even with game options")
    bm = p.add_argument_group("Black Maria (--game black-maria)")
    bm.add_argument("--hands", type=int, default=None, help="hands in the game (default: play to the target score)")
    bm.add_argument("--target-score", type=int, default=None, metavar="P",
                    help="the game ends once a total reaches P (default 50, or none when --hands is given)")
    bm.add_argument("--renege", action="store_true", help="allow reneging, 10 points a renege at the end of the hand (B7)")
    p.set_defaults(run=run)


def _rules(args: argparse.Namespace) -> Rules:
    rules = Rules.preset(args.preset or "standard")
    changes: dict[str, Any] = {}
    for item in args.rule:
        key, sep, text = item.partition("=")
        if not sep:
            raise MustamaijaError(f"bad --rule {item!r}: write KEY=VALUE, such as hand_size=3")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        changes[key.strip()] = value
    return rules.replace(**changes) if changes else rules


def run(args: argparse.Namespace) -> int:
    """Open the game."""
    if args.game == "black-maria":
        return _run_black_maria(args)
    from mustamaija.players.levels import split_bots
    from mustamaija.tui.session import AUTOSAVE, GameSession, MatchConfig

    direct = any(v is not None for v in (args.players, args.bots, args.preset, args.seed, args.load)) or bool(args.rule)
    rules = _rules(args)
    players = args.players if args.players is not None else 4
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    deals = args.deals if args.deals is not None else (None if args.losses is not None else 5)
    session = None
    setup = None
    if args.load:
        bots = split_bots(args.bots, _players_of(args.load)) if args.bots else None
        session = GameSession.load(args.load, bots=bots, human=args.seat if args.seat else None, save_dir=args.save_dir)
    else:
        config = MatchConfig(players=players, rules=rules, bots=tuple(split_bots(args.bots or "medium", players)),
                             human=args.seat, deals=deals, max_losses=args.losses, seed=seed, rated=args.rated)
        config.validate()
        if direct and not args.setup:
            session = GameSession(config, save_dir=args.save_dir)
        else:
            setup = config
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise MustamaijaError("play needs a terminal (standard input and output must not be redirected)")
    from mustamaija.tui.app import MustamaijaApp

    app = MustamaijaApp(session=session, setup=setup, pace=max(0.0, args.pace), autosave=args.autosave or AUTOSAVE,
                        save_dir=args.save_dir, hint_seconds=args.hint_time)
    code = app.run()
    if app.exit_note:
        print(app.exit_note)
    return int(code or 0)


def _players_of(path: str) -> int:
    from mustamaija.games.mustamaija.record import Record

    return Record.load(path).players


def _run_black_maria(args: argparse.Namespace) -> int:
    from mustamaija.tui.bm_session import BM_AUTOSAVE, BmConfig, BmGame, new_seed

    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip()) if args.bots else None
    if args.load:
        game = BmGame.load(args.load, bots=bots, save_dir=args.save_dir)
    else:
        target = args.target_score if args.target_score is not None else (None if args.hands is not None else 50)
        config = BmConfig(players=args.players if args.players is not None else 4, bots=bots or ("medium",),
                          seed=args.seed if args.seed is not None else new_seed(), hands=args.hands,
                          target_score=target, renege=args.renege, human=args.seat)
        game = BmGame(config, save_dir=args.save_dir)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise MustamaijaError("play needs a terminal (standard input and output must not be redirected)")
    from mustamaija.tui.bm_app import BlackMariaApp

    app = BlackMariaApp(game, pace=max(0.0, args.pace), autosave=args.autosave or BM_AUTOSAVE, save_dir=args.save_dir)
    code = app.run()
    if app.exit_note:
        print(app.exit_note)
    return int(code or 0)
