"""The Mustamaija rule set of docs/formats.md: keys, defaults, presets, bad values and player counts (V1)."""

from __future__ import annotations

from typing import Any

import pytest

from mustamaija.core.errors import MustamaijaError, RulesError
from mustamaija.games.mustamaija.rules import DEFAULT_MAX_TURNS, PRESET_SOURCES, PRESETS, Rules

FORMAT_KEYS = (
    "hand_size", "trump", "trump_suit", "trump_turn", "spades_can_be_trump", "attack_limit", "max_lead", "max_turns",
)

DEFAULTS: dict[str, Any] = {
    "hand_size": 5,
    "trump": "turned",
    "trump_suit": "D",
    "trump_turn": "after_first_lead",
    "spades_can_be_trump": False,
    "attack_limit": "after_talon",
    "max_lead": None,
    "max_turns": DEFAULT_MAX_TURNS,
}


def test_defaults_follow_the_table() -> None:
    for r in (Rules(), Rules.from_json({}), Rules.from_json(None)):
        for key, value in DEFAULTS.items():
            assert getattr(r, key) == value, key
            assert type(getattr(r, key)) is type(value), key
    assert Rules.from_json({}) == Rules() == PRESETS["standard"]
    assert DEFAULT_MAX_TURNS > 0
    # The JSON form carries every docs/formats.md key.
    assert set(FORMAT_KEYS) <= set(Rules().to_json())
    assert Rules().to_json(only_changes=True) == {}


@pytest.mark.parametrize(
    ("key", "values"),
    [
        ("hand_size", [3, 5, 6]),
        ("trump", ["turned", "fixed", "marriage", "none"]),
        ("trump_suit", ["H", "D", "C"]),
        ("trump_turn", ["after_first_lead", "after_deal"]),
        ("spades_can_be_trump", [True, False]),
        ("attack_limit", ["after_talon", "always"]),
        ("max_lead", [None, 1, 5, 52]),
        ("max_turns", [1, 50, 100000]),
    ],
)
def test_every_key_takes_every_value_of_the_table(key: str, values: list[Any]) -> None:
    for value in values:
        r = Rules.from_json({key: value})
        assert getattr(r, key) == value
        for other, default in DEFAULTS.items():
            if other != key:
                assert getattr(r, other) == default
        # The JSON form round-trips.
        assert Rules.from_json(r.to_json()) == r
        assert Rules.from_json(r.to_json(only_changes=True)) == r


def test_all_keys_at_once() -> None:
    obj = {
        "hand_size": 6,
        "trump": "fixed",
        "trump_suit": "S",
        "trump_turn": "after_deal",
        "spades_can_be_trump": True,
        "attack_limit": "always",
        "max_lead": 4,
        "max_turns": 77,
    }
    r = Rules.from_json(obj)
    assert {k: getattr(r, k) for k in obj} == obj
    assert r.fixed_trump == 0
    assert Rules.from_json(r.to_json()) == r


def test_project_key_next_dealer() -> None:
    assert Rules().next_dealer == "left"
    assert Rules.from_json({"next_dealer": "loser"}).next_dealer == "loser"
    with pytest.raises(RulesError, match="bad value 'right' for rule 'next_dealer'"):
        Rules.from_json({"next_dealer": "right"})


# Preset values, as the docstrings of rules.py give their sources.
PRESET_VALUES: dict[str, dict[str, Any]] = {
    "standard": {},
    "wikipedia": {"trump_turn": "after_deal", "attack_limit": "always"},
    "french": {"trump_turn": "after_deal", "attack_limit": "always", "max_lead": 5},
    "kurki-suonio": {"hand_size": 3, "trump": "fixed", "trump_suit": "D"},
    "kurki-suonio-marriage": {"hand_size": 3, "trump": "marriage"},
    "salmi": {"hand_size": 6, "trump": "marriage"},
}


@pytest.mark.parametrize("name", sorted(PRESET_VALUES))
def test_presets_have_their_documented_values(name: str) -> None:
    r = Rules.preset(name)
    expected = {**DEFAULTS, **PRESET_VALUES[name]}
    assert {k: getattr(r, k) for k in FORMAT_KEYS} == expected
    assert r.next_dealer == "left"
    assert r is PRESETS[name]
    assert Rules.from_json(r.to_json()) == r
    assert PRESET_SOURCES[name]


def test_preset_list_is_complete() -> None:
    assert set(PRESETS) == set(PRESET_VALUES) == set(PRESET_SOURCES)
    assert Rules.preset("wikipedia").to_json(only_changes=True) == PRESET_VALUES["wikipedia"]
    assert Rules.preset("kurki-suonio").fixed_trump == 2
    assert Rules.preset("standard").fixed_trump is None
    with pytest.raises(RulesError, match=r"unknown preset 'mcleod' \(known presets: standard, wikipedia"):
        Rules.preset("mcleod")


