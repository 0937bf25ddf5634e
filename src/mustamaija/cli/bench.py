"""``mustamaija bench``: time random play of complete deals of every game, and (on request) each game's own measures.

Sections (``--section``, comma-separated, or ``--all``):

* ``engine`` (the default): random play of complete deals through the game
  protocol, for every game;
* ``adapters``: PettingZoo steps/s (with observations, and reading only the
  mask) and OpenSpiel actions/s against the raw engine, and the overhead each
  adds; the vector environment's learner steps/s against ``SyncVectorEnv``
  over as many single environments; for every game (needs the ``rl`` extra);
* the sections a game adds through
  :meth:`~mustamaija.core.protocol.Game.bench_sections` (its bots, its
  search, its solver...), for the games that have them; a section's options
  are ``--<section>-<option>`` (``mustamaija bench --help`` lists them).

``--game`` chooses the games (every game of the registry by default, the
default game first). The JSON object holds each game's figures under
``games``; its top level repeats the first game's, so that scripts written
for one game keep reading ``players``, ``search`` and the like there.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, Final

from mustamaija.build import build_of, describe
from mustamaija.cli.progress import section_progress
from mustamaija.core.bench import BenchSection, BenchSettings, play_random_deal
from mustamaija.core.errors import RulesError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, game_names, games, get_game
from mustamaija.core.state import state_fields
from mustamaija.players.random import RandomPlayer

GENERIC_SECTIONS: Final = ("engine", "adapters")
"""The sections measured for every game; the others come from the games."""

ADAPTER_PLAYERS: Final = 4
"""The table the adapters section measures (moved into the game's range of player counts)."""


def _game_sections(strict: bool = True) -> dict[str, BenchSection]:
    """Return every game's own sections by name (the first game offering a name gives its help and options).

    Not ``strict`` (while building the parser of every command), a game
    that fails to load is left out: a broken plug-in must not break the other
    commands, and ``bench`` itself reports the error when it runs.
    """
    out: dict[str, BenchSection] = {}
    for name in game_names():
        try:
            game = get_game(name)
        except Exception:
            if strict:
                raise
            continue
        for section in game.bench_sections():
            out.setdefault(section.name, section)
    return out


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand, with the options of every game's own sections."""
    p = sub.add_parser("bench", help="measure decisions/s and games/s of random play")
    p.add_argument("--game", default=None,
                   help="comma-separated games to measure (default: every game, the default game first)")
    p.add_argument("--players", default="2,4,6",
                   help="comma-separated player counts, each used where the game allows it (default 2,4,6)")
    p.add_argument("--seconds", type=float, default=3.0, help="time to spend on each player count (default 3)")
    p.add_argument("--preset", default=None,
                   help="the rule preset (default: each game's first); without --game, only games having it are measured")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    own = _game_sections(strict=False)
    names = ", ".join([*GENERIC_SECTIONS, *own])
    p.add_argument("--section", default="engine", help=f"comma-separated sections: {names} (default engine)")
    p.add_argument("--all", action="store_true", help="run every section")
    flags: set[str] = set()
    for section in own.values():
        for option in section.options:
            flag = section.flag(option)
            if flag not in flags:
                flags.add(flag)
                p.add_argument(flag, type=option.type, default=None,
                               help=f"{option.help} (default {option.default}; section {section.name}: {section.help})")
    p.set_defaults(run=run)


HEARTS_PLAYERS: Final = 4
"""The table at which the engine section also measures OpenSpiel's Hearts (a 4-player game), when installed."""


def _deal_rates(seconds: float, play_deal: Callable[[], int]) -> dict[str, float]:
    """Call ``play_deal`` (play one deal, return its decisions) until ``seconds`` of CPU time are spent; return the rates.

    CPU time of this process is used, so the figure is for one core even on a busy machine.
    """
    decisions = deals = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        decisions += play_deal()
        deals += 1
        now = time.process_time()
        if now >= deadline:
            break
    elapsed = now - start
    return {"decisions_per_s": decisions / elapsed, "games_per_s": deals / elapsed,
            "decisions_per_game": decisions / deals, "games": deals}


def measure_engine(game: Game, players: int, seconds: float, rules: Any, seed: int) -> dict[str, float]:
    """Play random deals for about ``seconds`` of CPU time; a decision is one uniformly chosen legal step.

    The legal steps are listed afresh at every decision, as a player would need them.
    """
    rng = random.Random(seed)
    return {**_deal_rates(seconds, lambda: play_random_deal(game, players, rules, rng)),
            "games_per_s_one_call": measure_playouts(game, players, seconds / 2, rules, seed)}


def measure_playouts(game: Game, players: int, seconds: float, rules: Any, seed: int) -> float:
    """Return random deals per second played by ``play_out_randomly``: the deal and its whole playout in one call each."""
    rng = random.Random(seed)
    return _deal_rates(seconds, _one_call(game, players, rules, rng))["games_per_s"]


def _one_call(game: Game, players: int, rules: Any, rng: random.Random) -> Callable[[], int]:
    """Return a function that deals from ``rng`` and plays the deal out randomly in one call, returning its decisions."""
    return lambda: game.deal(players, rng.randrange(1 << 30), rules).play_out_randomly(rng)


def _hearts_deal(seed: int) -> Callable[[], int] | None:
    """Return a function playing one random deal of OpenSpiel's C++ Hearts from Python (its decisions), or ``None``.

    ``legal_actions`` and ``apply_action`` at every decision, the deal's chance
    steps included (as dealing is in ours); ``None`` without OpenSpiel.
    """
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)

    def play_deal() -> int:
        s = game.new_initial_state()
        decisions = 0
        while not s.is_terminal():
            if not s.is_chance_node():
                decisions += 1
            s.apply_action(rng.choice(s.legal_actions()))
        return decisions

    return play_deal


