"""Endgame positions (``mustamaija-position/1``): reading, writing, and an error naming every fault."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from mustamaija.core.cards import QS, CardSet, parse_cards
from mustamaija.core.errors import FormatError
from mustamaija.games.mustamaija import POSITION_FORMAT, Position, Record, Rules, State

EXAMPLE: dict[str, Any] = {
    "format": "mustamaija-position/1",
    "rules": {},
    "trump_suit": "C",
    "hands": [["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]],
    "attacker": 0,
}


def _with(**changes: Any) -> dict[str, Any]:
    obj = json.loads(json.dumps(EXAMPLE))
    for k, v in changes.items():
        if v is ...:
            del obj[k]
        else:
            obj[k] = v
    return obj


def test_the_formats_example_loads_into_the_engine() -> None:
    p = Position.from_json(EXAMPLE)
    assert p.attacker == 0 and p.trump_suit == 3 and p.rules == Rules()
    assert [CardSet(h).names() for h in p.hands] == [["QS", "5H", "6H", "3C", "AC"], ["KH", "2D"]]
    s = p.to_state()
    assert (s.phase_name, s.attacker, s.defender, s.talon_size, s.limit, s.trump_suit) == ("lead", 0, 1, 0, 2, 3)


def test_round_trip_and_extra_keys() -> None:
    p = Position.from_json(_with(comment="from a puzzle book", hands=[["q♠", "10h"], ["2d"], []]))
    text = p.dumps()
    again = Position.loads(text)
    assert again == p and again.extra == {"comment": "from a puzzle book"}
    obj = json.loads(text)
    assert obj["format"] == POSITION_FORMAT and obj["hands"] == [["QS", "TH"], ["2D"], []] and obj["trump_suit"] == "C"
    assert Position.from_json(obj).to_state().out == (2,)


def test_only_the_documented_keys_are_needed() -> None:
    p = Position.from_json({"hands": [["QS", "2H"], ["3H"]], "attacker": 1})
    assert p.trump_suit is None and p.rules == Rules()
    assert Position.from_json({"hands": [["QS"], ["3H"]], "attacker": 0, "rules": {"trump": "fixed"}}).trump_suit == 2


def test_file_round_trip(tmp_path: Any) -> None:
    path = tmp_path / "p.json"
    p = Position.from_json(EXAMPLE)
    p.dump(path)
    assert Position.load(path) == p


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hands": [["AC", "ZZ"], ["QS"]]}, r"hands\[0\]\[1\]: bad card 'ZZ'"),
        ({"hands": [["AC", 7], ["QS"]]}, r"hands\[0\]\[1\]: 7 is not a card string"),
        ({"hands": [["AC", "QS"], ["ac"]]}, "card AC appears in the hands of seats 0 and 1"),
        ({"hands": [["AC", "AC", "QS"], ["2D"]]}, "card AC appears twice in that hand"),
        ({"hands": [["AC"], ["2D"]]}, r"Q♠ \(QS\) is in no hand"),
        ({"hands": [["AC", "QS"], []]}, "only 1 seat holds cards"),
        ({"hands": [["AC", "QS"]]}, "at least 2 seats"),
        ({"hands": "AC QS"}, "'hands' must be a list"),
        ({"hands": [["QS"], "2D"]}, r"hands\[1\] must be a list"),
        ({"hands": [["QS"]] + [["2D"]] * 6}, "at most 6 players"),
        ({"attacker": 2}, "'attacker' must be a seat from 0 to 1, not 2"),
        ({"attacker": -1}, "'attacker' must be a seat from 0 to 1"),
        ({"attacker": "0"}, "'attacker' must be an integer"),
        ({"attacker": True}, "'attacker' must be an integer"),
        ({"attacker": ...}, "needs 'attacker'"),
        ({"hands": ...}, "needs 'hands'"),
        ({"hands": [[], ["QS", "2D"], ["3D"]]}, "the attacker, seat 0, holds no cards"),
        ({"trump_suit": "X"}, "bad 'trump_suit' 'X'"),
        ({"trump_suit": 3}, "'trump_suit' must be a suit letter"),
        ({"trump_suit": "CC"}, "bad 'trump_suit' 'CC'"),
        ({"rules": {"trump": "none"}}, "no trumps"),
        ({"rules": {"trump": "fixed", "trump_suit": "D"}}, "the rules make D trumps"),
        ({"rules": {"trump": "fixed"}, "trump_suit": None}, "the rules make D trumps"),
        ({"rules": {"trump": "marriage"}, "trump_suit": "S"}, "never make spades trumps"),
        ({"rules": {"hand_sise": 5}}, "rules: unknown rule key 'hand_sise'"),
        ({"rules": []}, "rules: rules must be a JSON object"),
        ({"format": "mustamaija-record/1"}, "unknown format 'mustamaija-record/1'"),
    ],
)
def test_errors_name_the_fault(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(FormatError, match=message):
        Position.from_json(_with(**changes))


def test_not_json_and_not_an_object() -> None:
    with pytest.raises(FormatError, match="not valid JSON"):
        Position.loads("{hands")
    with pytest.raises(FormatError, match="must be a JSON object, not list"):
        Position.loads("[]")


def test_hand_size_three_allows_eight_seats() -> None:
    hands = [["QS"]] + [[f"{r}D"] for r in "2345678"]
    p = Position.from_json(_with(hands=hands, rules={"hand_size": 3}, trump_suit=None))
    assert len(p.hands) == 8


def test_positions_from_states() -> None:
    s = State.from_position([parse_cards("QS 2H"), parse_cards("3H")], attacker=0, trump_suit=None,
                            rules=Rules.preset("salmi"))
    p = Position.from_state(s)
    assert p.trump_suit is None and p.to_state().declarer == -1  # Under marriage rules, null: undeclared.
    fixed = Position.from_state(State.from_position([parse_cards("QS 2H"), parse_cards("3H")], 0, 1, Rules.preset("salmi")))
    assert fixed.trump_suit == 1 and fixed.to_state().declarer == -2
    # Every state has a position now (mustamaija-position/2): one with a talon says so in /2, never in /1.
    dealt = Position.from_state(State.from_seed(players=2, seed=1))
    assert dealt.talon_size == 42 and dealt.to_json()["format"] == "mustamaija-position/2"
    with pytest.raises(FormatError, match="says more than mustamaija-position/1 can"):
        dealt.to_json(POSITION_FORMAT)


def test_positions_from_played_records() -> None:
    """Play random deals to a talon-empty lead position and back: the position is the replayed state."""
    rng = random.Random(4)
    found = 0
    for seed in range(40):
        s = State.from_seed(players=rng.choice([2, 3]), seed=seed)
        while not s.is_over and not (s.talon_size == 0 and s.phase == 0 and not s.in_progress):
            s.apply(rng.choice(s.legal_actions()))
        if s.is_over:
            assert Position.from_state(s).phase == "over"
            continue
        found += 1
        p = Position.from_state(s)
        t = p.to_state()
        assert t.hands == s.hands and t.attacker == s.attacker and t.trump == s.trump and t.limit == s.limit
        assert any(h >> QS & 1 for h in t.hands)
        assert Position.from_json(json.loads(p.dumps())) == p
        Record.from_state(s)  # The state was dealt, so it also has a record.
    assert found > 10