def test_unknown_key_is_an_error_naming_it() -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_json({"hand_sise": 3})
    msg = str(info.value)
    assert msg.startswith("unknown rule key 'hand_sise'")
    for key in FORMAT_KEYS:
        assert key in msg
    with pytest.raises(RulesError, match="unknown rule key 'players'"):
        Rules.from_json({"hand_size": 5, "players": 4})


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"hand_size": 4}, "bad value 4 for rule 'hand_size': expected one of 3, 5, 6"),
        ({"hand_size": 7}, "bad value 7 for rule 'hand_size'"),
        ({"hand_size": "5"}, "bad value '5' for rule 'hand_size'"),
        ({"hand_size": True}, "bad value True for rule 'hand_size'"),
        ({"hand_size": 5.0}, "bad value 5.0 for rule 'hand_size'"),
        ({"hand_size": None}, "bad value None for rule 'hand_size'"),
        ({"trump": "random"}, "bad value 'random' for rule 'trump': expected one of 'turned', 'fixed', 'marriage', 'none'"),
        ({"trump": "Turned"}, "bad value 'Turned' for rule 'trump'"),
        ({"trump": None}, "bad value None for rule 'trump'"),
        ({"trump_suit": "X"}, "bad value 'X' for rule 'trump_suit': expected one of 'S', 'H', 'D', 'C'"),
        ({"trump_suit": "DH"}, "bad value 'DH' for rule 'trump_suit'"),
        ({"trump_suit": ""}, "bad value '' for rule 'trump_suit'"),
        ({"trump_suit": 2}, "bad value 2 for rule 'trump_suit'"),
        ({"trump_suit": None}, "bad value None for rule 'trump_suit'"),
        ({"trump_turn": "before_deal"}, "bad value 'before_deal' for rule 'trump_turn': expected one of 'after_first_lead', 'after_deal'"),
        ({"spades_can_be_trump": "yes"}, "bad value 'yes' for rule 'spades_can_be_trump': expected true or false"),
        ({"spades_can_be_trump": 1}, "bad value 1 for rule 'spades_can_be_trump'"),
        ({"spades_can_be_trump": None}, "bad value None for rule 'spades_can_be_trump'"),
        ({"attack_limit": "never"}, "bad value 'never' for rule 'attack_limit': expected one of 'after_talon', 'always'"),
        ({"max_lead": 0}, "bad value 0 for rule 'max_lead': expected a positive integer or null"),
        ({"max_lead": -2}, "bad value -2 for rule 'max_lead'"),
        ({"max_lead": 2.5}, "bad value 2.5 for rule 'max_lead'"),
        ({"max_lead": "5"}, "bad value '5' for rule 'max_lead'"),
        ({"max_lead": True}, "bad value True for rule 'max_lead'"),
        ({"max_turns": 0}, "bad value 0 for rule 'max_turns': expected a positive integer"),
        ({"max_turns": None}, "bad value None for rule 'max_turns'"),
        ({"max_turns": 10.0}, "bad value 10.0 for rule 'max_turns'"),
        ({"max_turns": False}, "bad value False for rule 'max_turns'"),
        ({"trump": "fixed", "trump_suit": "S"}, "M7: spades may not be trumps: 'trump_suit' 'S' needs 'spades_can_be_trump': true"),
    ],
)
def test_bad_values_are_errors_naming_key_and_value(obj: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_json(obj)
    assert str(info.value).startswith(message)
    assert isinstance(info.value, MustamaijaError)


def test_rules_must_be_an_object() -> None:
    for bad in ([], "standard", 5, [["hand_size", 3]]):
        with pytest.raises(RulesError, match="rules must be a JSON object, not"):
            Rules.from_json(bad)  # type: ignore[arg-type]


def test_trump_suit_matters_only_for_fixed_trumps() -> None:
    # Spades as the suit letter is harmless while trumps are not fixed.
    assert Rules.from_json({"trump_suit": "S"}).fixed_trump is None
    assert Rules.from_json({"trump": "fixed", "trump_suit": "H"}).fixed_trump == 1
    assert Rules.from_json({"trump": "fixed", "trump_suit": "C"}).fixed_trump == 3


def test_replace_validates() -> None:
    assert Rules().replace(hand_size=3, attack_limit="always") == Rules.from_json({"hand_size": 3, "attack_limit": "always"})
    with pytest.raises(RulesError, match="bad value 4 for rule 'hand_size'"):
        Rules().replace(hand_size=4)
    with pytest.raises(RulesError, match="unknown rule key 'colour'"):
        Rules().replace(colour="red")


def test_direct_construction_validates_too() -> None:
    with pytest.raises(RulesError, match="bad value 'sometimes' for rule 'attack_limit'"):
        Rules(attack_limit="sometimes")


@pytest.mark.parametrize(("hand_size", "low", "high"), [(5, 2, 6), (3, 2, 8), (6, 2, 8)])
def test_player_counts_per_v1(hand_size: int, low: int, high: int) -> None:
    r = Rules.from_json({"hand_size": hand_size})
    assert (r.min_players, r.max_players) == (low, high)
    for n in range(low, high + 1):
        r.check_players(n)
    for n in (-1, 0, 1, high + 1, high + 2, 20):
        with pytest.raises(RulesError) as info:
            r.check_players(n)
        assert str(info.value) == (
            f"V1: {n} players cannot play with hand size {hand_size} (allowed: {low}-{high})"
        )
    for bad in ("4", 4.0, True, None):
        with pytest.raises(RulesError, match=f"bad player count {bad!r}: expected an integer"):
            r.check_players(bad)  # type: ignore[arg-type]


def test_every_allowed_player_count_fits_the_pack() -> None:
    # V5: a legal rule set and player count always leaves a deal inside 52 cards.
    for hand_size in (3, 5, 6):
        r = Rules.from_json({"hand_size": hand_size})
        assert r.max_players * hand_size <= 52


def test_describe_mentions_the_choices() -> None:
    assert Rules.preset("salmi").describe() == "hand 6, trumps by marriage, lead limit once the talon is empty"
    assert Rules.preset("standard").describe() == "hand 5, trump turned after the first lead, lead limit once the talon is empty"
    assert "at most 5 cards a lead" in Rules.preset("french").describe()
    assert "D always trumps" in Rules.preset("kurki-suonio").describe()
    assert "no trumps" in Rules.from_json({"trump": "none"}).describe()
    assert "stopped after 9 turns" in Rules.from_json({"max_turns": 9}).describe()