HEARTS_ROUNDS: Final = 5
"""The alternating rounds of :func:`compare_with_hearts`: enough for a median that one slow round does not move."""


def compare_with_hearts(game: Game, players: int, seconds: float, rules: Any, seed: int,
                        rounds: int = HEARTS_ROUNDS) -> dict[str, Any] | None:
    """Measure ``game`` and OpenSpiel's Hearts in alternating rounds; return the medians, or ``None`` without OpenSpiel.

    Each round plays, back to back, our deals step by step, our deals in one
    call each and Hearts' deals, ``seconds / rounds`` of CPU time apiece (half
    that for one call), and takes each ratio within the round, so that all
    three figures of a ratio saw the same load. The medians over the rounds
    are reported, with every round's ratios (``rounds_vs_hearts``: step by
    step, one call), so that a reader sees the spread.
    """
    hearts_deal = _hearts_deal(seed)
    if hearts_deal is None:
        return None
    ours_rng = random.Random(seed)
    one_rng = random.Random(seed)
    share = seconds / rounds
    ours, one, hearts = [], [], []
    for _ in range(rounds):
        ours.append(_deal_rates(share, lambda: play_random_deal(game, players, rules, ours_rng)))
        one.append(_deal_rates(share / 2, _one_call(game, players, rules, one_rng))["games_per_s"])
        hearts.append(_deal_rates(share, hearts_deal))
    steps = [o["games_per_s"] / h["games_per_s"] for o, h in zip(ours, hearts, strict=True)]
    calls = [c / h["games_per_s"] for c, h in zip(one, hearts, strict=True)]
    median = statistics.median
    games = sum(o["games"] for o in ours)
    per_game = sum(o["decisions_per_game"] * o["games"] for o in ours) / games
    games_per_s = median(o["games_per_s"] for o in ours)
    return {
        "decisions_per_s": games_per_s * per_game,  # Decisions a deal are the game's, not the round's: over every round.
        "games_per_s": games_per_s,
        "decisions_per_game": per_game,
        "games": games,
        "games_per_s_one_call": median(one),
        "hearts": {"decisions_per_s": median(h["decisions_per_s"] for h in hearts),
                   "games_per_s": median(h["games_per_s"] for h in hearts)},
        "games_vs_hearts": median(steps),
        "one_call_games_vs_hearts": median(calls),
        "rounds_vs_hearts": [[a, b] for a, b in zip(steps, calls, strict=True)],
    }


def copy_bytes(state: Any) -> int:
    """Return the memory a copy of ``state`` takes: the copy and every object it does not share with the original.

    Immutable values shared between the two (the rules, the talon tuple, the ints of the hands) cost a copy
    nothing, so they are not counted; a slot holding a new list, tuple or int is, and so is each new object in
    a new list or tuple.

    >>> from mustamaija import State
    >>> s = State.from_seed(players=4, seed=1)
    >>> 200 < copy_bytes(s) < 2000
    True

    A copy of this state makes itself and a new list of hands, whose ints it shares with the original:

    >>> copy_bytes(s) == sys.getsizeof(s.copy()) + sys.getsizeof(s.hands)
    True
    """
    copy = state.copy()
    total = sys.getsizeof(copy)
    seen: set[int] = set()
    for name in state_fields(type(copy)):
        value = getattr(copy, name, None)
        if value is None or value is getattr(state, name, None) or id(value) in seen:
            continue
        seen.add(id(value))
        total += sys.getsizeof(value)
        if isinstance(value, list | tuple):
            original = getattr(state, name, None)
            shared = {id(x) for x in original} if isinstance(original, list | tuple) else set()
            # A copied container's items are the original's own objects (a copy of the hands list shares their ints),
            # so only the items it made anew count.
            total += sum(sys.getsizeof(x) for x in value
                         if x is not None and not _cached_int(x) and id(x) not in shared)
    return total


