"""Black Maria through the library-wide tools: ``mustamaija replay``, the bot registry and ``mustamaija tournament``."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mustamaija.core.cards import card_name
from mustamaija.core.errors import MustamaijaError
from mustamaija.core.registry import game_names
from mustamaija.games.black_maria import State as BMState
from mustamaija.games.black_maria import View as BMView
from mustamaija.games.black_maria.narrate import narrate
from mustamaija.games.black_maria.play import play_hand
from mustamaija.games.black_maria.players import HeuristicPlayer, PimcPlayer
from mustamaija.games.black_maria.record import Record as BMRecord
from mustamaija.games.black_maria.record import replay_json
from mustamaija.games.black_maria.rules import Rules as BMRules
from mustamaija.games.mustamaija import State
from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer as MustamaijaHeuristic
from mustamaija.games.mustamaija.record import Record
from mustamaija.players.random import RandomPlayer
from mustamaija.players.registry import bot_description, bot_names, make_bot
from mustamaija.tournament.report import table_lines
from mustamaija.tournament.results import TournamentResult
from mustamaija.tournament.runner import GameResult, TournamentSettings, bot_seed, deal_seed, play_game_record, run_tournament
from mustamaija.tournament.stats import Z95, mean_interval


def bm_settings(**kw: Any) -> TournamentSettings:
    """Black Maria tournament settings."""
    return TournamentSettings(game="black-maria", **kw)


def hand(deal: int, rotation: int, points: tuple[int, ...], seconds: tuple[float, ...] | None = None) -> GameResult:
    """A hand's result: one decision a seat."""
    n = len(points)
    return GameResult(deal, rotation, tuple(float(p) for p in points), 13, (1,) * n, seconds or (0.0,) * n)


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "mustamaija", *args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=300)


def bm_record(players: int = 4, seed: int = 3) -> BMRecord:
    """A complete hand: one heuristic bot against random ones."""
    bots = [HeuristicPlayer()] + [RandomPlayer(seed=seed * 10 + s) for s in range(1, players)]
    return play_hand(bots, seed=seed).record


def with_action(record: BMRecord, index: int, action: dict[str, Any]) -> dict[str, Any]:
    obj = record.to_json()
    obj["actions"] = [*obj["actions"][:index], action, *obj["actions"][index + 1:]]
    return obj


def write(path: Path, obj: Any) -> str:
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return path.name


# -- replay ----------------------------------------------------------------------------------------


