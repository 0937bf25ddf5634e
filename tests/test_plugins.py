"""Outside bots plug in everywhere: ``module:Class`` specs and ``mustamaija.players`` entry points, worker processes
included, and players of whole compound actions, whose actions the stack turns into steps."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import outside_bots
from mustamaija.core.errors import IllegalActionError, MustamaijaError
from mustamaija.core.registry import game_names, get_game
from mustamaija.games.black_maria.actions import Pass, Play
from mustamaija.games.mustamaija.actions import DECLARE, STOP, Beat, Declare, Lead
from mustamaija.players.play import play_out
from mustamaija.players.random import RandomPlayer
from mustamaija.players.registry import make_bot, parse_bot_spec
from mustamaija.players.whole import WholeActionPlayer, as_step_player
from mustamaija.tournament.runner import TournamentSettings, run_tournament

TESTS = Path(__file__).resolve().parent
GAMES = ("mustamaija", "black-maria")


def cli(*args: str, cwd: Path, pythonpath: list[Path] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(str(p) for p in pythonpath)
    return subprocess.run([sys.executable, "-m", "mustamaija", *args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=300)


def seeded(obj: dict[str, Any]) -> dict[str, Any]:
    """A tournament's JSON without its timings."""
    obj = dict(obj)
    del obj["seconds"]
    for row in [*obj["bots"].values(), *obj["positions"]]:
        del row["us_per_decision"]
    return obj


# -- specs and the registry ----------------------------------------------------------------------


def test_a_module_class_spec_names_an_outside_bot_for_every_game_it_plays() -> None:
    spec = parse_bot_spec("outside_bots:FirstLegal:offset=1")
    assert (spec.name, dict(spec.params)) == ("outside_bots:FirstLegal", {"offset": 1})
    for game in GAMES:
        bot = make_bot(spec, 7, game)
        assert isinstance(bot, outside_bots.FirstLegal) and (bot.seed, bot.offset) == (7, 1)
    assert isinstance(make_bot("outside_bots:WholeDefender", 1), WholeActionPlayer)
    with pytest.raises(MustamaijaError, match="'outside_bots:WholeDefender' does not play Black Maria"):
        make_bot("outside_bots:WholeDefender", 1, "black-maria")
    with pytest.raises(MustamaijaError, match="cannot load bot 'outside_bots:Nobody'"):
        make_bot("outside_bots:Nobody", 1)
    with pytest.raises(MustamaijaError, match="cannot load bot 'no_such_module:Bot'"):
        make_bot("no_such_module:Bot", 1)


# -- whole actions ---------------------------------------------------------------------------------


def test_action_steps_walk_leads_and_defences_as_the_engine_asks() -> None:
    game = get_game("mustamaija")
    for seed in range(40):
        s = game.deal(3, seed)
        rng_bot = RandomPlayer(seed=seed)
        while not s.is_over:
            start = s.copy()
            before = len(s.actions())
            steps = []
            while len(s.actions()) == before:
                steps.append(rng_bot.act(s.view(s.to_act)))
                s.apply(steps[-1])
            action = s.actions()[before]
            # A random walk of steps makes some action; the action gives back the same steps.
            assert game.action_steps(start, action) == steps, (seed, action)
            assert len(start.actions()) == before and not start.in_progress  # The state given is left alone.
    s = game.deal(3, 1)
    with pytest.raises(IllegalActionError):
        game.action_steps(s, Lead((s.to_act + 1) % 3, 1))
    low = min(s.hand(s.to_act))
    assert game.action_steps(s, Lead(s.to_act, 1 << low)) in ([low], [low, STOP])


def test_black_maria_action_steps_are_the_cards_in_rising_order() -> None:
    game = get_game("black-maria")
    s = game.deal(4, 3)
    seat = s.to_act
    cards = sorted(s.hand(seat))[-3:]
    steps = game.action_steps(s, Pass(seat, sum(1 << c for c in cards)))
    assert steps == cards
    with pytest.raises(IllegalActionError, match="B3"):
        game.action_steps(s, Pass(seat, 1 << cards[0]))
    with pytest.raises(IllegalActionError):
        game.action_steps(s, Play(seat, cards[0]))  # Passing comes first.


@pytest.mark.parametrize(("game_name", "cls"), [("mustamaija", "WholeDefender"), ("black-maria", "WholePasser")])
def test_whole_action_players_play_their_actions_step_by_step(game_name: str, cls: str) -> None:
    game = get_game(game_name)
    for seed in range(6):
        whole = getattr(outside_bots, cls)(seed=seed)
        bots: list[Any] = [as_step_player(whole, game, seed), RandomPlayer(seed=seed), RandomPlayer(seed=seed + 9)]
        s = game.deal(3, seed)
        decisions, _ = play_out(s, bots)
        assert s.is_over and decisions[0] > 0
        mine = [a for a in s.actions() if a.seat == 0]
        chosen = [a for a in whole.returned if not isinstance(a, int)]
        # Every compound action the player returned is in the record as it was returned.
        assert [a for a in mine if not isinstance(a, Declare)] == chosen
        assert [a for a in mine if isinstance(a, Declare)] == [
            Declare(0, a - DECLARE) for a in whole.returned if isinstance(a, int)]
        assert game.load_record(game.record_of(s).to_json()).replay().is_over


def test_a_whole_action_that_breaks_a_rule_names_the_player_and_the_rule() -> None:
    class Cheat:
        name = "cheat"
        whole_actions = True

        def act(self, view: Any) -> Any:
            if view.phase == 0:
                return Lead(view.seat, view.hand)  # Every card at once: several suits (M10).
            return Beat(view.seat, ())

    game = get_game("mustamaija")
    s = game.deal(3, 2)
    bot = as_step_player(Cheat(), game)
    with pytest.raises(IllegalActionError, match=r"M1\d: cheat chose seat"):
        bot.act(s.view(s.to_act))
    with pytest.raises(MustamaijaError, match=r"'plain' in seat \d chose an illegal step .*whole_actions = True"):
        play_out(s, [_Plain()] * 3, names=["plain"] * 3)


