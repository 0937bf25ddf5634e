"""The generic searches on every game: PIMC, ISMCTS and hints through the protocol and each game's search kit."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game, SearchKit
from mustamaija.core.registry import get_game
from mustamaija.players.random import RandomPlayer
from mustamaija.players.registry import make_bot
from mustamaija.search.hints import hint, view_for
from mustamaija.search.ismcts import ISMCTSPlayer, OpenHandPlayer
from mustamaija.search.kit import BasicKit
from mustamaija.search.lazyrandom import LazyRandom
from mustamaija.search.pimc import OpenHandPIMCPlayer, PIMCPlayer

MM = get_game("mustamaija")
BM = get_game("black-maria")


def _play(game: Game, state: Any, players: list[Any]) -> Any:
    """Play to the end, checking every step; open-hand players get the state."""
    while not state.is_over:
        seat = state.to_act
        p = players[seat]
        step = p.act_open(state) if getattr(p, "sees_all", False) else p.act(state.view(seat))
        assert state.legal_mask() >> step & 1, (game.name, seat, step)
        state.apply(step)
    return state


def _into_play(state: Any, rng: random.Random, steps: int) -> Any:
    """Take random steps (the passes, some tricks), ending between compound actions with the deal still on."""
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    while state.in_progress and not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


class Plain:
    """A game that tells the searches nothing: Black Maria with :class:`BasicKit`'s defaults."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def search_kit(self) -> SearchKit:
        return BasicKit(self)  # type: ignore[arg-type]


# -- legal play -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_searches_play_legal_black_maria_hands(players: int) -> None:
    for seed in range(3):
        rules = BM.make_rules(None, {"allow_renege": seed == 1})
        bots = [make_bot("pimc:samples=2", seed, game=BM), make_bot("pimc:iters=12", seed, game=BM),
                make_bot("ismcts:iters=12", seed, game=BM), make_bot("ismcts:iters=8:rollout=random", seed, game=BM),
                RandomPlayer(seed=seed)]
        s = _play(BM, BM.deal(players, seed, rules), [bots[(p + seed) % len(bots)] for p in range(players)])
        assert BM.scores(s) is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_searches_play_legal_mustamaija_deals(players: int) -> None:
    for seed in range(2):
        bots = [make_bot("pimc:iters=8", seed, game=MM), make_bot("ismcts:iters=10", seed, game=MM),
                make_bot("pimc:samples=2", seed, game=MM), RandomPlayer(seed=seed)]
        s = _play(MM, MM.deal(players, 50 + seed), [bots[(p + seed) % len(bots)] for p in range(players)])
        assert s.is_over


def test_the_open_hand_twins_play_black_maria() -> None:
    s = BM.deal(4, 8)
    bots = [OpenHandPIMCPlayer(BM, samples=3, seed=1), OpenHandPlayer(BM, iters=20, seed=2), RandomPlayer(seed=3),
            PIMCPlayer(BM, samples=2, seed=4)]
    _play(BM, s, bots)
    with pytest.raises(TypeError, match="act_open"):
        bots[0].act(s.view(0))


def test_a_game_with_the_default_kit_is_searched_step_by_step() -> None:
    """With BasicKit every legal step is a candidate, passes too, and playouts are random: still legal and complete."""
    plain = Plain(BM)
    s = BM.deal(3, 2)
    pimc = PIMCPlayer(plain, samples=2, seed=1)
    assert pimc.kit.candidates(s.view(s.to_act)) == (s.legal_actions(), 0)
    _play(BM, s, [pimc, ISMCTSPlayer(plain, iters=10, seed=2), RandomPlayer(seed=3)])
    assert sum(s.points()) == 43


# -- no peeking, and the seeding rules ------------------------------------------------------------------


def _other_deals(game: Game, state: Any, seat: int) -> list[Any]:
    """Return deals the seat cannot tell from ``state``, at least one with other hidden cards."""
    view = state.view(seat)
    others = [game.sample(view, random.Random(k)) for k in range(3)]
    assert all(o.view(seat) == view for o in others)
    assert any(o.hands != state.hands for o in others)
    return others


