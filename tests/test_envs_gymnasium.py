"""The single-agent Gymnasium environment: Gymnasium's checker, the mask, the bots, seeding and rewards."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mustamaija.envs  # noqa: F401 - registers the Gymnasium ids
from mustamaija.core.errors import IllegalActionError, MustamaijaError
from mustamaija.envs.gym_env import SingleAgentEnv


@pytest.mark.parametrize(
    ("players", "preset", "opponents"),
    [(2, "standard", "random"), (3, "salmi", "heuristic"), (6, "wikipedia", "random"), (8, "kurki-suonio", "heuristic")],
)
def test_gymnasium_check_env_passes(players: int, preset: str, opponents: str) -> None:
    env = gymnasium.make("mustamaija/Mustamaija-v0", players=players, preset=preset, opponents=opponents)
    check_env(env.unwrapped)


def _play(env: SingleAgentEnv, seed: int) -> tuple[float, bool, bool, int]:
    """Play a deal with uniformly random legal steps for the learner."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.any()
        assert set(np.flatnonzero(mask)) == set(env.game_state.legal_actions())
        assert env.game_state.to_act == env.seat
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            assert not env.action_masks().any()
            return float(reward), terminated, truncated, steps
        assert reward == 0.0


def test_the_learner_acts_only_on_its_turn_and_is_rewarded_at_the_end() -> None:
    env = SingleAgentEnv(players=4, opponents=["heuristic", "random", "random"], seat=2)
    outcomes = set()
    for seed in range(12):
        reward, terminated, _, _ = _play(env, seed)
        state = env.game_state
        assert terminated and state.finished
        assert reward == (-1.0 if state.loser == 2 else 0.0)
        outcomes.add(reward)
    assert outcomes == {-1.0, 0.0}


def test_same_seed_same_game_and_a_random_seat_without_a_fixed_one() -> None:
    a = SingleAgentEnv(players=3, opponents="heuristic")
    b = SingleAgentEnv(players=3, opponents="heuristic")
    assert _play(a, 21) == _play(b, 21)
    assert a.game_state == b.game_state
    seats = set()
    for seed in range(12):
        a.reset(seed=seed)
        seats.add(a.seat)
    assert seats == {0, 1, 2}


def test_stopped_deals_truncate() -> None:
    env = SingleAgentEnv(players=3, max_turns=3, seat=0)
    reward, terminated, truncated, _ = _play(env, 1)
    assert (reward, terminated, truncated) == (0.0, False, True)


def test_illegal_steps_lose_or_raise() -> None:
    env = SingleAgentEnv(players=2, seat=0)
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    strict = SingleAgentEnv(players=2, seat=0, illegal_action="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="give one opponent spec, or 2"):
        SingleAgentEnv(players=3, opponents=["random"])
    with pytest.raises(ValueError, match="bad seat 3"):
        SingleAgentEnv(players=3, seat=3)
    with pytest.raises(MustamaijaError, match="unknown Mustamaija bot 'nobody'"):
        SingleAgentEnv(players=3, opponents="nobody")
    with pytest.raises(ValueError, match="bad illegal_action 'ignore'"):
        SingleAgentEnv(illegal_action="ignore")
    env = SingleAgentEnv(players=2, render_mode="ansi", seat=1)
    env.reset(seed=0)
    assert env.render().startswith("seat 1 |")
