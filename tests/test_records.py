"""Game records (``mustamaija-record/1``): load, dump, seeds, extra keys, and precise errors for bad records."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mustamaija.core.cards import QS, card_name, parse_card
from mustamaija.core.errors import FormatError, RecordError
from mustamaija.games.mustamaija import PRESETS, Rules, State, deck_for_hands, shuffled_deck
from mustamaija.games.mustamaija.actions import Beat, Declare, Lead
from mustamaija.games.mustamaija.record import RECORD_FORMAT, Record, state_to_json

# -- helpers --------------------------------------------------------------------


def random_play(state: State, rng: random.Random, steps: int) -> State:
    """Take up to ``steps`` random legal steps, then finish any action begun, so the state is at an action boundary."""
    for _ in range(steps):
        if state.is_over:
            return state
        state.apply(rng.choice(state.legal_actions()))
    while state.in_progress and not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


def snapshot(state: State) -> dict[str, Any]:
    return {
        **state_to_json(state),
        "hand_masks": list(state.hands),
        "actions": [a.to_json() for a in state.actions()],
        "trump": state.trump,
        "declarer": state.declarer,
        "in_progress": state.in_progress,
    }


def names(cards: list[str]) -> list[str]:
    return [card_name(parse_card(c)) for c in cards]


def spec_deal(deck: list[str], players: int, hand_size: int, dealer: int) -> tuple[list[list[str]], list[str]]:
    """Deal as docs/formats.md says, independently of the engine: one card at a time from the dealer's left."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * hand_size):
        hands[(dealer + 1 + i) % players].append(deck[i])
    return hands, deck[players * hand_size:]


def spec_turn(talon: list[str], spades_can_be_trump: bool) -> tuple[str | None, list[str]]:
    """Turn the trump as docs/formats.md says: return the trump card and the talon after turning, top first."""
    if not talon:
        return None, []
    j = 0
    if not spades_can_be_trump:
        while j < len(talon) and talon[j][1] == "S":
            j += 1
        if j == len(talon):
            j = 0
    trump, block, others = talon[j], talon[:j], talon[j + 1:]
    k = len(others)
    return trump, others[: k // 2] + block + others[k // 2:] + [trump]


def make(hands: list[list[str]], talon: list[str] = (), dealer: int = 0, rules: dict[str, Any] | None = None,
         actions: list[Any] = (), **extra: Any) -> dict[str, Any]:
    """Return a record object whose deal gives ``hands`` (per seat) with ``talon`` on top of the talon."""
    deck = deck_for_hands(hands, talon=list(talon), dealer=dealer)
    obj: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": "mustamaija",
        "rules": {} if rules is None else rules,
        "players": len(hands),
        "dealer": dealer,
        "deck": [card_name(c) for c in deck],
        "actions": list(actions),
    }
    obj.update(extra)
    return obj


# Deal A: three players, dealer 0, so seat 1 leads first to seat 2.
HANDS_A = [
    ["2C", "3C", "4C", "5C", "6C"],
    ["9H", "4H", "2D", "3D", "4D"],
    ["5H", "6H", "7H", "8H", "AS"],
]
TALON_A = ["KS", "JS", "7C", "TD", "JD"]
ACTIONS_A = [
    {"seat": 1, "lead": ["9H", "4H"]},
    {"seat": 2, "beat": {}},
    {"seat": 0, "lead": ["2C"]},
    {"seat": 1, "beat": {}},
]

# Deal B: three players, dealer 2, so seat 0 leads first to seat 1.
HANDS_B = [
    ["QS", "2S", "9H", "4H", "KD"],
    ["JH", "8H", "AS", "KH", "5D"],
    ["2C", "3C", "4C", "5C", "6C"],
]
TALON_B = ["7D", "8D"]


def load(obj: Any) -> Record:
    return Record.loads(json.dumps(obj))


# -- round trips -----------------------------------------------------------------


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    seed=st.integers(min_value=0, max_value=10**9),
    preset=st.sampled_from(sorted(PRESETS)),
    players=st.integers(min_value=2, max_value=8),
    steps=st.integers(min_value=0, max_value=300),
    indent=st.sampled_from([None, 2]),
)
def test_dump_load_round_trip_after_random_play(seed: int, preset: str, players: int, steps: int, indent: int | None) -> None:
    rules = Rules.preset(preset)
    players = min(players, rules.max_players)
    state = random_play(State.from_seed(players, seed, rules), random.Random(seed + 1), steps)
    record = Record.from_state(state, seed=seed)
    text = record.dumps(indent)
    back = Record.loads(text)
    assert back == record
    assert back.extra == {"seed": seed}
    assert back.dumps(indent) == text
    assert json.loads(text)["format"] == RECORD_FORMAT
    assert len(back.actions) == len(state.actions())
    assert snapshot(back.replay()) == snapshot(state)
    # Every intermediate state is reproduced too.
    states = list(back.states())
    assert len(states) == len(back.actions) + 1
    assert snapshot(states[-1]) == snapshot(state)


