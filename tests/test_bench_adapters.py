"""``mustamaija bench --section adapters``: the research adapters' step rates against the raw engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def test_bench_adapters_section(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    r = subprocess.run([sys.executable, "-m", "mustamaija", "bench", "--section", "adapters", "--seconds", "0.2", "--json"],
                       cwd=tmp_path, capture_output=True, text=True, encoding="utf-8", env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    a = json.loads(r.stdout)["adapters"]
    assert a["engine_steps_per_s"] > a["pettingzoo_steps_per_s"] > 0
    assert a["openspiel_actions_per_s"] > 0
    # The overhead is the adapter's time per step over the engine's, minus one.
    assert a["pettingzoo_overhead"] == pytest.approx(a["engine_steps_per_s"] / a["pettingzoo_steps_per_s"] - 1)
    assert a["openspiel_overhead"] == pytest.approx(a["engine_steps_per_s"] / a["openspiel_actions_per_s"] - 1)
