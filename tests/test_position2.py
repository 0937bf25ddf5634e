"""Positions of every reachable kind (``mustamaija-position/2``), what each seat knows, the text form and deals from one.

The round trip: every state reached in 300 seeded random deals (tests/support.py scales them), played a
card at a time over 2-5 players and every preset, becomes a position, JSON
text, a position again and a state that is the same in every field but its
history, with the same view for every seat and the same legal steps; the
one-line text form reads back to the same position.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mustamaija.core.cards import QS, CardSet, card_name, parse_card, parse_cards
from mustamaija.core.errors import FormatError, MustamaijaError, RecordError
from mustamaija.core.registry import get_game
from mustamaija.games.mustamaija import (
    POSITION2_FORMAT,
    POSITION_FORMAT,
    PRESETS,
    Position,
    PositionRecord,
    Record,
    Rules,
    State,
)
from mustamaija.games.mustamaija.legality import NO_LIMIT
from mustamaija.games.mustamaija.position import PositionFormats, state_differences, view_differences
from mustamaija.games.mustamaija.state import FIXED_BEFORE
from mustamaija.tui.session import GameSession, bot_actions
from support import scaled

PRESET_NAMES = list(PRESETS)
DEALS = scaled(300, least=100)
CHUNKS = min(10, DEALS // 50)  # a chunk needs about 50 deals to meet every kind of state


def _check(s: State) -> Position:
    """Assert that ``s`` survives the trip through a position, its JSON and its text; return the position."""
    p = Position.from_state(s)
    text = p.dumps()
    q = Position.loads(text)
    assert q == p, text
    t = q.to_state()
    assert state_differences(s, t) == [], (text, state_differences(s, t))
    for seat in (None, *range(s.n)):
        assert view_differences(s.view(seat), t.view(seat)) == [], (text, seat)
    assert s.legal_actions() == t.legal_actions()
    assert Position.parse(p.to_text()) == p, p.to_text()
    return p


def _deal(i: int) -> tuple[State, random.Random]:
    """Deal ``i`` of the round trip: every chunk of deals meets every preset with 2 to 5 players."""
    k = i // CHUNKS
    preset = PRESET_NAMES[k % len(PRESET_NAMES)]
    players = 2 + (k // len(PRESET_NAMES)) % 4
    return State.from_seed(players, seed=i, rules=Rules.preset(preset)), random.Random(i)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_state_of_random_deals_round_trips(chunk: int) -> None:
    """Every state reached, between compound actions and part way through one, for every preset and 2-5 players."""
    kinds: set[str] = set()
    for i in range(chunk, DEALS, CHUNKS):
        s, rng = _deal(i)
        while True:
            p = _check(s)
            kinds.add(f"{p.phase}{' in progress' if p.in_progress else ''}")
            kinds |= {k for k, met in (("declared", p.declarer >= 0), ("put back", p.revealed),
                                       ("pending", p.turn_pending), ("out", p.out)) if met}
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
    # Every kind of state was met: leads and defences, part way through each, the ends, marriages, spades put back.
    assert kinds == {"lead", "lead in progress", "defend", "defend in progress", "over", "declared", "put back",
                     "pending", "out"}


def test_every_state_of_deals_stopped_by_the_turn_limit_round_trips() -> None:
    stopped = 0
    for i in range(36):
        preset = PRESET_NAMES[i % len(PRESET_NAMES)]
        s = State.from_seed(2 + i % 3, seed=i, rules=Rules.preset(preset).replace(max_turns=6 + i % 5))
        rng = random.Random(i)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            _check(s)
        stopped += s.stopped
        assert Position.from_state(s).stopped == s.stopped and Position.from_state(s).to_text().split("_")[4] in "xo"
    assert stopped > 30


def test_positions_from_states_write_v1_only_when_v1_says_it_all() -> None:
    s = State.from_position([parse_cards("QS 2H"), parse_cards("3H")], attacker=0, trump_suit=None)
    assert Position.from_state(s).to_json()["format"] == POSITION_FORMAT
    assert Position.from_state(State.from_seed(players=3, seed=1)).to_json()["format"] == POSITION2_FORMAT
    # Asked for /2, a /1 position says the same in more words.
    p = Position.from_state(s)
    assert Position.from_json(p.to_json(POSITION2_FORMAT)) == p
    assert json.loads(p.dumps(format=POSITION2_FORMAT))["public"] == ["QS", "2H", "3H"]
    # A talon-empty lead that went through play keeps its turn count and its private cards: /2.
    rng = random.Random(3)
    t = State.from_seed(players=2, seed=3)
    while not (t.talon_size == 0 and t.phase == 0 and not t.in_progress):
        t.apply(rng.choice(t.legal_actions()))
    assert Position.from_state(t).to_json()["format"] == POSITION2_FORMAT
    with pytest.raises(FormatError, match="says more than mustamaija-position/1 can"):
        Position.from_state(t).to_json(POSITION_FORMAT)


def _fresh_setup(**changes: Any) -> dict[str, Any]:
    """A /2 position of a standard deal before its first lead: seat 1 leads to seat 2, the trump to be turned."""
    s = State.from_seed(players=3, seed=5)
    obj = Position.from_state(s).to_json()
    for k, v in changes.items():
        if v is ...:
            del obj[k]
        else:
            obj[k] = v
    return obj


def _midgame(**changes: Any) -> dict[str, Any]:
    """A /2 position after two turns of that deal, diamonds trumps, seat 0 to lead; seat 0 picked up Q♣."""
    s = State.from_seed(players=3, seed=5)
    s.lead("3C QC")
    s.beat({"3C": "6C"})
    s.lead("3D 4D")
    s.beat({"4D": "AD"})
    obj = Position.from_state(s).to_json()
    obj.update(changes)
    return {k: v for k, v in obj.items() if v is not ...}


def test_a_hand_written_setup_with_a_talon_and_unequal_hands() -> None:
    """What the Python API could not build before: a talon, unequal hands, cards seen, a known talon card."""
    obj = {
        "format": POSITION2_FORMAT,
        "hands": [["QS", "7H", "8H"], ["2C", "3C", "4C", "5C", "9D", "TD", "JD"], ["AH", "KH"]],
        "public": ["9D", "TD"],
        "talon": ["2H", "3H", "AS", "KC"],
        "trump_suit": "C",
        "trump_card": "KC",
        "revealed": ["AS"],
        "attacker": 2,
    }
    p = Position.from_json(obj)
    s = p.to_state()
    assert (s.phase_name, s.to_act, s.defender, s.talon_size, s.limit) == ("lead", 2, 0, 4, NO_LIMIT)
    assert card_name(s.trump_card) == "KC" and s.discard.bit_count() == 52 - 16
    v = s.view(0)
    assert CardSet(v.known[1]).names() == ["9D", "TD"] and v.known[2] == 0
    assert [(d, card_name(c)) for d, c in v.talon_known] == [(2, "AS"), (3, "KC")]
    s.lead("KH AH")  # Seat 2 draws the whole talon (M12): everybody knows it holds A♠ and K♣, the cards seen in it.
    assert s.hand(2).names() == ["AS", "2H", "3H", "KC"] and CardSet(s.view(0).known[2]).names() == ["AS", "KC"]
    assert json.loads(p.dumps())["discard"][:3] == ["2S", "3S", "4S"]


def test_an_unknown_talon_order_is_shuffled_by_the_seed_and_keeps_the_public_places() -> None:
    obj = _midgame(talon_order="unknown")
    p = Position.from_json(obj)
    states = [p.to_state(seed=k) for k in range(6)]
    orders = {s.talon_cards for s in states}
    assert len(orders) == 6  # Different seeds, different orders...
    assert all(s.talon_cards[-1] == parse_card("7D") for s in states)  # ...but the trump card stays at the bottom,
    assert {frozenset(s.talon_cards) for s in states} == {frozenset(p.talon)}
    for seat in (None, 0, 1, 2):  # ...and no seat can tell them apart.
        assert all(view_differences(states[0].view(seat), s.view(seat)) == [] for s in states)
    assert p.to_state(seed=4) == p.to_state(seed=4)
    with pytest.raises(FormatError, match="give a seed"):
        p.to_state()


def test_spades_put_back_keep_their_place_in_an_unknown_order() -> None:
    for seed in range(200):  # A deal where the trump turning put spades back (M7).
        s = State.from_seed(players=2, seed=seed, rules=Rules.preset("wikipedia"))
        if s.revealed:
            break
    else:
        pytest.fail("no deal put a spade back")
    p = Position.from_json({**Position.from_state(s).to_json(), "talon_order": "unknown"})
    t = p.to_state(seed=1)
    places = {c: i for i, c in enumerate(s.talon_cards) if s.tknown >> c & 1}
    assert {c: t.talon_cards.index(c) for c in places} == places
    assert t.talon_cards != s.talon_cards and view_differences(s.view(0), t.view(0)) == []


def test_a_defence_part_way_through() -> None:
    s = State.from_seed(players=2, seed=11)
    rng = random.Random(0)
    while not (s.phase == 1 and s.in_progress):
        s.apply(rng.choice(s.legal_actions()))
        if s.is_over:
            s, rng = State.from_seed(players=2, seed=rng.randrange(10**6)), rng
    p = Position.from_state(s)
    table = p.to_json()["table"]
    assert set(table) >= {"led"} and ("beaten" in table or "left" in table)
    t = Position.loads(p.dumps()).to_state()
    while not t.is_over and t.in_progress:  # The defence goes on from where it stood, in both.
        step = t.legal_actions()[0]
        t.apply(step)
        s.apply(step)
    assert s.last_action() == t.last_action()


BAD: list[tuple[dict[str, Any], str]] = [
    (_midgame(public=["AS"]), r"'public' lists AS, which is in no hand.*M22"),
    (_midgame(public=...), "needs 'public'"),
    (_midgame(talon=["7D"]), r"cards in no place: .*every card is in a hand"),
    (_midgame(talon=["QD", *_midgame()["talon"]]), "card QD is both in a hand and in the talon"),
    (_midgame(talon=[*_midgame()["talon"][:-1], "AS", "7D"][1:]), "appears twice|cards in no place"),
    (_midgame(discard=["4D"]), r"cards in no place"),
    (_midgame(discard=["4D", "AD", "3C", "6C", "QD"]), "card QD is in 'discard' and also in play"),
    (_midgame(trump_card="7H"), r"'trump_card' 7H is not of the trump suit D.*\(M6\)"),
    (_midgame(trump_card=None), r"'trump_card' is missing.*\(M6, M8\)"),
    (_midgame(talon=["7D", *_midgame()["talon"][:-1]]), r"at depth 0 of the talon.*bottom.*\(M8\)"),
    (_midgame(revealed=["2H"]), r"only spades are put back \(M7\)"),
    (_midgame(turn_pending=True), r"'turn_pending' is true, but a trump is already set.*\(M6\)"),
    (_fresh_setup(rules={"trump_turn": "after_deal"}), r"only 'trump': 'turned' with 'trump_turn': 'after_first_lead'"),
    (_midgame(phase="defend"), r"no led card is on the table.*\(M10\)"),
    (_midgame(phase="defend", table={"led": ["QD", "JC"]}), "card QD is both on the table and in a hand"),
    (_midgame(attacker=5), "'attacker' must be a seat from 0 to 2, not 5"),
    (_midgame(defender=2), r"'defender' is 2, but the defender is .*seat 1 \(M9\)"),
    (_midgame(limit=2), r"'limit' is 2, but before a lead the limit is .*\(M11\)"),
    (_midgame(turns=1000), r"after 1000 turns \('max_turns'\) the deal is stopped \(M21\)"),
    (_midgame(out=[1]), r"seat 1 is in 'out' but holds .*\(M18\)"),
    (_midgame(stopped=True), r"'stopped' is true, but the deal is not over"),
    (_midgame(phase="over"), r"'attacker' and 'defender' must be null once the deal is over"),
    (_midgame(phase="over", attacker=None, defender=None), r"3 seats hold cards: it ends when one seat is left.*M19"),
    (_midgame(selected=["QD", "JC"]), r"'selected' mixes suits.*\(M10\)"),
    (_midgame(selected=["AC"]), r"'selected' lists AC, which the attacker, seat 0, does not hold"),
    (_midgame(declarer=1), r"marriages are not played under 'trump': 'turned' \(V2\)"),
    (_midgame(format="mustamaija-position/3"), "unknown format 'mustamaija-position/3'"),
    (_midgame(talon_order="shuffled"), "'talon_order' must be 'known' or 'unknown'"),
    (_midgame(phase="start"), "'phase' must be one of 'lead', 'defend', 'over'"),
    (_midgame(hands=[["QS"], ["QS"]]), "card QS appears in the hands of seats 0 and 1"),
    (_midgame(dealer=3), "'dealer' must be a seat from 0 to 2, not 3"),
    (_midgame(rules={"hand_sise": 5}), "rules: unknown rule key 'hand_sise'"),
    (_midgame(table=[]), "'table' must be an object"),
]


@pytest.mark.parametrize(("obj", "message"), BAD, ids=[m[:40] for _, m in BAD])
def test_faults_name_the_field_and_the_rule(obj: dict[str, Any], message: str) -> None:
    with pytest.raises(FormatError, match=message):
        Position.from_json(obj)


def test_faults_of_the_table_and_the_marriage() -> None:
    s = State.from_seed(players=2, seed=2)
    s.lead(s.legal_leads().__next__().cards)
    good = Position.from_state(s).to_json()
    led = good["table"]["led"]
    with pytest.raises(FormatError, match=r"table: .*does not hold"):
        Position.from_json({**good, "table": {"led": led, "beaten": {led[0]: "QS" if "QS" not in led else "2H"}}})
    with pytest.raises(FormatError, match="'left' lists"):
        Position.from_json({**good, "table": {"led": led, "left": ["AH" if "AH" not in led else "AD"]}})
    salmi = Rules.preset("salmi")
    base = Position.from_state(State.from_position([parse_cards("KH QH QS"), parse_cards("2D 3D")], 0, None, salmi))
    obj = base.to_json(POSITION2_FORMAT)
    with pytest.raises(FormatError, match=r"give 'declarer' \(a seat or 'before'\) \(V3\)"):
        Position.from_json({**obj, "trump_suit": "H", "declarer": None})
    with pytest.raises(FormatError, match=r"QH is in seat 0's hand but not in 'public'.*\(V4, M22\)"):
        Position.from_json({**obj, "trump_suit": "H", "declarer": 0, "public": []})
    declared = Position.from_json({**obj, "trump_suit": "H", "declarer": 0, "public": ["KH", "QH"]})
    assert declared.to_state().declarer == 0 and declared.to_state().legal_declares() == []
    before = Position.from_json({**{k: v for k, v in obj.items() if k != "declarer"}, "trump_suit": "H"})
    assert before.declarer == FIXED_BEFORE and before.to_json(POSITION2_FORMAT)["declarer"] == "before"
    assert before.to_json()["format"] == POSITION_FORMAT  # /1 says as much: trumps fixed before the position.


def test_the_text_form() -> None:
    s = State.from_seed(players=4, seed=8, rules=Rules.preset("salmi"))
    rng = random.Random(8)
    texts = set()
    for _ in range(120):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
        text = Position.from_state(s).to_text()
        texts.add(text)
        assert set(text) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"), text
        assert Position.parse(text) == Position.from_state(s)
    assert len(texts) > 50
    # Either case and the suits in any order read the same; the canonical form is written.
    p = Position.parse("5_Hk9sQ-h5.d2__c_l1")
    assert p == Position.parse("5_sqh9k-h5.D2__C_l1") and p.to_text() == "5_sQh9K-h5.d2__c_l1"
    assert p.limit == 3 and p.public == 1 << parse_card("2D")  # Seat 1 leads to seat 0, who holds 3 cards (M11).
    rules = Rules.from_json({"hand_size": 6, "trump": "fixed", "trump_suit": "S", "spades_can_be_trump": True,
                             "attack_limit": "always", "max_lead": 4, "max_turns": 77, "next_dealer": "loser",
                             "trump_turn": "after_deal"})
    p = Position(p.hands, 1, 0, rules)
    assert p.to_text().split("_")[0] == "6ftsaslx4z77o" and Position.parse(p.to_text()) == p


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5_sQ-hK__c", "5 or 6 fields"),
        ("4_sQ-hK__c_l0", r"rules: .* must start with the hand size, 3, 5 or 6 \(V1\)"),
        ("5q_sQ-hK__c_l0", "rules: unknown letter 'q'"),
        ("5t_sQ-hK__c_l0", "'t' must be followed by a suit letter"),
        ("5_Q-hK__c_l0", "rank Q comes before any suit letter"),
        ("5_sQ-hX__c_l0", "'X' is neither a suit letter"),
        ("5_sQ-hK__c_q0", "turn: 'q0' must be"),
        ("5_sQ-hK__c_l", "must name the attacker's seat"),
        ("5_sQ-hK__c_l0_q1", "extras: bad token 'q1'"),
        ("5_sQ-hK__cx_l0", "trump: 'x' is neither a suit letter"),
        ("5_sQ-hK__7_l0", "trump: '7' is not 'n'"),
        ("5_sQsQ-hK__c_l0", "card QS is given twice"),
        ("5_sQ-hK__c_d0.h5.h5", "must list a led card and its beating card"),
    ],
)
def test_text_faults(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        Position.parse(text)


def test_a_deal_played_from_a_position_is_the_position_and_its_actions(tmp_path: Path) -> None:
    s = State.from_seed(players=3, seed=5)
    s.lead("3C QC")
    start = s.copy()
    s.beat({"3C": "6C"})
    s.lead("3D 4D")
    game = get_game("mustamaija")
    positions = game.positions()
    assert isinstance(positions, PositionFormats)
    rec = positions.record(Position.from_state(start).to_state(), Position.from_state(start).to_state())
    assert rec.actions == ()
    rec = PositionRecord(Position.from_state(start), tuple(s.actions()[start.nlog:]), {"names": ["A", "B", "C"]})
    path = tmp_path / "saved.json"
    rec.dump(path)
    again = positions.load(path.read_text(encoding="utf-8"))
    assert again == rec and again.seat_names() == ["A", "B", "C"]
    assert state_differences(again.replay(), s) == [] and len(list(again.states())) == 3
    assert json.loads(path.read_text(encoding="utf-8"))["actions"][0] == {"seat": 0, "beat": {"3C": "6C"}}
    bad = {**rec.to_json(), "actions": [{"seat": 0, "beat": {"3C": "6C"}}, {"seat": 2, "lead": ["3D"]}]}
    with pytest.raises(RecordError, match=r"action 1 \(seat 2\): M9"):
        positions.load(bad).replay()
    with pytest.raises(RecordError, match=r"action 0 \(seat 0\): format"):
        positions.load({**rec.to_json(), "actions": [{"seat": 0, "beat": "3C"}]})
    with pytest.raises(FormatError, match="its talon order must be known"):
        positions.load({**rec.to_json(), "talon_order": "unknown"})
    with pytest.raises(FormatError, match="no record"):
        Record.from_state(rec.replay())
    assert positions.reads(rec.to_json()) and not positions.reads(Record.from_seed(players=2, seed=1).to_json())
    assert game.positions() is not None and get_game("black-maria").positions() is None


def test_the_old_endgame_api_still_builds_the_same_states() -> None:
    old = State.from_position([["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker=0, trump_suit=3)
    p = Position((1 << 51 | 1 << 40 | 1 << QS | 1 << 17 | 1 << 16, 1 << 24 | 1 << 26), 0, 3)
    assert state_differences(old, p.to_state()) == [] and p.fits_v1 and p.to_json()["format"] == POSITION_FORMAT


# -- the tools -----------------------------------------------------------------------------------------


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "mustamaija", *args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=120, stdin=subprocess.DEVNULL)


def _talon_empty_lead(seed: int) -> State:
    rng = random.Random(seed)
    s = State.from_seed(players=2, seed=seed)
    while not (s.talon_size == 0 and s.phase == 0 and not s.in_progress and sum(s.hand_sizes()) <= 12):
        s.apply(rng.choice(s.legal_actions()))
        if s.is_over:
            return _talon_empty_lead(seed + 100)
    return s


def test_solve_takes_v2_and_says_why_it_cannot_solve_a_talon(tmp_path: Path) -> None:
    s = _talon_empty_lead(1)
    p = Position.from_state(s)
    assert p.to_json()["format"] == POSITION2_FORMAT  # Private cards and a turn count: /2.
    (tmp_path / "end.json").write_text(p.dumps(), encoding="utf-8")
    (tmp_path / "end1.json").write_text(Position(p.hands, p.attacker, p.trump_suit, p.rules).dumps(), encoding="utf-8")
    two, one = run("solve", "end.json", "--json", cwd=tmp_path), run("solve", "end1.json", "--json", cwd=tmp_path)
    assert two.returncode == 0 and one.returncode == 0, two.stderr + one.stderr
    keys = ("attacker", "attacker_safe", "safe_leads", "line")
    assert {k: json.loads(two.stdout)[k] for k in keys} == {k: json.loads(one.stdout)[k] for k in keys}
    text = run("solve", p.to_text(), "--json", cwd=tmp_path)
    assert text.returncode == 0 and json.loads(text.stdout)["safe_leads"] == json.loads(two.stdout)["safe_leads"]
    (tmp_path / "talon.json").write_text(json.dumps(_midgame()), encoding="utf-8")
    r = run("solve", "talon.json", cwd=tmp_path)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("talon.json: the position cannot be solved: the talon still holds 33 cards, and the "
                               "exact solver needs an empty talon; `mustamaija hint FILE` suggests a move"), r.stderr
    t = s.copy()
    t.lead(next(t.legal_leads()).cards)
    (tmp_path / "defend.json").write_text(Position.from_state(t).dumps(), encoding="utf-8")
    r = run("solve", "defend.json", cwd=tmp_path)
    assert r.returncode == 1 and f"seat {t.defender} is to defend" in r.stderr and "mustamaija hint" in r.stderr


def test_hint_and_replay_take_positions_and_games_played_from_them(tmp_path: Path) -> None:
    obj = _midgame()
    (tmp_path / "mid.json").write_text(json.dumps(obj), encoding="utf-8")
    r = run("hint", "mid.json", "--json", "--iters", "20", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["seat"] == 0
    text = Position.from_json(obj).to_text()
    r = run("hint", text, "--iters", "20", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("Seat 0 is to act (lead)."), r.stderr
    # A game played on from the position, saved as the position with its actions.
    start = Position.from_json(obj).to_state()
    s = start.copy()
    s.lead(next(s.legal_leads()).cards)
    saved = PositionFormats().record(start, s, comment="two moves")
    (tmp_path / "saved.json").write_text(saved.dumps(), encoding="utf-8")
    r = run("hint", "saved.json", "--json", "--iters", "20", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["seat"] == s.to_act, r.stderr
    r = run("replay", "saved.json", "--json", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout) == get_game("mustamaija").state_to_json(s), r.stderr
    r = run("replay", "saved.json", "--text", cwd=tmp_path)
    assert r.returncode == 0 and "leads" in r.stdout and "The record ends here" in r.stdout
    r = run("hint", "5_sQ-hK__c_l5", cwd=tmp_path)
    assert r.returncode == 1 and "'attacker' must be a seat from 0 to 1, not 5" in r.stderr


def test_play_position_reads_the_position_before_asking_for_a_terminal(tmp_path: Path) -> None:
    r = run("play", "--position", "5_sQ-hK__c_l5", cwd=tmp_path)
    assert r.returncode == 2 and "5_sQ-hK__c_l5: 'attacker' must be a seat" in r.stderr
    r = run("play", "--position", Position.from_json(_midgame()).to_text(), "--seat", "1", cwd=tmp_path)
    assert r.returncode == 2 and "play needs a terminal" in r.stderr
    (tmp_path / "rec.json").write_text(Record.from_seed(players=2, seed=1).dumps(), encoding="utf-8")
    r = run("play", "--position", "rec.json", cwd=tmp_path)
    assert r.returncode == 2 and "is a game record, not a position: resume it with --load" in r.stderr


def test_a_session_plays_a_position_out_saves_it_and_resumes_it(tmp_path: Path) -> None:
    game = get_game("mustamaija")
    positions = game.positions()
    assert positions is not None
    deal = positions.load("5_sQh56c3A.d2-h4K.c5-h9dQ_~s2h7d3c4_c4_l0", seed=3)
    session = GameSession.from_position(deal, game, bots=["medium"], seed=3, save_dir=str(tmp_path))
    assert session.human == 0 and session.state.to_act == 0 and session.deals == 1
    assert session.state.view(1).known[0] == 1 << parse_card("2D")  # What the position makes public, and no more.
    session.act(next(iter(session.state.legal_leads())))
    while session.bot_to_act:
        job = session.bot_job()
        session.apply_bots(job, bot_actions(job, chain=True))
    path = session.save(str(tmp_path / "mid.json"))
    saved = json.loads(Path(path).read_text(encoding="utf-8"))
    assert saved["format"] == POSITION2_FORMAT and saved["actions"] and saved["match"]["deals"] == 1
    again = GameSession.load(path)
    assert again.state == session.state and again.origin is not None and again.human == 0
    assert again.undo().startswith("took back") and len(again.state.actions()) == 0
    while not session.state.is_over:  # Play the deal out: the person plays its first legal step each time.
        if session.bot_to_act:
            job = session.bot_job()
            session.apply_bots(job, bot_actions(job, chain=True))
        else:
            session.act(next(iter(session.state.legal_leads()), None) or next(iter(session.state.legal_beats())))
    assert session.match_over and session.saved and sum(session.totals) == 1
    over = positions.load(Path(session.saved[-1]).read_text(encoding="utf-8"))
    assert over.replay() == session.state and len(over.actions) == len(session.state.actions())
    with pytest.raises(MustamaijaError, match="over"):
        GameSession.from_position(positions.load("5_sQ-__c_o"), game)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")
def test_play_position_in_a_terminal_saves_the_position_and_resumes(tmp_path: Path) -> None:
    from test_tui_pty import Terminal

    def leave(term: Terminal, key: bytes) -> None:
        term.press(key)  # Ctrl-C or Ctrl-Q: save and leave.
        deadline = time.monotonic() + 20
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.read(0.2)
        term.read(0.5)
        assert term.proc.poll() == 0

    text = "5_sQh56c3A.d2-h4K.c5-h9dQ_~s2h7d3c4_c4_l0"
    term = Terminal(["play", "--position", text, "--bots", "easy", "--seed", "4", "--pace", "0"], cwd=tmp_path)
    try:
        assert term.wait_for("Enter: ", 30), term.output[-2000:]  # Seat 0, the attacker, is to lead: the person.
        leave(term, b"\x03")
    finally:
        term.close()
    assert b"Game saved to mustamaija-autosave.json. Resume with: mustamaija play --load" in term.output
    saved = json.loads((tmp_path / "mustamaija-autosave.json").read_text(encoding="utf-8"))
    assert saved["format"] == POSITION2_FORMAT and saved["actions"] == [] and saved["talon_order"] == "known"
    assert saved["match"]["human"] == 0 and saved["match"]["deals"] == 1 and saved["public"] == ["2D", "5C"]
    start = Position.from_json(saved)
    assert start.to_text().split("_")[1] == text.split("_")[1] and card_name(start.talon[-1]) == "4C"
    for option in ("--load", "--position"):
        term = Terminal(["play", option, "mustamaija-autosave.json", "--pace", "0"], cwd=tmp_path)
        try:
            # A minute: a start-up that is slow only on a loaded machine once took over 30 s here.
            assert term.wait_for("Enter: ", 60), term.output[-2000:]
            leave(term, b"\x11")
        finally:
            term.close()
        assert Position.from_json(json.loads((tmp_path / "mustamaija-autosave.json").read_text(encoding="utf-8"))) == start