def test_record_file_round_trip(tmp_path: Any) -> None:
    state = random_play(State.from_seed(4, 11), random.Random(3), 10_000)
    assert state.is_over
    record = Record.from_state(state, players_names=["a", "b", "c", "d"])
    path = tmp_path / "deal.json"
    record.dump(path)
    back = Record.load(path)
    assert back == record
    assert back.extra == {"players_names": ["a", "b", "c", "d"]}
    final = back.replay()
    assert final.finished and final.loser == state.loser
    assert final.hands[final.loser] >> QS & 1


@pytest.mark.parametrize(("players", "seed", "preset"), [(2, 0, "standard"), (4, 7, "wikipedia"), (8, 99, "salmi"), (6, "abc", "french")])
def test_from_seed_keeps_the_deck_order_and_the_dealer(players: int, seed: int | str, preset: str) -> None:
    rules = Rules.preset(preset)
    record = Record.from_seed(players, seed, rules)
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    assert record.deck == deck
    assert record.dealer == rng.randrange(players)
    assert record.actions == ()
    assert record.rules == rules
    obj = json.loads(record.dumps())
    assert obj["deck"] == [card_name(c) for c in deck]
    assert obj["dealer"] == record.dealer
    assert obj["players"] == players
    back = Record.loads(record.dumps())
    assert back.deck == deck and back.dealer == record.dealer and back.rules == rules
    # The same deal as State.from_seed, dealt as docs/formats.md says.
    s = back.start()
    t = State.from_seed(players, seed, rules)
    assert snapshot(s) == snapshot(t)
    hands, talon = spec_deal(obj["deck"], players, rules.hand_size, record.dealer)
    assert [sorted(h) for h in hands] == [sorted(s.hand(i).names()) for i in range(players)]
    if rules.trump == "turned" and rules.trump_turn == "after_deal":
        trump, talon = spec_turn(talon, rules.spades_can_be_trump)
        assert card_name(s.trump_card) == trump
    assert [card_name(c) for c in s.talon_cards] == talon
    assert s.attacker == (record.dealer + 1) % players


@pytest.mark.parametrize("spades_can_be_trump", [False, True])
@pytest.mark.parametrize("trump_turn", ["after_deal", "after_first_lead"])
def test_trump_turning_follows_the_spec_for_many_decks(trump_turn: str, spades_can_be_trump: bool) -> None:
    rules = Rules(trump_turn=trump_turn, spades_can_be_trump=spades_can_be_trump)
    rng = random.Random(f"{trump_turn}{spades_can_be_trump}")
    spades = [f"{r}S" for r in "23456789TJQKA"]
    for i in range(60):
        players = 2 + i % 5
        # Half of the decks put a run of spades on top of the talon.
        top = rng.sample(spades, rng.randrange(0, 6)) if i % 2 else []
        rest = [card_name(c) for c in range(52) if card_name(c) not in top]
        rng.shuffle(rest)
        dealt = players * 5
        deck = rest[:dealt] + top + rest[dealt:]
        obj = {"format": RECORD_FORMAT, "game": "mustamaija", "rules": rules.to_json(), "players": players,
               "dealer": i % players, "deck": deck, "actions": []}
        s = load(obj).start()
        hands, talon = spec_deal(deck, players, 5, i % players)
        assert [sorted(h) for h in hands] == [sorted(s.hand(p).names()) for p in range(players)]
        if trump_turn == "after_first_lead":
            assert s.trump_card < 0 and s.trump_suit is None
            lead = min(s.hand(s.attacker), key=lambda c: c % 13)
            s.lead([lead])
            assert s.trump_card >= 0
            trump, talon = spec_turn(talon, spades_can_be_trump)
            talon = talon[1:]  # The attacker drew one card back up to five.
        else:
            trump, talon = spec_turn(talon, spades_can_be_trump)
        assert card_name(s.trump_card) == trump
        assert s.trump_suit == "SHDC".index(trump[1])
        assert [card_name(c) for c in s.talon_cards] == talon
        if top and not spades_can_be_trump:
            assert trump[1] != "S"
        if top and spades_can_be_trump:
            assert trump == top[0]


