"""``mustamaija demo``: a complete deal of any game between random players, printed turn by turn."""

from __future__ import annotations

import argparse
import random
import shlex

from mustamaija.cli.options import DEFAULT_PLAYERS, add_game_arguments, game_rules
from mustamaija.core.registry import DEFAULT_GAME, get_game


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("demo", help="play a complete deal between random players and print it turn by turn")
    add_game_arguments(p)
    p.add_argument("--seed", type=int, default=None, help="seed for the shuffle and the players (default: random)")
    p.add_argument("--save", metavar="FILE", help="also write the deal's record to FILE")
    p.set_defaults(run=run)


def again_command(args: argparse.Namespace, seed: int) -> str:
    """Return the command that deals and plays this deal again: the seed and every option that changes the deal.

    >>> p = argparse.ArgumentParser()
    >>> add_game_arguments(p)
    >>> print(again_command(p.parse_args(["--players", "3", "--rules", '{"max_lead": 2}']), 4))
    mustamaija demo --players 3 --rules '{"max_lead": 2}' --seed 4
    >>> again_command(p.parse_args([]), 7)
    'mustamaija demo --seed 7'
    """
    words = ["mustamaija", "demo"]
    if args.game != DEFAULT_GAME:
        words += ["--game", args.game]
    if args.players != DEFAULT_PLAYERS:
        words += ["--players", str(args.players)]
    if args.preset is not None:
        words += ["--preset", args.preset]
    if args.rules is not None:
        words += ["--rules", args.rules]
    return " ".join(shlex.quote(w) for w in [*words, "--seed", str(seed)])


def run(args: argparse.Namespace) -> int:
    """Play and print one deal."""
    from mustamaija.players.play import play_out
    from mustamaija.players.random import RandomPlayer

    game = get_game(args.game)
    rules, _ = game_rules(args, game)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    state = game.deal(args.players, seed, rules)
    play_out(state, [RandomPlayer(seed=seed * 31 + s) for s in range(args.players)])
    record = game.record_of(state, seed=seed)
    for line in game.narrate(record):
        print(line)
    print(f"(seed {seed}: run '{again_command(args, seed)}' to see this deal again)")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            f.write(record.dumps())
        print(f"record written to {args.save}")
    return 0
