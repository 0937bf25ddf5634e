"""The ISMCTS search player: legal play, no peeking, sound determinisation, solver hand-over, parallelism."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mustamaija.core.cards import QS
from mustamaija.games.mustamaija import PRESETS, STOP, Rules, State, sample_state
from mustamaija.games.mustamaija.endgame import EndgameSolver, endgame_step
from mustamaija.games.mustamaija.players.ismcts import (
    Determiniser,
    ISMCTSPlayer,
    OpenHandPlayer,
    make_ismcts,
    make_open_hand,
    rollout_policy,
)
from mustamaija.games.mustamaija.players.ismcts_policy import evaluate, fast_rollout, fast_step, random_step, rollout
from mustamaija.games.mustamaija.solver import Solver, solve
from mustamaija.players import RandomPlayer
from peeking import swap_hidden


def _play(state: State, players: list[object]) -> State:
    while not state.is_over:
        seat = state.to_act
        p = players[seat]
        step = p.act_open(state) if getattr(p, "sees_all", False) else p.act(state.view(seat))  # type: ignore[attr-defined]
        assert state.legal_mask() >> step & 1, (seat, step)
        state.apply(step)
    return state


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_plays_complete_legal_deals_at_every_preset_and_player_count(preset: str) -> None:
    rules = PRESETS[preset]
    for n in range(2, rules.max_players + 1):
        s = State.from_seed(n, 100 + n, rules)
        bots: list[object] = [RandomPlayer(seed=k) for k in range(n)]
        bots[0] = ISMCTSPlayer(iters=12, depth=2, rollout="fast", seed=n)
        bots[n // 2] = ISMCTSPlayer(iters=12, depth=0, rollout="random", seed=n + 1)
        _play(s, bots)
        assert s.finished or s.stopped


def test_open_hand_plays_complete_deals_and_refuses_views() -> None:
    s = State.from_seed(3, 9)
    bot = OpenHandPlayer(iters=15, seed=2)
    assert bot.sees_all and bot.name == "open-hand"
    with pytest.raises(TypeError, match="act_open"):
        bot.act(s.view(s.to_act))
    _play(s, [bot, RandomPlayer(seed=1), OpenHandPlayer(iters=15, depth=0, seed=3)])
    assert s.finished


def test_forced_decision_is_returned_at_once() -> None:
    s = State.from_position([["5H"], ["QS", "2C"]], attacker=0, trump_suit=2)
    bot = ISMCTSPlayer(iters=1000, seed=0)
    assert bot.act(s.view(0)) == 16  # 5H, the only card.
    assert bot.stats["iterations"] == 0


# -- no peeking ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_same_view_same_decision_whatever_the_hidden_cards(players: int, seed: int) -> None:
    s = State.from_seed(players, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(8, 20)):  # Somewhere into the deal, the talon still full of secrets.
        s.apply(fast_step(s, rng))
    seat = s.to_act
    t = swap_hidden(s, seat)
    u = sample_state(s.view(seat), random.Random(99))
    assert t.hands != s.hands and t.view(seat) == s.view(seat) == u.view(seat)
    decisions = []
    for state in (s, t, u):
        bot = ISMCTSPlayer(iters=300, seed=7, rollout="fast")
        step = bot.act(state.view(seat))
        decisions.append((step, bot.stats["root"]))
    assert decisions[0] == decisions[1] == decisions[2]
    # The open-hand player does look at the cards, so the same test must tell the states apart.
    roots = []
    for state in (s, t):
        oh = OpenHandPlayer(iters=300, seed=7, rollout="fast", depth=0)  # Full rollouts: every hidden card counts.
        oh.act_open(state)
        roots.append(oh.stats["root"])
    assert roots[0] != roots[1]


# -- determinisation ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    players=st.integers(2, 8),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 400),
    draw_seed=st.integers(0, 10**6),
)
def test_determinisation_keeps_every_public_fact(preset: str, players: int, seed: int, steps: int, draw_seed: int) -> None:
    rules = PRESETS[preset]
    players = min(players, rules.max_players)
    s = State.from_seed(players, seed, rules)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_over:
            break
        s.apply(fast_step(s, rng) if rng.random() < 0.7 else random_step(s, rng))
    for seat in range(players):
        v = s.view(seat)
        det = Determiniser(v)
        g = det.draw(random.Random(draw_seed))
        assert g == sample_state(v, random.Random(draw_seed))
        assert g.view(seat) == v
        assert g.hands[seat] == s.hands[seat]
        for other in range(players):
            assert g.hands[other] & v.known[other] == v.known[other]
            assert g.hands[other].bit_count() == s.hands[other].bit_count()
        assert g.talon_size == s.talon_size
        for depth, c in v.talon_known:
            assert g.talon[g.tpos + depth] == c
        placed = v.discard | v.led
        for h in g.hands:
            assert not h & placed
        assert sum(h.bit_count() for h in g.hands) + g.talon_size + (v.discard | v.led).bit_count() == 52
        if not s.is_over:
            assert any(h >> QS & 1 for h in g.hands) or QS in g.talon_cards or v.led >> QS & 1  # Q♠ never leaves play.
            assert g.legal_mask() == s.legal_mask() or seat != s.to_act


# -- the solver hand-over --------------------------------------------------------------------------


def _position(rng: random.Random, sizes: tuple[int, int]) -> State:
    cards = [c for c in range(52) if c != QS]
    rng.shuffle(cards)
    chosen = [QS, *cards[: sizes[0] + sizes[1] - 1]]
    rng.shuffle(chosen)
    return State.from_position([chosen[: sizes[0]], chosen[sizes[0]:]], attacker=0, trump_suit=rng.randrange(1, 4))


def test_two_player_endgame_leads_are_the_solvers_safe_leads() -> None:
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        s = _position(rng, (rng.randint(2, 6), rng.randint(2, 6)))
        hands = tuple(s.hands)
        safe = solve(s, all_leads=False).attacker_safe
        bot = ISMCTSPlayer(iters=30, seed=1)
        while s.phase == 0 and not s.is_over:
            s.apply(bot.act(s.view(0)))
            if safe:
                assert bot.stats.get("solver"), "a safe lead must come from the solver"
        if safe:
            lead = s.led if not s.is_over else hands[0]
            assert Solver(s.rules, s.trump, 2).lead_safe(hands, 0, lead, 0)
            checked += 1
    assert checked >= 10


def test_two_player_endgame_defences_keep_the_defender_safe() -> None:
    rng = random.Random(4)
    checked = 0
    for _ in range(60):
        s = _position(rng, (rng.randint(2, 6), rng.randint(2, 6)))
        leads = list(s.legal_leads())
        s.play(rng.choice(leads))
        if s.is_over or s.phase != 1:
            continue
        hero = s.defender
        before = tuple(s.hands)
        solver = Solver(s.rules, s.trump, 2)
        # Safe now means some defence keeps the defender safe.
        defences = solver.defences(before[1], s.led, before[0] | s.led)
        safe = any(solver.after(*solver.resolve(before, 0, 1, s.led, pairs), hero) for pairs in defences)
        bot = ISMCTSPlayer(iters=30, seed=2)
        while s.phase == 1 and not s.is_over:
            s.apply(bot.act(s.view(hero)))
        if not safe:
            continue
        checked += 1
        if s.is_over:
            assert s.loser != hero
        else:
            assert Solver(s.rules, s.trump, 2).safe(tuple(s.hands), s.attacker, hero)
    assert checked >= 10


def test_hand_over_is_skipped_while_a_marriage_can_change_the_trumps() -> None:
    rules = Rules.preset("salmi")
    s = State.from_position([["KH", "QH", "2C"], ["QS", "3D"]], attacker=0, trump_suit=None, rules=rules)
    assert endgame_step(s.view(0), EndgameSolver()) is None
    bot = ISMCTSPlayer(iters=50, seed=0)
    assert s.can_step(bot.act(s.view(0)))


# -- parallelism, reuse, registry ---------------------------------------------------------------------


def test_root_parallelism_returns_a_legal_step_and_adds_the_searches() -> None:
    s = State.from_seed(4, 12)
    bot = ISMCTSPlayer(iters=40, workers=2, seed=5)
    v = s.view(s.to_act)
    step = bot.act(v)
    assert v.legal_mask() >> step & 1
    assert bot.stats["iterations"] == 80
    assert sum(n for n, _ in bot.stats["root"].values()) == 80
    s.apply(step)
    v2 = s.view(s.to_act)
    if s.to_act == v.seat:  # The pool is reused for the next decision.
        assert v2.legal_mask() >> bot.act(v2) & 1


def test_tree_is_kept_between_the_steps_of_a_lead() -> None:
    reused = []
    for seed in range(6):
        s = State.from_seed(3, seed)
        bots = [ISMCTSPlayer(iters=150, seed=seed, depth=8), RandomPlayer(seed=1), RandomPlayer(seed=2)]
        while not s.is_over and len(reused) < 3:
            seat = s.to_act
            bot = bots[seat]
            continuing = s.in_progress
            s.apply(bot.act(s.view(seat)))
            if seat == 0 and continuing and not bot.stats.get("forced"):
                reused.append(bot.stats["reused"])
        if len(reused) >= 3:
            break
    assert len(reused) >= 3 and all(r > 0 for r in reused)


def test_rollout_policies_and_evaluation() -> None:
    assert rollout_policy("fast") is fast_step
    assert rollout_policy("random") is random_step
    # The heuristic (or fast, if it is missing) always gives legal steps, even in a lead the tree began.
    policy = rollout_policy("heuristic")
    rng = random.Random(0)
    for seed in range(30):
        s = State.from_seed(4, seed)
        for _ in range(rng.randrange(0, 60)):
            if s.is_over:
                break
            s.apply(random_step(s, rng))
        for _ in range(12):
            if s.is_over:
                break
            step = policy(s, rng)
            assert s.can_step(step)
            s.apply(step)
    with pytest.raises(ValueError, match="unknown rollout policy"):
        rollout_policy("clever")
    s = State.from_seed(5, 2)
    v = evaluate(s)
    assert all(0 <= x <= 1 for x in v) and abs(sum(1 - x for x in v) - 1) < 1e-9
    while not s.is_over:
        s.apply(fast_step(s, random.Random(1)))
    assert evaluate(s)[s.loser] == 0.0


def test_factories_and_registration() -> None:
    p = make_ismcts({"iters": "25", "c": 1.1, "rollout": "fast", "depth": 4, "workers": 1}, seed=3)
    assert p.iters == 25 and p.config.c == 1.1 and p.config.depth == 4
    t = make_ismcts({"time": 0.05}, seed=1)
    assert t.time == 0.05
    oh = make_open_hand({"iters": 10}, seed=1)
    assert oh.sees_all
    with pytest.raises(ValueError, match="unknown parameter"):
        make_ismcts({"budget": 3}, seed=1)
    with pytest.raises(ValueError, match="iters"):
        make_ismcts({"iters": "many"}, seed=1)
    from mustamaija.players import registry

    assert {"ismcts", "open-hand"} <= set(registry.bot_names())
    bot = registry.make_bot("ismcts:iters=20:rollout=fast", seed=4)
    s = State.from_seed(3, 4)
    assert s.can_step(bot.act(s.view(s.to_act)))
    assert registry.sees_all(registry.make_bot("open-hand:iters=5", seed=1))


def test_beats_random_players() -> None:
    lost = 0
    deals = 12
    for i in range(deals):
        s = State.from_seed(2, 500 + i)
        hero = i % 2
        bots: list[object] = [RandomPlayer(seed=i), RandomPlayer(seed=i + 1)]
        bots[hero] = ISMCTSPlayer(iters=60, seed=i, rollout="fast")
        _play(s, bots)
        lost += s.loser == hero
    assert lost <= 2


def test_stop_is_a_step_the_search_can_choose() -> None:
    s = State.from_position([["2H", "AH", "3C"], ["QS", "KH", "4D"]], attacker=0, trump_suit=2)
    s.apply(13)  # 2H: now AH or STOP.
    assert s.legal_actions() == [25, STOP]
    bot = ISMCTSPlayer(iters=100, seed=1, solver=False)
    assert bot.act(s.view(0)) in (25, STOP)
    assert set(bot.stats["root"]) == {25, STOP}


@pytest.mark.parametrize("preset", ["standard", "salmi", "french"])
def test_fast_rollout_plays_legal_actions_to_the_end(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for seed in range(40):
        n = 2 + seed % (rules.max_players - 1)
        s = State.from_seed(n, seed, rules)
        for _ in range(rng.randrange(0, 80)):
            if s.is_over:
                break
            s.apply(fast_step(s, rng))
        while s.in_progress:
            s.apply(fast_step(s, rng))
        start = s.copy()
        values = fast_rollout(s, rng)
        assert s.is_over and values.count(0.0) == (1 if s.finished else 0)
        # Every compound action it took is legal: replay them through the checked API.
        replay = start.copy()
        for action in s.actions()[start.nlog:]:
            replay.play(action)
        assert replay.hands == s.hands and replay.loser == s.loser and replay.is_over
        truncated = start.copy()
        v = fast_rollout(truncated, rng, depth=2)
        assert truncated.is_over or truncated.turns == start.turns + 2
        assert all(0.0 <= x <= 1.0 for x in v)
        assert len(rollout(start.copy(), rng, fast_step, depth=3)) == n
