"""Where games were decided (mustamaija.games.mustamaija.decided): the solver's verdicts on tournament records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mustamaija import State
from mustamaija.games.mustamaija.decided import Tally, Verdict, main, tally, verdict
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.solver import solve
from mustamaija.games.mustamaija.state import LEAD
from mustamaija.players.registry import make_bot
from mustamaija.tournament import TournamentSettings, run_tournament


def _played(players: int, seed: int, bots: tuple[str, ...]) -> State:
    s = State.from_seed(players=players, seed=seed)
    seated = [make_bot(b, seed + i) for i, b in enumerate(bots)]
    while not s.is_over:
        s.apply(seated[s.to_act].act(s.view(s.to_act)))
    return s


@pytest.mark.parametrize("seed", range(6))
def test_two_players_the_verdict_is_the_solvers_value_when_the_talon_empties(seed: int) -> None:
    s = _played(2, seed, ("heuristic", "random"))
    record = Record.from_state(s)
    first = next(st for st in record.states() if not st.talon_size and (st.phase == LEAD or st.is_over)
                 and not st.in_progress)
    attacker_safe = None if first.is_over else solve(first, all_leads=False).attacker_safe
    for seat in (0, 1):
        v = verdict(record, seat)
        assert v.lost == (s.loser == seat)
        if attacker_safe is None:  # The deal ended as the talon emptied: no endgame to judge.
            assert v.last_two == "none"
        else:
            assert v.last_two == ("safe" if attacker_safe == (seat == first.attacker) else "lost")
        assert v.three is None  # Two players never have three holders.


def test_a_seat_out_before_the_last_two_never_loses_and_the_tally_adds_up(tmp_path: Path) -> None:
    settings = TournamentSettings(players=4, bots=("heuristic", "heuristic", "random", "random"), deals=3, seed=5)
    run_tournament(settings, out_dir=tmp_path)
    records = [(Record.from_json(obj), obj["bots"])
               for obj in (json.loads(p.read_text(encoding="utf-8")) for p in sorted(tmp_path.glob("*.json")))]
    assert len(records) == 12
    losers = 0
    for record, _ in records:
        verdicts = [verdict(record, seat) for seat in range(4)]
        losers += sum(v.lost for v in verdicts)
        for v in verdicts:
            assert not (v.last_two == "out" and v.lost)
    rows = {t.bot: t for t in tally(records)}
    assert set(rows) == {"heuristic", "random"}
    assert rows["heuristic"].games == rows["random"].games == 24
    assert rows["heuristic"].lost + rows["random"].lost == losers == 12
    for t in rows.values():
        assert sum(t.get(k) for k in ("out", "safe", "lost", "none")) == t.games


def test_tally_counts_each_verdict_and_its_losses() -> None:
    t = Tally("bot")
    t.add(Verdict(lost=True, last_two="lost", three=False))
    t.add(Verdict(lost=False, last_two="out", three=True))
    t.add(Verdict(lost=False, last_two="safe", three=None))
    assert (t.games, t.lost) == (3, 1)
    assert t.counts == {"lost": 1, "lost, lost": 1, "three unsafe": 1, "three unsafe, lost": 1, "out": 1,
                        "three safe": 1, "safe": 1}
    assert "safe 1 (lost 0), lost 1 (lost 1)" in t.row()


def test_an_unfinished_game_has_no_verdict() -> None:
    s = State.from_seed(players=3, seed=1)
    with pytest.raises(ValueError, match="not over"):
        verdict(Record.from_state(s), 0)


def test_the_command_prints_a_row_per_bot_and_refuses_records_without_bots(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_tournament(TournamentSettings(players=2, bots=("heuristic", "random"), deals=2, seed=1), out_dir=tmp_path)
    assert main([str(tmp_path), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(r["bot"] for r in rows) == ["heuristic", "random"]
    assert all(r["games"] == 4 for r in rows)
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "one.json").write_text(Record.from_state(_played(2, 1, ("random", "random"))).dumps(), encoding="utf-8")
    assert main([str(bare)]) == 2
    assert "names its bots" in capsys.readouterr().err