def test_replay_json_prints_the_formats_object_for_black_maria_records(tmp_path: Path) -> None:
    full = bm_record(4, 3)
    partial = BMRecord.from_json({**full.to_json(), "actions": full.to_json()["actions"][:9]})
    names = [write(tmp_path / "full.json", full.dumps()), write(tmp_path / "partial.json", partial.dumps())]
    r = cli("replay", "--json", *names, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    lines = r.stdout.splitlines()
    assert [json.loads(line) for line in lines] == [replay_json(full), replay_json(partial)]
    end, mid = json.loads(lines[0]), json.loads(lines[1])
    assert end["finished"] is True and end["phase"] == "over" and end["to_act"] is None
    assert sum(end["points"]) == 43 and sum(end["tricks"]) == 13 and end["hands"] == [[], [], [], []]
    # Nine actions: four passes, then five cards; seat to act is the one after the last player.
    assert mid["finished"] is False and mid["phase"] == "play" and mid["to_act"] is not None
    assert sum(len(h) for h in mid["hands"]) == 52 - 5


def test_replay_text_tells_the_hand(tmp_path: Path) -> None:
    rec = bm_record(5, 8)
    name = write(tmp_path / "bm.json", rec.dumps())
    r = cli("replay", "--text", name, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == narrate(rec) + "\n"
    assert r.stdout.startswith("Black Maria, 5 players")
    assert "Points this hand:" in r.stdout.splitlines()[-1]


def test_replay_mixes_both_games_in_order(tmp_path: Path) -> None:
    bm = bm_record(3, 2)
    s = State.from_seed(3, 5)
    bots = [MustamaijaHeuristic(seed=i) for i in range(3)]
    while not s.is_over:
        s.apply(bots[s.to_act].act(s.view(s.to_act)))
    mm = Record.from_state(s)
    names = [write(tmp_path / "a.json", bm.dumps()), write(tmp_path / "b.json", mm.dumps()),
             write(tmp_path / "c.json", bm_record(6, 4).dumps())]
    r = cli("replay", "--json", *names, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(objs) == 3
    assert objs[0] == replay_json(bm) and objs[2] == replay_json(bm_record(6, 4))
    assert objs[1]["phase"] == "over" and "talon" in objs[1] and "tricks" not in objs[1]
    text = cli("replay", "--text", *names, cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert text.stdout.count("Black Maria, ") == 2 and text.stdout.count("Mustamaija, 3 players") == 1


def test_replay_errors_name_file_index_seat_and_rule(tmp_path: Path) -> None:
    rec = bm_record(4, 3)
    actions = rec.to_json()["actions"]
    # The first trick's second card: replace it with a card of another suit the follower holds.
    start = rec.start()
    for a in rec.actions[:5]:
        start.play(a)
    seat = start.to_act
    led = rec.actions[4].to_json()["play"][-1]
    off = next(c for c in start.hand(seat) if "SHDC"[c // 13] != led)
    assert any("SHDC"[c // 13] == led for c in start.hand(seat)), "the follower must hold the led suit"
    illegal = with_action(rec, 5, {"seat": seat, "play": card_name(off)})
    malformed = with_action(rec, 6, {"seat": actions[6]["seat"], "play": "1X"})
    wrong_seat = with_action(rec, 0, {"seat": (actions[0]["seat"] + 1) % 4, "pass": actions[1]["pass"]})
    names = [write(tmp_path / "illegal.json", illegal), write(tmp_path / "good.json", rec.dumps()),
             write(tmp_path / "malformed.json", malformed), write(tmp_path / "wrongseat.json", wrong_seat),
             write(tmp_path / "broken.json", '{"format": "black-maria-record/1", "players": 4'),
             "missing.json"]
    r = cli("replay", "--json", *names, cwd=tmp_path)
    assert r.returncode == 1
    assert [json.loads(line) for line in r.stdout.splitlines()] == [replay_json(rec)]
    errors = r.stderr.splitlines()
    assert len(errors) == 5
    assert errors[0].startswith(f"illegal.json: action 5 (seat {seat}): B4: seat {seat} must follow suit")
    assert errors[1].startswith(f"malformed.json: action 6 (seat {actions[6]['seat']}): format: ")
    assert "1X" in errors[1]
    assert errors[2].startswith(f"wrongseat.json: action 0 (seat {(actions[0]['seat'] + 1) % 4}): B3: ")
    assert errors[3].startswith("broken.json: not valid JSON")
    assert errors[4] == "missing.json: cannot read the file: No such file or directory"
    # The text account fails the same way, with nothing on standard output.
    text = cli("replay", "--text", "illegal.json", cwd=tmp_path)
    assert text.returncode == 1 and text.stdout == ""
    assert text.stderr.startswith(f"illegal.json: action 5 (seat {seat}): B4: ")


# -- the registry ----------------------------------------------------------------------------------


def test_registry_knows_which_game_a_bot_plays() -> None:
    assert game_names() == ["black-maria", "mustamaija"]
    assert {"heuristic", "pimc", "random"} <= set(bot_names("black-maria"))
    assert {"random", "heuristic", "pimc"} <= set(bot_names())
    # The same name in two games is two different bots, each reading its own game's views.
    assert type(make_bot("pimc", 1)).__module__ != type(make_bot("pimc", 1, game="black-maria")).__module__
    assert bot_names() == bot_names("mustamaija")
    assert isinstance(make_bot("random", 1, game="black-maria"), RandomPlayer)
    assert isinstance(make_bot("heuristic", 1, game="black-maria"), HeuristicPlayer)
    pimc = make_bot("pimc:samples=6", 1, game="black-maria")
    assert isinstance(pimc, PimcPlayer) and pimc.samples == 6
    assert isinstance(make_bot("heuristic", 1), MustamaijaHeuristic)
    assert "Monte Carlo" in bot_description("pimc", game="black-maria")
    assert bot_description("heuristic") == bot_description("heuristic", game="mustamaija") != ""
    with pytest.raises(MustamaijaError, match="unknown Black Maria bot 'nobody'"):
        make_bot("nobody", 1, game="black-maria")
    with pytest.raises(MustamaijaError, match="unknown game 'hearts'"):
        make_bot("random", 1, game="hearts")
    with pytest.raises(MustamaijaError, match="unknown game 'hearts'"):
        bot_names("hearts")


def test_registry_bots_play_black_maria_views_with_their_seeds() -> None:
    s = BMState.from_seed(4, 12)
    bots = [make_bot(spec, 5 + seat, game="black-maria")
            for seat, spec in enumerate(["heuristic", "random", "pimc:samples=3", "random"])]
    twins = [make_bot(spec, 5 + seat, game="black-maria")
             for seat, spec in enumerate(["heuristic", "random", "pimc:samples=3", "random"])]
    while not s.is_over:
        view = s.view(s.to_act)
        assert isinstance(view, BMView)
        step = bots[s.to_act].act(view)
        assert step == twins[s.to_act].act(view)  # The same seed chooses the same step.
        s.apply(step)
    assert sum(s.points()) == 43


# -- statistics on a hand-made set ---------------------------------------------------------------------


def test_points_statistics_on_a_hand_made_set() -> None:
    settings = bm_settings(players=3, bots=("heuristic", "random", "random"), deals=2, seed=0)
    games = [
        hand(0, 0, (0, 20, 23)),
        hand(0, 1, (10, 13, 20)),
        hand(0, 2, (5, 30, 8)),
        hand(1, 0, (13, 0, 30)),
        hand(1, 1, (1, 21, 21)),
        hand(1, 2, (7, 26, 10), (0.003, 0.0, 0.0)),
    ]
    result = TournamentResult(settings, games)
    # Per deal, the heuristic takes 5 and 7 a hand; the random seats 114/6 = 19 and 108/6 = 18.
    assert result.per_deal((0,)) == {0: 5.0, 1: 7.0}
    assert result.per_deal((1, 2)) == {0: 19.0, 1: 18.0}
    heuristic, random_ = result.by_spec()
    assert (heuristic.hands, heuristic.mean_points) == (6, 6.0)
    assert heuristic.ci_low == pytest.approx(6 - Z95 * 1.0) and heuristic.ci_high == pytest.approx(6 + Z95 * 1.0)
    assert (random_.hands, random_.mean_points) == (12, 18.5)
    assert random_.ci_high - random_.mean_points == pytest.approx(Z95 * 0.5)
    assert heuristic.us_per_decision == pytest.approx(1e6 * 0.003 / 6)
    # Position 1 alone: deal 0 (20 + 13 + 30) / 3 = 21, deal 1 (0 + 21 + 26) / 3.
    assert result.by_position()[1].mean_points == pytest.approx((21 + 47 / 3) / 2)
    (pair,) = result.pairwise()
    # Differences per deal: 5 - 19 = -14 and 7 - 18 = -11: mean -12.5, standard error 1.5.
    assert (pair["a"], pair["b"], pair["deals"]) == ("heuristic", "random", 2)
    assert pair["difference"] == -12.5 and pair["stderr"] == pytest.approx(1.5)
    assert pair["ci_low"] == pytest.approx(-12.5 - Z95 * 1.5) and pair["p_value"] < 1e-10
    obj = result.to_json()
    assert obj["bots"]["heuristic"]["mean_points"] == 6.0 and obj["hands"] == 6
    assert set(obj["bots"]["random"]) >= {"mean_points", "ci_low", "ci_high", "hands"}
    lines = table_lines(result)
    assert any(line.split()[:4] == ["heuristic", "6", "6.00", "["] for line in lines)
    assert any("heuristic - random: -12.50 points" in line for line in lines)


def test_one_deal_has_no_interval_and_json_stays_valid() -> None:
    settings = bm_settings(players=3, bots=("heuristic", "random", "random"), deals=1, seed=0)
    result = TournamentResult(settings, [hand(0, r, (1, 2, 40)) for r in range(3)])
    assert math.isinf(result.by_spec()[0].ci_high)
    obj = json.loads(json.dumps(result.to_json(), allow_nan=False))
    assert obj["bots"]["heuristic"]["ci_low"] is None and obj["pairwise"][0]["ci_high"] is None
    assert mean_interval([]).units == 0 and mean_interval([2.0, 4.0]).mean == 3.0


# -- playing tournaments ---------------------------------------------------------------------------


def test_duplicate_deals_rotate_the_lineup_over_the_same_cards(tmp_path: Path) -> None:
    settings = bm_settings(players=4, bots=("heuristic", "random", "random", "pimc:samples=2"), deals=2, seed=9)
    result = run_tournament(settings, out_dir=tmp_path)
    assert [(g.deal, g.rotation) for g in result.games] == [(d, r) for d in range(2) for r in range(4)]
    for g in result.games:
        rec = BMRecord.load(tmp_path / f"deal-{g.deal:06d}-rot-{g.rotation}.json")
        dealt = BMState.from_seed(4, deal_seed(9, g.deal))
        assert (rec.deck, rec.dealer) == (dealt.deck, dealt.dealer)  # The same cards in every rotation.
        # Lineup position p sits in seat (p + rotation) % 4, and its points are that seat's.
        assert rec.extra["bots"] == [settings.bots[(s - g.rotation) % 4] for s in range(4)]
        points = rec.replay().points()
        assert g.scores == tuple(float(points[(p + g.rotation) % 4]) for p in range(4))
        assert rec.extra["tournament"] == {"seed": 9, "deal": g.deal, "rotation": g.rotation}
        assert sum(g.decisions) == 4 * 3 + 52  # Passes are chosen card by card.
    # Each game is reproducible on its own from the seeds.
    again, _ = play_game_record(settings, 1, 2)
    assert again.scores == result.games[6].scores
    assert bot_seed(9, 1, 2, 0) != bot_seed(9, 1, 3, 0)


def test_results_do_not_depend_on_jobs() -> None:
    settings = bm_settings(players=5, bots=("heuristic", "random", "random", "random", "random"), deals=6,
                           seed=3, rules=BMRules(allow_renege=True))
    one = run_tournament(settings, jobs=1)
    two = run_tournament(settings, jobs=2)
    assert [(g.deal, g.rotation, g.scores, g.decisions) for g in one.games] == \
           [(g.deal, g.rotation, g.scores, g.decisions) for g in two.games]
    assert one.pairwise() == two.pairwise()
    assert len(one.games) == 30


def test_settings_are_validated() -> None:
    with pytest.raises(MustamaijaError, match="B1"):
        bm_settings(players=2, bots=("random", "random"))
    with pytest.raises(MustamaijaError, match="one bot spec per seat"):
        bm_settings(players=3, bots=("random", "random"))
    with pytest.raises(MustamaijaError, match="positive integer"):
        bm_settings(players=3, bots=("random",) * 3, deals=0)
    with pytest.raises(MustamaijaError, match="unknown preset 'french'"):
        bm_settings(players=3, bots=("random",) * 3, preset="french")


def test_cli_end_to_end_with_json_out_and_plot(tmp_path: Path) -> None:
    common = ["tournament", "--game", "black-maria", "--players", "3", "--bots", "heuristic,random*2",
              "--deals", "4", "--seed", "5", "--json"]
    one = cli(*common, "--jobs", "1", "--out", "recs", "--plot", "points.png", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    two = cli(*common, "--jobs", "2", cwd=tmp_path)
    assert two.returncode == 0, two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    for obj in (a, b):
        del obj["seconds"]
        for row in [*obj["bots"].values(), *obj["positions"]]:
            del row["us_per_decision"]
    assert a.pop("out") == "recs" and a.pop("plot") == "points.png"
    assert a == b
    assert a["game"] == "black-maria" and a["hands"] == 12 and a["settings"]["bots"] == ["heuristic", "random", "random"]
    assert set(a["bots"]) == {"heuristic", "random"}
    assert a["bots"]["heuristic"]["hands"] == 12 and a["bots"]["random"]["hands"] == 24
    assert a["pairwise"][0]["a"] == "heuristic" and a["pairwise"][0]["deals"] == 4
    # The records: one per hand, replaying to the end; the figures come from them.
    files = sorted((tmp_path / "recs").glob("*.json"))
    assert len(files) == 12 and files[0].name == "deal-000000-rot-0.json"
    replay = cli("replay", "--json", *(str(f) for f in files), cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    finals = [json.loads(line) for line in replay.stdout.splitlines()]
    assert all(f["finished"] for f in finals)
    heuristic_points = []
    for f, final in zip(files, finals, strict=True):
        seats = json.loads(f.read_text(encoding="utf-8"))["bots"]
        heuristic_points.append(final["points"][seats.index("heuristic")])
    assert a["bots"]["heuristic"]["mean_points"] == pytest.approx(sum(heuristic_points) / 12)
    assert a["bots"]["heuristic"]["ci_low"] <= a["bots"]["heuristic"]["mean_points"] <= a["bots"]["heuristic"]["ci_high"]
    assert (tmp_path / "points.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_table_rules_and_errors(tmp_path: Path) -> None:
    r = cli("tournament", "--game", "black-maria", "--players", "4", "--bots", "heuristic,random*3", "--deals", "3",
            "--rules", '{"allow_renege": true}', cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Black Maria, 4 players, to 50 points, reneging allowed")
    assert "heuristic - random:" in r.stdout and "= 12 deals played" in r.stdout
    assert r.stdout.splitlines()[1].startswith("points per deal, all seats together: ")
    preset = cli("tournament", "--game", "black-maria", "--preset", "french", "--players", "3", cwd=tmp_path)
    assert preset.returncode == 2 and "unknown preset 'french' (Black Maria has one: 'standard'" in preset.stderr
    unknown = cli("tournament", "--game", "black-maria", "--players", "3", "--bots", "nobody,random*2", cwd=tmp_path)
    assert unknown.returncode == 2 and "unknown Black Maria bot 'nobody'" in unknown.stderr
    bad_rules = cli("tournament", "--game", "black-maria", "--players", "3", "--rules", '{"max_turns": 3}',
                    cwd=tmp_path)
    assert bad_rules.returncode == 2 and "unknown rule key 'max_turns'" in bad_rules.stderr
    too_few = cli("tournament", "--game", "black-maria", "--players", "2", "--bots", "random*2", cwd=tmp_path)
    assert too_few.returncode == 2 and "B1" in too_few.stderr


def test_the_console_examples_of_formats_md_are_real(tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "formats.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Black Maria records"):]
    blocks = section.split("```")
    record = json.loads(next(b for b in blocks if b.startswith("json\n"))[len("json\n"):])
    write(tmp_path / "bm.json", record)
    changed: dict[str, tuple[int, dict[str, Any]]] = {
        "illegal.json": (len(record["actions"]), {"seat": 1, "play": "2H"}),
        "malformed.json": (4, {"seat": 0, "play": "3X"}),
        "wrongseat.json": (3, {"seat": 0, "play": "3S"}),
    }
    for name, (index, action) in changed.items():
        write(tmp_path / name, {**record, "actions": [*record["actions"][:index], action, *record["actions"][index + 1:]]})
    consoles = [b[len("console\n"):] for b in blocks if b.startswith("console\n")]
    assert len(consoles) == 3
    for console in consoles:
        for example in console.split("$ mustamaija ")[1:]:
            command, *expected = example.rstrip("\n").split("\n")
            args, _, echo = command.partition(";")
            r = cli(*args.split(), cwd=tmp_path)
            got = (r.stdout + r.stderr).rstrip("\n").split("\n")
            if echo:
                got.append(f"exit status {r.returncode}")
            assert got == expected, command


def test_the_ray_backend_plays_the_same_hands(tmp_path: Path) -> None:
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        settings = bm_settings(players=3, bots=("pimc:samples=2", "heuristic", "random"), deals=4, seed=2)
        local = run_tournament(settings, out_dir=tmp_path / "local")
        seen: list[tuple[int, int]] = []
        remote = run_tournament(settings, out_dir=tmp_path / "ray", backend="ray",
                                progress=lambda done, total: seen.append((done, total)))
        assert [(g.deal, g.rotation, g.scores, g.decisions) for g in remote.games] == \
               [(g.deal, g.rotation, g.scores, g.decisions) for g in local.games]
        assert remote.pairwise() == local.pairwise() and seen[-1] == (4, 4)
        names = sorted(p.name for p in (tmp_path / "local").glob("*.json"))
        assert names == sorted(p.name for p in (tmp_path / "ray").glob("*.json")) and len(names) == 12
        for name in names:
            assert (tmp_path / "ray" / name).read_text() == (tmp_path / "local" / name).read_text()
    finally:
        ray.shutdown()
