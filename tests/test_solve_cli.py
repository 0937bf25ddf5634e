"""The real ``mustamaija solve`` command, run in a subprocess, checked against the reference search of test_solver."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mustamaija.core.cards import card_name, cards_of, parse_cards
from mustamaija.games.mustamaija import Lead, Position, Record, Rules, State, action_from_json
from test_solver import _brute_safe_leads, _position

KEYS = {"attacker", "attacker_safe", "safe_leads", "line"}
EXAMPLE: dict[str, Any] = {
    "format": "mustamaija-position/1",
    "rules": {},
    "trump_suit": "C",
    "hands": [["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]],
    "attacker": 0,
}


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "mustamaija", *args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=120)


def _write(tmp_path: Path, name: str, obj: object) -> str:
    (tmp_path / name).write_text(json.dumps(obj), encoding="utf-8")
    return name


def _lead_names(mask: int) -> list[str]:
    return [card_name(c) for c in sorted(cards_of(mask), key=lambda c: (c % 13, c // 13))]


def _check_output(state: State, out: dict[str, Any]) -> None:
    """The exact docs/formats.md keys (extra keys allowed), every safe lead listed and only those, and a legal line."""
    assert set(out) >= KEYS
    value, leads, _ = _brute_safe_leads(state)
    assert out["attacker"] == state.attacker
    assert out["attacker_safe"] is value
    listed = [tuple(lead) for lead in out["safe_leads"]]
    assert len(listed) == len(set(listed))
    assert set(listed) == {tuple(_lead_names(m)) for m in leads}
    for lead in out["safe_leads"]:
        assert lead == sorted(lead, key=lambda c: ("23456789TJQKA".index(c[0]), "SHDC".index(c[1])))
    if not value:
        assert out["safe_leads"] == []
    t = state.copy()
    for obj in out["line"]:
        t.play(action_from_json(obj, state.n))
    if t.is_over:
        assert (t.loser != state.attacker) is value
    else:
        # The line stops once the attacker is out, or after going round (M21 would stop such a deal without a loser).
        assert value
    if value and out["line"]:
        first = action_from_json(out["line"][0], state.n)
        assert isinstance(first, Lead) and _lead_names(first.cards) in out["safe_leads"]


def test_the_formats_example(tmp_path: Path) -> None:
    r = run("solve", _write(tmp_path, "example.json", EXAMPLE), "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["attacker"] == 0 and out["attacker_safe"] is True
    assert ["QS"] in out["safe_leads"] and ["3C", "AC"] in out["safe_leads"]
    _check_output(Position.from_json(EXAMPLE).to_state(), out)


HAND_MADE = [
    # The attacker holds Q♠ and cannot get rid of it in time.
    {"trump_suit": "H", "hands": [["QS", "2D", "3C"], ["AH"]], "attacker": 0},
    # No trumps; the attacker to lead is not the one holding Q♠.
    {"trump_suit": None, "hands": [["4S", "9D", "TD", "2C"], ["QS", "5S", "JD", "3C"]], "attacker": 1},
    # Three seats, one of them out.
    {"trump_suit": "D", "hands": [["QS", "7D"], [], ["8D", "2H", "3H"]], "attacker": 2},
    # Three seats with cards.
    {"trump_suit": None, "hands": [["QS", "7H"], ["2H", "KC"], ["8H", "3C"]], "attacker": 0},
    # Trumps still to be made by a marriage, which the attacker holds.
    {"rules": {"trump": "marriage", "hand_size": 6}, "trump_suit": None,
     "hands": [["KH", "QH", "2C", "3C"], ["QS", "AC", "4D"]], "attacker": 0},
]


@pytest.mark.parametrize("obj", HAND_MADE)
def test_hand_made_positions(tmp_path: Path, obj: dict[str, Any]) -> None:
    full = {"format": "mustamaija-position/1", "rules": {}, **obj}
    r = run("solve", _write(tmp_path, "p.json", full), "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    _check_output(Position.from_json(full).to_state(), json.loads(r.stdout))


def test_random_positions(tmp_path: Path) -> None:
    rng = random.Random(77)
    values = set()
    for i in range(6):
        s = _position(rng, [rng.randint(3, 5), rng.randint(2, 4)], rng.choice([None, 1, 2, 3]))
        name = _write(tmp_path, f"r{i}.json", Position.from_state(s).to_json())
        r = run("solve", name, "--json", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        _check_output(s, out)
        values.add(out["attacker_safe"])
    assert values == {True, False}


def test_human_readable_account(tmp_path: Path) -> None:
    r = run("solve", _write(tmp_path, "example.json", EXAMPLE), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    text = r.stdout
    assert "Verdict: seat 0 can make sure of not being the Mustamaija" in text
    assert "Safe first leads (4): Q♠; 3♣; 5♥ 6♥; 3♣ A♣" in text
    assert "Principal line:" in text and "  1. seat 0 leads" in text
    assert text.rstrip().splitlines()[-1].startswith("Seat 1 is left holding Q♠")
    lost = run("solve", _write(tmp_path, "lost.json", {"hands": [["QS", "2D", "3C"], ["AH"]], "attacker": 0,
                                                         "trump_suit": "H"}), cwd=tmp_path)
    assert "Verdict: seat 0 cannot make sure of it: seat 1 can force seat 0" in lost.stdout
    assert lost.stdout.rstrip().splitlines()[-1].startswith("Seat 0 is left holding Q♠")


def test_a_line_that_ends_with_the_solved_seat_out(tmp_path: Path) -> None:
    """Three seats: the line stops once seat 0 is out, and says so, not that play goes round for ever."""
    r = run("solve", "5_.sQd8c8-.hQd2K-.h3d4T__c_l0", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.rstrip().splitlines()
    assert "seat 0 leads 8♦ and is out" in r.stdout
    assert lines[-1] == "The line stops here: seat 0 is out, so it cannot be the Mustamaija."


def test_a_record_whose_talon_is_empty(tmp_path: Path) -> None:
    """A record played to a talon-empty lead position is solved as that position."""
    rng = random.Random(5)
    for seed in range(30):
        s = State.from_seed(players=2, seed=seed, rules=Rules())
        while not s.is_over and not (s.talon_size == 0 and s.phase == 0 and sum(s.hand_sizes()) <= 12):
            s.apply(rng.choice(s.legal_actions()))
            while s.in_progress:
                s.apply(rng.choice(s.legal_actions()))
        if not s.is_over:
            break
    else:
        pytest.fail("no random deal reached a small endgame")
    name = _write(tmp_path, "game.json", Record.from_state(s).to_json())
    r = run("solve", name, "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    pos = run("solve", _write(tmp_path, "pos.json", Position.from_state(s).to_json()), "--json", cwd=tmp_path)
    same = json.loads(pos.stdout)
    assert {k: out[k] for k in KEYS} == {k: same[k] for k in KEYS}
    _check_output(Position.from_state(s).to_state(), out)


def test_errors(tmp_path: Path) -> None:
    cases = {
        "bad_card.json": ({"hands": [["AC", "ZZ"], ["QS"]], "attacker": 0}, "hands[0][1]: bad card 'ZZ'"),
        "no_queen.json": ({"hands": [["AC"], ["2D"]], "attacker": 0}, "Q♠ (QS) is in no hand"),
        "twice.json": ({"hands": [["AC", "QS"], ["AC"]], "attacker": 0}, "card AC appears in the hands of seats 0 and 1"),
        "empty.json": ({"hands": [[], ["QS"], ["2D"]], "attacker": 0}, "the attacker, seat 0, holds no cards"),
        "seat.json": ({"hands": [["QS"], ["2D"]], "attacker": 5}, "'attacker' must be a seat from 0 to 1, not 5"),
        "trump.json": ({"hands": [["QS"], ["2D"]], "attacker": 0, "trump_suit": "Z"}, "bad 'trump_suit' 'Z'"),
    }
    for name, (obj, message) in cases.items():
        r = run("solve", _write(tmp_path, name, obj), "--json", cwd=tmp_path)
        assert r.returncode != 0 and r.stdout == ""
        assert r.stderr.startswith(f"{name}: ") and message in r.stderr, r.stderr
    (tmp_path / "broken.json").write_text("{hands", encoding="utf-8")
    r = run("solve", "broken.json", "--json", cwd=tmp_path)
    assert r.returncode != 0 and r.stderr.startswith("broken.json: not valid JSON")
    r = run("solve", "missing.json", cwd=tmp_path)
    assert r.returncode != 0 and r.stderr.startswith("missing.json: cannot read the file")
    early = Record.from_seed(players=3, seed=2)
    r = run("solve", _write(tmp_path, "early.json", early.to_json()), "--json", cwd=tmp_path)
    assert r.returncode != 0 and "early.json: the record's final position cannot be solved: the talon still holds" in r.stderr


def test_position_files_keep_their_cards(tmp_path: Path) -> None:
    p = Position.from_json({"hands": [parse_and_name("QS 10h 9H"), ["2d"]], "attacker": 0})
    r = run("solve", _write(tmp_path, "p.json", p.to_json()), "--json", cwd=tmp_path)
    out = json.loads(r.stdout)
    # Nothing of seat 0 can be beaten: every lead is safe (the lead limit is one card).
    assert out["attacker_safe"] is True and sorted(out["safe_leads"]) == [["9H"], ["QS"], ["TH"]]


def parse_and_name(text: str) -> list[str]:
    return [card_name(c) for c in parse_cards(text)]
