"""The Monte Carlo search player (pimc): legal candidates everywhere, no peeking, the budget, hand-over, parallelism."""

import pickle
import random

import pytest

from mustamaija.core.cards import QS
from mustamaija.games.mustamaija import PRESETS, STOP, Rules, State, View, sample_state
from mustamaija.games.mustamaija.actions import DECLARE, Lead
from mustamaija.games.mustamaija.endgame import EndgameSolver
from mustamaija.games.mustamaija.game import GAME
from mustamaija.games.mustamaija.players import heuristic as H
from mustamaija.games.mustamaija.players.heuristic import (
    ENDGAME_CARDS,
    ROLLOUT_WEIGHTS,
    HeuristicPlayer,
    Weights,
    apply_plan,
    candidate_plans,
    heuristic_plan,
    heuristic_play_out,
    plan_step,
)
from mustamaija.games.mustamaija.players.kit import PLAYOUT_WEIGHTS, MustamaijaKit
from mustamaija.games.mustamaija.players.pimc import OpenHandPIMCPlayer, PIMCPlayer, make_pimc, playout
from mustamaija.games.mustamaija.solver import Solver, solve
from mustamaija.players import RandomPlayer
from mustamaija.players.registry import make_bot, sees_all
from mustamaija.search.kit import BasicKit
from mustamaija.search.pimc import rollouts, sequential_halving
from peeking import swap_hidden
from support import scaled


def _play(state: State, players: list[object]) -> State:
    while not state.is_over:
        seat = state.to_act
        p = players[seat]
        step = p.act_open(state) if sees_all(p) else p.act(state.view(seat))  # type: ignore[attr-defined]
        assert state.legal_mask() >> step & 1, (seat, step)
        state.apply(step)
    return state


def _a_choice(state: State, plans: int) -> View:
    """Return the view of the first decision, the heuristic playing, with at least ``plans`` candidate actions."""
    while len(candidate_plans(state.view(state.to_act))[0]) < plans:
        state.apply(HeuristicPlayer().act(state.view(state.to_act)))
    return state.view(state.to_act)


# -- every candidate is legal ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_candidate_plan_plays_out_legally_at_every_preset_and_player_count(preset: str) -> None:
    """Whatever the search picks, its steps are legal: every candidate of every decision of 100 deals is stepped through."""
    rules = Rules.preset(preset)
    counts = list(range(rules.min_players, rules.max_players + 1))
    checked = 0
    for i in range(scaled(100, least=30)):
        n = counts[i % len(counts)]
        s = State.from_seed(n, 104729 * i + 7, rules)
        bots = [HeuristicPlayer(seed=i * 10 + k) for k in range(n)]
        while not s.is_over:
            seat = s.to_act
            v = s.view(seat)
            if not s.in_progress and not v.legal_mask() >> DECLARE:
                plans, mine = candidate_plans(v)
                assert mine in plans and len(set(plans)) == len(plans)
                for plan in plans:
                    t = s.copy()
                    start_turn, start_phase = t.turns, t.phase
                    while t.phase == start_phase and t.turns == start_turn and not t.is_over and t.to_act == seat:
                        step = plan_step(plan, t.view(seat))
                        assert t.legal_mask() >> step & 1, (preset, n, i, plan, step)
                        t.apply(step)
                    checked += 1
            s.apply(bots[seat].act(v))
    assert checked > 5000


@pytest.mark.parametrize("preset", list(PRESETS))
def test_plays_complete_legal_deals_at_every_preset_and_player_count(preset: str) -> None:
    rules = Rules.preset(preset)
    for n in range(rules.min_players, rules.max_players + 1, 2):
        s = State.from_seed(n, 31 * n + 5, rules)
        bots: list[object] = [HeuristicPlayer(seed=k) for k in range(n)]
        bots[0] = PIMCPlayer(iters=12, seed=n)
        bots[-1] = OpenHandPIMCPlayer(iters=12, seed=n)
        assert _play(s, bots).is_over