def test_a_talon_of_only_spades_turns_its_top_card() -> None:
    # Eight players with six cards leave a four-card talon: make it all spades.
    spades = ["3S", "9S", "QS", "AS"]
    hands = [[card_name(c) for c in range(52) if card_name(c) not in spades][6 * i: 6 * i + 6] for i in range(8)]
    obj = make(hands, spades, dealer=7, rules={"hand_size": 6, "trump_turn": "after_deal"})
    s = load(obj).start()
    assert card_name(s.trump_card) == "3S" and s.trump_suit == 0
    assert [card_name(c) for c in s.talon_cards] == ["9S", "QS", "AS", "3S"]
    assert spec_turn(spades, False) == ("3S", ["9S", "QS", "AS", "3S"])


def test_from_seed_with_a_dealer() -> None:
    record = Record.from_seed(5, 42, dealer=3)
    assert record.dealer == 3
    assert record.deck == shuffled_deck(random.Random(42))
    assert record.start().attacker == 4


def test_extra_top_level_keys_survive_and_do_not_change_replay() -> None:
    plain = make(HANDS_A, TALON_A, actions=ACTIONS_A)
    extra = {
        "names": ["Aino", "Eero", "Liisa"],
        "started": "2024-01-01T12:00:00Z",
        "result": {"loser": 2},
        "comment": "a partial deal",
    }
    rich = {**plain, **extra}
    a, b = load(plain), load(rich)
    assert dict(b.extra) == extra
    assert a == b  # Extra keys do not take part in equality…
    assert snapshot(a.replay()) == snapshot(b.replay())  # …nor in replay.
    dumped = json.loads(b.dumps())
    for key, value in extra.items():
        assert dumped[key] == value
    assert load(dumped).extra == b.extra
    assert json.loads(Record.loads(b.dumps(2)).dumps(2)) == dumped


def test_comments_in_actions_are_ignored() -> None:
    commented = [dict(a, comment=f"move {i}", time=i * 1.5) for i, a in enumerate(ACTIONS_A)]
    a = load(make(HANDS_A, TALON_A, actions=ACTIONS_A))
    b = load(make(HANDS_A, TALON_A, actions=commented))
    assert a.actions == b.actions
    assert snapshot(a.replay()) == snapshot(b.replay())


def test_record_with_only_the_spec_keys_replays_as_the_spec_says() -> None:
    obj = make(HANDS_A, TALON_A, actions=ACTIONS_A)
    assert list(obj) == ["format", "game", "rules", "players", "dealer", "deck", "actions"]
    record = load(obj)
    assert record.rules == Rules()
    s = record.replay()
    # Independent computation from docs/formats.md: the deal, the trump turned after the first lead, the draws.
    hands, talon = spec_deal(obj["deck"], 3, 5, 0)
    assert [sorted(h) for h in hands] == [sorted(names(h)) for h in HANDS_A]
    assert talon[:5] == TALON_A
    trump, talon = spec_turn(talon, False)
    assert trump == "7C"
    assert talon[-1] == "7C" and "KS" in talon and "JS" in talon
    # Seat 1 led 2 and drew 2; seat 2 picked up 2; seat 0 led 1 and drew 1; seat 1 picked up 1.
    expected_hands = [
        sorted(["3C", "4C", "5C", "6C", talon[2]]),
        sorted(["2D", "3D", "4D", talon[0], talon[1], "2C"]),
        sorted(["5H", "6H", "7H", "8H", "AS", "4H", "9H"]),
    ]
    assert [sorted(s.hand(i).names()) for i in range(3)] == expected_hands
    out = state_to_json(s)
    assert out["talon"] == talon[3:]
    assert out["trump_suit"] == "C" and out["trump_card"] == "7C"
    assert (out["attacker"], out["defender"], out["to_act"], out["phase"]) == (2, 0, 2, "lead")
    assert (out["finished"], out["loser"], out["out"]) == (False, None, [])


