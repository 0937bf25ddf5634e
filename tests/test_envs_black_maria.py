"""Black Maria in the research adapters: PettingZoo, Gymnasium and OpenSpiel, for every player count and both modes."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import api_test, seed_test

import mustamaija.openspiel  # noqa: F401 - registers the OpenSpiel games
from mustamaija.core.errors import RulesError
from mustamaija.core.registry import get_game
from mustamaija.envs import black_maria_v0, game_names, make_env
from mustamaija.envs.gym_env import SingleAgentEnv
from mustamaija.games.black_maria import State
from mustamaija.games.black_maria.observation import OBS_SIZE, offset
from mustamaija.games.black_maria.sampling import sample_state
from mustamaija.openspiel import resampler

TABLES = [(n, renege) for n in range(3, 8) for renege in (False, True)]
IDS = [f"{n}p-{'renege' if r else 'strict'}" for n, r in TABLES]


@pytest.mark.parametrize(("players", "renege"), TABLES, ids=IDS)
def test_pettingzoo_and_openspiel_tests_pass(players: int, renege: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo's test is silent: no warning of any kind.
        api_test(black_maria_v0.env(players=players, allow_renege=renege), num_cycles=200)
    seed_test(lambda: black_maria_v0.env(players=players, allow_renege=renege), num_cycles=200)
    game = pyspiel.load_game("black_maria", {"players": players, "allow_renege": renege})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_rewards_are_minus_the_penalty_points() -> None:
    assert "black-maria" in game_names()
    env = make_env("black_maria_v0", players=4)
    rng = random.Random(2)
    env.reset(seed=3)
    final: dict[str, float] = {}
    while env.agents:
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert terminated and not truncated
            final[env.agent_selection] = reward
            env.step(None)
        else:
            assert reward == 0.0
            env.step(rng.choice(list(np.flatnonzero(info["action_mask"]))))
    state = env.unwrapped.game_state
    assert final == {f"player_{s}": -float(p) for s, p in enumerate(state.points())}
    assert sum(final.values()) == -43.0


def test_observations_depend_on_the_view_only() -> None:
    rng = random.Random(4)
    s = State.from_seed(5, 9)
    for _ in range(25):
        s.apply(rng.choice(s.legal_actions()))
    for seat in range(5):
        a = np.zeros(OBS_SIZE, np.float32)
        b = np.zeros(OBS_SIZE, np.float32)
        get_game("black-maria").encode(s.view(seat), a)
        get_game("black-maria").encode(sample_state(s.view(seat), random.Random(seat)).view(seat), b)
        assert np.array_equal(a, b)
    v = s.view(s.to_act)
    obs = np.zeros(OBS_SIZE, np.float32)
    get_game("black-maria").encode(v, obs)
    assert obs[offset("phase") + 1] == 1.0  # play
    assert obs[offset("to_act")] == 1.0  # the viewer, relative seat 0
    assert obs.min() >= 0.0 and obs.max() <= 1.0


def test_arguments_gymnasium_and_errors() -> None:
    env = gymnasium.make("mustamaija/BlackMaria-v0", players=4, opponents="heuristic")
    check_env(env.unwrapped)
    single = SingleAgentEnv(game="black_maria", players=3, seat=1, opponents="random")
    single.reset(seed=1)
    assert single.action_masks().sum() > 0
    assert single.game_state.rules.allow_renege is False
    with pytest.raises(RulesError, match="B1: Black Maria is for 3 to 7 players, not 2"):
        black_maria_v0.raw_env(players=2)
    with pytest.raises(RulesError, match="unknown preset 'salmi'"):
        black_maria_v0.raw_env(preset="salmi")


def test_openspiel_ismcts_plays_a_hand_with_our_resampler_and_keys_are_sound() -> None:
    game = pyspiel.load_game("black_maria(players=4)")
    assert (game.num_distinct_actions(), game.min_utility(), game.max_utility()) == (52, -43.0, 0.0)
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=4, random_state=rs)
    bot.set_resampler(resampler(rs))
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rs.choice(outcomes, p=probs)))
    legal: dict[str, list[int]] = {}
    while not state.is_terminal():
        key = state.information_state_string()
        assert legal.setdefault(key, state.legal_actions()) == state.legal_actions()
        action = bot.step(state) if state.current_player() == 0 else int(rs.choice(state.legal_actions()))
        state.apply_action(action)
    assert sum(state.returns()) == -43.0
