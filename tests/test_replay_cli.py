"""The real command line, run in a subprocess: ``replay`` (with and without ``--json``), ``demo`` and ``bench``."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mustamaija.core.cards import QS, card_name
from mustamaija.games.mustamaija import Rules, State, deck_for_hands
from mustamaija.games.mustamaija.record import Record

REPLAY_KEYS = {"finished", "loser", "out", "hands", "talon", "trump_suit", "trump_card", "attacker", "defender",
               "to_act", "phase"}


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "mustamaija", *args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=120)


def random_record(players: int, seed: int, preset: str | Rules, steps: int | None) -> Record:
    """Play random steps (all the way when ``steps`` is None); stop at an action boundary."""
    rng = random.Random(seed * 7 + 1)
    s = State.from_seed(players, seed, Rules.preset(preset) if isinstance(preset, str) else preset)
    n = 0
    while not s.is_over and (steps is None or n < steps or s.in_progress):
        s.apply(rng.choice(s.legal_actions()))
        n += 1
    return Record.from_state(s, comment=f"seed {seed}")


def expected_json(record: Record) -> dict[str, Any]:
    """The docs/formats.md replay object, assembled here from the replayed states, not by the code under test."""
    out: list[int] = []
    last = None
    for s in record.states():
        for seat in range(s.n):
            if not s.hands[seat] and s.talon_size == 0 and seat not in out:
                out.append(seat)
        last = s
    assert last is not None
    over = last.is_over
    holders = [seat for seat in range(last.n) if last.hands[seat]]
    finished = over and len(holders) == 1
    return {
        "finished": finished,
        "loser": holders[0] if finished else None,
        "out": out,
        "hands": [[card_name(c) for c in last.hand(seat)] for seat in range(last.n)],
        "talon": [card_name(c) for c in last.talon[last.tpos:]],
        "trump_suit": "SHDC"[last.trump] if last.trump >= 0 else None,
        "trump_card": card_name(last.trump_card) if last.trump_card >= 0 else None,
        "attacker": None if over else last.attacker,
        "defender": None if over else last.defender,
        "to_act": None if over else (last.attacker if last.phase_name == "lead" else last.defender),
        "phase": last.phase_name,
    }


def check_line(line: str, record: Record) -> dict[str, Any]:
    obj = json.loads(line)
    assert isinstance(obj, dict)
    assert set(obj) >= REPLAY_KEYS
    assert {k: obj[k] for k in REPLAY_KEYS} == expected_json(record)
    # Cards are conserved: hands, talon and the rest make the pack.
    held = [c for h in obj["hands"] for c in h]
    assert len(held) + len(obj["talon"]) <= 52
    assert len(set(held) | set(obj["talon"])) == len(held) + len(obj["talon"])
    if obj["finished"]:
        assert obj["phase"] == "over"
        assert card_name(QS) in obj["hands"][obj["loser"]]
        assert sorted(obj["out"]) == sorted(s for s in range(record.players) if s != obj["loser"])
        assert obj["talon"] == []
    else:
        assert obj["loser"] is None
    return obj


# Deal A (as in the record tests): three players, dealer 0, seat 1 leads first to seat 2.
HANDS_A = [
    ["2C", "3C", "4C", "5C", "6C"],
    ["9H", "4H", "2D", "3D", "4D"],
    ["5H", "6H", "7H", "8H", "AS"],
]
TALON_A = ["KS", "JS", "7C", "TD", "JD"]


def record_a(actions: list[dict[str, Any]], rules: dict[str, Any] | None = None) -> dict[str, Any]:
    deck = deck_for_hands(HANDS_A, talon=TALON_A, dealer=0)
    return {"format": "mustamaija-record/1", "game": "mustamaija", "rules": rules or {}, "players": 3, "dealer": 0,
            "deck": [card_name(c) for c in deck], "actions": actions}


def write(path: Path, obj: Any) -> str:
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return path.name


def test_replay_json_of_many_good_files(tmp_path: Path) -> None:
    records: list[tuple[str, Record]] = []
    # A hand-made record, stopped in the middle of a defence.
    hand_made = record_a([{"seat": 1, "lead": ["9H", "4H"]}])
    records.append((write(tmp_path / "hand.json", hand_made), Record.from_json(hand_made)))
    # Random complete and partial deals over several presets and player counts.
    cases: list[tuple[int, int, str | Rules, int | None]] = [
             (2, 1, "standard", None), (3, 2, "wikipedia", None), (6, 3, "salmi", None), (8, 4, "kurki-suonio", None),
             (4, 5, "french", 0), (5, 6, "kurki-suonio-marriage", 37), (2, 7, "standard", 60),
             (4, 8, Rules(max_turns=3), None)]  # The last one is stopped unfinished by M21.
    for players, seed, preset, steps in cases:
        rec = random_record(players, seed, preset, steps)
        name = f"deal-{players}-{seed}.json"
        rec.dump(tmp_path / name)
        records.append((name, rec))
    assert any(rec.replay().finished for _, rec in records)
    assert any(not rec.replay().is_over for _, rec in records)
    assert records[-1][1].replay().stopped
    r = run("replay", *[name for name, _ in records], "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    lines = r.stdout.splitlines()
    assert len(lines) == len(records)
    assert r.stdout.endswith("\n")
    objs = [check_line(line, rec) for line, (_, rec) in zip(lines, records, strict=True)]
    # The hand-made record, checked against values worked out by hand: the trump 7C was turned after the
    # first lead (KS and JS put back in the middle), and seat 1 drew TD and JD.
    first = objs[0]
    assert first["hands"] == [["2C", "3C", "4C", "5C", "6C"], ["2D", "3D", "4D", "TD", "JD"],
                              ["AS", "5H", "6H", "7H", "8H"]]
    assert (first["trump_suit"], first["trump_card"]) == ("C", "7C")
    assert (first["attacker"], first["defender"], first["to_act"], first["phase"]) == (1, 2, 2, "defend")
    assert (first["finished"], first["loser"], first["out"]) == (False, None, [])
    stopped = objs[-1]
    assert (stopped["finished"], stopped["loser"], stopped["phase"], stopped["to_act"]) == (False, None, "over", None)
    assert sum(1 for h in stopped["hands"] if h) >= 2
    assert len(first["talon"]) == 37 - 2 and first["talon"][-1] == "7C"
    assert first["talon"].index("KS") + 1 == first["talon"].index("JS")
    assert first["talon"].index("KS") == (37 - 3) // 2 - 2  # floor(k/2) others above the block, 2 of them drawn.


def test_replay_json_illegal_action(tmp_path: Path) -> None:
    bad = record_a([{"seat": 1, "lead": ["9H", "4H"]}, {"seat": 2, "beat": {"9H": "5H"}}])
    name = write(tmp_path / "bad.json", bad)
    r = run("replay", name, "--json", cwd=tmp_path)
    assert r.returncode != 0
    assert r.stdout == ""
    msg = r.stderr.strip()
    assert msg.startswith("bad.json: ")
    assert "action 1" in msg and "seat 2" in msg and "M13" in msg
    assert msg == "bad.json: action 1 (seat 2): M13: 5♥ does not beat 9♥ (trumps: C)"
    assert "Traceback" not in r.stderr


def test_replay_json_several_files_with_failures(tmp_path: Path) -> None:
    good1 = random_record(3, 11, "standard", None)
    good1.dump(tmp_path / "a.json")
    good2 = random_record(4, 12, "wikipedia", 25)
    good2.dump(tmp_path / "e.json")
    illegal = record_a([{"seat": 2, "lead": ["5H"]}])
    write(tmp_path / "b.json", illegal)
    write(tmp_path / "c.json", '{"format": "mustamaija-record/1", "players": 3,')
    no_seat = record_a([{"lead": ["9H"]}])
    write(tmp_path / "f.json", no_seat)
    bad_rules = {**record_a([]), "rules": {"hand_size": 4}}
    write(tmp_path / "g.json", bad_rules)
    files = ["a.json", "b.json", "c.json", "missing.json", "e.json", "f.json", "g.json"]
    r = run("replay", *files, "--json", cwd=tmp_path)
    assert r.returncode != 0
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    check_line(lines[0], good1)
    check_line(lines[1], good2)
    errors = r.stderr.strip().splitlines()
    assert len(errors) == 5
    assert [e.split(": ", 1)[0] for e in errors] == ["b.json", "c.json", "missing.json", "f.json", "g.json"]
    assert errors[0] == "b.json: action 0 (seat 2): M9: seat 2 cannot lead now: seat 1 is to lead"
    assert errors[1].startswith("c.json: not valid JSON: ")
    assert errors[2].startswith("missing.json: cannot read the file: ")
    assert errors[3] == "f.json: action 0 (seat None): format: an action needs an integer 'seat', got None"
    assert errors[4].startswith("g.json: rules: bad value 4 for rule 'hand_size'")
    assert "Traceback" not in r.stderr


def test_replay_without_json_tells_the_deal(tmp_path: Path) -> None:
    rec = random_record(3, 21, "standard", None)
    final = rec.replay()
    assert final.finished
    rec.dump(tmp_path / "deal.json")
    write(tmp_path / "bad.json", record_a([{"seat": 1, "lead": ["AH"]}]))
    r = run("replay", "deal.json", "bad.json", cwd=tmp_path)
    assert r.returncode != 0
    lines = r.stdout.rstrip("\n").splitlines()
    assert lines[0].startswith("Mustamaija, 3 players, dealer seat ")
    assert lines[-1].startswith(f"Seat {final.loser} is Mustamaija, left holding ")
    assert lines[-1].endswith(f"after {final.turns} turns.")
    assert "Q♠" in lines[-1]
    leads = [line for line in lines if " leads " in line]
    assert len(leads) == final.turns
    assert r.stderr.strip() == "bad.json: action 0 (seat 1): M10: seat 1 does not hold AH"


def test_demo(tmp_path: Path) -> None:
    r = run("demo", "--seed", "3", "--players", "3", "--save", "demo.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Mustamaija, 3 players, dealer seat ")
    assert any(line.startswith("Seat ") and " is Mustamaija" in line for line in lines)
    assert lines[-2] == "(seed 3: run 'mustamaija demo --players 3 --seed 3' to see this deal again)"
    again = run(*lines[-2].split("'")[1].split()[1:], cwd=tmp_path)  # The command it prints deals the same deal.
    assert again.returncode == 0 and again.stdout.splitlines() == lines[:-1]
    saved = Record.load(tmp_path / "demo.json")
    assert saved.players == 3
    final = saved.replay()
    assert final.finished
    assert f"Seat {final.loser} is Mustamaija" in r.stdout
    # The same seed gives the same deal.
    assert saved.deck == Record.from_seed(3, 3).deck


def test_demo_plays_every_game(tmp_path: Path) -> None:
    r = run("demo", "--game", "black-maria", "--players", "5", "--seed", "8", "--save", "bm.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Black Maria, 5 players")
    assert lines[-2] == "(seed 8: run 'mustamaija demo --game black-maria --players 5 --seed 8' to see this deal again)"
    saved = json.loads((tmp_path / "bm.json").read_text(encoding="utf-8"))
    assert saved["format"] == "black-maria-record/1" and saved["players"] == 5 and saved["seed"] == 8
    again = run("replay", "--text", "bm.json", cwd=tmp_path)
    assert again.returncode == 0 and again.stdout == "\n".join(lines[:-2]) + "\n"
    renege = run("demo", "--game", "black-maria", "--players", "3", "--seed", "8", "--rules", '{"allow_renege": true}',
                 cwd=tmp_path)
    assert renege.returncode == 0 and "reneging allowed" in renege.stdout
    bad = run("demo", "--game", "black-maria", "--preset", "salmi", cwd=tmp_path)
    assert bad.returncode == 2 and "unknown preset 'salmi'" in bad.stderr
    unknown = run("demo", "--game", "bridge", cwd=tmp_path)
    assert unknown.returncode == 2 and "invalid choice: 'bridge'" in unknown.stderr


def test_bench_json(tmp_path: Path) -> None:
    r = run("bench", "--seconds", "0.2", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert set(obj["players"]) == {"2", "4", "6"}
    for row in obj["players"].values():
        for key in ("decisions_per_s", "games_per_s", "decisions_per_game"):
            assert isinstance(row[key], (int, float)) and row[key] > 0
        assert row["decisions_per_s"] == pytest.approx(row["games_per_s"] * row["decisions_per_game"], rel=1e-6)


def test_bench_sections_search_and_solver(tmp_path: Path) -> None:
    r = run("bench", "--section", "search,solver", "--solver-count", "2", "--solver-sizes", "5+5,2+2+2", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["players"] == {}  # The engine section was not asked for.
    assert obj["search"]["ismcts_iterations_per_s"] > 0 and obj["search"]["ismcts_full_rollout_iterations_per_s"] > 0
    assert obj["search"]["pimc_playouts_per_s"] > 0 and obj["search"]["pimc_playouts_per_s_2p"] > 0
    assert [row["size"] for row in obj["solver"]] == ["5+5", "2+2+2"]
    assert all(row["count"] == 2 and row["max_s"] >= row["median_s"] >= 0 for row in obj["solver"])


def test_bench_rejects_an_unknown_section(tmp_path: Path) -> None:
    r = run("bench", "--section", "engine,warp", cwd=tmp_path)
    assert r.returncode == 2
    assert "unknown section 'warp'" in r.stderr
