"""Small two-seat endgames played exactly: by the heuristic player, and in the search playouts that model it."""

from __future__ import annotations

import pickle
import random

from mustamaija import State
from mustamaija.games.mustamaija.endgame import LOST, EndgameSolver, exact_plan
from mustamaija.games.mustamaija.players.heuristic import (
    apply_plan,
    heuristic_plan,
    heuristic_play_out,
    heuristic_step,
    plan_step,
)
from mustamaija.games.mustamaija.players.kit import MustamaijaKit
from mustamaija.games.mustamaija.rules import LEAD, OVER
from mustamaija.games.mustamaija.solver import Solver


def _in_scope(state: State, max_cards: int) -> bool:
    holders = [s for s in range(state.n) if state.hands[s] or (s == state.attacker and state.led)]
    cards = sum(h.bit_count() for h in state.hands) + state.led.bit_count()
    return not state.talon_size and len(holders) <= 2 and cards <= max_cards and all(
        not state.hands[s] for s in range(state.n) if s not in (state.attacker, state.defender))


def test_exact_plans_are_legal_and_keep_the_seat_safe_and_lost_seats_are_named() -> None:
    cache = EndgameSolver(max_cards=16)
    plans = lost = outside = 0
    for seed in range(120):
        state = State.from_seed(players=2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while state.phase != OVER:
            if state.in_progress:
                state.apply(heuristic_step(state, rng))
                continue
            plan = exact_plan(state, cache)
            if plan is None:
                assert not _in_scope(state, 16) or state.talon_size
                outside += 1
                apply_plan(state, heuristic_plan(state, rng))
                continue
            seat = state.to_act
            solver = Solver(state.rules, state.trump, state.n)
            if plan == LOST:
                lost += 1
                assert (state.phase == LEAD and not solver.state_safe(state, seat)) or state.phase != LEAD
                apply_plan(state, heuristic_plan(state, rng))
                continue
            plans += 1
            leading = state.phase == LEAD
            if leading:
                assert isinstance(plan, int)
                assert solver.lead_safe(tuple(state.hands), state.attacker, plan, seat)
            # Step the plan through the engine, which checks every step: the same action as taking it in one go.
            whole = state.copy()
            apply_plan(whole, plan)
            before = state.nlog
            while state.nlog == before:
                state.apply(plan_step(plan, state.view(seat)))
            assert state.actions() == whole.actions()
            if not leading:  # A defence ends the turn: the defender is still safe.
                assert (state.is_over and state.loser != seat) or solver.state_safe(state, seat)
    assert min(plans, lost, outside) >= 20, (plans, lost, outside)


def test_a_playout_with_exact_endgames_is_the_naive_loop_and_models_the_player() -> None:
    # The play-out stops asking the solver for a seat once it is lost: the games must be those of asking every time.
    fast, naive = EndgameSolver(max_cards=16), EndgameSolver(max_cards=16)
    for seed in range(150):
        for players in (2, 3, 4):
            a = State.from_seed(players=players, seed=seed)
            b = a.copy()
            heuristic_play_out(a, random.Random(seed), fast)
            rng = random.Random(seed)
            while b.in_progress and b.phase != OVER:
                b.apply(heuristic_step(b, rng))
            while b.phase != OVER:
                plan = exact_plan(b, naive) if not b.talon_size else None
                apply_plan(b, plan if plan is not None and plan != LOST else heuristic_plan(b, rng))
            assert a.actions() == b.actions(), (seed, players)
    assert fast.calls < naive.calls


def test_the_kit_plays_endgames_exactly_and_travels_without_its_table() -> None:
    kit = MustamaijaKit()
    for seed in range(30):
        state = State.from_seed(players=2, seed=seed)
        kit.playout(state, random.Random(seed))
        assert state.is_over
    assert kit._endgame.calls > 0 and kit._endgame._solver is not None
    copy = pickle.loads(pickle.dumps(kit))
    assert copy._endgame._solver is None and copy._endgame.max_cards == kit._endgame.max_cards
    state = State.from_seed(players=2, seed=1)
    copy.playout(state, random.Random(1))
    again = State.from_seed(players=2, seed=1)
    kit.playout(again, random.Random(1))
    assert state.actions() == again.actions()  # The table only saves work: the same games without it.