def _cached_int(value: object) -> bool:
    """Return whether ``value`` is an int CPython keeps once for all (-5 to 256): no copy makes a new one."""
    return isinstance(value, int) and -5 <= value <= 256


def build(game: Game) -> str:
    """Return which build of ``game``'s engine runs: compiled modules, or the pure-Python reference."""
    return build_of(sys.modules[type(game.deal(game.min_players, 0)).__module__])


def measure_views(game: Game, players: int, seconds: float, rules: Any, seed: int) -> float:
    """Return decisions/s when random players act on freshly built views, as real bots do."""
    rng = random.Random(seed)
    bots = [RandomPlayer(seed=seed + i) for i in range(players)]
    decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        s = game.deal(players, rng.randrange(1 << 30), rules)
        while not s.is_over:
            seat = s.to_act
            s.apply(bots[seat].act(s.view(seat)))
            decisions += 1
    return decisions / (time.process_time() - start)


def _chosen(names: str | None, preset: str | None) -> list[tuple[Game, str]]:
    """Return the games to measure, each with its preset; raise ``RulesError`` or ``UnknownGameError`` for a bad choice."""
    if names is None:
        every = sorted(games(), key=lambda g: (g.name != get_game(DEFAULT_GAME).name, g.name))
        chosen = [g for g in every if preset is None or preset in g.presets]
        if not chosen:
            raise RulesError(f"no game has the preset {preset!r}")
    else:
        chosen = [get_game(name) for name in names.split(",") if name.strip()]
        for game in chosen:
            if preset is not None and preset not in game.presets:
                raise RulesError(f"{game.title} has no preset {preset!r} (its presets: {', '.join(game.presets)})")
    return [(game, preset or game.presets[0]) for game in chosen]


def _fits(game: Game, rules: Any, players: int) -> bool:
    try:
        game.check_players(rules, players)
    except RulesError:
        return False
    return True


def _engine(game: Game, args: argparse.Namespace, counts: list[int], rules: Any) -> tuple[dict[str, Any], list[str]]:
    rows: dict[str, Any] = {}
    lines = []
    for n in counts:
        if not _fits(game, rules, n):
            continue
        paired = compare_with_hearts(game, n, args.seconds, rules, args.seed) if n == HEARTS_PLAYERS else None
        row: dict[str, Any] = paired or {**measure_engine(game, n, args.seconds, rules, args.seed)}
        row["view_decisions_per_s"] = measure_views(game, n, args.seconds / 3, rules, args.seed)
        row["state_copy_bytes"] = copy_bytes(game.deal(n, args.seed, rules))
        rows[str(n)] = row
        lines.append(f"{n} players: {row['decisions_per_s']:>10,.0f} decisions/s  {row['games_per_s']:>8,.1f} games/s "
                     f"({row['games_per_s_one_call']:,.0f} with a playout in one call)  "
                     f"{row['decisions_per_game']:6.1f} decisions/deal  "
                     f"({row['view_decisions_per_s']:,.0f} decisions/s when bots act on views; "
                     f"a state copy {row['state_copy_bytes']:,} bytes)")
        if "hearts" in row:
            hearts = row["hearts"]
            spread = ", ".join(f"{a:.2f}/{b:.2f}" for a, b in row["rounds_vs_hearts"])
            lines.append(f"           OpenSpiel's C++ Hearts from Python: {hearts['decisions_per_s']:,.0f} decisions/s  "
                         f"{hearts['games_per_s']:,.1f} games/s: this game plays {row['games_vs_hearts']:.2f}x its games/s "
                         f"step by step, {row['one_call_games_vs_hearts']:.2f}x a playout in one call "
                         f"(medians of {len(row['rounds_vs_hearts'])} alternating rounds: {spread})")
    if not rows:
        lines.append(f"no player count of --players {args.players} fits ({game.min_players} to {game.max_players})")
    return rows, lines