def test_playout_finishes_a_part_done_action_and_scores_the_loser() -> None:
    s = State.from_seed(3, 8)
    s.apply(plan_step(candidate_plans(s.view(s.to_act))[0][0], s.view(s.to_act)))  # One card of a lead chosen.
    values = playout(s, random.Random(1))
    assert s.is_over and sorted(values) == [0.0, 1.0, 1.0] and values[s.loser] == 0.0


def test_heuristic_plan_is_the_heuristic_players_action() -> None:
    """The whole action of heuristic_plan (with the player's weights) is what the player spells out step by step.

    The player's exact play of small endgames is off here: the plan is the rules only.
    """
    compared = ties = 0
    for seed in range(60):
        s = State.from_seed(2 + seed % 4, seed)
        bots = [HeuristicPlayer(seed=k, endgame_cards=0) for k in range(s.n)]
        while not s.is_over:
            seat = s.to_act
            view = s.view(seat)
            t = s.copy()
            plan = heuristic_plan(t, weights=Weights())
            t._do_lead(plan) if isinstance(plan, int) else t._do_beat(seat, plan)
            mark = s.nlog
            while s.nlog == mark:
                s.apply(bots[seat].act(s.view(seat)))
            if s.last_action() != t.last_action():
                # Only an exact tie between two leads may differ: the player breaks ties at random, the plan does not.
                played = s.last_action()
                assert isinstance(played, Lead) and isinstance(plan, int), (seed, played, t.last_action())
                ctx = H._ctx_from_view(view, Weights())
                values = H._values(ctx, ctx.hand)
                two = ctx.alive == 2
                diff = H._score_lead(ctx, played.cards, values, two) - H._score_lead(ctx, plan, values, two)
                assert abs(diff) <= 1e-6, (seed, played, plan, diff)  # The player's tie noise is below 1e-6.
                ties += 1
            compared += 1
    assert compared > 1000 and ties < compared // 50


# -- no peeking --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_same_view_same_decision_whatever_the_hidden_cards(players: int, seed: int) -> None:
    s = State.from_seed(players, seed)
    bots = [HeuristicPlayer(seed=k) for k in range(players)]
    rng = random.Random(seed)
    for _ in range(rng.randrange(8, 20)):  # Somewhere into the deal, the talon still full of secrets.
        s.apply(bots[s.to_act].act(s.view(s.to_act)))
    while s.in_progress or len(candidate_plans(s.view(s.to_act))[0]) < 2:
        s.apply(bots[s.to_act].act(s.view(s.to_act)))
    seat = s.to_act
    t = swap_hidden(s, seat)
    u = sample_state(s.view(seat), random.Random(99))
    assert t.hands != s.hands and t.view(seat) == s.view(seat) == u.view(seat)
    decisions = []
    for state in (s, t, u):
        bot = PIMCPlayer(iters=120, seed=7)
        step = bot.act(state.view(seat))
        decisions.append((step, bot.stats["root"]))
    assert decisions[0] == decisions[1] == decisions[2]


def test_the_open_hand_player_does_see_the_hidden_cards() -> None:
    """The control for the test above: the same swap of hidden cards changes the open-hand player's playouts."""
    differ = 0
    for seed in range(30):
        s = State.from_seed(2 + seed % 3, seed)
        bots = [HeuristicPlayer(seed=k) for k in range(s.n)]
        for _ in range(6):
            s.apply(bots[s.to_act].act(s.view(s.to_act)))
        while s.in_progress:
            s.apply(bots[s.to_act].act(s.view(s.to_act)))
        seat = s.to_act
        if len(candidate_plans(s.view(seat))[0]) < 2 or not s.talon_size:
            continue
        roots = []
        for state in (s, swap_hidden(s, seat)):
            oh = OpenHandPIMCPlayer(seed=7)
            oh.act_open(state)
            roots.append(oh.stats["root"])
        differ += roots[0] != roots[1]
    assert differ >= 3


