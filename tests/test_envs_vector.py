"""The vector environment: Gymnasium's checks, the deals of SyncVectorEnv step for step, autoreset, illegal steps, every game."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils import env_checker
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.utils.passive_env_checker import check_obs
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import mustamaija.envs  # noqa: F401 - registers the Gymnasium ids
from mustamaija.core.errors import IllegalActionError
from mustamaija.core.registry import games
from mustamaija.envs import env_name, gym_id, make_vector_env
from mustamaija.envs.gym_env import SingleAgentEnv
from mustamaija.envs.vector import VectorSingleAgentEnv
from mustamaija.players.random import RandomPlayer

GAMES = list(games())
IDS = [g.name for g in GAMES]


def _sync(num_envs: int, mode: AutoresetMode = AutoresetMode.NEXT_STEP, **kwargs: Any) -> SyncVectorEnv:
    return SyncVectorEnv([lambda: SingleAgentEnv(**kwargs) for _ in range(num_envs)], autoreset_mode=mode)


def _steps(rng: np.random.Generator, masks: np.ndarray, illegal: bool = False) -> np.ndarray:
    """Return a random legal step per row (0 for a row with none); with ``illegal``, row 0 gets an illegal one."""
    steps = np.where(masks, rng.random(masks.shape), -1.0).argmax(axis=1)
    if illegal and masks[0].any():
        steps[0] = int(np.flatnonzero(~masks[0])[0])
    return steps


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_gymnasium_checks_that_apply_to_vector_envs_pass(game: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Gymnasium's checks warn for what they do not fail.
        vec = gymnasium.make_vec(gym_id(game), num_envs=3, players=4)  # The id's vector entry point.
        assert isinstance(vec, VectorSingleAgentEnv) and vec.spec is not None and vec.spec.id == gym_id(game)
        assert vec.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
        assert vec.single_observation_space.shape == (game.obs_size,)
        assert vec.observation_space.shape == (3, game.obs_size) and vec.observation_space.dtype == np.float32
        assert isinstance(vec.action_space, gymnasium.spaces.MultiDiscrete)
        assert vec.action_space.nvec.tolist() == [game.num_steps] * 3
        env_checker.check_space_limit(vec.observation_space, "observation")
        env_checker.check_space_limit(vec.action_space, "action")
        env_checker.check_seed_deprecation(vec)
        env_checker.check_reset_return_info_deprecation(vec)
        env_checker.check_reset_return_type(vec)
        env_checker.check_reset_options(vec)
        env_checker.check_reset_seed_determinism(vec)  # The spec says deterministic: same seeds, same observations.
        # The check steps with `if terminated or truncated`, which only one deal makes a truth value.
        env_checker.check_returned_data_not_reused(gymnasium.make_vec(gym_id(game), num_envs=1, players=4))
        obs, _ = vec.reset(seed=4)
        check_obs(obs, vec.observation_space, "reset")
        rng = np.random.default_rng(4)
        for _ in range(30):
            obs, rewards, terminated, truncated, _ = vec.step(_steps(rng, vec.action_masks()))
            check_obs(obs, vec.observation_space, "step")
            assert rewards.shape == terminated.shape == truncated.shape == (3,)
        vec.close()
        assert vec.closed


def _compare(vec: Any, sync: Any, steps: int, seed: int, illegal_every: int = 0) -> int:
    """Step both with the same steps; assert every result is the same. Return how many deals ended."""
    rng = np.random.default_rng(seed)
    got, want = vec.reset(seed=seed), sync.reset(seed=seed)
    assert data_equivalence(got, want, exact=True)
    ended = 0
    for t in range(steps):
        masks = vec.action_masks()
        assert masks.dtype == np.bool_ and np.array_equal(masks, np.stack(sync.call("action_masks")))
        actions = _steps(rng, masks, illegal=bool(illegal_every) and t % illegal_every == illegal_every - 1)
        got, want = vec.step(actions), sync.step(actions)
        for name, a, b in zip(("observations", "rewards", "terminations", "truncations", "infos"), got, want, strict=True):
            assert data_equivalence(a, b, exact=True), f"step {t}: {name} differ: {a} != {b}"
        ended += int((got[2] | got[3]).sum())
    return ended


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_same_deals_as_sync_vector_env_over_single_envs(game: Any) -> None:
    kwargs = {"game": game, "players": 4, "opponents": ["heuristic", "random", "random"]}
    ended = _compare(VectorSingleAgentEnv(3, **kwargs), _sync(3, **kwargs), steps=60, seed=11, illegal_every=23)
    assert ended >= 3


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
def test_each_autoreset_mode_gives_sync_vector_envs_results(mode: AutoresetMode) -> None:
    kwargs = {"players": 3, "seat": None}
    vec = VectorSingleAgentEnv(4, autoreset_mode=mode.value, **kwargs)
    assert vec.metadata["autoreset_mode"] is mode
    assert _compare(vec, _sync(4, mode, **kwargs), steps=50, seed=2, illegal_every=9) >= 4


def test_next_step_autoreset_deals_the_next_deal_of_the_deals_own_generator() -> None:
    vec = VectorSingleAgentEnv(2, players=3, seat=1)
    single = SingleAgentEnv(players=3, seat=1)
    obs, _ = vec.reset(seed=[7, 8])
    want, _ = single.reset(seed=7)
    assert np.array_equal(obs[0], want)
    rng = np.random.default_rng(0)
    while True:
        masks = vec.action_masks()
        assert np.array_equal(masks[0], single.action_masks())
        actions = _steps(rng, masks)
        obs, rewards, terminated, truncated, _ = vec.step(actions)
        want, reward, ended, stopped, _ = single.step(int(actions[0]))
        assert np.array_equal(obs[0], want) and (rewards[0], terminated[0], truncated[0]) == (reward, ended, stopped)
        if ended or stopped:
            break
    assert not vec.action_masks()[0].any()  # Nothing to choose: the next step deals again.
    actions[0] = 10**6  # Ignored, not refused.
    obs, rewards, terminated, truncated, infos = vec.step(actions)
    want, info = single.reset()
    assert np.array_equal(obs[0], want) and (rewards[0], terminated[0], truncated[0]) == (0.0, False, False)
    assert infos["seat"][0] == info["seat"] == 1 and not infos["illegal"][0] and not infos["returns"][0].any()
    assert np.array_equal(vec.action_masks()[0], single.action_masks())


def test_illegal_steps_lose_that_deal_or_raise_before_any_deal_moves() -> None:
    vec = VectorSingleAgentEnv(3, players=2, seat=0)
    vec.reset(seed=3)
    masks = vec.action_masks()
    actions = _steps(np.random.default_rng(1), masks, illegal=True)
    _, rewards, terminated, truncated, infos = vec.step(actions)
    assert (rewards[0], terminated[0], truncated[0]) == (-1.0, True, False)
    assert infos["illegal"].tolist() == [True, False, False] and infos["_illegal"].all()
    strict = VectorSingleAgentEnv(3, players=2, seat=0, illegal_action="raise")
    strict.reset(seed=3)
    before = [state.copy() for state in strict.get_attr("game_state")]
    actions = _steps(np.random.default_rng(1), strict.action_masks())
    actions[1] = int(np.flatnonzero(~strict.action_masks()[1])[0])
    with pytest.raises(IllegalActionError, match="deal 1: "):
        strict.step(actions)
    assert list(strict.get_attr("game_state")) == before  # Deal 0, though legal, did not move either.
    actions[1] = strict.single_action_space.n + 5
    with pytest.raises(IllegalActionError, match="deal 1: no step has the number"):
        strict.step(actions)


def test_disabled_autoreset_wants_reset_masks_and_resets_only_those_deals() -> None:
    vec = VectorSingleAgentEnv(2, players=2, seat=0, autoreset_mode=AutoresetMode.DISABLED)
    obs, _ = vec.reset(seed=5)
    rng = np.random.default_rng(5)
    done = np.zeros(2, dtype=bool)
    while not done.any():
        actions = _steps(rng, vec.action_masks())
        obs, _, terminated, truncated, _ = vec.step(actions)
        done = terminated | truncated
    with pytest.raises(RuntimeError, match=f"deal {int(np.flatnonzero(done)[0])} is over: reset it"):
        vec.step(actions)
    kept = obs[~done].copy()
    obs, infos = vec.reset(options={"reset_mask": done})
    assert np.array_equal(obs[~done], kept) and infos["_seat"].tolist() == done.tolist()
    assert vec.action_masks()[done].any(axis=1).all()
    with pytest.raises(ValueError, match="must reset at least one deal"):
        vec.reset(options={"reset_mask": np.zeros(2, dtype=bool)})
    with pytest.raises(TypeError, match="must be a numpy array"):
        vec.reset(options={"reset_mask": [True, False]})


def test_the_batch_is_one_array_copied_unless_asked_not_to() -> None:
    vec = VectorSingleAgentEnv(2, players=3)
    first, _ = vec.reset(seed=1)
    second, *_ = vec.step(_steps(np.random.default_rng(1), vec.action_masks()))
    assert not np.shares_memory(first, second)
    first[:] = 7.0  # The caller's copy: the next observations do not see it.
    assert vec.step(_steps(np.random.default_rng(2), vec.action_masks()))[0].max() <= 1.0
    shared = VectorSingleAgentEnv(2, players=3, copy=False)
    a, _ = shared.reset(seed=1)
    b, *_ = shared.step(_steps(np.random.default_rng(1), shared.action_masks()))
    assert a is b  # The one batch, rewritten in place at every call.


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_made_by_name_or_id_for_every_game_and_calls_reach_the_deals(game: Any) -> None:
    vec = make_vector_env(env_name(game), num_envs=2, players=game.min_players, opponents="heuristic")
    assert isinstance(vec, VectorSingleAgentEnv) and vec.game_spec is game
    obs, infos = vec.reset(seed=0)
    assert obs.shape == (2, game.obs_size) and infos["returns"].shape == (2, game.min_players)
    assert np.array_equal(np.stack(vec.call("action_masks")), vec.action_masks())
    assert vec.get_attr("players") == (game.min_players, game.min_players)
    vec.set_attr("illegal_action", ["lose", "raise"])
    assert vec.get_attr("illegal_action") == ("lose", "raise")
    actions = vec.action_masks().argmin(axis=1)  # An illegal step for each deal.
    with pytest.raises(IllegalActionError, match="deal 1: "):
        vec.step(actions)  # Checked before any deal moves, deal by deal as each is set.
    sync = gymnasium.make_vec(gym_id(game), num_envs=2, vectorization_mode="sync", players=game.min_players)
    assert isinstance(sync, SyncVectorEnv)  # Gymnasium's vectors stay a choice away.
    with pytest.raises(KeyError, match="unknown environment 'hearts_v0'"):
        make_vector_env("hearts_v0")


def test_arguments_and_actions_are_checked() -> None:
    with pytest.raises(ValueError, match="bad num_envs 0"):
        VectorSingleAgentEnv(0)
    with pytest.raises(ValueError, match="bad autoreset_mode 'sometimes'"):
        VectorSingleAgentEnv(2, autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="give one opponent spec, or 2"):
        VectorSingleAgentEnv(2, players=3, opponents=["random"])
    vec = VectorSingleAgentEnv(2, players=3)
    with pytest.raises(RuntimeError, match="call reset"):
        vec.action_masks()
    with pytest.raises(ValueError, match="give one seed per deal"):
        vec.reset(seed=[1, 2, 3])
    vec.reset(seed=0)
    with pytest.raises(ValueError, match=r"expected shape \(2,\), got \(3,\)"):
        vec.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(TypeError, match="steps must be integers, got an array of float64"):
        vec.step(np.zeros(2))
    with pytest.raises(ValueError, match="give one value per deal"):
        vec.set_attr("seat", [0])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_random_bots_quick_choice_is_the_random_players_own(game: Any) -> None:
    # The environments let a random bot choose among the state's legal steps, not its view's: the same list.
    rng = random.Random(0)
    state = game.deal(4, 3, game.make_rules())
    while not state.is_over:
        seat = state.to_act
        by_view, by_state = RandomPlayer(seed=seat), RandomPlayer(seed=seat)
        step = by_view.act(state.view(seat))
        assert by_state.rng.choice(state.legal_actions()) == step
        state.apply(step if rng.random() < 0.5 else rng.choice(state.legal_actions()))
