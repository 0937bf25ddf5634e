"""A tournament's journal: every finished game's result, written as it arrives, so that a stopped run can go on.

``mustamaija tournament --out DIR`` keeps ``DIR/games.jsonl`` beside the
records. Its first line is the tournament's settings, every other line one
game's :class:`~mustamaija.tournament.runner.GameResult`, appended (and
flushed) as the results come in. ``--resume`` reads it back: the deals whose
every rotation is in the journal are not played again, and a run with more
``--deals`` than the journal's extends it, since deal ``i`` depends only on
the seed and ``i``. A journal of other settings (lineup, rules, seed,
rotation) is refused rather than mixed in. The name does not end in ``.json``,
so the tools that read every record of a folder pass it by.

>>> import tempfile
>>> from mustamaija.tournament.runner import GameResult, TournamentSettings
>>> t = TournamentSettings(players=2, bots=("heuristic", "random"), deals=3, seed=5)
>>> folder = tempfile.mkdtemp()
>>> with Journal.open(folder, t, resume=False) as j:
...     j.write([GameResult(0, 0, (0.0, 1.0), 20, (9, 10), (0.001, 0.0)), GameResult(0, 1, (1.0, 0.0), 22, (11, 11), (0.001, 0.0))])
...     j.write([GameResult(1, 0, (0.0, 1.0), 18, (8, 9), (0.001, 0.0))])
>>> with Journal.open(folder, t, resume=True) as j:
...     sorted(j.done), [(g.deal, g.rotation) for g in j.games]
([0], [(0, 0), (0, 1)])
>>> other = TournamentSettings(players=2, bots=("heuristic", "random"), deals=3, seed=6)
>>> Journal.open(folder, other, resume=True)
Traceback (most recent call last):
...
mustamaija.core.errors.MustamaijaError: cannot resume: the journal in ... is of another tournament (its seed is 5, not 6)
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from types import TracebackType
from typing import IO, Any, Final

from mustamaija.core.errors import MustamaijaError
from mustamaija.tournament.runner import GameResult, TournamentSettings

__all__ = ["JOURNAL", "Journal", "result_from_json", "result_to_json"]

JOURNAL: Final = "games.jsonl"
"""The journal's file name inside the ``--out`` folder."""


def result_to_json(g: GameResult) -> dict[str, Any]:
    """Return one game's result as a JSON object (a journal line)."""
    return {"deal": g.deal, "rotation": g.rotation, "scores": None if g.scores is None else list(g.scores),
            "turns": g.turns, "decisions": list(g.decisions), "seconds": list(g.seconds)}


def _numbers(obj: Any, n: int, kind: type) -> tuple[Any, ...]:
    if not isinstance(obj, list) or len(obj) != n or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in obj):
        raise ValueError(f"expected {n} numbers, got {obj!r}")
    return tuple(kind(x) for x in obj)


def result_from_json(obj: Any, players: int) -> GameResult:
    """Return the result a journal line holds; ``ValueError`` if it is not one of a game of ``players`` seats."""
    if not isinstance(obj, dict):
        raise ValueError("a journal line is a JSON object")
    deal, rotation, turns = obj.get("deal"), obj.get("rotation"), obj.get("turns")
    if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (deal, rotation, turns)):
        raise ValueError("deal, rotation and turns must be whole numbers")
    assert isinstance(deal, int) and isinstance(rotation, int) and isinstance(turns, int)
    scores = None if obj.get("scores") is None else _numbers(obj.get("scores"), players, float)
    return GameResult(deal, rotation, scores, turns, _numbers(obj.get("decisions"), players, int),
                      _numbers(obj.get("seconds"), players, float))


def _header(settings: TournamentSettings) -> dict[str, Any]:
    """Return what must match for two runs to share a journal: everything but the number of deals."""
    obj = settings.to_json()
    del obj["deals"]
    return obj


class Journal:
    """The journal of one run: the games already done (when resuming) and the file new results go to."""

    def __init__(self, path: str, out: IO[str], games: list[GameResult]) -> None:
        self.path = path
        self._out = out
        self.games = games
        """The results read back from the journal: every rotation of the deals in :attr:`done`."""

    @property
    def done(self) -> set[int]:
        """Return the deals already played in every rotation, which this run does not play again."""
        return {g.deal for g in self.games}

    @classmethod
    def open(cls, out_dir: str | os.PathLike[str], settings: TournamentSettings, *, resume: bool) -> Journal:
        """Open the journal of ``out_dir``: read it back if ``resume``, else start it afresh."""
        path = os.path.join(os.fspath(out_dir), JOURNAL)
        games: list[GameResult] = []
        if resume and os.path.exists(path):
            games = _read(path, settings)
            out = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close() or the with block.
        else:
            out = open(path, "w", encoding="utf-8")  # noqa: SIM115
            out.write(json.dumps({"tournament": _header(settings)}) + "\n")
            out.flush()
        return cls(path, out, games)

    def write(self, results: Iterable[GameResult]) -> None:
        """Append finished games and flush them, so that a run killed the next moment keeps them."""
        self._out.write("".join(json.dumps(result_to_json(g)) + "\n" for g in results))
        self._out.flush()

    def close(self) -> None:
        """Close the file."""
        self._out.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def _read(path: str, settings: TournamentSettings) -> list[GameResult]:
    """Return the games of a journal's complete deals, checking that it is this tournament's."""
    with open(path, "rb+") as f:
        data = f.read()
        # A run killed while writing leaves at most its last line cut short: it is cut off, and that game played again.
        end = data.rfind(b"\n") + 1
        if end < len(data):
            f.truncate(end)
    lines = data[:end].decode("utf-8", errors="replace").splitlines()
    try:
        header = json.loads(lines[0])["tournament"] if lines else None
    except (ValueError, KeyError, TypeError):
        header = None
    if not isinstance(header, dict):
        raise MustamaijaError(f"cannot resume: {path} is not a tournament journal (its first line names no settings)")
    want = _header(settings)
    for key in sorted(set(want) | set(header)):
        if header.get(key) != want.get(key):
            raise MustamaijaError(f"cannot resume: the journal in {path} is of another tournament "
                                  f"(its {key} is {_shown(header.get(key))}, not {_shown(want.get(key))})")
    by_deal: dict[int, dict[int, GameResult]] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            g = result_from_json(json.loads(line), settings.players)
        except ValueError as e:
            raise MustamaijaError(f"cannot resume: line {number} of {path} is not a game's result ({e})") from None
        if g.rotation >= settings.rotations:
            raise MustamaijaError(f"cannot resume: line {number} of {path} has rotation {g.rotation}, "
                                  f"of {settings.rotations}")
        if g.deal < settings.deals:
            by_deal.setdefault(g.deal, {})[g.rotation] = g
    done = sorted(d for d, rots in by_deal.items() if len(rots) == settings.rotations)
    return [by_deal[d][r] for d in done for r in range(settings.rotations)]


def _shown(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value