def test_open_hand_refuses_views_and_says_it_sees_all() -> None:
    s = State.from_seed(3, 2)
    bot = make_bot("open-hand-pimc:iters=5", seed=1)
    assert sees_all(bot) and not sees_all(make_bot("pimc:iters=5", seed=1))
    with pytest.raises(TypeError, match="act_open"):
        bot.act(s.view(s.to_act))


# -- the budget -------------------------------------------------------------------------------------


def test_sequential_halving_spends_most_samples_on_the_best_arms() -> None:
    means = [0.1, 0.5, 0.45, 0.9, 0.2, 0.3, 0.0, 0.6]
    calls = []

    def run(arms: list[int], samples: int, seconds: float | None) -> tuple[list[float], int]:
        calls.append((list(arms), samples))
        return [means[a] * samples for a in arms], samples

    best, stats = sequential_halving(run, len(means), 0, 240, None)
    assert best == 3
    assert [len(a) for a, _ in calls] == [8, 4, 2]  # ceil(log2 8) rounds, halving each time.
    assert sum(n * len(a) for a, n in calls) <= 240
    assert stats[3][0] > stats[1][0] > stats[0][0]


def test_sequential_halving_breaks_ties_for_the_preferred_arm() -> None:
    best, _ = sequential_halving(lambda arms, n, s: ([0.5 * n] * len(arms), n), 5, 3, 50, None)
    assert best == 3


def test_rollouts_share_the_sampled_deals_between_candidates() -> None:
    s = State.from_seed(4, 9)
    v = s.view(s.to_act)
    _, mine = candidate_plans(v)
    kit = GAME.search_kit()
    totals, squares, used = rollouts(kit, v, [mine, mine], v.seat or 0, 25, seed=3)
    assert used == 25 and totals[0] == totals[1]  # The same plan on the same deals: the same result.
    assert -25 <= totals[0] <= 0 and squares[0] == -totals[0]  # Returns are -1 (lost) or 0.
    again, _, _ = rollouts(kit, v, [mine], v.seat or 0, 25, seed=3)
    assert again[0] == totals[0]


def test_iterations_and_time_budgets() -> None:
    v = _a_choice(State.from_seed(4, 12), 3)
    bot = PIMCPlayer(iters=90, seed=1)
    assert v.legal_mask() >> bot.act(v) & 1
    assert bot.stats["candidates"] >= 3 and 0 < bot.stats["iterations"] <= 90
    timed = PIMCPlayer(time=0.2, seed=1)
    assert v.legal_mask() >> timed.act(v) & 1
    assert timed.stats["iterations"] > 0 and timed.stats["seconds"] < 2.0
    with pytest.raises(ValueError, match="iters"):
        PIMCPlayer(iters=0)
    with pytest.raises(ValueError, match="time"):
        PIMCPlayer(time=-1)


def test_the_plan_is_kept_for_the_rest_of_the_action() -> None:
    for seed in range(40):
        s = State.from_seed(3, seed)
        v = s.view(s.to_act)
        plans, _ = candidate_plans(v)
        bot = PIMCPlayer(iters=30, seed=seed)
        step = bot.act(v)
        if step == STOP or not any(isinstance(p, int) and p.bit_count() > 1 for p in plans):
            continue
        s.apply(step)
        if s.phase != 0:
            continue
        searched = bot.stats
        s.apply(bot.act(s.view(s.to_act)))
        assert bot.stats is searched  # No new search between the cards of one lead.
        return
    pytest.fail("no multi-card lead in 40 deals")


def test_a_part_done_action_without_a_plan_is_finished_legally() -> None:
    for seed in range(60):
        s = State.from_seed(4, seed)
        step = HeuristicPlayer(seed=1).act(s.view(s.to_act))
        s.apply(step)
        if s.phase == 0 and s.sel:  # A lead begun by somebody else (a restored session).
            bot = PIMCPlayer(iters=20, seed=1)
            assert s.legal_mask() >> bot.act(s.view(s.to_act)) & 1
            return
    pytest.fail("no part-done lead found")


