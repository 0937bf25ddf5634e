"""The commands whose outputs must not change when the code is reorganised (see test_behaviour_frozen.py).

Each case is a list of ``mustamaija`` arguments. A tournament case writes its
records into a folder (``{out}`` in the arguments); its JSON result keeps
only the fields that the seed decides (no timings). Every record written is
then replayed with ``replay --json`` and ``replay --text``.

Run ``python tests/behaviour_commands.py DIR`` to write every output into DIR;
the test compares such a run with ``tests/golden/behaviour``.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

CASES: dict[str, list[str]] = {
    "mm-4p-standard": ["tournament", "--players", "4", "--bots", "heuristic,random*3", "--deals", "5", "--seed", "11"],
    "mm-3p-salmi": ["tournament", "--players", "3", "--preset", "salmi", "--bots", "heuristic,random,heuristic",
                    "--deals", "4", "--seed", "12"],
    "mm-2p-pimc": ["tournament", "--players", "2", "--bots", "pimc:iters=24,heuristic", "--deals", "2", "--seed", "13"],
    "mm-3p-ismcts": ["tournament", "--players", "3", "--preset", "wikipedia", "--bots", "ismcts:iters=40,random,heuristic",
                     "--deals", "1", "--seed", "14"],
    "bm-4p": ["tournament", "--game", "black-maria", "--players", "4", "--bots", "heuristic,random,pimc:samples=4,random",
              "--deals", "2", "--seed", "15"],
    "bm-3p": ["tournament", "--game", "black-maria", "--players", "3", "--bots", "heuristic,random,heuristic",
              "--deals", "3", "--seed", "16"],
    "bm-5p-rules": ["tournament", "--game", "black-maria", "--players", "5", "--rules", '{"allow_renege": true}',
                    "--bots", "random*5", "--deals", "2", "--seed", "17", "--no-rotate"],
}
"""Tournament cases: their records, results and replays are frozen."""

DEMOS: dict[str, list[str]] = {
    "demo-3p": ["demo", "--players", "3", "--seed", "4"],
    "demo-4p-wikipedia": ["demo", "--players", "4", "--preset", "wikipedia", "--seed", "9"],
}
"""Commands whose standard output is frozen as it is."""

_VOLATILE = ("second", "us_per", "ms_per", "elapsed", "time")
"""Parts of a result key that mark a timing, which the seed does not decide."""


def _run(args: list[str]) -> str:
    from mustamaija.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(args)
    if code not in (0, None):
        raise SystemExit(f"mustamaija {' '.join(args)} exited with {code}")
    return out.getvalue()


def _stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k != "out" and not any(part in k for part in _VOLATILE)}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def write_outputs(dest: Path) -> None:
    """Run every case and write its outputs under ``dest``, one file each."""
    dest.mkdir(parents=True, exist_ok=True)
    for name, args in CASES.items():
        records = dest / name
        records.mkdir(exist_ok=True)
        result = json.loads(_run([*args, "--json", "--out", str(records)]))
        (dest / f"{name}.result.json").write_text(json.dumps(_stable(result), indent=1, sort_keys=True) + "\n")
        journal = records / "games.jsonl"  # The journal of --resume: the seed decides all of it but the timings.
        lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
        journal.write_text("".join(json.dumps(_stable(x), sort_keys=True) + "\n" for x in lines), encoding="utf-8")
        for record in sorted(records.iterdir()):
            if record.suffix != ".json":
                continue
            stem = record.with_suffix("")
            (stem.parent / f"{stem.name}.replay.json").write_text(_run(["replay", "--json", str(record)]))
            (stem.parent / f"{stem.name}.replay.txt").write_text(_run(["replay", "--text", str(record)]))
    for name, args in DEMOS.items():
        (dest / f"{name}.txt").write_text(_run(args))


if __name__ == "__main__":
    write_outputs(Path(sys.argv[1]))