def _adapters(game: Game, args: argparse.Namespace, preset: str) -> tuple[dict[str, float], list[str]]:
    from mustamaija.envs.bench import adapter_rates

    n = min(max(ADAPTER_PLAYERS, game.min_players), game.max_players)
    a = adapter_rates(seconds=args.seconds, players=n, preset=preset, seed=args.seed, game=game)
    return a, [f"adapters, {n} players: engine {a['engine_steps_per_s']:,.0f} steps/s; PettingZoo "
               f"{a['pettingzoo_steps_per_s']:,.0f} steps/s ({a['pettingzoo_overhead']:.1f}x overhead), "
               f"{a['pettingzoo_mask_only_steps_per_s']:,.0f} without observations "
               f"({a['pettingzoo_mask_only_overhead']:.1f}x overhead), {a['pettingzoo_floor_steps_per_s']:,.0f} for an "
               f"environment that does nothing ({a['pettingzoo_floor_overhead']:.1f}x overhead), "
               f"{a['pettingzoo_floor_fresh_steps_per_s']:,.0f} for one that makes a new observation each step "
               f"({a['pettingzoo_floor_fresh_overhead']:.1f}x overhead); OpenSpiel "
               f"{a['openspiel_actions_per_s']:,.0f} actions/s ({a['openspiel_overhead']:.1f}x overhead)",
               f"vector env, {a['vector_envs']:.0f} deals against random bots: {a['vector_steps_per_s']:,.0f} learner "
               f"steps/s, {a['vector_speedup']:.2f}x SyncVectorEnv's {a['sync_vector_steps_per_s']:,.0f}"]


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print the figures."""
    counts = [int(x) for x in args.players.split(",") if x.strip()]
    chosen = _chosen(args.game, args.preset)  # A bad choice raises; the command line reports it with status 2.
    own = {game.name: {s.name: s for s in game.bench_sections()} for game, _ in chosen}
    known = [*GENERIC_SECTIONS, *_game_sections()]
    if args.all:
        sections = [*GENERIC_SECTIONS, *dict.fromkeys(name for by_name in own.values() for name in by_name)]
    else:
        sections = [x.strip() for x in args.section.split(",") if x.strip()]
    unknown = [x for x in sections if x not in known]
    if unknown:
        print(f"mustamaija bench: unknown section {unknown[0]!r}: expected one of {', '.join(known)}", file=sys.stderr)
        return 2
    if "adapters" in sections:
        try:
            # Fail before measuring anything: PettingZoo, Gymnasium and OpenSpiel come with the rl extra.
            import mustamaija.envs.aec
            import mustamaija.openspiel.game  # noqa: F401
        except ImportError as e:
            print(f"mustamaija bench: the adapters section needs the rl extra (pip install 'mustamaija[rl]'): {e}",
                  file=sys.stderr)
            return 2
    result: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine(),
                              "build": build(chosen[0][0]), "games": {}}
    with section_progress(len(chosen) * len(sections)) as step:
        _measure(args, chosen, sections, own, counts, result, step)
    if args.json:
        first = result["games"][chosen[0][0].name]
        print(json.dumps({**first, **result}))
    elif "engine" in sections:
        print(f"one core (CPU time), Python {result['python']}, {result['build']} build")
        if result["build"] != "compiled":
            print(describe())
    return 0


def _measure(args: argparse.Namespace, chosen: list[tuple[Game, str]], sections: list[str],
             own: dict[str, dict[str, Any]], counts: list[int], result: dict[str, Any], step: Any) -> None:
    """Measure each section of each chosen game into ``result``, printing each section's lines unless ``--json``."""
    for game, preset in chosen:
        rules = game.make_rules(preset)
        figures: dict[str, Any] = {"preset": preset, "players": {}}
        result["games"][game.name] = figures
        if not args.json:
            print(f"{game.title}, preset {preset}:", flush=True)
        for name in sections:
            step(f"{game.title}: {name}")
            if name == "engine":
                figures["players"], lines = _engine(game, args, counts, rules)
            elif name == "adapters":
                figures["adapters"], lines = _adapters(game, args, preset)
            elif name in own[game.name]:
                section = own[game.name][name]
                options = {o.name: getattr(args, section.flag(o)[2:].replace("-", "_"), None) for o in section.options}
                report = section.run(BenchSettings(args.seconds, args.seed, preset, rules, options))
                figures[name], lines = report.figures, list(report.lines)
            else:
                continue
            if not args.json:
                print("\n".join(f"  {line}" for line in lines), flush=True)
