"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every preset and player count, and its contract."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mustamaija import PRESETS, Rules, State
from mustamaija.core.errors import RulesError
from mustamaija.core.registry import games, get_game
from mustamaija.envs import ENV_NAMES, make_env, mustamaija_v0
from mustamaija.envs.aec import mask_array, raw_env
from mustamaija.games.mustamaija.observation import MAX_SEATS, OBS_SIZE, PLANES, SCALARS, offset
from mustamaija.games.mustamaija.sampling import sample_state

TABLES = [(preset, n) for preset, rules in PRESETS.items() for n in range(2, rules.max_players + 1)]


@pytest.mark.parametrize(("preset", "players"), TABLES, ids=[f"{p}-{n}p" for p, n in TABLES])
def test_pettingzoo_api_and_seed_tests_pass(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo's test is silent: no warning of any kind.
        api_test(mustamaija_v0.env(players=players, preset=preset), num_cycles=400)
        seed_test(lambda: mustamaija_v0.env(players=players, preset=preset), num_cycles=400)
    # The classic dict observation passes too; PettingZoo warns about dicts for any game but its own.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(mustamaija_v0.env(players=players, preset=preset, observation="dict"), num_cycles=100)


def _play_out(env: Any, pick: Any) -> dict[str, float]:
    final: dict[str, float] = {}
    while env.agents:
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[env.agent_selection] = reward
            env.step(None)
        else:
            env.step(pick(obs))
    return final


def test_rewards_come_at_the_end_minus_one_for_the_loser() -> None:
    env = mustamaija_v0.env(players=4)
    rng = random.Random(1)
    for seed in range(5):
        env.reset(seed=seed)
        total = 0.0
        while env.agents:
            _, reward, terminated, truncated, info = env.last()
            if not (terminated or truncated):
                assert reward == 0.0  # Nothing before the end of the deal.
                env.step(rng.choice(list(info["action_mask"].nonzero()[0])))
            else:
                assert terminated and not truncated
                total += reward
                env.step(None)
        assert total == -1.0
        state = env.unwrapped.game_state
        assert state.finished and env.unwrapped.rewards == {}


def test_a_stopped_deal_truncates_every_agent_with_reward_zero() -> None:
    env = raw_env(players=3, max_turns=2)
    env.reset(seed=0)
    final: dict[str, float] = {}
    while env.agents:
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            final[env.agent_selection] = reward
            env.step(None)
        else:
            env.step(int(info["action_mask"].nonzero()[0][0]))
    assert final == {"player_0": 0.0, "player_1": 0.0, "player_2": 0.0}
    assert env.game_state.stopped and env.game_state.turns == 2


def test_the_agent_to_act_is_the_seat_to_act_and_its_mask_is_the_legal_steps() -> None:
    env = raw_env(players=3, preset="salmi")
    classic = raw_env(players=3, preset="salmi", observation="dict")
    env.reset(seed=11)
    classic.reset(seed=11)
    rng = random.Random(3)
    for _ in range(200):
        state = env.game_state
        if state.is_over:
            break
        agent = env.agent_selection
        assert agent == f"player_{state.to_act}"
        mask = env.infos[agent]["action_mask"]
        assert mask.dtype == np.int8 and np.array_equal(mask, classic.observe(agent)["action_mask"])
        assert set(np.flatnonzero(mask)) == set(state.legal_actions())
        assert np.array_equal(env.observe(agent), classic.observe(agent)["observation"])
        for other in env.agents:
            if other != agent:
                assert not env.infos[other]["action_mask"].any()
                assert not classic.observe(other)["action_mask"].any()
        step = rng.choice(state.legal_actions())
        env.step(step)
        classic.step(step)


def test_observations_depend_on_the_view_only() -> None:
    # A state resampled from a seat's view gives that seat the same observation, whatever the hidden cards are.
    rng = random.Random(5)
    for players, preset in ((2, "standard"), (5, "wikipedia"), (8, "kurki-suonio-marriage")):
        s = State.from_seed(players, 7, Rules.preset(preset))
        for _ in range(60):
            s.apply(rng.choice(s.legal_actions()))
        for seat in range(players):
            a = np.zeros(OBS_SIZE, np.float32)
            b = np.zeros(OBS_SIZE, np.float32)
            get_game("mustamaija").encode(s.view(seat), a)
            guess = sample_state(s.view(seat), random.Random(seat))
            get_game("mustamaija").encode(guess.view(seat), b)
            assert np.array_equal(a, b)
            assert guess.hands != s.hands or players == 2 or s.talon_size == 0


def test_the_observation_layout_is_as_documented() -> None:
    assert OBS_SIZE == 52 * len(PLANES) + sum(w for _, w in SCALARS) == 1056
    s = State.from_seed(4, 2)
    v = s.view(2)
    obs = np.zeros(OBS_SIZE, np.float32)
    get_game("mustamaija").encode(v, obs)
    assert set(np.flatnonzero(obs[offset("hand"):offset("hand") + 52])) == {c for c in range(52) if v.hand >> c & 1}
    assert set(np.flatnonzero(obs[offset("unseen"):offset("unseen") + 52])) == {c for c in range(52) if v.unseen >> c & 1}
    # Relative seats: the viewer is 0, the attacker is (attacker - viewer) mod n.
    assert obs[offset("attacker") + (v.attacker - 2) % 4] == 1.0
    assert obs[offset("seated"):offset("seated") + MAX_SEATS].tolist() == [1, 1, 1, 1, 0, 0, 0, 0]
    assert obs[offset("phase")] == 1.0  # lead
    assert obs[offset("trump") + 4] == 1.0  # no trump turned yet (standard: after the first lead)
    assert obs[offset("talon_size")] == pytest.approx(v.talon_size / 52)
    assert obs.min() >= 0.0 and obs.max() <= 1.0


def test_every_rule_option_is_an_argument_and_bad_ones_are_rejected() -> None:
    env = raw_env(players=6, preset="wikipedia", hand_size=6, max_lead=3, trump="fixed", trump_suit="H",
                  next_dealer="loser", max_turns=500, spades_can_be_trump=True, attack_limit="after_talon",
                  trump_turn="after_deal")
    assert env.rules == Rules(hand_size=6, max_lead=3, trump="fixed", trump_suit="H", next_dealer="loser", max_turns=500,
                              spades_can_be_trump=True, attack_limit="after_talon", trump_turn="after_deal")
    env.reset(seed=1)
    assert env.game_state.trump == 1
    with pytest.raises(RulesError, match="V1: 7 players cannot play with hand size 5"):
        raw_env(players=7)
    with pytest.raises(RulesError, match="unknown rule key 'hand_sise'"):
        raw_env(hand_sise=3)
    with pytest.raises(RulesError, match="unknown preset 'bridge'"):
        raw_env(preset="bridge")
    with pytest.raises(ValueError, match="bad render_mode 'rgb'"):
        raw_env(render_mode="rgb")


def test_made_by_name_and_rendered() -> None:
    assert ENV_NAMES == tuple(f"{game.env_name}_v0" for game in games()) == ("black_maria_v0", "mustamaija_v0")
    env = make_env("mustamaija_v0", players=2, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str) and text.startswith("spectator | lead | turn 0")
    assert env.unwrapped.metadata["name"] == "mustamaija_v0"
    with pytest.raises(KeyError, match="unknown environment 'hearts_v0'"):
        make_env("hearts_v0")


def test_same_seed_same_deal_and_illegal_steps_are_refused() -> None:
    a, b = raw_env(players=3), raw_env(players=3)
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.game_state == b.game_state
    a.reset()
    b.reset(seed=10)
    assert a.game_state != b.game_state
    legal = a.game_state.legal_mask()
    illegal = next(s for s in range(57) if not legal >> s & 1)
    with pytest.raises(ValueError):
        a.step(illegal)
    with pytest.raises(ValueError, match="give a step, not None"):
        a.step(None)
    assert mask_array(0b101, 4).tolist() == [1, 0, 1, 0]


def test_observations_are_encoded_once_per_position_read_only_and_always_fresh() -> None:
    env = mustamaija_v0.env(players=3)
    env.reset(seed=2)
    game = env.unwrapped.game_spec
    rng = random.Random(2)
    kept: list[tuple[np.ndarray, np.ndarray, dict[str, Any], np.ndarray]] = []
    for _ in range(150):
        if not env.agents:
            break
        agent = env.agent_selection
        obs, _, terminated, truncated, info = env.last()
        assert env.observe(agent) is obs  # The same position: no second encoding.
        want = np.zeros(game.obs_size, np.float32)
        game.encode(env.unwrapped.game_state.view(env.unwrapped._seat[agent]), want)
        assert np.array_equal(obs, want)  # Equal to a fresh encoding of the seat's view, whatever came before.
        for array in (obs, info["action_mask"]):
            assert not array.flags.writeable
            with pytest.raises(ValueError, match="read-only"):
                array[0] = 1
        kept.append((obs, obs.copy(), info, info["action_mask"].copy()))
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
    # Nothing handed out earlier changed while the deal went on.
    for obs, copy, info, mask in kept:
        assert np.array_equal(obs, copy) and np.array_equal(info["action_mask"], mask)


def test_the_wrappers_are_pettingzoos_and_keep_their_order_checks(caplog: pytest.LogCaptureFixture) -> None:
    from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper

    env = mustamaija_v0.env(players=2)
    assert isinstance(env, OrderEnforcingWrapper) and isinstance(env.env, AssertOutOfBoundsWrapper)
    assert str(env) == "mustamaija_v0"
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        env.last()
    with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before step"):
        env.step(0)
    env.reset(seed=1)
    assert env.num_agents == 2 and env.agents == ["player_0", "player_1"]
    with pytest.raises(AssertionError, match="action is not in action space"):
        env.step(57)
    with pytest.raises(AssertionError, match="action is not in action space"):
        env.step(-1)
    legal = int(np.flatnonzero(env.last()[4]["action_mask"])[0])
    env.step(np.int64(legal))  # Numpy integers take PettingZoo's own check, and pass it.
    while env.agents:
        _, _, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(info["action_mask"])[0]))
    env.step(None)  # PettingZoo's wrapper logs a warning and does nothing.
    assert "step() called after all agents are terminated or truncated" in caplog.text
