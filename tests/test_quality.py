"""Lint and type checks run as part of the test suite, so one command checks everything."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> list[str]:
    exe = Path(sys.executable).parent / name
    if exe.exists():
        return [str(exe)]
    found = shutil.which(name)
    assert found, f"{name} is not installed: install the test extra (pip install -e '.[test]')"
    return [found]


def test_ruff_is_clean() -> None:
    r = subprocess.run([*_tool("ruff"), "check", "src", "tests"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_is_clean() -> None:
    r = subprocess.run([*_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