def test_two_player_endgame_goes_to_the_solver() -> None:
    rng = random.Random(5)
    solved = 0
    for _ in range(40):
        cards = rng.sample([c for c in range(52) if c != QS], 7)
        s = State.from_position([cards[:4], [QS, *cards[4:]]], attacker=0, trump_suit=rng.randrange(4))
        if not solve(s, all_leads=False).attacker_safe or s.legal_mask() & (s.legal_mask() - 1) == 0:
            continue
        hands = tuple(s.hands)
        bot = PIMCPlayer(iters=50, seed=0)
        while s.phase == 0 and not s.is_over:
            s.apply(bot.act(s.view(0)))
            assert bot.stats.get("solver") or bot.stats.get("forced")
        lead = s.led if not s.is_over else hands[0]
        assert Solver(s.rules, s.trump, 2).lead_safe(hands, 0, lead, 0)
        solved += 1
    assert solved >= 5


def test_declares_a_marriage_as_the_heuristic_does() -> None:
    rules = Rules.preset("salmi")
    s = State.from_position([["KH", "QH", "2C", "5D"], ["QS", "3D", "4C"], ["6C", "7C", "8C"]], attacker=0,
                            trump_suit=None, rules=rules)
    v = s.view(0)
    step = PIMCPlayer(iters=30, seed=0).act(v)
    assert step == HeuristicPlayer(seed=0).act(v) and step >= DECLARE


def test_root_parallelism_adds_up_the_workers() -> None:
    v = _a_choice(State.from_seed(4, 12), 2)
    bot = make_pimc({"iters": 60, "workers": 2}, seed=5)
    assert v.legal_mask() >> bot.act(v) & 1
    assert bot.stats["iterations"] >= 60


def test_the_kit_reaches_the_workers_after_finishing_an_action_by_the_heuristic() -> None:
    # Root parallelism pickles the kit. An action begun without a plan is finished by a heuristic player the kit
    # keeps, whose compiled frozen Weights could not be unpickled (FrozenInstanceError) until they pickled by value.
    s = State.from_seed(3, 8)
    s.apply(plan_step(candidate_plans(s.view(s.to_act))[0][0], s.view(s.to_act)))  # One card of a lead chosen.
    bot = make_pimc({"iters": 60, "workers": 2}, seed=5)
    view = s.view(s.to_act)
    step = bot.act(view)  # Finished by the kit's heuristic: the kit keeps one now.
    assert view.legal_mask() >> step & 1
    s.apply(step)
    while s.in_progress:
        s.apply(bot.act(s.view(s.to_act)))
    choice = _a_choice(s, 2)
    assert choice.legal_mask() >> bot.act(choice) & 1
    assert pickle.loads(pickle.dumps(bot.kit)).candidates(choice) == bot.kit.candidates(choice)


def test_registry_parameters() -> None:
    bot = make_bot("pimc:iters=25:solver=false", seed=3)
    assert isinstance(bot, PIMCPlayer) and bot.iters == 25 and bot.endgame is None
    with pytest.raises((ValueError, Exception), match="depth"):
        make_bot("pimc:depth=3", seed=1)


def test_beats_random_players() -> None:
    lost = 0
    for i in range(scaled(12, least=4)):
        s = State.from_seed(2, 700 + i)
        hero = i % 2
        bots: list[object] = [RandomPlayer(seed=i), RandomPlayer(seed=i + 1)]
        bots[hero] = PIMCPlayer(iters=40, seed=i)
        _play(s, bots)
        lost += s.loser == hero
    assert lost <= 1