def test_spec_example_shapes_are_accepted() -> None:
    base = make(HANDS_A, TALON_A, actions=ACTIONS_A)
    reference = snapshot(load(base).replay())
    # ``rules: {}`` and a missing ``rules`` both mean the defaults.
    no_rules = {k: v for k, v in base.items() if k != "rules"}
    assert snapshot(load(no_rules).replay()) == reference
    # No ``actions``: the state right after the deal.
    no_actions = {k: v for k, v in base.items() if k != "actions"}
    assert load(no_actions).actions == ()
    assert snapshot(load(no_actions).replay()) == snapshot(load(base).start())
    # Rule keys spelled out, cards in any accepted spelling, keys in any order.
    spelled = dict(reversed(list(base.items())))
    spelled["rules"] = {"hand_size": 5, "trump": "turned", "trump_turn": "after_first_lead", "max_lead": None}
    spelled["deck"] = [c.lower() if i % 2 else c.replace("T", "10") for i, c in enumerate(base["deck"])]
    spelled["actions"] = [{"seat": 1, "lead": ["9♥", "4h"]}, {"beat": {}, "seat": 2}, {"seat": 0, "lead": ["2♣"]},
                          {"seat": 1, "beat": {}}]
    assert snapshot(load(spelled).replay()) == reference


def test_spec_example_actions_including_a_declaration() -> None:
    # The docs/formats.md example actions: a lead of 9H 4H, a beat of 9H with JH, then a declaration.
    hands = [["2C", "3C", "4C", "5C", "6C"], ["9H", "4H", "2D", "3D", "4D"], ["JH", "8S", "KD", "QD", "5S"],
             ["KH", "QH", "2H", "7S", "8C"]]
    rules = {"hand_size": 5, "trump": "marriage"}
    actions = [
        {"seat": 1, "lead": ["9H", "4H"]},
        {"seat": 2, "beat": {"9H": "JH"}},
        {"seat": 3, "declare": "H"},
        {"seat": 3, "lead": ["2H"]},
    ]
    record = load(make(hands, ["7D", "8D", "9D", "TD", "JD"], rules=rules, actions=actions))
    assert record.actions[2] == Declare(3, 1)
    states = list(record.states())
    assert states[2].trump_suit is None
    assert states[3].trump_suit == 1 and states[3].declarer == 3
    s = states[-1]
    assert (s.phase_name, s.to_act, s.attacker, s.defender) == ("defend", 0, 3, 0)
    assert s.hand(2).names() == ["5S", "8S", "4H", "QD", "KD"]  # JH beat 9H, 4H picked up: still 5 cards.
    out = state_to_json(s)
    assert out["trump_suit"] == "H" and out["trump_card"] is None


# -- malformed records -------------------------------------------------------------


def _bad(obj: Any) -> str:
    text = obj if isinstance(obj, str) else json.dumps(obj)
    with pytest.raises(FormatError) as info:
        Record.loads(text)
    return str(info.value)


def _base() -> dict[str, Any]:
    return make(HANDS_A, TALON_A, actions=copy.deepcopy(ACTIONS_A))


def test_not_json() -> None:
    assert _bad('{"format": "mustamaija-record/1", ').startswith("not valid JSON: ")
    assert _bad("").startswith("not valid JSON: ")
    with pytest.raises(FormatError, match="not valid JSON"):
        Record.loads(b"\xff\xfe\x00garbage")


@pytest.mark.parametrize(("value", "kind"), [([], "list"), ("record", "str"), (3, "int"), (None, "NoneType")])
def test_not_an_object(value: Any, kind: str) -> None:
    assert _bad(json.dumps(value)) == f"a record must be a JSON object, not {kind}"


def test_wrong_format_and_game() -> None:
    assert _bad({**_base(), "format": "mustamaija-record/2"}) == (
        "unknown format 'mustamaija-record/2': expected 'mustamaija-record/1'"
    )
    assert _bad({**_base(), "format": "mustamaija-position/1"}).startswith("unknown format 'mustamaija-position/1'")
    assert _bad({**_base(), "game": "durak"}) == "unknown game 'durak': expected 'mustamaija'"


@pytest.mark.parametrize("key", ["players", "deck"])
def test_missing_required_key(key: str) -> None:
    obj = _base()
    del obj[key]
    assert _bad(obj) == f"a record needs {key!r}"


def test_bad_player_counts() -> None:
    assert _bad({**_base(), "players": 7}) == "players: V1: 7 players cannot play with hand size 5 (allowed: 2-6)"
    assert _bad({**_base(), "players": 1}).startswith("players: V1: 1 players cannot play")
    assert _bad({**_base(), "players": 9, "rules": {"hand_size": 3}}) == (
        "players: V1: 9 players cannot play with hand size 3 (allowed: 2-8)"
    )
    assert _bad({**_base(), "players": "3"}) == "'players' must be an integer, not '3'"
    assert _bad({**_base(), "players": 3.0}) == "'players' must be an integer, not 3.0"
    assert _bad({**_base(), "players": True}) == "'players' must be an integer, not True"
    # Seven players are fine with 3- or 6-card hands (V1).
    ok = Record.from_seed(7, 1, Rules.preset("salmi"))
    assert Record.loads(ok.dumps()).players == 7


