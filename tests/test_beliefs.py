"""The model of what players keep, and the informed dealer of the unseen cards (games/mustamaija/players/beliefs.py)."""

import itertools
import math
import random

import pytest

from mustamaija.core.cards import card_name
from mustamaija.core.registry import get_game
from mustamaija.games.mustamaija import State
from mustamaija.games.mustamaija.players.beliefs import (
    BUCKETS,
    CLASSES,
    FLOOR,
    RELATIONS,
    HandModel,
    InformedDeterminiser,
    card_class,
    relations,
    shipped_model,
    train,
)
from mustamaija.games.mustamaija.players.ismcts import Determiniser
from mustamaija.games.mustamaija.players.kit import MustamaijaKit
from mustamaija.games.mustamaija.sampling import inclusion_table
from mustamaija.players.registry import make_bot

# A model that makes every trump nine times likelier to be held and every plain card a third as likely.
STRONG = HandModel({n: ((tuple(math.log(9.0) if k < 13 else math.log(1 / 3) for k in range(CLASSES)),) * RELATIONS,)
                    * BUCKETS for n in range(2, 7)})


def test_the_conditional_bernoulli_walk_gives_each_subset_its_exact_chance() -> None:
    # Walking the table, a subset S of size k comes out with chance prod(w in S) / e_k(w): worked out exactly here.
    weights = [0.5, 2.0, 1.0, 3.0, 0.25, 1.5]
    k = 3
    table = inclusion_table(weights, k)
    subsets = list(itertools.combinations(range(len(weights)), k))
    e_k = sum(math.prod(weights[i] for i in sub) for sub in subsets)
    for sub in subsets:
        chance, r = 1.0, k
        for i in range(len(weights)):
            p = table[i][r] if r else 0.0
            chance *= p if i in sub else 1 - p
            r -= i in sub
        assert chance == pytest.approx(math.prod(weights[i] for i in sub) / e_k)


def test_the_model_moves_trumps_into_the_opponents_hand() -> None:
    s = State.from_seed(2, 7)
    while s.view(0).trump < 0 or s.talon_size > 30:  # Play on until the trump is turned and some cards are gone.
        s.apply(s.legal_actions()[0])
    v = s.view(0)
    trumps = sum(1 << c for c in range(52) if c // 13 == v.trump) & v.unseen
    rng = random.Random(3)
    uniform, informed = Determiniser(v), InformedDeterminiser(v, STRONG)
    held = [sum((d.draw(rng).hands[1] & trumps).bit_count() for _ in range(400)) for d in (uniform, informed)]
    assert held[1] > 1.5 * held[0]


def test_without_a_model_for_the_table_it_deals_as_the_uniform_dealer() -> None:
    s = State.from_seed(2, 3)
    v = s.view(1)
    empty = HandModel({})
    for seed in range(5):
        a = InformedDeterminiser(v, empty).draw(random.Random(seed))
        b = Determiniser(v).draw(random.Random(seed))
        assert a.hands == b.hands and a.talon == b.talon


def test_the_shipped_model_says_players_keep_trumps() -> None:
    model = shipped_model()
    assert sorted(model.log_odds) == [2, 3, 4, 5, 6]
    assert model.deals >= 1000
    for players, table in model.log_odds.items():
        assert min(x for rows in table for row in rows for x in row) >= FLOOR
        row = table[1][0]  # 8 to 15 cards left in the talon, no relation to the seat's last actions
        assert min(row[:13]) > 0 and sum(row[:13]) / 13 > sum(row[13:17]) / 4, players
    row = model.log_odds[2][1][0]  # two players: trumps in, plain cards out, the high trumps most of all
    assert max(row[13:17]) < 0 < row[12] - row[0]
    assert model.log_odds[2][1][3][13] < FLOOR + 0.1  # it never picks up a plain card it can beat in suit
    assert card_class(13 * 3 + 12, 3) == 12 and card_class(12, 3) == 16


def test_a_card_is_related_to_the_last_lead_and_defence_of_a_seat() -> None:
    s = State.from_position(["7H KH 4D", "5H 8H 9H QS 2C"], 0, 3)  # clubs are trumps
    s.lead("7H")
    s.beat({"7H": "9H"})  # 8H would have done
    s.lead("5H")
    related = {card_name(c): r for c, r in enumerate(relations(s.view(0), 1)) if r}
    assert related == {"2H": 1, "3H": 1, "4H": 1, "8H": 4, **{f"{r}H": 2 for r in "679TJQKA"}}
    t = State.from_position(["7H KH 4D", "5H 8H 9H QS 2C"], 0, 3)
    t.lead("4D")
    t.beat({})  # picked up: every diamond above 4D and every trump would have beaten it
    related = {card_name(c): r for c, r in enumerate(relations(t.view(0), 1)) if r}
    assert related == {f"{r}{suit}": 3 for r in "56789TJQKA" for suit in "DC"} | {f"{r}C": 3 for r in "234"}
    related = {card_name(c): r for c, r in enumerate(relations(t.view(1), 0)) if r}
    assert related == {"2D": 1, "3D": 1, **{f"{r}D": 2 for r in "56789TJQKA"}}


def test_a_model_is_read_back_exactly_and_bad_files_are_refused() -> None:
    model = train([2], deals=2, seed=5)
    assert HandModel.from_json(model.to_json()) == model
    assert train([2], deals=2, seed=5) == model  # seeded: the same games, the same model
    with pytest.raises(ValueError, match="version-2"):
        HandModel.from_json('{"version": 1}')
    with pytest.raises(ValueError, match="finite"):
        HandModel.from_json('{"version": 2, "deals": 1, "seed": 1, "log_odds": {"2": [[[1e999]]]}}')


def test_the_beliefs_parameter_picks_the_dealer() -> None:
    on = make_bot("pimc:iters=10", 1, get_game("mustamaija"))
    off = make_bot("pimc:iters=10:beliefs=off", 1, get_game("mustamaija"))
    v = State.from_seed(2, 1).view(0)
    assert isinstance(on.kit, MustamaijaKit) and on.kit.beliefs and not off.kit.beliefs
    assert isinstance(on.kit.sampler(v).__self__, InformedDeterminiser)
    assert type(off.kit.sampler(v).__self__) is Determiniser