class _Plain:
    """Returns a whole action without saying so."""

    name = "plain"

    def act(self, view: Any) -> Any:
        return Lead(view.seat, 1 << min(view.legal_actions()))


@pytest.mark.parametrize(("game_name", "lineup"), [
    ("mustamaija", ("outside_bots:WholeDefender", "heuristic", "outside_bots:FirstLegal")),
    ("black-maria", ("outside_bots:WholePasser", "heuristic", "outside_bots:FirstLegal:offset=1")),
])
def test_outside_bots_play_tournaments_in_every_game(game_name: str, lineup: tuple[str, ...], tmp_path: Path) -> None:
    settings = TournamentSettings(players=3, bots=lineup, game=game_name, deals=3, seed=8)
    result = run_tournament(settings, out_dir=tmp_path)
    assert len(result.games) == 9 and all(sum(g.decisions) > 0 for g in result.games)
    game = get_game(game_name)
    for path in sorted(tmp_path.glob("*.json")):
        record = game.load_record(path.read_text(encoding="utf-8"))
        assert record.replay().is_over and lineup[0] in record.extra["bots"]


# -- worker processes and entry points -----------------------------------------------------------------


def test_module_class_bots_run_in_worker_processes_from_the_command_folder(tmp_path: Path) -> None:
    args = ["tournament", "--players", "3", "--bots", "outside_bots:WholeDefender,random,outside_bots:FirstLegal",
            "--deals", "4", "--seed", "3", "--json"]
    one = cli(*args, "--jobs", "1", cwd=TESTS)
    two = cli(*args, "--jobs", "2", "--out", str(tmp_path / "recs"), cwd=TESTS)
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    a, b = seeded(json.loads(one.stdout)), seeded(json.loads(two.stdout))
    assert b.pop("out") == str(tmp_path / "recs")
    assert a == b and a["games"] == 12
    assert len(list((tmp_path / "recs").glob("*.json"))) == 12
    # From another folder the module is found through PYTHONPATH, by the workers too.
    bm = ["tournament", "--game", "black-maria", "--players", "3", "--bots",
          "outside_bots:WholePasser,outside_bots:FirstLegal,random", "--deals", "2", "--seed", "3", "--json"]
    three = cli(*bm, "--jobs", "2", cwd=tmp_path, pythonpath=[TESTS])
    four = cli(*bm, "--jobs", "1", cwd=tmp_path, pythonpath=[TESTS])
    assert three.returncode == 0, three.stderr
    assert seeded(json.loads(three.stdout)) == seeded(json.loads(four.stdout))
    lost = cli(*bm, cwd=tmp_path)
    assert lost.returncode == 2 and "cannot load bot 'outside_bots:WholePasser'" in lost.stderr


def test_the_installed_command_finds_a_bot_module_in_its_folder_in_every_worker(tmp_path: Path) -> None:
    # The console script, unlike ``python -m``, does not put the folder on the path: the registry does.
    (tmp_path / "my_lowest.py").write_text(
        "class Lowest:\n    name = 'lowest'\n    def act(self, view):\n        return view.legal_actions()[0]\n",
        encoding="utf-8")
    command = Path(sys.executable).parent / "mustamaija"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    runs = [subprocess.run([str(command), "tournament", "--game", game, "--players", "3", "--bots", "my_lowest:Lowest,random*2",
                            "--deals", "3", "--seed", "5", "--json", "--jobs", jobs],
                           cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
            for game in game_names() for jobs in ("1", "2")]
    for one, two in zip(runs[::2], runs[1::2], strict=True):
        assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
        assert seeded(json.loads(one.stdout)) == seeded(json.loads(two.stdout))


def _distribution(root: Path) -> Path:
    """Install a distribution's metadata with ``mustamaija.players`` entry points, as pip would, under ``root``."""
    info = root / "outside_bots_dist-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: outside-bots-dist\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[mustamaija.players]\nfirst-legal = outside_bots:FirstLegal\nwhole-passer = outside_bots:WholePasser\n",
        encoding="utf-8")
    return root


def test_entry_point_bots_run_in_worker_processes(tmp_path: Path) -> None:
    site = _distribution(tmp_path / "site")
    path = [site, TESTS]
    names = subprocess.run(
        [sys.executable, "-c", "from mustamaija.players.registry import bot_names; "
         "print(bot_names('black-maria')); print(bot_names('mustamaija'))"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(map(str, path))})
    assert names.returncode == 0, names.stderr
    bm_names, mm_names = names.stdout.splitlines()
    assert "'whole-passer'" in bm_names and "'first-legal'" in bm_names
    assert "'first-legal'" in mm_names and "'whole-passer'" not in mm_names  # It plays one game only.
    args = ["tournament", "--game", "black-maria", "--players", "4", "--bots", "whole-passer,first-legal,random*2",
            "--deals", "3", "--seed", "5", "--json"]
    two = cli(*args, "--jobs", "2", cwd=tmp_path, pythonpath=path)
    one = cli(*args, cwd=tmp_path, pythonpath=path)
    assert two.returncode == 0, two.stderr
    assert seeded(json.loads(two.stdout)) == seeded(json.loads(one.stdout))
    assert set(json.loads(two.stdout)["bots"]) == {"whole-passer", "first-legal", "random"}
    unknown = cli(*args, cwd=tmp_path, pythonpath=[TESTS])
    assert unknown.returncode == 2 and "unknown Black Maria bot 'whole-passer'" in unknown.stderr
