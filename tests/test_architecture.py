"""The layout keeps the architecture: games are plug-ins, and only the registry and the games name a game.

Every layer above the games (players, search, tournaments, the command line,
the terminal, the web app, the research adapters) works through the game
protocol and the registry. These tests read the source to keep it so:

* no module outside ``core/registry.py`` and ``games/`` names a game, in code,
  strings, comments, pages or scripts;
* no module outside ``games/`` imports a game's package;
* the core imports nothing above it, and no game imports another game or a
  layer above the games.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mustamaija.core.registry import BUILTIN_GAMES, games

SRC = Path(__file__).resolve().parent.parent / "src" / "mustamaija"
GAME_DIRS = {SRC / "games" / module.split(".")[2] for module in BUILTIN_GAMES.values()}
ALLOWED = {SRC / "core" / "registry.py"}

# Each game's names as people and code write them: its title, its registry name, its identifier,
# and the short forms the code used for it ("bm", "BmGame"...), matched as whole words.
_SHORT = {"black-maria": ["bm"]}


def _patterns() -> list[re.Pattern[str]]:
    out = []
    for game in games():
        words = {game.title, game.name, game.env_name, game.name.replace("-", "")} | set(_SHORT.get(game.name, []))
        for word in words:
            if word.lower() == "mustamaija":
                # The package is named after the game: the title with a capital, the name given as a game
                # and the record format name the game; "mustamaija.core" and "python -m mustamaija" do not.
                out += [re.compile(r"\bMustamaija\b"), re.compile(r"mustamaija-record"),
                        re.compile(r"""(game\w*\s*(=|==|!=|\()\s*|get_game\(|--game[= ])["']?mustamaija\b""")]
            else:
                out.append(re.compile(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![a-z0-9])", re.IGNORECASE))
    return out


def _sources() -> list[Path]:
    files = [p for p in SRC.rglob("*") if p.suffix in (".py", ".js", ".html", ".css") and p.is_file()]
    return sorted(p for p in files if p not in ALLOWED and not any(d in p.parents for d in GAME_DIRS))


def test_only_the_registry_and_the_games_name_a_game() -> None:
    patterns = _patterns()
    found = []
    for path in _sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for pattern in patterns:
                if pattern.search(line):
                    found.append(f"{path.relative_to(SRC)}:{number}: {line.strip()[:100]}")
                    break
    assert not found, f"{len(found)} lines outside the registry and the games name a game:\n" + "\n".join(found[:40])


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("layer", ["core", "players", "search", "tournament", "cli", "tui", "web", "envs", "openspiel"])
def test_layers_above_the_games_import_no_game(layer: str) -> None:
    bad = [f"{p.relative_to(SRC)} imports {m}" for p in (SRC / layer).rglob("*.py") for m in _imports(p)
           if m.startswith("mustamaija.games.")]
    assert not bad, "\n".join(bad)


def test_the_core_imports_nothing_above_it() -> None:
    above = ("mustamaija.players", "mustamaija.search", "mustamaija.tournament", "mustamaija.cli", "mustamaija.tui",
             "mustamaija.web", "mustamaija.envs", "mustamaija.openspiel", "mustamaija.games")
    bad = [f"{p.relative_to(SRC)} imports {m}" for p in (SRC / "core").rglob("*.py") for m in _imports(p)
           if m.startswith(above)]
    assert not bad, "\n".join(bad)


def test_a_game_imports_no_other_game_and_no_front_end() -> None:
    bad = []
    for game_dir in GAME_DIRS:
        own = f"mustamaija.games.{game_dir.name}"
        for p in game_dir.rglob("*.py"):
            for m in _imports(p):
                if m.startswith("mustamaija.games.") and not m.startswith(own):
                    bad.append(f"{p.relative_to(SRC)} imports {m}")
    assert not bad, "\n".join(bad)
