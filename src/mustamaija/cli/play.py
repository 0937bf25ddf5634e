"""``mustamaija play``: a match of any game of the registry against bots, in the terminal (a Textual app).

With no game options a setup screen opens, where the game is chosen too;
with any of ``--game``, ``--players``, ``--bots``, ``--preset``, a rule
(``--rule KEY=VALUE`` or the rule's own option), ``--deals``, ``--seed``,
``--load`` or ``--position`` the match starts at once::

    mustamaija play --players 4 --bots heuristic,heuristic,ismcts --preset standard --seed 7
    mustamaija play --game GAME --players 5 --bots heuristic,pimc --seed 7 --rule KEY=VALUE
    mustamaija play --position FILE_OR_TEXT --seat 1 --bots hard

``--position`` plays out one deal set up from a position of a game that
has positions (a file, or the one-line text of docs/formats.md, read by
``--game``); the person takes ``--seat``, by default the seat to act.

Every rule key of every registered game is also an option of its own
(``hand_size`` is ``--hand-size``; a rule ``allow_x`` that is true or
false is ``--x`` and ``--no-x``); the game's rules check the value.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from typing import Any

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, game_names, games, get_game

_RULE_DEST = "rule_option_"
"""The prefix of the argparse destinations of the rules' own options."""


def rule_options() -> Iterator[tuple[str, str, Any, list[str]]]:
    """Yield (rule key, option, default, titles of the games that have it) for every rule key of every game.

    >>> options = {key: option for key, option, _, _ in rule_options()}
    >>> all(option.startswith("--") for option in options.values())
    True
    """
    seen: dict[str, tuple[str, Any, list[str]]] = {}
    for game in games():
        for key, default in game.rule_defaults.items():
            if key in seen:
                seen[key][2].append(game.title)
                continue
            name = key.removeprefix("allow_") if isinstance(default, bool) else key
            seen[key] = ("--" + name.replace("_", "-"), default, [game.title])
    for key, (option, default, titles) in seen.items():
        yield key, option, default, titles


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    names = game_names()
    p = sub.add_parser("play", help="play a match against bots in the terminal",
                       description=f"Play a game ({', '.join(names)}) against bots in the terminal. Without game "
                                   "options a setup screen opens; with any of them the match starts at once.")
    p.add_argument("--game", choices=names, default=None, help=f"the game (default {DEFAULT_GAME}); starts at once")
    p.add_argument("--players", type=int, default=None, help="number of seats, you included (default 4)")
    p.add_argument("--bots", default=None, metavar="LIST",
                   help="bots for the other seats, clockwise from your left, comma-separated: a level (easy, medium, "
                        "hard, expert) or a bot spec of the game (random, heuristic, pimc:samples=40); one name serves "
                        "every seat (default medium)")
    p.add_argument("--preset", default=None, help="a named rule set of the game (default: its first)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="set one rule over the preset, such as hand_size=3 or target_score=100 (repeatable)")
    p.add_argument("--deals", type=int, default=None,
                   help="deals in the match, for a game whose rules do not set its length (default 5)")
    p.add_argument("--losses", type=int, default=None, help="end the match when a player has this many losses")
    p.add_argument("--seed", type=int, default=None, help="seed of the shuffles and bots (default: random)")
    p.add_argument("--seat", type=int, default=None,
                   help="your seat (default 0; with --position the seat to act; with --load the saved one)")
    p.add_argument("--rated", action="store_true", help="a rated match: no undo and no hints")
    p.add_argument("--pace", type=float, default=0.8, metavar="SECONDS",
                   help="time each bot move stays on screen before the next (default 0.8; + and - change it)")
    p.add_argument("--hint-time", type=float, default=2.0, metavar="SECONDS",
                   help="the most time a hint may search, a safety net: a hint is a fixed number of playouts, under "
                   "a second of a core (default 2; 0: no limit)")
    p.add_argument("--load", metavar="RECORD", help="resume a saved game (any record file, of any game) at its last position")
    p.add_argument("--position", metavar="FILE|TEXT",
                   help="play out one deal from a position: a position file (or a game saved from one) or a position's "
                        "one-line text (docs/formats.md); a talon of unknown order is shuffled with --seed")
    p.add_argument("--autosave", default=None, metavar="FILE",
                   help="where Ctrl-C saves the game in progress (default ./GAME-autosave.json)")
    p.add_argument("--save-dir", default=None, metavar="DIR", help="also save every finished deal's record in DIR")
    p.add_argument("--setup", action="store_true", help="open the setup screen even with game options")
    rules = p.add_argument_group("rules (each game checks its own; the same as --rule KEY=VALUE)")
    taken = {a for action in p._actions for a in action.option_strings}
    for key, option, default, titles in rule_options():
        if option in taken:
            continue
        where = " and ".join(titles)
        if isinstance(default, bool):
            rules.add_argument(option, dest=_RULE_DEST + key, action=argparse.BooleanOptionalAction, default=None,
                               help=f"rule {key} of {where} (default {str(default).lower()})")
        else:
            rules.add_argument(option, dest=_RULE_DEST + key, default=None, metavar="VALUE",
                               help=f"rule {key} of {where} (default {'none' if default is None else default})")
    p.set_defaults(run=run)


def _value(text: str) -> Any:
    if text.strip().lower() in ("none", "null"):
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def rule_changes(args: argparse.Namespace) -> dict[str, Any]:
    """Return the rule changes of ``--rule KEY=VALUE`` and of the rules' own options."""
    changes: dict[str, Any] = {}
    for item in args.rule:
        key, sep, text = item.partition("=")
        if not sep:
            raise MustamaijaError(f"bad --rule {item!r}: write KEY=VALUE, such as hand_size=3")
        changes[key.strip()] = _value(text)
    for dest, value in vars(args).items():
        if dest.startswith(_RULE_DEST) and value is not None:
            changes[dest.removeprefix(_RULE_DEST)] = value if isinstance(value, bool) else _value(value)
    return changes


def _options(args: argparse.Namespace, defaults: dict[str, int | None]) -> dict[str, int | None]:
    """Return the match settings asked for: naming any of them drops the other defaults (--losses alone: no deal limit)."""
    given = {k: v for k, v in (("deals", args.deals), ("max_losses", args.losses)) if v is not None}
    return {**dict.fromkeys(defaults), **given} if given else {}


def run(args: argparse.Namespace) -> int:
    """Open the game."""
    from mustamaija.players.levels import split_bots
    from mustamaija.tui.plugin import table_of
    from mustamaija.tui.session import GameSession, MatchConfig

    changes = rule_changes(args)
    given = (args.game, args.players, args.bots, args.preset, args.seed, args.load, args.deals, args.losses)
    direct = any(v is not None for v in given) or bool(changes)
    session = None
    setup = None
    if args.load and args.position:
        raise MustamaijaError("give --load (a saved game) or --position (a position to play out), not both")
    if args.load:
        bots = split_bots(args.bots, _players_of(args.load)) if args.bots else None
        session = GameSession.load(args.load, bots=bots, human=args.seat, save_dir=args.save_dir)
    elif args.position:
        fixed = [name for name, given in (("--players", args.players), ("--preset", args.preset), ("--deals", args.deals),
                                          ("--losses", args.losses)) if given is not None]
        if fixed or changes:
            raise MustamaijaError(f"a position sets its seats, rules and length: leave out "
                                  f"{', '.join(fixed) or 'the rule options'} with --position")
        session = _position_session(args)
    else:
        game: Game = get_game(args.game or DEFAULT_GAME)
        rules = game.make_rules(args.preset, changes)
        players = args.players if args.players is not None else 4
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        config = MatchConfig(game.name, players=players, rules=rules, bots=tuple(split_bots(args.bots or "medium", players)),
                             human=args.seat if args.seat is not None else 0, seed=seed, rated=args.rated,
                             options=_options(args, dict(table_of(game).controller.match_options)))
        config.validate()
        if direct and not args.setup:
            session = GameSession(config, save_dir=args.save_dir)
        else:
            setup = config
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise MustamaijaError("play needs a terminal (standard input and output must not be redirected)")
    from mustamaija.tui.app import TableApp

    app = TableApp(session=session, setup=setup, pace=max(0.0, args.pace), autosave=args.autosave,
                   save_dir=args.save_dir, hint_seconds=args.hint_time)
    code = app.run()
    if app.exit_note:
        print(app.exit_note)
    return int(code or 0)


def _position_session(args: argparse.Namespace) -> Any:
    """Return the session that plays out the position of ``--position`` (a file or a one-line text)."""
    from mustamaija.cli.deals import load_deal
    from mustamaija.players.levels import split_bots
    from mustamaija.tui.session import GameSession

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    try:
        game, deal = load_deal(args.position, seed=seed, game=args.game)
    except MustamaijaError as e:
        raise MustamaijaError(f"{args.position}: {e}") from None
    if game.is_record(deal.to_json()):
        raise MustamaijaError(f"{args.position} is a game record, not a position: resume it with --load")
    bots = split_bots(args.bots, deal.players) if args.bots else None
    return GameSession.from_position(deal, game, bots=bots, human=args.seat, seed=seed, rated=args.rated,
                                     save_dir=args.save_dir)


def _players_of(path: str) -> int:
    from mustamaija.core.records import read_json
    from mustamaija.core.registry import game_for_position, game_for_record

    try:
        with open(path, "rb") as f:
            obj = read_json(f.read())
    except OSError as e:
        raise MustamaijaError(f"cannot read {path}: {e.strerror or e}") from None
    owner = game_for_position(obj)
    positions = owner.positions() if owner is not None else None
    if positions is not None:
        return int(positions.load(obj).players)
    return int(game_for_record(obj).load_record(obj).players)
