"""Reorganising the code must not change what it does: records, replays and results stay byte for byte the same.

The outputs of the commands in ``tests/behaviour_commands.py`` (tournament
records written with ``--out``, their ``replay --json`` and ``replay --text``
output, the seed-decided part of every tournament result, and ``demo``) were
written to ``tests/golden/behaviour`` before the games were moved behind one
protocol. This test runs the same commands and compares every file.

After a change that is meant to alter play, rewrite the files with
``MUSTAMAIJA_REGEN_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from behaviour_commands import write_outputs

GOLDEN = Path(__file__).resolve().parent / "golden" / "behaviour"


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_outputs_are_unchanged(tmp_path: Path) -> None:
    write_outputs(tmp_path)
    if os.environ.get("MUSTAMAIJA_REGEN_GOLDEN") == "1":
        shutil.rmtree(GOLDEN, ignore_errors=True)
        shutil.copytree(tmp_path, GOLDEN)
    want, got = _files(GOLDEN), _files(tmp_path)
    assert sorted(got) == sorted(want)
    changed = [name for name in want if want[name] != got[name]]
    assert not changed, f"{len(changed)} outputs changed, first {changed[:5]}"
