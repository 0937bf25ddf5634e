"""The Ray tournament backend on one local Ray instance: the same seeds give the same results as the local backend."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import ray

from mustamaija.core.errors import MustamaijaError
from mustamaija.tournament import TournamentSettings, run_tournament
from mustamaija.tournament.backends import BACKENDS, get_backend


def _games(result: Any) -> list[tuple[Any, ...]]:
    return [(g.deal, g.rotation, g.scores, g.turns, g.decisions) for g in result.games]


def _without_timings(obj: dict[str, Any]) -> dict[str, Any]:
    obj = json.loads(json.dumps(obj))
    obj.pop("seconds")
    for row in [*obj["bots"].values(), *obj["positions"]]:
        row.pop("us_per_decision")
    return obj


def test_ray_gives_the_local_results_in_process_and_from_the_cli(tmp_path: Path) -> None:
    # One test, so that one Ray instance serves it whichever test worker runs it.
    context = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        settings = TournamentSettings(players=3, bots=("heuristic", "random", "random"), deals=12, seed=5)
        local = run_tournament(settings, out_dir=tmp_path / "local")
        seen: list[tuple[int, int]] = []
        remote = run_tournament(settings, jobs=2, out_dir=tmp_path / "ray", backend="ray",
                                progress=lambda done, total: seen.append((done, total)))
        assert ray.is_initialized()  # The backend used the running instance and left it running.
        assert _games(remote) == _games(local)
        assert _without_timings(remote.to_json()) == _without_timings(local.to_json())
        assert seen[-1] == (12, 12) and len(seen) >= 2
        names = sorted(p.name for p in (tmp_path / "local").glob("*.json"))
        assert names == sorted(p.name for p in (tmp_path / "ray").glob("*.json")) and len(names) == 36
        for name in names:
            assert (tmp_path / "ray" / name).read_text() == (tmp_path / "local" / name).read_text()

        # Outside bots reach the Ray workers: the tasks carry this process's module path (tests/ holds the module).
        outside = TournamentSettings(players=3, bots=("outside_bots:WholePasser", "outside_bots:FirstLegal", "random"),
                                     game="black-maria", deals=2, seed=4)
        assert _games(run_tournament(outside, backend="ray")) == _games(run_tournament(outside))

        # The command joins the running instance by its address, and prints what the local backend prints.
        address = str(context.address_info["gcs_address"])
        common = ["--players", "2", "--bots", "heuristic,random", "--deals", "6", "--seed", "3", "--json"]
        runs = []
        for extra in ([], ["--backend", "ray", "--address", address]):
            out = subprocess.run([sys.executable, "-m", "mustamaija", "tournament", *common, *extra], capture_output=True,
                                 text=True, cwd=tmp_path, timeout=240)
            assert out.returncode == 0, out.stderr
            runs.append(_without_timings(json.loads(out.stdout)))
        assert runs[0] == runs[1]
        assert runs[0]["games"] == 12
    finally:
        ray.shutdown()


def test_backend_errors_are_precise() -> None:
    assert sorted(BACKENDS) == ["local", "ray"]
    with pytest.raises(MustamaijaError, match="unknown backend 'spark'"):
        get_backend("spark")
    settings = TournamentSettings(players=2, bots=("random", "random"), deals=1)
    with pytest.raises(MustamaijaError, match="an address is for the ray backend only"):
        run_tournament(settings, address="auto")
    out = subprocess.run([sys.executable, "-m", "mustamaija", "tournament", "--address", "auto", "--deals", "1"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "--address needs --backend ray" in out.stderr