def _whole_actions_matching_the_player(weights: Weights) -> tuple[int, int]:
    """Count the whole actions of heuristic self-play that ``heuristic_plan`` with ``weights`` reproduces, of all."""
    same = total = 0
    for players in (2, 3, 4):
        for seed in range(12):
            s = State.from_seed(players=players, seed=seed)
            bots = [HeuristicPlayer(seed=seed * 8 + i, endgame_cards=0) for i in range(players)]
            while not s.is_over:
                if not s.in_progress:
                    planned = s.copy()
                    apply_plan(planned, heuristic_plan(planned, None, weights))
                    played, seat, before = s.copy(), s.to_act, s.nlog
                    while played.nlog == before:
                        played.apply(bots[seat].act(played.view(seat)))
                    same += planned.actions() == played.actions()
                    total += 1
                s.apply(bots[s.to_act].act(s.view(s.to_act)))
    return same, total


def test_the_playouts_play_as_the_heuristic_player_does() -> None:
    # The playouts model the players a search meets: with the rollout weights (which break circulations sooner)
    # about one action in six differed from the player's; with the player's own, only where the two draw
    # differently (ties between equally scored leads, random leads that end an endless circulation).
    same, total = _whole_actions_matching_the_player(PLAYOUT_WEIGHTS)
    assert total > 1500 and total - same <= total // 100, (same, total)
    rollout_same, _ = _whole_actions_matching_the_player(ROLLOUT_WEIGHTS)
    assert total - rollout_same > total // 10
    state = State.from_seed(players=3, seed=4)
    a, b = state.copy(), state.copy()
    MustamaijaKit().playout(a, random.Random(5))
    heuristic_play_out(b, random.Random(5), EndgameSolver(max_cards=ENDGAME_CARDS), PLAYOUT_WEIGHTS)
    assert a.actions() == b.actions()


# -- a playout stops once the searching seat is safe --------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_playout_stopped_once_the_seat_is_safe_gives_the_whole_playouts_return(preset: str) -> None:
    # PIMC and the hints ask one seat's return of every playout (kit.playout_return). Stopping once that seat
    # cannot lose must give, for every seat, the return the whole playout gives, with and without exact endgames;
    # a playout that does not stop is the whole playout, move for move.
    rng = random.Random(f"safe {preset}")
    rules = Rules.preset(preset)
    endgame = EndgameSolver(max_cards=ENDGAME_CARDS)
    stopped = whole = 0
    for i in range(scaled(150, least=60)):
        s = State.from_seed(players=rng.choice([2, 3, 4]), seed=rng.randrange(10**9), rules=rules)
        for _ in range(rng.randrange(160)):  # Random play to anywhere in the deal, part-done actions too.
            if s.is_over:
                break
            s.apply(rng.choice(list(s.legal_actions())))
        for solver in (endgame, None):
            full = s.copy()
            assert heuristic_play_out(full, random.Random(i), solver, PLAYOUT_WEIGHTS) is False
            assert full.is_over
            for seat in range(s.n):
                part = s.copy()
                if heuristic_play_out(part, random.Random(i), solver, PLAYOUT_WEIGHTS, seat):
                    stopped += 1
                    assert not part.is_over and seat != full.loser
                    assert part.actions() == full.actions()[: len(part.actions())]
                else:
                    whole += 1
                    assert part == full and part.actions() == full.actions()
        kit = MustamaijaKit()
        for seat in range(s.n):
            full = s.copy()
            kit.playout(full, random.Random(i))
            assert kit.playout_return(s.copy(), random.Random(i), seat) == GAME.returns(full)[seat]
    assert stopped > 40 and whole > 40, (stopped, whole)


def test_the_default_kit_plays_the_whole_deal_for_one_seats_return() -> None:
    s = State.from_seed(players=3, seed=2)
    full = s.copy()
    kit = BasicKit(GAME)
    kit.playout(full, random.Random(4))
    for seat in range(3):
        part = s.copy()
        assert kit.playout_return(part, random.Random(4), seat) == GAME.returns(full)[seat]
        assert part.is_over and part.actions() == full.actions()
