"""Both builds: the compiled modules and their pure-Python sources play the same games and pass the same engine tests.

The suite runs on the build the install made (compiled when a C compiler was
there). These tests add the other side: the engine's tests and the compiled
modules' doctests run again on the pure-Python sources (``MUSTAMAIJA_BUILD=pure``),
over a quarter of the seeded deals of the randomised tests,
and a differential test plays thousands of seeded deals through both builds
and requires the same records, masks, errors, observations, bot choices and
solver solutions. With no compiled build installed there is one build, and
the rest of the suite tests it; under ``CI=true`` a missing compiled build
fails, since CI has a compiler.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from mustamaija.build import BUILD_ENV, COMPILED, which
from support import SCALE, SCALE_ENV, scaled

ROOT = Path(__file__).resolve().parent.parent

ENGINE_TESTS = {
    "rules": ["test_bits.py", "test_cards.py", "test_legality.py", "test_rules_scenarios.py", "test_bm_rules.py", "test_bm_legality.py",
              "test_state_fast_paths.py", "test_protocol.py"],
    "invariants": ["test_stateful.py", "test_invariants.py", "test_bm_invariants.py"],
    "records and views": ["test_golden.py", "test_bm_golden.py", "test_records.py", "test_bm_records.py", "test_views.py",
                          "test_bm_views.py", "test_observation_fast.py", "test_position.py", "test_position2.py"],
    "bots": ["test_solver.py", "test_heuristic.py", "test_bm_players.py", "test_sampling.py", "test_pimc.py", "test_endgames.py",
             "test_inference.py", "test_takeback.py", "test_redraw.py"],
}
"""The engine's test files, in groups of about equal length, that run again on the pure build."""
PURE_SHARE = 0.25
"""The share of the randomised tests' seeded deals that the pure-build reruns play (tests/support.py)."""


def _env(build: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != BUILD_ENV}
    if build == "pure":
        env[BUILD_ENV] = "pure"
    return env


@pytest.fixture(scope="module")
def compiled() -> None:
    """Require the compiled build: fail under CI=true without it, else skip (the suite then tests the one build there is)."""
    if which() == "compiled":
        return
    if os.environ.get("CI") == "true":
        pytest.fail("CI=true and no compiled build is installed: the install found no C compiler or mypyc failed "
                    "(its notice says which)")
    pytest.skip("no compiled build installed: the suite tests the pure-Python build alone")


def test_the_install_compiled_every_hot_module_and_the_switch_selects_the_sources(compiled: None) -> None:
    for name in COMPILED:
        assert not importlib.import_module(name).__file__.endswith(".py"), f"{name} is not compiled"
    # Compiled searches call it so that the interpreter runs signal handlers (a solve's timer): it must stay interpreted.
    assert importlib.import_module("mustamaija.core.interrupt").__file__.endswith(".py")
    script = ("import importlib, json; from mustamaija.build import COMPILED, which; "
              "print(json.dumps([which(), [importlib.import_module(m).__file__ for m in COMPILED]]))")
    out = subprocess.run([sys.executable, "-c", script], env=_env("pure"), capture_output=True, text=True, check=True)
    build, files = json.loads(out.stdout)
    assert build == "pure Python" and all(f.endswith(".py") for f in files), files


def _digest(build: str, deals: int) -> dict[str, object]:
    out = subprocess.run([sys.executable, str(ROOT / "tests" / "build_digest.py"), str(deals)], env=_env(build),
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"the {build} build failed:\n{out.stderr[-3000:]}"
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_both_builds_play_the_same_deals_bots_and_solutions(compiled: None) -> None:
    with ThreadPoolExecutor(2) as pool:
        fast, pure = pool.map(lambda build: _digest(build, scaled(1000, least=200)), ["compiled", "pure"])
    assert (fast["build"], pure["build"]) == ("compiled", "pure Python")
    digests_fast, digests_pure = fast["digests"], pure["digests"]
    assert isinstance(digests_fast, dict) and isinstance(digests_pure, dict)
    assert digests_fast.keys() == digests_pure.keys()
    differ = [f"{game} {part}" for game, parts in digests_pure.items() for part, value in parts.items()
              if digests_fast[game][part] != value]
    assert not differ, f"the builds differ in: {', '.join(differ)} (python tests/build_digest.py, with and without {BUILD_ENV}=pure)"


@pytest.mark.parametrize("group", [*ENGINE_TESTS, "doctests of the compiled modules"])
def test_the_engine_tests_pass_on_the_pure_build(compiled: None, group: str) -> None:
    if group in ENGINE_TESTS:
        paths = [str(ROOT / "tests" / name) for name in ENGINE_TESTS[group]]
    else:
        paths = [str(ROOT / "src" / Path(*name.split("."))) + ".py" for name in COMPILED]
    command = [sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT), *paths]
    # A quarter of the seeded deals: the differential test above already holds the builds to the same play.
    env = {**_env("pure"), SCALE_ENV: str(SCALE * PURE_SHARE)}
    out = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, f"{group} failed on the pure build:\n{out.stdout[-4000:]}"
    assert " passed" in out.stdout.splitlines()[-1]


# setup.py run with setuptools stubbed out: only its choice of extensions and what it removes are under test.
_SETUP = """
import runpy, sys, types
stub = types.ModuleType("setuptools")
stub.setup = lambda **kw: None
command = types.ModuleType("setuptools.command")
build_ext = types.ModuleType("setuptools.command.build_ext")
build_ext.build_ext = type("build_ext", (), {})
sys.modules.update({"setuptools": stub, "setuptools.command": command, "setuptools.command.build_ext": build_ext})
sys.argv = ["setup.py", sys.argv[1]]
runpy.run_path("setup.py", run_name="__main__")
"""


@pytest.mark.parametrize(("command", "kept"), [("bdist_wheel", True), ("build", True), ("editable_wheel", False)])
def test_only_an_editable_build_removes_the_compiled_modules_beside_the_sources(tmp_path: Path, command: str,
                                                                              kept: bool) -> None:
    # `pip install --target DIR .` in a checkout with an editable install builds a wheel in the tree, and removing
    # the modules beside the sources then turned that editable install into the pure build without a word.
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy(ROOT / name, tree / name)
    beside = tree / "src" / "mustamaija" / "core" / f"bits{sysconfig.get_config_var('EXT_SUFFIX')}"
    beside.write_bytes(b"")
    env = {**_env("pure"), "PYTHONPATH": ""}
    out = subprocess.run([sys.executable, "-c", _SETUP, command], cwd=tree, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "pure Python build (MUSTAMAIJA_BUILD=pure)" in out.stderr, out.stderr
    assert beside.exists() is kept