def test_bad_dealer() -> None:
    assert _bad({**_base(), "dealer": 3}) == "'dealer' must be a seat from 0 to 2, not 3"
    assert _bad({**_base(), "dealer": -1}) == "'dealer' must be a seat from 0 to 2, not -1"
    assert _bad({**_base(), "dealer": "north"}) == "'dealer' must be an integer, not 'north'"
    assert _bad({**_base(), "dealer": None}) == "'dealer' must be an integer, not None"


def test_bad_decks() -> None:
    base = _base()
    deck = base["deck"]
    assert _bad({**base, "deck": [*deck[:10], "XX", *deck[11:]]}).startswith("deck: bad card 'XX'")
    assert _bad({**base, "deck": [*deck[:10], "1H", *deck[11:]]}).startswith("deck: bad card '1H': rank must be")
    assert _bad({**base, "deck": [*deck[:10], 7, *deck[11:]]}) == "deck: 7 is not a card string such as 'QS'"
    dup = [*deck[:51], deck[0]]
    assert _bad({**base, "deck": dup}) == f"deck: card {deck[0]} appears twice"
    dup_spelled = [*deck[:51], deck[0].lower()]
    assert _bad({**base, "deck": dup_spelled}) == f"deck: card {deck[0]} appears twice"
    assert _bad({**base, "deck": deck[:51]}) == "'deck' must list all 52 cards once each, got 51 cards"
    assert _bad({**base, "deck": []}) == "'deck' must list all 52 cards once each, got 0 cards"
    assert _bad({**base, "deck": " ".join(deck)}).startswith("'deck' must be a list of card strings, not ")


def test_bad_rules_in_a_record() -> None:
    assert _bad({**_base(), "rules": {"hand_sise": 3}}).startswith("rules: unknown rule key 'hand_sise'")
    assert _bad({**_base(), "rules": {"trump": "random"}}).startswith("rules: bad value 'random' for rule 'trump'")
    assert _bad({**_base(), "rules": {"max_lead": 0}}).startswith("rules: bad value 0 for rule 'max_lead'")
    assert _bad({**_base(), "rules": {"hand_size": 5.0}}).startswith("rules: bad value 5.0 for rule 'hand_size'")
    assert _bad({**_base(), "rules": "standard"}) == "rules: rules must be a JSON object, not str"
    assert _bad({**_base(), "rules": []}) == "rules: rules must be a JSON object, not list"
    assert _bad({**_base(), "rules": 0}) == "rules: rules must be a JSON object, not int"


def test_actions_must_be_a_list() -> None:
    assert _bad({**_base(), "actions": {"seat": 1}}) == "'actions' must be a list, not {'seat': 1}"


def _bad_action(action: Any, index: int = 1, seat: Any = None) -> str:
    obj = _base()
    obj["actions"][index] = action
    with pytest.raises(RecordError) as info:
        Record.loads(json.dumps(obj))
    err = info.value
    assert err.index == index
    assert err.seat == seat
    assert err.rule == "format"
    assert str(err).startswith(f"action {index} (seat {seat}): format: ")
    return err.detail


