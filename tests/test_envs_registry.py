"""The research adapters are built from the registry: names, modules, Gymnasium ids, OpenSpiel games, vectorised envs.

An outside game, registered through the ``mustamaija.games`` entry point of
a distribution found on the path, gets a PettingZoo environment, its
``pettingzoo.classic``-style module, a Gymnasium id and an OpenSpiel game
without a change to the adapters.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

import mustamaija.envs as envs
from mustamaija.core.registry import games
from mustamaija.envs import black_maria_v0, env_name, gym_id, make_env, mustamaija_v0
from mustamaija.envs.gym_env import SingleAgentEnv

SRC = Path(__file__).resolve().parents[1] / "src" / "mustamaija"


def test_names_ids_and_modules_come_from_the_registry() -> None:
    assert tuple(f"{g.env_name}_v0" for g in games()) == envs.ENV_NAMES
    assert envs.GYM_IDS == {"black_maria_v0": "mustamaija/BlackMaria-v0", "mustamaija_v0": "mustamaija/Mustamaija-v0"}
    for game in games():
        assert gym_id(game) in gymnasium.registry
        assert gymnasium.spec(gym_id(game)).kwargs == {"game": game.name}
        module = getattr(envs, env_name(game))
        assert module.GAME is game and module.__name__ == f"mustamaija.envs.{env_name(game)}"
        assert sys.modules[module.__name__] is module
        env = make_env(env_name(game), players=4)
        env.reset(seed=0)
        assert env.unwrapped.game_spec is game and env.unwrapped.metadata["name"] == env_name(game)
        assert module.raw_env(players=4).observation_space("player_0").shape == (game.obs_size,)
        classic = module.raw_env(players=4, observation="dict").observation_space("player_0")
        assert classic["observation"].shape == (game.obs_size,)
    assert mustamaija_v0.GAME.title == "Mustamaija" and black_maria_v0.GAME.title == "Black Maria"
    with pytest.raises(AttributeError, match="no attribute 'hearts_v0'"):
        _ = envs.hearts_v0
    with pytest.raises(ModuleNotFoundError):
        __import__("mustamaija.envs.hearts_v0")


def test_a_fresh_interpreter_imports_the_environment_modules_by_path() -> None:
    code = ("import mustamaija.envs.black_maria_v0 as m; from mustamaija.envs.mustamaija_v0 import env; "
            "e = env(players=2); e.reset(seed=1); print(m.GAME.name, e.unwrapped.metadata['name'])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["black-maria", "mustamaija_v0"]


GAME_NAMES = re.compile(r"Mustamaija(?!Error)|Black.Maria|black.maria|[\"']mustamaija[\"']|mustamaija_v0|Mustamaija-v0")


@pytest.mark.parametrize("path", ["envs", "openspiel", "cli/bench.py"])
def test_the_adapters_and_the_bench_name_no_game(path: str) -> None:
    files = sorted((SRC / path).rglob("*.py")) if (SRC / path).is_dir() else [SRC / path]
    for file in files:
        hits = [m.group() for m in GAME_NAMES.finditer(file.read_text(encoding="utf-8"))]
        assert not hits, f"{file.relative_to(SRC)} names a game: {hits}"


def _info_types(game: str, players: int, seed: int) -> dict[str, set[Any]]:
    """Play a deal of random legal steps; return the types (and array shapes) each info key took."""
    env = SingleAgentEnv(game=game, players=players, seat=0)
    rng = np.random.default_rng(seed)
    seen: dict[str, set[Any]] = defaultdict(set)
    _, info = env.reset(seed=seed)
    done = False
    while True:
        for key, value in info.items():
            seen[key].add((type(value), getattr(value, "shape", None), getattr(value, "dtype", None)))
        if done:
            return seen
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        done = terminated or truncated


@pytest.mark.parametrize("game", [g.name for g in games()])
def test_info_values_keep_their_types_through_a_deal(game: str) -> None:
    seen = _info_types(game, 4, 3)
    assert set(seen) == {"seat", "loser", "illegal", "returns"}
    assert all(len(types) == 1 for types in seen.values()), seen
    env = SingleAgentEnv(game=game, players=3, seat=1)
    env.reset(seed=2)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, _, _, info = env.step(illegal)
    assert reward == -1.0 and info["illegal"] is True and isinstance(info["loser"], int)


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("game", list(games()), ids=[g.name for g in games()])
def test_make_vec_runs_both_envs_for_hundreds_of_steps(game: Any, mode: str) -> None:
    vec: Any = gymnasium.make_vec(gym_id(game), num_envs=2, vectorization_mode=mode, players=4, opponents="random")
    _, infos = vec.reset(seed=5)
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(400):
        masks = vec.call("action_masks")
        # An env whose deal just ended resets on this step and ignores its action.
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])
        _, rewards, terminated, truncated, infos = vec.step(actions)
        assert infos["loser"].dtype.kind == "i" and infos["illegal"].dtype == np.bool_
        assert infos["returns"].shape == (2, 4) and not infos["illegal"].any()
        for k in np.flatnonzero(terminated | truncated):
            finished += 1
            assert rewards[k] == infos["returns"][k][infos["seat"][k]]
    vec.close()
    assert finished >= 2


FAKE_GAME = '''
"""An outside game for the tests: Black Maria's rules under another name."""
from mustamaija.games.black_maria.game import BlackMariaGame

class ShortMaria(BlackMariaGame):
    name = "short-maria"
    title = "Short Maria"
    long_name = "Short Maria"
    env_name = "short_maria"
    record_format = "short-maria-record/1"

GAME = ShortMaria()
'''

FAKE_SCRIPT = '''
import json, pickle
import gymnasium, numpy as np, pyspiel
import mustamaija.envs as envs
import mustamaija.openspiel
from mustamaija.core.registry import game_names
from mustamaija.envs import short_maria_v0

env = envs.make_env("short_maria_v0", players=4)
env.reset(seed=1)
steps = 0
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    env.step(None if terminated or truncated else int(np.flatnonzero(info["action_mask"])[0]))
    steps += 1
gym = gymnasium.make("mustamaija/ShortMaria-v0", players=3)
gym.reset(seed=2)
game = pyspiel.load_game("short_maria(players=5)")
pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
copy = pickle.loads(pickle.dumps(game))
print(json.dumps({"games": game_names(), "envs": list(envs.ENV_NAMES), "module": short_maria_v0.GAME.title,
                  "steps": steps, "gym": gym.unwrapped.game_spec.name, "class": type(copy).__name__,
                  "players": copy.num_players()}))
'''


def test_an_outside_game_from_an_entry_point_gets_every_adapter(tmp_path: Path) -> None:
    (tmp_path / "short_maria_game.py").write_text(FAKE_GAME, encoding="utf-8")
    info = tmp_path / "short_maria-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: short-maria\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[mustamaija.games]\nshort-maria = short_maria_game:GAME\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(FAKE_SCRIPT)], capture_output=True, text=True, env=env,
                       cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["games"] == ["black-maria", "mustamaija", "short-maria"]
    assert out["envs"] == ["black_maria_v0", "mustamaija_v0", "short_maria_v0"]
    assert out["module"] == "Short Maria" and out["gym"] == "short-maria"
    assert out["steps"] > 4 * 13 and out["class"] == "ShortMariaGame" and out["players"] == 5