@pytest.mark.parametrize(("game", "spec"), [(BM, "pimc:samples=5"), (BM, "pimc:iters=60"), (BM, "ismcts:iters=80"),
                                            (MM, "pimc:iters=80"), (MM, "ismcts:iters=150")])
def test_same_view_and_seed_same_decision_whatever_the_hidden_cards(game: Game, spec: str) -> None:
    rng = random.Random(spec)
    checked = 0
    for seed in range(12):
        s = _into_play(game.deal(4, seed), rng, rng.randrange(14, 30))
        if s.is_over or len(s.legal_actions()) < 2:
            continue
        seat = s.to_act
        decisions = []
        for state in (s, *_other_deals(game, s, seat)):
            bot = make_bot(spec, 7, game=game)
            decisions.append((bot.act(state.view(seat)), bot.stats.get("root")))
        assert all(d == decisions[0] for d in decisions)
        checked += 1
    assert checked >= 6


def test_the_open_hand_control_does_see_the_hidden_cards() -> None:
    rng = random.Random(3)
    differ = 0
    for seed in range(10):
        s = _into_play(BM.deal(4, seed), rng, 20)
        if s.is_over or len(s.legal_actions()) < 2:
            continue
        roots = []
        for state in (s, *_other_deals(BM, s, s.to_act)):
            bot = OpenHandPIMCPlayer(BM, seed=7)
            bot.act_open(state)
            roots.append(bot.stats["root"])
        differ += any(r != roots[0] for r in roots)
    assert differ >= 3


def test_each_game_seeds_its_decisions_its_own_way() -> None:
    """Black Maria seeds every decision from the view (earlier decisions do not matter); Mustamaija uses one generator."""
    rng = random.Random(1)
    s = _into_play(BM.deal(4, 11), rng, 20)
    v = s.view(s.to_act)
    bot = PIMCPlayer(BM, samples=4, seed=3)
    first = (bot.act(v), bot.stats["root"])
    fresh = PIMCPlayer(BM, samples=4, seed=3)
    assert (bot.act(v), bot.stats["root"]) == first == (fresh.act(v), fresh.stats["root"])
    assert BM.search_kit().decision_seed(3, random.Random(0), v) == f"3:{v.seat}:{len(v.plays)}"
    assert MM.search_kit().decision_seed(3, random.Random(5), v) == random.Random(5).getrandbits(62)


# -- budgets ----------------------------------------------------------------------------------------


def _a_choice(game: Game, players: int, seed: int, candidates: int) -> Any:
    rng = random.Random(seed)
    s = game.deal(players, seed)
    kit = game.search_kit()
    while True:
        v = s.view(s.to_act)
        if not s.in_progress and kit.fixed_step(v, 0) is None and len(kit.candidates(v)[0]) >= candidates:
            return v
        s.apply(rng.choice(s.legal_actions()))


def test_budgets_samples_iterations_and_time() -> None:
    v = _a_choice(BM, 4, 5, 3)
    k = len(BM.search_kit().candidates(v)[0])
    flat = PIMCPlayer(BM, samples=3, seed=1)
    assert v.legal_mask() >> flat.act(v) & 1
    assert flat.stats["iterations"] == 3 * k and all(n == 3 for n, _ in flat.stats["root"].values())
    halving = PIMCPlayer(BM, iters=40, seed=1)
    halving.act(v)
    assert 0 < halving.stats["iterations"] <= 40 and len({n for n, _ in halving.stats["root"].values()}) > 1
    timed = PIMCPlayer(BM, time=0.05, seed=1)
    timed.act(v)
    assert timed.stats["iterations"] > 0 and timed.stats["seconds"] < 1.0
    assert PIMCPlayer(BM).samples == 20 and PIMCPlayer(MM).iters == 300  # Each kit's default budget.
    tree = ISMCTSPlayer(BM, iters=30, seed=1)
    tree.act(v)
    assert tree.stats["iterations"] == 30 and sum(n for n, _ in tree.stats["root"].values()) == 30
    for bad, message in (({"samples": 0}, "samples must be a positive integer"), ({"iters": 0}, "iters"),
                         ({"samples": 2, "iters": 5}, "not both"), ({"workers": 0}, "workers"), ({"time": -1.0}, "time")):
        with pytest.raises(ValueError, match=message):
            PIMCPlayer(BM, **bad)