def test_malformed_actions_name_their_fault() -> None:
    assert _bad_action(["seat", 2]) == "an action must be a JSON object, not list"
    assert _bad_action("lead 9H") == "an action must be a JSON object, not str"
    assert _bad_action({"beat": {}}) == "an action needs an integer 'seat', got None"
    assert _bad_action({"seat": "2", "beat": {}}, seat="2") == "an action needs an integer 'seat', got '2'"
    assert _bad_action({"seat": 3, "beat": {}}, seat=3) == "seat 3 does not exist with 3 players"
    assert _bad_action({"seat": -1, "beat": {}}, seat=-1) == "seat -1 does not exist with 3 players"
    assert _bad_action({"seat": 2, "beat": {}, "lead": ["2H"]}, seat=2) == (
        "an action needs exactly one of 'lead', 'beat' or 'declare', not lead and beat"
    )
    assert _bad_action({"seat": 2}, seat=2) == "an action needs exactly one of 'lead', 'beat' or 'declare'"
    assert _bad_action({"seat": 1, "lead": ["9H", "XX"]}, index=0, seat=1).startswith("a led card: bad card 'XX'")
    assert _bad_action({"seat": 1, "lead": ["9H", 9]}, index=0, seat=1) == (
        "a led card: 9 is not a card string such as 'QS'"
    )
    assert _bad_action({"seat": 1, "lead": "9H"}, index=0, seat=1) == "'lead' must be a list of cards, not '9H'"
    assert _bad_action({"seat": 1, "lead": ["9H", "9h"]}, index=0, seat=1) == "card 9H is led twice"
    assert _bad_action({"seat": 2, "beat": {"9H": "ZZ"}}, seat=2).startswith("the card beating 9H: bad card 'ZZ'")
    assert _bad_action({"seat": 2, "beat": {"9Q": "JH"}}, seat=2).startswith("a beaten card: bad card '9Q'")
    assert _bad_action({"seat": 2, "beat": {"9H": "JH", "9h": "QH"}}, seat=2) == "led card 9H is beaten twice"
    assert _bad_action({"seat": 2, "beat": ["9H", "JH"]}, seat=2) == (
        "'beat' must be an object of led card to beating card, not ['9H', 'JH']"
    )
    assert _bad_action({"seat": 2, "beat": "9H:JH"}, seat=2).startswith("'beat' must be an object")
    assert _bad_action({"seat": 2, "declare": 1}, seat=2) == "'declare' must be a suit letter, not 1"
    assert _bad_action({"seat": 2, "declare": "X"}, seat=2).startswith("bad suit 'X'")


# -- illegal actions ------------------------------------------------------------------


def _illegal(obj: dict[str, Any], index: int, seat: int, rule: str) -> str:
    record = load(obj)  # The shape is fine: only replay finds the fault.
    with pytest.raises(RecordError) as info:
        record.replay()
    err = info.value
    assert (err.index, err.seat, err.rule) == (index, seat, rule)
    assert str(err) == f"action {index} (seat {seat}): {rule}: {err.detail}"
    # Every prefix before the bad action replays.
    load({**obj, "actions": obj["actions"][:index]}).replay()
    # states() stops at the same action.
    with pytest.raises(RecordError) as again:
        list(record.states())
    assert str(again.value) == str(err)
    return err.detail


def test_out_of_turn() -> None:
    detail = _illegal(make(HANDS_A, TALON_A, actions=[{"seat": 2, "lead": ["5H"]}]), 0, 2, "M9")
    assert detail == "seat 2 cannot lead now: seat 1 is to lead"
    detail = _illegal(make(HANDS_A, TALON_A, actions=[ACTIONS_A[0], {"seat": 0, "beat": {}}]), 1, 0, "M9")
    assert detail == "seat 0 cannot defend now: seat 2 is to defend"
    detail = _illegal(make(HANDS_A, TALON_A, actions=[ACTIONS_A[0], {"seat": 2, "lead": ["5H"]}]), 1, 2, "M9")
    assert detail == "it is not time to lead: seat 2 is to defend"
    detail = _illegal(make(HANDS_A, TALON_A, actions=[{"seat": 1, "beat": {}}]), 0, 1, "M9")
    assert detail == "it is not time to defend: seat 1 is to lead"


def test_card_not_held() -> None:
    detail = _illegal(make(HANDS_A, TALON_A, actions=[{"seat": 1, "lead": ["AH"]}]), 0, 1, "M10")
    assert detail == "seat 1 does not hold AH"
    detail = _illegal(make(HANDS_A, TALON_A, actions=[ACTIONS_A[0], {"seat": 2, "beat": {"9H": "TH"}}]), 1, 2, "M13")
    assert detail == "seat 2 does not hold TH"
    detail = _illegal(make(HANDS_A, TALON_A, actions=[ACTIONS_A[0], {"seat": 2, "beat": {"3H": "5H"}}]), 1, 2, "M13")
    assert detail == "3H was not led"


def test_mixed_suit_and_empty_leads() -> None:
    detail = _illegal(make(HANDS_A, TALON_A, actions=[{"seat": 1, "lead": ["9H", "2D"]}]), 0, 1, "M10")
    assert detail == "a lead must be all one suit: 9H and 2D differ"
    detail = _illegal(make(HANDS_B, TALON_B, dealer=2, actions=[{"seat": 0, "lead": ["QS", "9H"]}]), 0, 0, "M10")
    assert detail == "a lead must be all one suit: QS and 9H differ (Q♠ counts as a spade, M2)"
    detail = _illegal(make(HANDS_A, TALON_A, actions=[{"seat": 1, "lead": []}]), 0, 1, "M10")
    assert detail == "a lead needs at least one card"
    # Q♠ leads with the spades (M2).
    load(make(HANDS_B, TALON_B, dealer=2, actions=[{"seat": 0, "lead": ["QS", "2S"]}])).replay()


