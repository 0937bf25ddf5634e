"""Which build runs: the hot modules compiled by mypyc, or the pure-Python reference (docs/architecture.md#builds).

The install compiles the modules :func:`compiled_sources` lists with mypyc
when a C compiler is present (``setup.py``); Python then imports each module's
compiled extension in place of its source. The sources stay the reference:
both builds play the same games, raise the same errors and pass the same
tests (``tests/test_builds.py`` plays seeded deals through both and compares
the records).

Setting :data:`BUILD_ENV` to ``pure`` before ``mustamaija`` is imported runs
the pure-Python modules of a compiled install (:func:`prefer_sources`): the
test suite checks the reference that way, and anyone can compare the two.

>>> which() in ("compiled", "pure Python")
True
>>> describe().startswith(which())
True
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType
from typing import Final

__all__ = ["BUILD_ENV", "COMPILED", "CORE_MODULES", "GAME_MODULES", "build_of", "compiled_sources", "describe", "prefer_sources", "which"]

BUILD_ENV: Final = "MUSTAMAIJA_BUILD"
"""The environment variable that picks the build: ``pure`` runs the sources even where compiled modules exist."""

CORE_MODULES: Final = ("bits", "cards", "draws", "observation", "state")
"""The modules of ``mustamaija.core`` the install compiles."""

GAME_MODULES: Final = ("legality", "state", "playout", "knowledge", "observation", "sampling", "solver", "endgame",
                       "players.heuristic", "takeback", "redraw", "players.inference")
"""The modules of each game package (``mustamaija.games.*``) the install compiles, those of them it has.

A game's hot path by convention: legality, the state, a seat's knowledge (the core of its view), the
observation encoder, the sampler, the solver, the solver's hand-over of small endgames, the heuristic that
serves as playout policy, and the search's weighing of sampled deals by the seats' play (the takeback, which
rewinds a deal, the redraw, which rewinds one while the talon lasts, and the play evidence). Each must
type-check under ``mypy --strict`` and avoid what compiled classes cannot do: slots-making dataclasses, classes
built or patched at run time, interpreted subclasses. Rule sets, views and players stay interpreted.
"""


def compiled_sources(src: Path) -> list[Path]:
    """Return the source files the install compiles, found under ``src`` (the folder that holds ``mustamaija``).

    >>> names = [p.relative_to(SRC).as_posix() for p in compiled_sources(SRC)]
    >>> "mustamaija/core/cards.py" in names and all(n.startswith("mustamaija/") for n in names)
    True
    """
    root = src / "mustamaija"
    found = [root / "core" / f"{name}.py" for name in CORE_MODULES]
    for game in sorted(p.parent for p in (root / "games").glob("*/__init__.py")):
        found += [path for name in GAME_MODULES if (path := game.joinpath(*name.split(".")).with_suffix(".py")).is_file()]
    return found


SRC: Final = Path(__file__).resolve().parent.parent
"""The folder that holds this package's sources."""

COMPILED: Final = tuple(".".join(p.relative_to(SRC).with_suffix("").parts) for p in compiled_sources(SRC))
"""The modules the install compiles (where the sources are installed; none in an install without them)."""


class _SourcesFirst(MetaPathFinder):
    """Finds every ``mustamaija`` module from its source, never from a compiled extension beside it."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None) -> ModuleSpec | None:
        """Return the spec of ``fullname``'s source file (``None``: not ours, or no source, and the next finder looks)."""
        if not fullname.startswith("mustamaija.") or path is None:
            return None
        name = fullname.rpartition(".")[2]
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(fullname)
            if spec is not None and spec.name.endswith(name):
                return spec
        return None


def prefer_sources() -> None:
    """Import every ``mustamaija`` module imported from now on from its source (idempotent)."""
    if not any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())


def build_of(module: ModuleType) -> str:
    """Return ``"compiled"`` if ``module`` runs as a compiled extension, else ``"pure Python"``."""
    return "pure Python" if (getattr(module, "__file__", None) or "").endswith(".py") else "compiled"


def which() -> str:
    """Return ``"compiled"`` if the compiled modules run, else ``"pure Python"``."""
    return build_of(importlib.import_module("mustamaija.core.cards"))


def describe() -> str:
    """Return a line on the build that runs and, for the pure one, why and what it costs."""
    build = which()
    if build == "compiled":
        return f"compiled build: {len(COMPILED)} modules by mypyc"
    if os.environ.get(BUILD_ENV) == "pure":
        return f"pure Python build ({BUILD_ENV}=pure): the reference, 2-4x slower than the compiled one"
    return ("pure Python build: no C compiler at install time, so the bots search 2-4x less; "
            "install one (gcc) and reinstall to compile")
