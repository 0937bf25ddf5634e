"""``mustamaija demo``: a complete deal of any game between random players, printed turn by turn."""

from __future__ import annotations

import argparse
import random

from mustamaija.cli.options import add_game_arguments, game_rules
from mustamaija.core.registry import DEFAULT_GAME, get_game


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("demo", help="play a complete deal between random players and print it turn by turn")
    add_game_arguments(p)
    p.add_argument("--seed", type=int, default=None, help="seed for the shuffle and the players (default: random)")
    p.add_argument("--save", metavar="FILE", help="also write the deal's record to FILE")
    p.set_defaults(run=run)


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
    again = "" if game.name == DEFAULT_GAME else f" --game {game.name}"
    print(f"(seed {seed}: run 'mustamaija demo{again} --seed {seed}' to see this deal again)")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            f.write(record.dumps())
        print(f"record written to {args.save}")
    return 0