def test_lead_over_the_m11_limit() -> None:
    actions = [*ACTIONS_A, {"seat": 2, "lead": ["4H", "5H", "6H", "7H", "8H", "9H"]}]
    obj = make(HANDS_A, TALON_A, rules={"attack_limit": "always"}, actions=actions)
    detail = _illegal(obj, 4, 2, "M11")
    assert detail == (
        "a lead of 6 cards exceeds the defender's 5 cards in hand (the limit applies all deal (attack_limit: always))"
    )
    # Five cards are fine, and with the default rules (talon not empty) six are too.
    load({**obj, "actions": [*ACTIONS_A, {"seat": 2, "lead": ["4H", "5H", "6H", "7H", "8H"]}]}).replay()
    load({**obj, "rules": {}}).replay()
    # The French cap on a lead.
    obj = make(HANDS_A, TALON_A, rules={"max_lead": 1}, actions=[{"seat": 1, "lead": ["4H", "9H"]}])
    assert _illegal(obj, 0, 1, "max_lead") == "a lead of 2 cards exceeds the rule set's cap of 1"


def test_lead_limit_once_the_talon_is_empty() -> None:
    # Two players, three-card hands and an arranged talon: find the first lead after the talon runs dry.
    rng = random.Random(5)
    for seed in range(40):
        s = State.from_seed(2, seed, Rules.preset("kurki-suonio"))
        while not s.is_over and not (s.phase_name == "lead" and s.talon_size == 0):
            s.apply(rng.choice(s.legal_actions()))
        if s.is_over:
            continue
        attacker, defender = s.attacker, s.defender
        need = len(s.hand(defender)) + 1
        suits = [[c for c in s.hand(attacker) if c // 13 == k] for k in range(4)]
        long = next((cs for cs in suits if len(cs) >= need), None)
        if long is None:
            continue
        record = Record.from_state(s)
        bad = {"seat": attacker, "lead": [card_name(c) for c in long[:need]]}
        obj = json.loads(record.dumps())
        obj["actions"].append(bad)
        detail = _illegal(obj, len(record.actions), attacker, "M11")
        assert detail == f"a lead of {need} cards exceeds the defender's {need - 1} cards in hand (the talon is empty)"
        return
    pytest.fail("no seed gave a lead over the limit")


def test_beater_that_does_not_beat() -> None:
    actions = [ACTIONS_A[0], {"seat": 2, "beat": {"9H": "5H"}}]
    detail = _illegal(make(HANDS_A, TALON_A, actions=actions), 1, 2, "M13")
    assert detail == "5♥ does not beat 9♥ (trumps: C)"
    actions = [ACTIONS_A[0], {"seat": 2, "beat": {"9H": "AS"}}]
    assert _illegal(make(HANDS_A, TALON_A, actions=actions), 1, 2, "M13") == "A♠ does not beat 9♥ (trumps: C)"
    actions = [ACTIONS_A[0], {"seat": 2, "beat": {"4H": "5H", "9H": "5H"}}]
    detail = _illegal(make(HANDS_A, TALON_A, actions=actions), 1, 2, "M13")
    assert detail == "5H is used twice: one beating card beats exactly one led card"
    # A legal partial defence for comparison: 4H beaten with 5H, 9H picked up.
    s = load(make(HANDS_A, TALON_A, actions=[ACTIONS_A[0], {"seat": 2, "beat": {"4H": "5H"}}])).replay()
    assert parse_card("9H") in s.hand(2) and parse_card("5H") not in s.hand(2)
    assert s.attacker == 0


def test_queen_of_spades_never_beats_and_is_never_beaten() -> None:
    actions = [{"seat": 0, "lead": ["2S"]}, {"seat": 1, "beat": {"2S": "QS"}}]
    hands = [["AS", "2S", "9H", "4H", "KD"], ["JH", "8H", "QS", "KH", "5D"], HANDS_B[2]]
    detail = _illegal(make(hands, TALON_B, dealer=2, actions=actions), 1, 1, "M2")
    assert detail == "Q♠ can never beat a card"
    # Even when spades are trumps.
    rules = {"trump": "fixed", "trump_suit": "S", "spades_can_be_trump": True}
    detail = _illegal(make(hands, TALON_B, dealer=2, rules=rules, actions=actions), 1, 1, "M2")
    assert detail == "Q♠ can never beat a card"
    actions = [{"seat": 0, "lead": ["QS"]}, {"seat": 1, "beat": {"QS": "AS"}}]
    detail = _illegal(make(HANDS_B, TALON_B, dealer=2, rules=rules, actions=actions), 1, 1, "M2")
    assert detail == "Q♠ led can never be beaten, not even by a trump"


def test_declarations() -> None:
    hands = [["KH", "QH", "9H", "4H", "KD"], ["JH", "8H", "AS", "KC", "5D"], HANDS_B[2]]
    marriage = {"trump": "marriage"}
    # Without the marriage.
    detail = _illegal(make(hands, TALON_B, dealer=2, rules=marriage, actions=[{"seat": 0, "declare": "D"}]), 0, 0, "V3")
    assert detail == "seat 0 does not hold both KD and QD"
    # In spades.
    detail = _illegal(make(hands, TALON_B, dealer=2, rules=marriage, actions=[{"seat": 0, "declare": "S"}]), 0, 0, "V3")
    assert detail == "a marriage in spades cannot be declared: spades are never trumps by marriage"
    # Not a marriage game.
    detail = _illegal(make(hands, TALON_B, dealer=2, actions=[{"seat": 0, "declare": "H"}]), 0, 0, "V2")
    assert detail == "marriages are not played under these rules (trump: turned)"
    # Not the seat to act.
    detail = _illegal(make(hands, TALON_B, dealer=2, rules=marriage, actions=[{"seat": 1, "declare": "H"}]), 0, 1, "V4")
    assert detail.startswith("seat 1 cannot declare now")
    # Only the first declaration counts.
    twice = [{"seat": 0, "declare": "H"}, {"seat": 0, "declare": "H"}]
    detail = _illegal(make(hands, TALON_B, dealer=2, rules=marriage, actions=twice), 1, 0, "V3")
    assert detail.startswith("trumps are already fixed by seat 0's marriage in H")
    # The legal declaration makes hearts trumps for the defence that follows.
    ok = [{"seat": 0, "declare": "♥"}, {"seat": 0, "lead": ["KD"]}, {"seat": 1, "beat": {"KD": "8H"}}]
    s = load(make(hands, TALON_B, dealer=2, rules=marriage, actions=ok)).replay()
    assert s.trump_suit == 1
    assert s.actions() == [Declare(0, 1), Lead(0, 1 << parse_card("KD")), Beat(1, ((parse_card("KD"), parse_card("8H")),))]
    assert s.attacker == 1


def test_the_first_faulty_action_is_the_one_reported() -> None:
    # Replay plays from the start, so an illegal action 1 stops it before a malformed action 3 is reached.
    actions = [ACTIONS_A[0], {"seat": 2, "beat": {"9H": "5H"}}, ACTIONS_A[2], {"seat": 1}]
    with pytest.raises(RecordError) as info:
        Record.loads(json.dumps(make(HANDS_A, TALON_A, actions=actions)))
    assert (info.value.index, info.value.seat, info.value.rule) == (1, 2, "M13")
    # With the earlier actions legal, the malformed one is reported.
    actions = [*ACTIONS_A[:2], {"seat": 0, "lead": "2C"}]
    with pytest.raises(RecordError) as info:
        Record.loads(json.dumps(make(HANDS_A, TALON_A, actions=actions)))
    assert (info.value.index, info.value.seat, info.value.rule) == (2, 0, "format")
    assert info.value.detail == "'lead' must be a list of cards, not '2C'"


def test_actions_after_the_end_are_illegal() -> None:
    state = random_play(State.from_seed(2, 3), random.Random(8), 10_000)
    assert state.finished
    obj = json.loads(Record.from_state(state).dumps())
    n = len(obj["actions"])
    obj["actions"].append({"seat": state.loser, "lead": [card_name(next(iter(state.hand(state.loser))))]})
    detail = _illegal(obj, n, state.loser, "M19")
    assert detail == f"the deal is over: seat {state.loser} lost"


def test_from_state_needs_a_dealt_state() -> None:
    s = State.from_position([["QS", "2H"], ["3H"]], attacker=0, trump_suit=None)
    with pytest.raises(FormatError, match="set up from a position"):
        Record.from_state(s)
