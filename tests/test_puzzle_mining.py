"""Puzzles from real play: endgames of played deals where exactly one lead is safe, found by the exact solver."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mustamaija.cli import main
from mustamaija.core.registry import get_game
from mustamaija.games.mustamaija.puzzles import LEVELS, Judge, load_puzzles
from mustamaija.games.mustamaija.puzzles.mining import mine, puzzle_at
from mustamaija.games.mustamaija.rules import LEAD


def _records(count: int, seed: int = 0) -> list[object]:
    game = get_game("mustamaija")
    out = []
    for k in range(count):
        rng = random.Random(seed + k)
        state = game.deal(2 + k % 2, seed + k)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        out.append(game.record_of(state))
    return out


def test_mined_puzzles_have_exactly_one_safe_lead_and_are_graded() -> None:
    records = _records(30)
    puzzles = mine(records)
    assert len(puzzles) >= 3
    assert [p.id for p in puzzles] == [f"m{i + 1:02d}" for i in range(len(puzzles))]
    assert [LEVELS.index(p.level) for p in puzzles] == sorted(LEVELS.index(p.level) for p in puzzles)
    assert {p.level for p in puzzles} == set(LEVELS)
    for p in puzzles:
        start = p.start()
        assert len(list(start.legal_leads())) >= 3 and len(p.solution) == 1 and p.title
        safe = [lead.cards for lead in Judge(p.rules, p.trump, len(p.hands)).safe_leads(start)]
        assert safe == list(p.solution)
    assert [p.hands for p in mine(records + records)] == [p.hands for p in puzzles]  # Found twice, kept once.


def test_a_mined_puzzle_is_the_leaders_position_turned_to_seat_0() -> None:
    for record in _records(30, seed=100):
        state = record.start()  # type: ignore[attr-defined]
        for action in record.actions:  # type: ignore[attr-defined]
            if state.phase == LEAD and state.talon_size == 0 and not state.in_progress:
                got = puzzle_at(state)
                if got is not None:
                    puzzle = got[0]
                    leader = state.to_act
                    assert puzzle.hands[0] == state.hands[leader]
                    others = [state.hands[(leader + k) % state.n] for k in range(1, state.n)]
                    assert list(puzzle.hands[1:]) == [h for h in others if h]
                    return
            state.play(action)
    pytest.fail("no puzzle in 30 deals")


def test_the_command_line_mines_lists_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "deals"
    folder.mkdir()
    for k, record in enumerate(_records(30)):
        (folder / f"deal-{k}.json").write_text(record.dumps(), encoding="utf-8")  # type: ignore[attr-defined]
    (folder / "summary.json").write_text("{}", encoding="utf-8")  # Not a record: skipped.
    out = tmp_path / "mined.json"
    assert main(["puzzle", "--mine", str(folder), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "from 30 deals" in err and "1 files were not Mustamaija records" in err
    puzzles = load_puzzles(out.read_text(encoding="utf-8"))
    assert main(["puzzle", "--file", str(out), "--list"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("m01")
    first = puzzles[0]
    right = " ".join(json.loads(out.read_text())["puzzles"][0]["solution"][0])
    assert main(["puzzle", "--file", str(out), first.id, "--answer", right]) == 0
    assert "Correct" in capsys.readouterr().out
    wrong = next(lead for lead in first.start().legal_leads() if lead.cards not in first.solution)
    from mustamaija.core.cards import card_name, cards_of

    assert main(["puzzle", "--file", str(out), first.id, "--answer",
                 " ".join(card_name(c) for c in cards_of(wrong.cards))]) == 1
    assert main(["puzzle", "--file", str(tmp_path / "nope.json"), "--list"]) != 0
