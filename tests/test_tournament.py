"""Tournaments: the statistics on textbook inputs, the bot registry and specs, the runner and the CLI end to end."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from mustamaija import State
from mustamaija.core.errors import MustamaijaError
from mustamaija.core.registry import game_names, get_game
from mustamaija.games.mustamaija import Rules
from mustamaija.games.mustamaija.record import Record
from mustamaija.players import RandomPlayer
from mustamaija.players.registry import BotSpec, bot_names, make_bot, parse_bot_spec, register_bot, sees_all
from mustamaija.tournament import (
    GameResult,
    LossRow,
    TournamentResult,
    TournamentSettings,
    deal_seed,
    paired_difference,
    play_game,
    run_tournament,
    wilson_interval,
)
from mustamaija.tournament.backends import BATCH_SECONDS, MAX_BATCH, _Feeder
from mustamaija.tournament.report import table_lines

CLI = [sys.executable, "-m", "mustamaija"]

# -- statistics ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score, no continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_textbook_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert round(lo, 4) == low
    assert round(hi, 4) == high


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(3, 10)
    assert lo < 0.3 < hi
    # A wider z gives a wider interval; more trials a narrower one.
    lo99, hi99 = wilson_interval(3, 10, z=2.5758)
    assert lo99 < lo and hi99 > hi
    lo2, hi2 = wilson_interval(300, 1000)
    assert hi2 - lo2 < hi - lo
    with pytest.raises(ValueError):
        wilson_interval(5, 3)


def test_paired_difference_known_input() -> None:
    d = paired_difference([1.0, 0.0, 0.5, 0.25], [0.0, 0.0, 0.25, 0.25])
    diffs = [1.0, 0.0, 0.25, 0.0]
    mean = sum(diffs) / 4
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / 3)
    assert d.units == 4
    assert d.mean == pytest.approx(0.3125)
    assert d.stderr == pytest.approx(sd / 2)
    assert d.ci_low == pytest.approx(0.3125 - 1.959963984540054 * sd / 2)
    assert d.ci_high == pytest.approx(0.3125 + 1.959963984540054 * sd / 2)
    assert 0.18 < d.p_value < 0.19  # z = 1.32


def test_paired_difference_degenerate_cases() -> None:
    # Differences all alike: the sign test's p-value, and room for the units not seen yet (none claimed without bounds).
    same = paired_difference([0.25] * 10, [0.25] * 10)
    assert (same.mean, same.ci_low, same.ci_high, same.p_value) == (0.0, -math.inf, math.inf, 1.0)
    share = 1 - 0.05 ** (1 / 10)  # The largest share of units unlike the ten seen that 95% confidence allows.
    bounded = paired_difference([0.25] * 10, [0.25] * 10, bounds=(0.0, 1.0))
    assert bounded.ci_low == pytest.approx(-share) and bounded.ci_high == pytest.approx(share)
    constant = paired_difference([1.0] * 5, [0.0] * 5, bounds=(0.0, 1.0))
    assert constant.mean == 1.0 and constant.p_value == 2 * 0.5**5 and constant.ci_high == 1.0
    assert constant.ci_low == pytest.approx(1 - 2 * (1 - 0.05 ** (1 / 5))) and constant.ci_low < 1.0
    assert paired_difference([1.0] * 40, [0.0] * 40).p_value == pytest.approx(2 * 0.5**40)
    one = paired_difference([1.0], [0.0])
    assert one.units == 1 and math.isinf(one.ci_high)
    with pytest.raises(ValueError):
        paired_difference([1.0], [1.0, 2.0])


# -- bot specs and the registry ----------------------------------------------------------------


def test_bot_specs_parse_and_print_canonically() -> None:
    spec = parse_bot_spec("heuristic:b=2:a=x:c=true:d=0.5:e=none")
    assert spec.name == "heuristic"
    assert dict(spec.params) == {"b": 2, "a": "x", "c": True, "d": 0.5, "e": None}
    assert str(spec) == "heuristic:a=x:b=2:c=true:d=0.5:e=none"
    assert parse_bot_spec(str(spec)) == spec
    assert parse_bot_spec(" random ") == BotSpec("random")
    for bad in ("", "heuristic:x=1:y", "heuristic:=3", "heuristic:a=1:a=2"):
        with pytest.raises(MustamaijaError):
            parse_bot_spec(bad)
    # A part without '=' after the name names code: module:Attribute.
    assert parse_bot_spec("mybots:Eager:depth=2") == BotSpec("mybots:Eager", {"depth": 2})
    with pytest.raises(MustamaijaError, match="cannot load bot 'heuristic:x'"):
        make_bot("heuristic:x", 1)


def test_registry_makes_the_builtin_bots_and_rejects_unknown_ones() -> None:
    assert {"random", "heuristic"} <= set(bot_names())
    assert make_bot("random", 1).name == "random"
    assert make_bot("heuristic:end_suit=0.5", 1).name == "heuristic"
    with pytest.raises(MustamaijaError, match="unknown Mustamaija bot 'nobody'"):
        make_bot("nobody", 1)
    with pytest.raises(MustamaijaError, match="no_such_weight"):
        make_bot("heuristic:no_such_weight=1", 1)
    with pytest.raises(MustamaijaError, match="no parameters"):
        make_bot("random:x=1", 1)


class _OpenHand:
    """A test open-hand bot: plays the first legal step, and checks that it is given the true state."""

    name = "open-test"
    sees_all = True
    states_seen = 0

    def act(self, view: object) -> int:
        raise AssertionError("an open-hand bot must be given the state")

    def act_open(self, state: State) -> int:
        assert isinstance(state, State)
        _OpenHand.states_seen += 1
        return state.legal_actions()[0]


def _open_factory(params: Mapping[str, Any], seed: int) -> _OpenHand:
    return _OpenHand()


def test_registered_bots_play_and_open_hand_bots_get_the_state() -> None:
    register_bot("open-test", _open_factory, description="test", replace=True)
    assert sees_all(make_bot("open-test", 0)) and not sees_all(RandomPlayer(seed=1))
    t = TournamentSettings(players=3, bots=("open-test", "random", "random"), deals=3, seed=2)
    result = run_tournament(t)
    assert _OpenHand.states_seen > 0
    assert len(result.games) == 9
    with pytest.raises(ValueError, match="already registered"):
        register_bot("open-test", lambda params, seed: RandomPlayer(seed=seed))


# -- the runner -------------------------------------------------------------------------------------


def test_settings_are_validated() -> None:
    with pytest.raises(MustamaijaError, match="one bot spec per seat"):
        TournamentSettings(players=3, bots=("random", "random"))
    with pytest.raises(MustamaijaError, match="positive"):
        TournamentSettings(players=2, bots=("random", "random"), deals=0)
    t = TournamentSettings(players=2, bots=("heuristic:end_suit=0.6", "random"))
    assert t.bots == ("heuristic:end_suit=0.6", "random")


def test_duplicate_deals_rotate_the_lineup_over_the_same_deck(tmp_path: Path) -> None:
    t = TournamentSettings(players=3, bots=("heuristic", "random", "random"), deals=2, seed=11)
    for r in range(3):
        play_game(t, 1, r, tmp_path)
    records = [Record.load(tmp_path / f"deal-000001-rot-{r}.json") for r in range(3)]
    first = State.from_seed(3, deal_seed(11, 1))
    for r, rec in enumerate(records):
        assert rec.deck == first.deck and rec.dealer == first.dealer
        assert rec.extra["seed"] == deal_seed(11, 1)
        assert rec.extra["bots"][r] == "heuristic"  # Lineup position 0 sits in seat r.
        assert rec.replay().is_over


def test_identical_bots_lose_about_one_in_n() -> None:
    for n, bot in ((2, "random"), (3, "heuristic"), (4, "random")):
        t = TournamentSettings(players=n, bots=(bot,) * n, deals=60, seed=6)
        result = run_tournament(t)
        (row,) = result.by_spec()
        # Every finished game has one loser among the n identical bots.
        assert row.loss_rate == pytest.approx(1 / n)
        assert row.loss_ratio == pytest.approx(1.0)
        for pos in result.by_position():
            # Each position on its own: within its interval (99%, as nine positions are checked).
            lo, hi = wilson_interval(pos.losses, pos.games, z=2.5758)
            assert lo <= 1 / n <= hi, (n, pos)
        assert result.stopped == 0


def test_stopped_deals_have_no_loser_and_are_reported_apart() -> None:
    rules = Rules(max_turns=8)
    t = TournamentSettings(players=3, bots=("random",) * 3, rules=rules, deals=5, seed=1)
    result = run_tournament(t)
    assert result.stopped == 15
    assert all(g.loser is None for g in result.games)
    obj = result.to_json()
    assert obj["stopped"] == 15 and obj["finished"] == 0
    assert obj["bots"]["random"]["deals"] == 0


def test_pairwise_comparison_is_paired_by_deal() -> None:
    t = TournamentSettings(players=3, bots=("heuristic", "random", "random"), deals=30, seed=3)
    result = run_tournament(t)
    (p,) = result.pairwise()
    assert (p["a"], p["b"]) == ("heuristic", "random")
    assert p["deals"] == 30
    h, r = result.by_spec()
    assert p["difference"] == pytest.approx(h.loss_rate - r.loss_rate)
    assert p["ci_high"] < 0  # The heuristic loses clearly less.
    assert any("heuristic - random" in line for line in table_lines(result))


def test_loss_statistics_on_a_hand_made_set() -> None:
    t = TournamentSettings(players=3, bots=("heuristic", "random", "random"), deals=2)

    def game(deal: int, rotation: int, loser: int | None, turns: int = 10) -> GameResult:
        scores = None if loser is None else tuple(float(p == loser) for p in range(3))
        return GameResult(deal, rotation, scores, turns, (2, 3, 4), (0.001, 0.0, 0.0))

    games = [game(0, 0, 1), game(0, 1, 2), game(0, 2, None, 99), game(1, 0, 0, 20), game(1, 1, 1), game(1, 2, 2)]
    result = TournamentResult(t, games)
    assert [g.loser for g in games] == [1, 2, None, 0, 1, 2]
    assert (len(result.finished), result.stopped) == (5, 1)
    heuristic, random_ = result.by_spec()
    assert isinstance(heuristic, LossRow)
    assert (heuristic.games, heuristic.losses, heuristic.loss_rate) == (5, 1, 0.2)
    assert heuristic.loss_ratio == pytest.approx(0.6)
    assert (heuristic.ci_low, heuristic.ci_high) == wilson_interval(1, 5)
    assert (random_.games, random_.losses, random_.loss_rate) == (10, 4, 0.4)
    assert heuristic.decisions == 12 and heuristic.us_per_decision == pytest.approx(1e6 * 0.006 / 12)
    # Per deal: the heuristic loses 0 of 2 and 1 of 3 finished games; the random seats 2 of 4 and 2 of 6.
    assert result.per_deal((0,)) == {0: 0.0, 1: 1 / 3}
    assert result.per_deal((1, 2)) == {0: 0.5, 1: 1 / 3}
    (pair,) = result.pairwise()
    assert (pair["a"], pair["b"], pair["deals"], pair["difference"]) == ("heuristic", "random", 2, -0.25)
    obj = result.to_json()
    assert "game" not in obj and "game" not in obj["settings"]  # The default game is not named, as in records.
    assert (obj["games"], obj["finished"], obj["stopped"], obj["parity"]) == (6, 5, 1, 1 / 3)
    assert obj["mean_turns"] == (10 + 10 + 20 + 10 + 10) / 5
    assert obj["bots"]["heuristic"] == {
        "bot": "heuristic", "positions": [0], "deals": 5, "losses": 1, "loss_rate": 0.2, "ci_low": heuristic.ci_low,
        "ci_high": heuristic.ci_high, "loss_ratio": heuristic.loss_ratio, "decisions": 12,
        "us_per_decision": heuristic.us_per_decision,
    }
    lines = table_lines(result)
    assert lines[0] == (f"Mustamaija, 3 players, {Rules().describe()}, 2 deals x 3 seat rotations = 6 deals played, "
                        "seed 0")
    assert lines[1].startswith("finished 5, stopped unfinished (no loser) 1; parity loss rate 33.3%")
    assert any(line.split()[:4] == ["heuristic", "5", "1", "20.0%"] for line in lines)
    assert any("heuristic - random: -25.0 points" in line for line in lines)


def test_settings_name_the_game_and_its_rules_as_the_game_has_them() -> None:
    mm = TournamentSettings(players=3, bots=("random",) * 3, rules=Rules.preset("salmi"), preset="salmi")
    assert mm.to_json()["preset"] == "salmi" and mm.to_json()["rules"] == {"hand_size": 6, "trump": "marriage"}
    assert TournamentSettings(players=3, bots=("random",) * 3, preset="wikipedia").rules == Rules.preset("wikipedia")
    bm = TournamentSettings(players=3, bots=("random",) * 3, game="Black_Maria")
    assert bm.game == "black-maria"  # The name travels to the workers, not the object.
    assert bm.to_json() == {"game": "black-maria", "players": 3, "bots": ["random"] * 3,
                            "rules": {"target_score": 50, "hands": None, "allow_renege": False},
                            "deals": 100, "seed": 0, "rotate": True, "rotations": 3}
    with pytest.raises(MustamaijaError, match="unknown game 'bridge'"):
        TournamentSettings(players=3, bots=("random",) * 3, game="bridge")


@pytest.mark.parametrize("name", game_names())
def test_the_runner_gives_every_game_the_same_results_in_one_or_two_processes(name: str, tmp_path: Path) -> None:
    game = get_game(name)
    players = max(3, game.min_players)
    t = TournamentSettings(players=players, bots=("heuristic",) + ("random",) * (players - 1), game=name, deals=5,
                           seed=21)
    one = run_tournament(t, out_dir=tmp_path / "one")
    two = run_tournament(t, jobs=2, out_dir=tmp_path / "two")

    def seeded(result: TournamentResult) -> list[tuple[Any, ...]]:
        return [(g.deal, g.rotation, g.scores, g.turns, g.decisions) for g in result.games]

    assert seeded(one) == seeded(two) and len(one.games) == 5 * players
    assert one.pairwise() == two.pairwise()
    names = sorted(p.name for p in (tmp_path / "one").glob("*.json"))
    assert names == sorted(p.name for p in (tmp_path / "two").glob("*.json")) and len(names) == 5 * players
    for file in names:
        text = (tmp_path / "one" / file).read_text(encoding="utf-8")
        assert text == (tmp_path / "two" / file).read_text(encoding="utf-8")
        record = game.load_record(text)
        assert record.replay().is_over and record.extra["tournament"]["seed"] == 21
    scores = [g.scores for g in one.games if g.scores is not None]
    if game.result_kind == "loss":
        assert all(sorted(s) == [0.0] * (players - 1) + [1.0] for s in scores)
        assert "loss_rate" in one.to_json()["bots"]["heuristic"]
    else:
        assert len(scores) == len(one.games)
        assert "mean_points" in one.to_json()["bots"]["heuristic"]


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    t = TournamentSettings(players=2, bots=("random", "random"), deals=4, seed=0)
    run_tournament(t, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (4, 4)


# -- resuming ----------------------------------------------------------------------------------


def _seeded(result: TournamentResult) -> list[tuple[Any, ...]]:
    return [(g.deal, g.rotation, g.scores, g.turns, g.decisions) for g in result.games]


def _records(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.json"))}


class _Stop(Exception):
    pass


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_stopped_run_resumed_gives_the_games_of_one_run(jobs: int, tmp_path: Path) -> None:
    t = TournamentSettings(players=3, bots=("heuristic", "random", "random"), deals=7, seed=13)
    whole = run_tournament(t, jobs=jobs, out_dir=tmp_path / "whole")

    def stop_after_three(done: int, _total: int) -> None:
        if done >= 3:
            raise _Stop

    with pytest.raises(_Stop):
        run_tournament(t, jobs=jobs, out_dir=tmp_path / "cut", progress=stop_after_three)
    cut = tmp_path / "cut"
    assert 3 * 3 <= len(_records(cut)) < 7 * 3
    seen: list[tuple[int, int]] = []
    resumed = run_tournament(t, jobs=jobs, out_dir=cut, resume=True, progress=lambda d, n: seen.append((d, n)))
    assert _seeded(resumed) == _seeded(whole) and resumed.pairwise() == whole.pairwise()
    assert _records(cut) == _records(tmp_path / "whole")
    assert seen[0][0] >= 3 and seen[-1] == (7, 7) and resumed.resumed == seen[0][0] and whole.resumed == 0
    # Resuming a finished run plays nothing, and reports the same, saying where its games came from.
    again = run_tournament(t, jobs=jobs, out_dir=cut, resume=True)
    assert _seeded(again) == _seeded(whole) and again.elapsed < whole.elapsed and again.resumed == 7
    assert again.to_json()["resumed_deals"] == 7 and "resumed_deals" not in whole.to_json()
    assert table_lines(again)[-1].endswith("; 7 deals read back from the journal)")


def test_more_deals_extend_a_run_and_a_cut_journal_line_is_played_again(tmp_path: Path) -> None:
    small = TournamentSettings(players=2, bots=("heuristic", "random"), deals=4, seed=8)
    big = TournamentSettings(players=2, bots=("heuristic", "random"), deals=9, seed=8)
    whole = run_tournament(big)
    run_tournament(small, out_dir=tmp_path)
    journal = tmp_path / "games.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) == 1 + 4 * 2 and json.loads(lines[0])["tournament"]["seed"] == 8
    # A run killed while writing: the last game's line (deal 3's second rotation) cut short.
    journal.write_text("".join(lines[:-1]) + lines[-1][:15], encoding="utf-8")
    extended = run_tournament(big, out_dir=tmp_path, resume=True)
    assert _seeded(extended) == _seeded(whole)
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert all(json.loads(line) for line in lines)  # The cut line was cut off, not built on.
    assert len(lines) == 1 + 3 * 2 + 1 + 6 * 2  # Deal 3 again whole: its first rotation is in twice.


def test_resuming_another_tournament_or_a_broken_journal_is_refused(tmp_path: Path) -> None:
    t = TournamentSettings(players=2, bots=("heuristic", "random"), deals=2, seed=1)
    run_tournament(t, out_dir=tmp_path)
    for other, what in [
        (TournamentSettings(players=2, bots=("random", "heuristic"), deals=2, seed=1), "its bots"),
        (TournamentSettings(players=2, bots=("heuristic", "random"), deals=2, seed=2), "its seed is 1, not 2"),
        (TournamentSettings(players=2, bots=("heuristic", "random"), deals=2, seed=1, rotate=False), "its rotate"),
        (TournamentSettings(players=2, bots=("heuristic", "random"), deals=2, seed=1,
                            rules=Rules.preset("standard").replace(hand_size=3)), "its rules"),
    ]:
        with pytest.raises(MustamaijaError, match=f"another tournament \\({what}"):
            run_tournament(other, out_dir=tmp_path, resume=True)
    journal = tmp_path / "games.jsonl"
    journal.write_text(journal.read_text(encoding="utf-8") + '{"deal": 1, "rotation": 0, "scores": "x"}\n',
                       encoding="utf-8")
    with pytest.raises(MustamaijaError, match=r"line 6 of .* is not a game's result"):
        run_tournament(t, out_dir=tmp_path, resume=True)
    journal.write_text("[1, 2]\n", encoding="utf-8")
    with pytest.raises(MustamaijaError, match="not a tournament journal"):
        run_tournament(t, out_dir=tmp_path, resume=True)
    with pytest.raises(MustamaijaError, match="needs the folder"):
        run_tournament(t, resume=True)
    # Without --resume the folder's run starts afresh.
    fresh = run_tournament(t, out_dir=tmp_path)
    assert len(fresh.games) == 4 and len(journal.read_text(encoding="utf-8").splitlines()) == 5


# -- the command line ----------------------------------------------------------------------------


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_cli_end_to_end(tmp_path: Path) -> None:
    common = ["tournament", "--players", "3", "--bots", "heuristic,random*2", "--deals", "8", "--seed", "4", "--json"]
    one = _cli(*common, "--jobs", "1", "--out", "recs", "--plot", "loss.png", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    two = _cli(*common, "--jobs", "2", cwd=tmp_path)
    assert two.returncode == 0, two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    keys = ("deals", "losses", "loss_rate", "ci_low", "ci_high", "decisions")
    for spec in ("heuristic", "random"):
        assert {k: a["bots"][spec][k] for k in keys} == {k: b["bots"][spec][k] for k in keys}
    assert a["pairwise"][0]["difference"] == b["pairwise"][0]["difference"]
    assert a["games"] == 24 and a["finished"] + a["stopped"] == 24
    assert a["settings"]["bots"] == ["heuristic", "random", "random"]
    row = a["bots"]["heuristic"]
    assert row["deals"] == a["finished"] and 0 <= row["ci_low"] <= row["loss_rate"] <= row["ci_high"] <= 1
    # Records: one per game, in sorted order, each replaying to the end.
    files = sorted((tmp_path / "recs").glob("*.json"))
    assert sorted(p.name for p in (tmp_path / "recs").iterdir() if p.suffix != ".json") == ["games.jsonl"]
    assert [f.name for f in files[:4]] == [
        "deal-000000-rot-0.json", "deal-000000-rot-1.json", "deal-000000-rot-2.json", "deal-000001-rot-0.json",
    ]
    assert len(files) == 24
    replay = _cli("replay", "--json", *(str(f) for f in files[:6]), cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    finals = [json.loads(line) for line in replay.stdout.splitlines()]
    assert len(finals) == 6 and all(f["phase"] == "over" for f in finals)
    losers = sum(1 for f in finals if f["finished"])
    assert losers == 6
    # The plot is a PNG.
    assert (tmp_path / "loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_table_rules_json_and_errors(tmp_path: Path) -> None:
    r = _cli("tournament", "--players", "2", "--rules", '{"hand_size": 3, "trump": "fixed"}', "--deals", "3",
             "--bots", "heuristic:end_suit=0.5,random", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "heuristic:end_suit=0.5" in r.stdout and "95% Wilson interval" in r.stdout
    assert r.stdout.startswith("Mustamaija, 2 players, hand 3, ")
    salmi = _cli("tournament", "--players", "3", "--preset", "salmi", "--deals", "2", cwd=tmp_path)
    assert salmi.returncode == 0, salmi.stderr
    assert salmi.stdout.startswith("Mustamaija, 3 players, rules salmi: hand 6, trumps by marriage")
    bad = _cli("tournament", "--players", "3", "--bots", "heuristic,random", cwd=tmp_path)
    assert bad.returncode == 2 and "one bot spec per seat" in bad.stderr
    unknown = _cli("tournament", "--players", "2", "--bots", "nobody,random", "--deals", "1", cwd=tmp_path)
    assert unknown.returncode == 2 and "unknown Mustamaija bot 'nobody'" in unknown.stderr
    lost = _cli("tournament", "--players", "2", "--deals", "1", "--resume", cwd=tmp_path)
    assert lost.returncode == 2 and "--resume needs the --out DIR" in lost.stderr


def test_cli_resume_extends_a_run_to_the_report_of_one_run(tmp_path: Path) -> None:
    common = ["tournament", "--players", "2", "--bots", "heuristic,random", "--seed", "6", "--json"]
    whole = _cli(*common, "--deals", "6", cwd=tmp_path)
    first = _cli(*common, "--deals", "2", "--out", "run", cwd=tmp_path)
    rest = _cli(*common, "--deals", "6", "--out", "run", "--resume", "--jobs", "2", cwd=tmp_path)
    assert whole.returncode == first.returncode == rest.returncode == 0, (first.stderr, rest.stderr)
    a, b = json.loads(whole.stdout), json.loads(rest.stdout)
    for key in ("games", "finished", "pairwise"):
        assert a[key] == b[key]
    for spec in ("heuristic", "random"):
        assert {k: v for k, v in a["bots"][spec].items() if k != "us_per_decision"} == \
            {k: v for k, v in b["bots"][spec].items() if k != "us_per_decision"}
    assert len(list((tmp_path / "run").glob("*.json"))) == 12
    other = _cli(*common, "--deals", "6", "--out", "run", "--resume", "--bots", "random,heuristic", cwd=tmp_path)
    assert other.returncode == 2 and "another tournament (its bots" in other.stderr


@pytest.mark.parametrize("name", game_names())
def test_levels_stand_for_their_bots_in_a_lineup(name: str) -> None:
    from mustamaija.cli.tournament import _lineup

    game = get_game(name)
    levels = game.levels
    lineup = _lineup("Medium, easy*2, search", 4, game)
    assert lineup == [levels["medium"], levels["easy"], levels["easy"], "pimc"]
    assert _lineup("expert,hard", 2, game) == [levels["expert"], levels["hard"]]
    assert _lineup("heuristic:end_suit=0.5,random*2", 3, game) == ["heuristic:end_suit=0.5", "random", "random"]
    for spec in lineup:
        assert make_bot(spec, 1, game).name


@pytest.mark.parametrize(("seconds_a_deal", "workers"), [(30.0, 2), (0.5, 2), (0.001, 4), (0.001, 64)])
def test_the_feeder_hands_out_every_deal_once_in_batches_sized_by_time(seconds_a_deal: float, workers: int) -> None:
    # Slow deals go out one at a time (a stopped run loses little), quick ones in batches of about
    # BATCH_SECONDS, and batches shrink at the end so that no worker is left with a long one.
    deals = list(range(5, 905))
    feeder = _Feeder(deals, workers)
    batches = []
    while feeder:
        batch = feeder.next()
        assert batch
        batches.append(batch)
        feeder.took(len(batch), seconds_a_deal * len(batch))
    assert [d for b in batches for d in b] == deals
    sizes = [len(b) for b in batches]
    assert sizes[0] == 1 and max(sizes) <= MAX_BATCH
    aim = max(1, min(MAX_BATCH, round(BATCH_SECONDS / seconds_a_deal)))
    assert max(sizes) == max(1, min(aim, (len(deals) - 1) // (2 * workers)))  # Once one deal said how long one takes.
    assert all(size * seconds_a_deal <= BATCH_SECONDS * 1.5 or size == 1 for size in sizes)
    left = len(deals)
    for size in sizes:
        assert size == 1 or size <= left // (2 * workers)
        left -= size
