"""Your puzzle progress: which puzzles you solved or failed, and your streak of puzzles solved at the first try.

A puzzle counts for the streak once, on its first try: the first attempt
you finish (solved, failed, or given up by asking for the solution). Solved
with no wrong move makes the streak one longer; a wrong move, or the
solution asked for first, ends it. Later attempts at a puzzle already tried
change its mark (a failed puzzle solved later is marked ``later``) but not
the streak, so that a puzzle learnt by heart is not a puzzle solved. The
web page keeps the same rules in the browser's storage (``js/puzzles.js``).

The terminal's progress lives in ``puzzles-progress.json`` in the per-user
data directory (``$MUSTAMAIJA_DATA_DIR``, else the platform's usual place),
keyed by :attr:`~mustamaija.games.mustamaija.puzzles.Puzzle.key`, so it
stays with its puzzles when a puzzle file is made again.

>>> p = Progress()
>>> p.finish("a", solved=True), p.finish("b", solved=True), (p.streak, p.best)
(True, True, (2, 2))
>>> p.finish("c", solved=False), (p.streak, p.best), p.marks["c"]
(True, (0, 2), 'failed')
>>> p.finish("c", solved=True), (p.streak, p.best), p.marks["c"]
(False, (0, 2), 'later')
>>> Progress.from_json(p.to_json()) == p
True
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import platformdirs

__all__ = ["MARKS", "PROGRESS_FILE", "Progress", "default_path"]

PROGRESS_FILE: Final = "puzzles-progress.json"
MARKS: Final = ("solved", "failed", "later")
"""A tried puzzle's mark: solved at the first try, failed at it, or solved at a later try."""
_FORMAT: Final = "mustamaija-puzzle-progress/1"


def default_path() -> Path:
    """Return the progress file in the per-user data directory (``$MUSTAMAIJA_DATA_DIR`` first, as the web server's)."""
    explicit = os.environ.get("MUSTAMAIJA_DATA_DIR")
    folder = Path(explicit) if explicit else Path(platformdirs.user_data_dir("mustamaija", appauthor=False))
    return folder / PROGRESS_FILE


@dataclass(eq=True)
class Progress:
    """The marks of the puzzles tried (by puzzle key), the current streak and the best; ``path`` is where it is kept."""

    marks: dict[str, str] = field(default_factory=dict)
    streak: int = 0
    best: int = 0
    path: Path | None = field(default=None, compare=False)
    error: str = field(default="", compare=False)
    """Why the progress could not be read or written, if it could not (the puzzles go on without it)."""

    def finish(self, key: str, solved: bool) -> bool:
        """Record the end of an attempt at the puzzle ``key``; return whether it was the first try (and so counted).

        ``solved`` is false for a wrong move and for an attempt given up by asking for the solution.
        """
        first = key not in self.marks
        if first:
            self.marks[key] = "solved" if solved else "failed"
            self.streak = self.streak + 1 if solved else 0
            self.best = max(self.best, self.streak)
        elif solved and self.marks[key] == "failed":
            self.marks[key] = "later"
        self.save()
        return first

    def mark(self, key: str) -> str:
        """Return the puzzle's mark, or ``""`` if it has not been tried."""
        return self.marks.get(key, "")

    def counts(self, keys: list[str]) -> dict[str, int]:
        """Return how many of ``keys`` have each mark."""
        return {m: sum(self.marks.get(k) == m for k in keys) for m in MARKS}

    def to_json(self) -> dict[str, Any]:
        """Return the progress file's object."""
        return {"format": _FORMAT, "streak": self.streak, "best": self.best, "marks": dict(sorted(self.marks.items()))}

    @classmethod
    def from_json(cls, obj: Any, path: Path | None = None) -> Progress:
        """Read a progress object; anything malformed in it is dropped rather than refused."""
        if not isinstance(obj, dict) or obj.get("format") != _FORMAT:
            return cls(path=path, error="the progress file was not understood and starts again")
        marks = obj.get("marks")
        good = {str(k): v for k, v in marks.items() if v in MARKS} if isinstance(marks, dict) else {}

        def count(name: str) -> int:
            value = obj.get(name)
            return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

        streak, best = count("streak"), count("best")
        return cls(good, streak, max(best, streak), path)

    @classmethod
    def load(cls, path: Path | None = None) -> Progress:
        """Read the progress kept at ``path`` (default :func:`default_path`); a missing file is a fresh start."""
        path = path or default_path()
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path=path)
        except OSError as e:
            return cls(path=path, error=f"cannot read {path.name}: {e.strerror or e}")
        try:
            obj = json.loads(text)
        except ValueError:
            obj = None
        return cls.from_json(obj, path)

    def save(self) -> None:
        """Write the progress to its file, if it has one (atomically: a crash leaves the old file or the new one)."""
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
            tmp.replace(self.path)
            self.error = ""
        except OSError as e:
            self.error = f"cannot save the streak in {self.path}: {e.strerror or e}"

    def summary(self, keys: list[str]) -> str:
        """Return the streak and the counts in a line ("streak 3 · best 5 · solved 12 of 66")."""
        c = self.counts(keys)
        solved = c["solved"] + c["later"]
        return (f"streak {self.streak} · best {self.best} · solved {solved} of {len(keys)}"
                + (f" ({c['solved']} at the first try)" if c["later"] else "")
                + (f" · failed {c['failed']}" if c["failed"] else ""))