def test_root_parallelism_adds_up_the_workers() -> None:
    v = _a_choice(BM, 4, 6, 2)
    k = len(BM.search_kit().candidates(v)[0])
    bot = make_bot("pimc:samples=4:workers=2", 5, game=BM)
    assert v.legal_mask() >> bot.act(v) & 1
    assert bot.stats["iterations"] == 4 * k
    tree = make_bot("ismcts:iters=20:workers=2", 5, game=BM)
    assert v.legal_mask() >> tree.act(v) & 1 and tree.stats["iterations"] == 40


def test_bot_spec_parameters() -> None:
    with pytest.raises(MustamaijaError, match="unknown parameter"):
        make_bot("ismcts:depth=2:budget=3", 1, game=BM)
    with pytest.raises(MustamaijaError, match="unknown rollout policy"):
        make_bot("ismcts:rollout=fast", 1, game=BM)  # A policy of the other game.
    assert make_bot("ismcts:rollout=random:c=1.5", 1, game=BM).config.c == 1.5


# -- hints --------------------------------------------------------------------------------------------


def _played(game: Game, players: int, seed: int, steps: int) -> Any:
    return _into_play(game.deal(players, seed), random.Random(seed), steps)


def _draws(rng: random.Random) -> list[Any]:
    """Draw through every kind of method: the C ones, those built on them, and those that bind a method first."""
    items = list(range(20))
    rng.shuffle(items)
    out: list[Any] = [rng.random(), rng.getrandbits(40), rng.randrange(1000), rng.choice("abcdefg"), items,
                      rng.sample(range(100), 5), rng.choices(range(10), k=6), rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0),
                      rng.uniform(1.0, 2.0), rng.randbytes(5)]
    state = rng.getstate()
    first = rng.random()
    rng.setstate(state)
    return [*out, first, rng.random()]


@pytest.mark.parametrize("first", ["random", "getrandbits", "choice", "choices", "gauss", "getstate", "shuffle", "seed"])
def test_a_lazily_seeded_generator_draws_what_a_seeded_one_draws(first: str) -> None:
    """Whatever it is asked first, a LazyRandom gives random.Random(seed)'s numbers, and then is one."""
    for seed in (0, 1, 2**32 - 1, 123456789):
        lazy, plain = LazyRandom(seed), random.Random(seed)
        if first == "seed":  # Re-seeding before the first draw forgets the kept seed.
            lazy.seed(seed + 1)
            plain.seed(seed + 1)
        else:
            calls: dict[str, Any] = {"random": lambda r: r.random(), "getrandbits": lambda r: r.getrandbits(7),
                                     "choice": lambda r: r.choice([1, 2, 3]), "choices": lambda r: r.choices("xyz", k=9),
                                     "gauss": lambda r: r.gauss(1.0, 2.0), "getstate": lambda r: r.getstate(),
                                     "shuffle": lambda r: r.shuffle(list(range(30)))}
            assert calls[first](lazy) == calls[first](plain)
        assert type(lazy) is random.Random
        assert _draws(lazy) == _draws(plain)


def test_a_lazily_seeded_generator_that_never_draws_is_never_seeded() -> None:
    lazy = LazyRandom(5)
    assert type(lazy) is LazyRandom and "_lazy_seed" in vars(lazy)


def test_a_black_maria_pass_hint_searches_the_bots_candidate_passes() -> None:
    s = BM.deal(4, 3)
    v = s.view(s.to_act)
    h = hint(BM, v, iters=200, seed=2)
    plans, _ = BM.search_kit().candidates(v)
    assert h.method == "pimc" and h.phase == "pass" and len(h.steps) == 3
    assert sorted(c.action.cards for c in h.candidates) == sorted(plans) and h.action.cards in plans
    assert h.best is not None and h.best.action == h.action
    for step in h.steps:
        s.apply(step)
    assert s.last_action() == h.action


