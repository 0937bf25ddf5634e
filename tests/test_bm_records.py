"""Black Maria records (docs/formats.md ``black-maria-record/1``): round trips, replay, errors and the replay summary."""

from __future__ import annotations

import json
import random

import pytest

from mustamaija.core.cards import SUIT_MASKS, card_name
from mustamaija.core.errors import FormatError, RecordError
from mustamaija.games.black_maria import Rules, State
from mustamaija.games.black_maria.narrate import narrate
from mustamaija.games.black_maria.play import play_hand
from mustamaija.games.black_maria.players import HeuristicPlayer
from mustamaija.games.black_maria.record import Record, replay_json
from mustamaija.games.black_maria.sampling import sample_state
from mustamaija.players.random import RandomPlayer

SUMMARY_KEYS = {"finished", "phase", "to_act", "tricks", "points", "hands"}


def recorded(players: int, seed: int, renege: bool = False) -> Record:
    bots = [RandomPlayer(seed=seed * 10 + p) for p in range(players)]
    return play_hand(bots, seed, Rules(allow_renege=renege)).record


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("renege", [False, True])
def test_records_round_trip_and_replay(players: int, renege: bool) -> None:
    for seed in range(20):
        rec = recorded(players, seed, renege)
        text = rec.dumps()
        again = Record.loads(text)
        assert again == rec and again.dumps() == text
        assert Record.loads(rec.dumps(indent=2)) == rec
        end = rec.replay()
        assert end.is_over and end.actions() == list(rec.actions)
        obj = replay_json(rec)
        assert obj.keys() >= SUMMARY_KEYS
        assert obj["finished"] is True and obj["phase"] == "over" and obj["to_act"] is None
        assert obj["points"] == end.points() and sum(obj["tricks"]) == len(rec.deck) // players
        assert obj["hands"] == [[] for _ in range(players)]
        assert replay_json(text) == obj == replay_json(json.loads(text))


def test_record_holds_the_formats_keys() -> None:
    rec = recorded(4, 1)
    obj = rec.to_json()
    assert list(obj)[:7] == ["format", "game", "rules", "players", "dealer", "deck", "actions"]
    assert obj["format"] == "black-maria-record/1" and obj["game"] == "black-maria"
    assert obj["rules"] == {"target_score": 50, "hands": None, "allow_renege": False}
    assert obj["actions"][0].keys() == {"seat", "pass"} and obj["actions"][-1].keys() == {"seat", "play"}
    assert obj["seed"] == 1  # An optional key the project adds; it survives a load and dump.
    assert Record.loads(rec.dumps()).extra == {"seed": 1}


def test_minimal_record_and_partial_replay() -> None:
    rec = recorded(3, 2)
    obj = {"format": "black-maria-record/1", "players": 3, "dealer": rec.dealer, "deck": rec.to_json()["deck"],
           "actions": rec.to_json()["actions"][:5]}
    mid = replay_json(obj)
    assert mid["finished"] is False and mid["phase"] == "play"
    assert mid["to_act"] == (rec.dealer + 3) % 3  # Two cards played from the dealer's left.
    assert sum(len(h) for h in mid["hands"]) == 51 - 2
    assert [a["play"] for a in obj["actions"][3:5]] == mid["trick"]
    obj["actions"] = obj["actions"][:1]
    start = replay_json(obj)
    first = (rec.dealer + 1) % 3
    assert start["phase"] == "pass" and start["to_act"] == (first + 1) % 3
    assert start["passed"][first] is not None and start["passed"][(first + 1) % 3] is None


def _broken(rec: Record, index: int, action: dict[str, object]) -> str:
    obj = rec.to_json()
    obj["actions"] = [*obj["actions"][:index], action]
    return json.dumps(obj)


