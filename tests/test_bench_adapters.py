"""``mustamaija bench``: every game's random play and adapters, and the sections games add through their game objects."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mustamaija.core.errors import RulesError
from mustamaija.core.registry import DEFAULT_GAME, game_names, get_game


def bench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "mustamaija", "bench", *args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=300)


def _plays(game: Any, players: int) -> bool:
    """Return whether ``players`` can play the game's first preset."""
    try:
        game.check_players(game.make_rules(), players)
    except RulesError:
        return False
    return True


def _check_rates(a: dict[str, Any]) -> None:
    assert a["engine_steps_per_s"] > a["pettingzoo_steps_per_s"] > 0
    assert a["openspiel_actions_per_s"] > 0
    # The overhead is the adapter's time per step over the engine's, minus one.
    assert a["pettingzoo_overhead"] == pytest.approx(a["engine_steps_per_s"] / a["pettingzoo_steps_per_s"] - 1)
    assert a["openspiel_overhead"] == pytest.approx(a["engine_steps_per_s"] / a["openspiel_actions_per_s"] - 1)
    # Reading only the mask skips the observation, the rest of the loop is the same.
    assert a["pettingzoo_mask_only_steps_per_s"] > 0
    assert a["pettingzoo_mask_only_overhead"] == pytest.approx(a["engine_steps_per_s"] / a["pettingzoo_mask_only_steps_per_s"] - 1)
    # An environment that does nothing runs the same loop faster than any game's.
    assert a["pettingzoo_floor_steps_per_s"] > a["pettingzoo_mask_only_steps_per_s"]
    assert a["pettingzoo_floor_overhead"] == pytest.approx(a["engine_steps_per_s"] / a["pettingzoo_floor_steps_per_s"] - 1)
    # Making a new observation at each step is part of that floor for any environment whose observations are kept.
    assert a["pettingzoo_floor_fresh_steps_per_s"] > 0 and a["pettingzoo_floor_fresh_overhead"] == pytest.approx(
        a["engine_steps_per_s"] / a["pettingzoo_floor_fresh_steps_per_s"] - 1)
    # The vector environment's speedup is its learner steps/s over SyncVectorEnv's, for as many deals.
    assert a["vector_envs"] >= 1 and a["vector_steps_per_s"] > 0 and a["sync_vector_steps_per_s"] > 0
    assert a["vector_speedup"] == pytest.approx(a["vector_steps_per_s"] / a["sync_vector_steps_per_s"])


def test_bench_adapters_section_measures_every_game(tmp_path: Path) -> None:
    r = bench("--section", "adapters", "--seconds", "0.2", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out["games"]) == set(game_names())
    for figures in out["games"].values():
        _check_rates(figures["adapters"])
    # The top level repeats the default game's figures, as when the bench measured one game.
    assert out["adapters"] == out["games"][DEFAULT_GAME]["adapters"]


def test_bench_engine_covers_every_game_within_its_player_counts(tmp_path: Path) -> None:
    r = bench("--seconds", "0.05", "--players", "2,3,8", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert list(out["games"]) == [DEFAULT_GAME, *sorted(set(game_names()) - {DEFAULT_GAME})]
    for name, figures in out["games"].items():
        game = get_game(name)
        assert figures["preset"] == game.presets[0]
        assert set(figures["players"]) == {str(n) for n in (2, 3, 8) if _plays(game, n)}
        for row in figures["players"].values():
            assert row["decisions_per_s"] == pytest.approx(row["games_per_s"] * row["decisions_per_game"], rel=1e-6)
    assert out["players"] == out["games"][DEFAULT_GAME]["players"]


def test_game_sections_come_from_the_game_objects(tmp_path: Path) -> None:
    help_text = bench("--help", cwd=tmp_path).stdout
    for game in map(get_game, game_names()):
        for section in game.bench_sections():
            assert section.name in help_text
            assert all(section.flag(option) in help_text for option in section.options)
    owner = next(get_game(n) for n in game_names() if any(s.name == "solver" for s in get_game(n).bench_sections()))
    others = [n for n in game_names() if n != owner.name]
    r = bench("--section", "engine,solver", "--seconds", "0.05", "--players", "4", "--solver-count", "1",
              "--solver-sizes", "3+3", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [row["size"] for row in out["games"][owner.name]["solver"]] == ["3+3"]
    assert all("solver" not in out["games"][n] and out["games"][n]["players"] for n in others)
    text = bench("--game", ",".join(others), "--section", "solver", cwd=tmp_path)
    assert text.returncode == 0 and "solver" not in text.stdout


def test_bench_refuses_bad_games_presets_and_section_options(tmp_path: Path) -> None:
    r = bench("--game", "bridge", cwd=tmp_path)
    assert r.returncode == 2 and "unknown game 'bridge'" in r.stderr
    single = next(get_game(n) for n in game_names() if len(get_game(n).presets) == 1)
    r = bench("--game", single.name, "--preset", "no-such-preset", cwd=tmp_path)
    assert r.returncode == 2 and f"{single.title} has no preset 'no-such-preset'" in r.stderr
    r = bench("--section", "solver", "--solver-sizes", "3+x", cwd=tmp_path)
    assert r.returncode == 2 and "bad --solver-sizes '3+x'" in r.stderr
