"""``mustamaija demo``: a complete deal between random players, printed turn by turn."""

from __future__ import annotations

import argparse
import random

from mustamaija.games.mustamaija.narrate import narrate
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.rules import PRESETS, Rules
from mustamaija.players.random import RandomPlayer


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("demo", help="play a complete deal between random players and print it turn by turn")
    p.add_argument("--players", type=int, default=4, help="number of seats (default 4)")
    p.add_argument("--preset", choices=list(PRESETS), default="standard", help="rule preset (default standard)")
    p.add_argument("--seed", type=int, default=None, help="seed for the shuffle and the players (default: random)")
    p.add_argument("--save", metavar="FILE", help="also write the deal's record to FILE")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play and print one deal."""
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    record = Record.from_seed(args.players, seed, Rules.preset(args.preset))
    state = record.start()
    players = [RandomPlayer(seed=seed * 31 + s) for s in range(args.players)]
    while not state.is_over:
        state.apply(players[state.to_act].act(state.view(state.to_act)))
    record = Record.from_state(state, seed=seed)
    for line in narrate(record):
        print(line)
    print(f"(seed {seed}: run 'mustamaija demo --seed {seed}' to see this deal again)")
    if args.save:
        record.dump(args.save)
        print(f"record written to {args.save}")
    return 0