def test_replay_errors_name_index_seat_and_rule() -> None:
    rec = recorded(4, 3)
    start = rec.start()
    seat = start.to_act
    hand = [c for c in start.hand(seat).names()]
    with pytest.raises(RecordError) as e:
        Record.loads(_broken(rec, 0, {"seat": seat, "pass": hand[:2]})).replay()
    assert (e.value.index, e.value.seat, e.value.rule) == (0, seat, "B3")
    assert str(e.value).startswith(f"action 0 (seat {seat}): B3: with 4 players each seat passes 3 cards")
    with pytest.raises(RecordError) as e:
        Record.loads(_broken(rec, 1, {"seat": seat, "pass": hand[:3]})).replay()
    assert (e.value.index, e.value.rule) == (1, "B3")
    # A play that does not follow suit: find the first follower who holds the led suit.
    s = rec.start()
    for i, a in enumerate(rec.actions):
        seat = s.to_act
        follow = s.hands[seat] & SUIT_MASKS[s.led] if s.led >= 0 else 0
        if follow and follow != s.hands[seat]:
            wrong = next(c for c in s.hand(seat) if c // 13 != s.led)
            with pytest.raises(RecordError) as e:
                Record.loads(_broken(rec, i, {"seat": seat, "play": card_name(wrong)})).replay()
            assert (e.value.index, e.value.seat, e.value.rule) == (i, seat, "B4")
            assert "must follow suit" in str(e.value)
            break
        s.play(a)
    else:
        pytest.fail("no follower holding the led suit was found")
    # Malformed actions are reported with rule "format", after checking the actions before them.
    with pytest.raises(RecordError) as e:
        Record.loads(_broken(rec, 4, {"seat": 1, "play": "ZZ"}))
    assert (e.value.index, e.value.rule) == (4, "format")
    with pytest.raises(RecordError) as e:
        Record.loads(_broken(rec, 4, {"seat": 1, "lead": ["2H"]}))
    assert "exactly one of 'pass' or 'play'" in str(e.value)


def test_hearts_lead_error_in_a_record() -> None:
    for seed in range(200):
        rec = recorded(4, seed)
        s = rec.start()
        for i, a in enumerate(rec.actions):
            if s.phase == 1 and not s.trick and not s.broken:
                hearts = [c for c in s.hand(s.to_act) if c // 13 == 1]
                if hearts and len(hearts) < s.hands[s.to_act].bit_count():
                    with pytest.raises(RecordError) as e:
                        Record.loads(_broken(rec, i, {"seat": s.to_act, "play": card_name(hearts[0])})).replay()
                    assert e.value.rule == "B5" and e.value.index == i
                    return
            s.play(a)
    pytest.fail("no position to lead a heart early was found")


@pytest.mark.parametrize(("change", "message"), [
    ({"format": "mustamaija-record/1"}, "unknown format 'mustamaija-record/1'"),
    ({"game": "mustamaija"}, "unknown game 'mustamaija'"),
    ({"players": 8}, "players: B1: Black Maria is for 3 to 7 players, not 8"),
    ({"dealer": 4}, "'dealer' must be a seat from 0 to 3"),
    ({"rules": {"hand_size": 5}}, "rules: unknown rule key 'hand_size'"),
    ({"deck": ["AS"] * 52}, "deck: card AS appears twice"),
    ({"players": 3}, "deck: B1: 2S is taken out of the pack with 3 players"),
])
def test_malformed_records_are_rejected(change: dict[str, object], message: str) -> None:
    obj = recorded(4, 1).to_json()
    obj.update(change)
    with pytest.raises(FormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Record.from_json(obj)


def test_sampled_state_has_no_record_and_narration_tells_the_hand() -> None:
    s = State.from_seed(4, seed=1)
    with pytest.raises(FormatError, match="no record"):
        Record.from_state(sample_state(s.view(s.to_act), random.Random(1)))
    rec = play_hand([HeuristicPlayer()] * 4, seed=9, rules=Rules(allow_renege=True)).record
    text = narrate(rec)
    assert text.startswith("Black Maria, 4 players")
    assert text.count("wins the trick") == 13 and text.count(" passes ") == 4
    assert text.splitlines()[-1].startswith("Points this hand: ")