def test_a_black_maria_play_hint_weighs_every_card() -> None:
    s = _played(BM, 4, 5, 20)
    v = s.view(s.to_act)
    h = hint(BM, v, iters=300, seed=2)
    assert h.method == "pimc" and not h.exact and h.game == "black-maria"
    assert sorted(c.action.card for c in h.candidates) == v.legal_actions()
    assert h.worlds == sum(c.samples for c in h.candidates) <= 300
    assert all(c.value is not None and c.value <= 0 and c.loss_rate is None for c in h.candidates)
    assert h.best is not None and h.best.samples == max(c.samples for c in h.candidates)
    assert "points on average" in h.text and f"ran {h.worlds} playouts from seat {v.seat}'s view" in h.text
    out = h.to_json()
    assert out["best"] == out["candidates"][0] and out["best"]["actions"] == [h.action.to_json()]
    assert out["game"] == "black-maria" and {"value", "stderr", "samples", "visits", "words"} <= set(out["best"])
    flat = hint(BM, v, method="sampled", iters=7, seed=2)
    assert flat.method == "sampled" and flat.worlds == 7 and all(c.samples == 7 for c in flat.candidates)
    tree = hint(BM, v, method="ismcts", iters=200, seed=2)
    assert tree.method == "ismcts" and s.can_play(tree.action) and sum(c.visits or 0 for c in tree.candidates) >= 150
    assert hint(BM, v, iters=300, seed=2).to_json()["candidates"] == out["candidates"]  # The same seed, the same hint.


@pytest.mark.parametrize(("game", "players"), [(BM, 4), (BM, 3), (MM, 3)])
def test_hints_never_depend_on_hidden_cards(game: Game, players: int) -> None:
    for method in ("pimc", "ismcts"):
        s = _played(game, players, 9, 18)
        seat = s.to_act
        first = hint(game, s.view(seat), method=method, iters=120, seed=4).to_json()
        first.pop("seconds")
        for other in _other_deals(game, s, seat):
            again = hint(game, other.view(seat), method=method, iters=120, seed=4).to_json()
            again.pop("seconds")
            assert again == first


def test_the_generic_hint_gives_mustamaija_the_solvers_proof() -> None:
    from mustamaija.games.mustamaija import State

    s = State.from_position([["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker=0, trump_suit=3)
    h = hint(MM, s.view(0))
    assert h.method == "solver" and h.exact and h.best is not None and h.best.safe
    assert {c.words for c in h.candidates if c.safe} >= {"seat 0 leads QS", "seat 0 leads 3C AC"}
    assert "safe" in h.to_json()["best"] and "worlds" not in h.to_json()


def test_bad_hint_requests() -> None:
    s = _played(BM, 4, 2, 20)
    with pytest.raises(MustamaijaError, match="has no exact solver"):
        hint(BM, s.view(s.to_act), method="solver")
    with pytest.raises(MustamaijaError, match="is not to act"):
        hint(BM, s.view((s.to_act + 1) % 4))
    with pytest.raises(MustamaijaError, match="unknown hint method"):
        hint(BM, s.view(s.to_act), method="oracle")
    with pytest.raises(MustamaijaError, match="no seat 9"):
        view_for(BM, s, 9)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    with pytest.raises(MustamaijaError, match="the deal is over"):
        view_for(BM, s)


# -- the command line --------------------------------------------------------------------------------


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "mustamaija", *args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=120)


def test_the_hint_and_solve_commands_take_a_black_maria_record(tmp_path: Path) -> None:
    s = _played(BM, 4, 7, 25)
    (tmp_path / "hand.json").write_text(BM.record_of(s).dumps(), encoding="utf-8")
    r = _run("hint", "hand.json", "--json", "--iters", "40", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["game"] == "black-maria" and out["seat"] == s.to_act and out["method"] == "pimc"
    text = _run("hint", "hand.json", "--iters", "40", "--method", "sampled", cwd=tmp_path)
    assert text.returncode == 0 and text.stdout.startswith(f"Seat {s.to_act} is to act (play).") and "Hint: " in text.stdout
    solved = _run("solve", "hand.json", cwd=tmp_path)
    assert solved.returncode == 1 and "hand.json: Black Maria has no exact solver" in solved.stderr
