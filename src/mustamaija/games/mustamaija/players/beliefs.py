"""What players keep: where the unseen cards are likely to be, learned from the bots' own play.

Mustamaija's rules reveal nothing about a hand beyond the cards M22 makes
public, so every arrangement of the unseen cards is *possible*
(:mod:`~mustamaija.games.mustamaija.sampling`). They are not equally
*likely*. Players keep trumps and shed their other cards, so while the
talon lasts an opponent's hand holds far more trumps than a uniform deal of
the unseen cards gives it: in two-player games of the heuristic against
itself, with 8 to 15 cards in the talon, an unseen trump is in the
opponent's hand about twice as often as a uniform deal says, and any other
card about half as often (docs/strength.md#what-players-keep).

:class:`HandModel` holds, for each player count and size of the talon, the
odds that an unseen card is in an opponent's hand rather than where a
uniform deal would put it, by the card's *class* (a trump by rank, a plain
card by quarter of the ranks, Q♠) and by how it stands to that opponent's
last lead and last defence (:func:`relations`): a card of a suit it led,
below or above the cards it led; a card that would have beaten a card it
picked up; a cheaper beater than the card it beat with. Play says nothing
certain about a hand, but it says a lot about what is likely: the heuristic
never picks up a plain card it can beat in suit, so such a card is almost
never in its hand. :func:`train` fits the odds by maximum likelihood from
the heuristic's games against itself, seen from every seat (a logistic
model with the uniform deal's log-odds as offset, one odds ratio per cell,
none below :data:`FLOOR`); ``python -m mustamaija.games.mustamaija.players.beliefs``
trains the model the package ships. :class:`InformedDeterminiser` deals the
unseen cards by it: each opponent's unknown cards are a conditional
Bernoulli sample (independent cards with those odds, conditioned on the
hand's size), drawn exactly, and the talon's unknown places take the rest
in uniform order. The seat's view is all it reads; the model is fixed, so
what it adds is what any player could know of how players play.

>>> import random
>>> from mustamaija import State
>>> s = State.from_seed(players=2, seed=4)
>>> v = s.view(0)
>>> guess = InformedDeterminiser(v, shipped_model()).draw(random.Random(1))
>>> guess.view(0) == v
True
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from mustamaija.core.cards import QS, SUIT_MASKS, cards_of
from mustamaija.core.draws import shuffle
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import Beat, Lead
from mustamaija.games.mustamaija.players.ismcts import Determiniser
from mustamaija.games.mustamaija.sampling import inclusion_table, take
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.view import View

__all__ = ["BUCKETS", "CLASSES", "FLOOR", "RELATIONS", "HandModel", "InformedDeterminiser", "card_class", "relations",
           "shipped_model", "talon_bucket", "train"]

CLASSES: Final = 18
"""Card classes: 0-12 a trump by rank, 13-16 a plain card by quarter of the ranks (the top rank alone), 17 Q♠."""

BUCKETS: Final = 5
"""Talon buckets: 0-7, 8-15, 16-23, 24-31 and 32 or more cards left."""

RELATIONS: Final = 5
"""How a card stands to an opponent's last lead and last defence (:func:`relations`):

0. none of the below;
1. of a suit it led, below every card it led of that suit;
2. of a suit it led, above;
3. a card that beats a led card it did not beat (it picked that card up);
4. a beater of a led card it beat, cheaper than the card it used (of the same suit, lower).
"""

FLOOR: Final = -3.0
"""The least log odds ratio a cell may have: odds of 1 in 20 against the uniform deal.

The heuristic never picks up a plain card it could beat in suit, so its
games put such a card in its hand at most about one time in 400 of the uniform odds.
A person may do it on purpose; the floor keeps such a hand possible enough
for the samples to find it.
"""

_BUCKET_WIDTH: Final = 8
_RESOURCE: Final = "beliefs.json"


def card_class(card: int, trump: int) -> int:
    """Return the class of ``card`` under the trump suit ``trump`` (-1: none yet).

    >>> from mustamaija.core.cards import parse_card
    >>> [card_class(parse_card(c), 2) for c in ("2D", "AD", "2C", "9C", "AC", "QS")]
    [0, 12, 13, 14, 16, 17]
    """
    if card == QS:
        return 17
    if card // 13 == trump:
        return card % 13
    return 13 + (card % 13) // 4


def talon_bucket(talon_size: int) -> int:
    """Return the talon bucket of a talon of ``talon_size`` cards.

    >>> talon_bucket(0), talon_bucket(8), talon_bucket(42)
    (0, 1, 4)
    """
    return min(talon_size // _BUCKET_WIDTH, BUCKETS - 1)


def relations(view: View, seat: int) -> list[int]:
    """Return, for every card, how it stands to ``seat``'s last lead and last defence (:data:`RELATIONS`).

    Only actions among the last two rounds of records count: a hand changes
    with every draw, and older actions say little about it.

    >>> from mustamaija import State
    >>> s = State.from_seed(players=2, seed=4)
    >>> s.apply(s.legal_actions()[0])
    >>> rel = relations(s.view(1), 0)
    >>> len(rel), set(rel) <= set(range(RELATIONS))
    (52, True)
    """
    history = view.history
    its_lead = 0
    picked = 0
    beaten: list[tuple[int, int]] = []
    lead_seen = beat_seen = False
    count = len(history)
    for i in range(count - 1, max(-1, count - 1 - 2 * view.players), -1):
        action = history[i]
        if action.seat != seat:
            continue
        if isinstance(action, Lead) and not lead_seen:
            lead_seen = True
            its_lead = action.cards
        elif isinstance(action, Beat) and not beat_seen and i and isinstance(history[i - 1], Lead):
            beat_seen = True
            led = history[i - 1].cards
            beaten = list(action.pairs)
            for u, _ in action.pairs:
                led &= ~(1 << u)
            picked = led
    rel = [0] * 52
    if not (its_lead or picked or beaten):
        return rel
    trump = view.trump
    beaters = L.BEATERS[trump]
    for u, b in beaten:
        cheaper = beaters[u] & SUIT_MASKS[b // 13] & ((1 << b) - 1)
        for c in cards_of(cheaper):
            rel[c] = 4
    for u in cards_of(picked):
        for c in cards_of(beaters[u]):
            rel[c] = 3
    for suit in range(4):
        mine = its_lead & SUIT_MASKS[suit]
        if mine:
            low = (mine & -mine).bit_length() - 1
            for c in cards_of(SUIT_MASKS[suit] & ~mine):
                if not rel[c]:
                    rel[c] = 1 if c < low else 2
    return rel


@dataclass(frozen=True)
class HandModel:
    """Log odds ratios of an unseen card being in an opponent's hand: by player count, talon bucket, relation, class."""

    log_odds: dict[int, tuple[tuple[tuple[float, ...], ...], ...]]
    """``log_odds[players][bucket][relation][class]``: 0 is the uniform deal's odds; a count missing here deals uniformly."""
    deals: int = 0
    """The games of each player count the model was fitted on."""
    seed: int = 0
    """The seed of the first of those games."""

    def weights(self, view: View, seat: int) -> list[float] | None:
        """Return the odds weight of every card (by index) being in ``seat``'s hand, or ``None`` to deal uniformly."""
        table = self.log_odds.get(view.players)
        if table is None or view.talon_size == 0:
            return None
        rows = table[talon_bucket(view.talon_size)]
        trump = view.trump
        rel = relations(view, seat)
        return [math.exp(rows[rel[c]][card_class(c, trump)]) for c in range(52)]

    def to_json(self) -> str:
        """Return the model as the JSON text :meth:`from_json` reads."""
        tables = {str(n): [[list(row) for row in rows] for rows in t] for n, t in sorted(self.log_odds.items())}
        return json.dumps({"version": 2, "deals": self.deals, "seed": self.seed, "log_odds": tables}) + "\n"

    @classmethod
    def from_json(cls, text: str) -> HandModel:
        """Read a model written by :meth:`to_json`; raise ValueError on anything else.

        >>> m = HandModel({2: (((0.5,) * CLASSES,) * RELATIONS,) * BUCKETS}, deals=3, seed=1)
        >>> HandModel.from_json(m.to_json()) == m
        True
        """
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("version") != 2:
            raise ValueError("not a version-2 hand model")
        tables: dict[int, tuple[tuple[tuple[float, ...], ...], ...]] = {}
        for key, table in data["log_odds"].items():
            blocks = tuple(tuple(tuple(float(x) for x in row) for row in rows) for rows in table)
            if len(blocks) != BUCKETS or any(
                    len(rows) != RELATIONS or any(len(row) != CLASSES or not all(map(math.isfinite, row)) for row in rows)
                    for rows in blocks):
                raise ValueError(f"the table of {key} players is not {BUCKETS} x {RELATIONS} rows of {CLASSES} finite numbers")
            tables[int(key)] = blocks
        return cls(tables, int(data["deals"]), int(data["seed"]))


@cache
def shipped_model() -> HandModel:
    """Return the model the package ships (trained by this module's command; see the module docstring)."""
    return HandModel.from_json(resources.files(__package__).joinpath(_RESOURCE).read_text(encoding="utf-8"))


class InformedDeterminiser(Determiniser):
    """Deals the unseen cards of a view by a :class:`HandModel`: each opponent's unknown cards, then the talon.

    With no talon, or a player count the model does not know, it deals
    uniformly, as :class:`~mustamaija.games.mustamaija.players.ismcts.Determiniser`.
    """

    __slots__ = ("_first", "_weights")

    def __init__(self, view: View, model: HandModel) -> None:
        super().__init__(view)
        seats = [s for s, need in self._fill if need]
        weights = {s: w for s in seats if (w := model.weights(view, s)) is not None}
        self._weights = weights if len(weights) == len(seats) and seats else None
        # The first hand is dealt from the whole pool every time, so its table is worked out once.
        self._first = None
        if self._weights is not None:
            first = self._weights[seats[0]]
            self._first = inclusion_table([first[c] for c in self._pool], self._fill[seats[0]][1])

    def draw(self, rng: random.Random) -> State:
        """Return a new state with the unseen cards dealt by the model."""
        weights = self._weights
        if weights is None:
            return super().draw(rng)
        pool = self._pool
        hands = self._hands[:]
        table = self._first
        for s, need in self._fill:
            if not need:
                continue
            if table is None:
                weight = weights[s]
                table = inclusion_table([weight[c] for c in pool], need)
            mask, pool = take(table, pool, need, rng)
            hands[s] |= mask
            table = None
        rest = list(pool)
        shuffle(rng, rest)
        return self._state(hands, rest, 0)


# -- training ------------------------------------------------------------------------------


def _observations(players: int, deals: Iterable[int]) -> dict[tuple[int, int, int], dict[float, list[int]]]:
    """Play the heuristic against itself; count, per (bucket, relation, class) and uniform share, unseen and held cards."""
    from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer

    found: dict[tuple[int, int, int], dict[float, list[int]]] = {}
    for deal in deals:
        s = State.from_seed(players=players, seed=deal)
        bots = [HeuristicPlayer(seed=deal * 16 + i) for i in range(players)]
        while not s.is_over:
            seat = s.to_act
            v = s.view(seat)
            if not v.in_progress and v.talon_size:
                unseen = v.unseen
                count = unseen.bit_count()
                bucket = talon_bucket(v.talon_size)
                for other in range(players):
                    need = v.hand_sizes[other] - v.known[other].bit_count()
                    if other == seat or not 0 < need < count:
                        continue
                    share = need / count
                    rel = relations(v, other)
                    for c in range(52):
                        if unseen >> c & 1:
                            cell = found.setdefault((bucket, rel[c], card_class(c, v.trump)), {}).setdefault(share, [0, 0])
                            cell[0] += s.hands[other] >> c & 1
                            cell[1] += 1
            s.apply(bots[seat].act(v))
    return found


def _fit(cell: dict[float, list[int]]) -> float:
    """Return the log odds ratio that makes the expected count of held cards the count seen (maximum likelihood)."""
    held = sum(h for h, _ in cell.values())

    def expected(log_ratio: float) -> float:
        ratio = math.exp(log_ratio)
        return sum(n * ratio * p / (1 - p + ratio * p) for p, (_, n) in cell.items())

    lo, hi = FLOOR, 6.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if expected(mid) < held else (lo, mid)
    return round((lo + hi) / 2, 3)


def _table(found: dict[tuple[int, int, int], dict[float, list[int]]]) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """Return one player count's ``[bucket][relation][class]`` log odds ratios from its counts."""
    # A cell seen too rarely falls back on the odds of its class and bucket over every relation.
    pooled: dict[tuple[int, int], dict[float, list[int]]] = {}
    for (b, _, k), cell in found.items():
        into = pooled.setdefault((b, k), {})
        for share, (held, seen) in cell.items():
            acc = into.setdefault(share, [0, 0])
            acc[0] += held
            acc[1] += seen

    def odds(b: int, r: int, k: int) -> float:
        for cell in (found.get((b, r, k)), pooled.get((b, k))):
            if cell and sum(t for _, t in cell.values()) >= 200:
                return _fit(cell)
        return 0.0

    return tuple(tuple(tuple(odds(b, r, k) for k in range(CLASSES)) for r in range(RELATIONS)) for b in range(BUCKETS))


def train(players: Sequence[int], deals: int, seed: int) -> HandModel:
    """Fit a :class:`HandModel` on ``deals`` seeded games of the heuristic against itself for each player count.

    A cell seen fewer than 200 times takes the odds of its class and bucket
    over every relation, or odds ratio 1 if those are as rare.

    >>> m = train([2], deals=3, seed=0)
    >>> len(m.log_odds[2]), len(m.log_odds[2][0]), len(m.log_odds[2][0][0])
    (5, 5, 18)
    """
    tables = {n: _table(_observations(n, range(seed, seed + deals))) for n in players}
    return HandModel(tables, deals, seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Train the model and write it (``--out``; the package's own file by default)."""
    parser = argparse.ArgumentParser(prog="python -m mustamaija.games.mustamaija.players.beliefs",
                                     description="Train the model of where unseen cards are, from the heuristic's self-play.")
    parser.add_argument("--deals", type=int, default=3000, help="games per player count (default 3000)")
    parser.add_argument("--seed", type=int, default=100_000, help="seed of the first game (default 100000)")
    parser.add_argument("--players", default="2-6", help="player counts, as 2-6 or 2,4 (default 2-6, the counts of the standard rules)")
    parser.add_argument("--out", help="where to write the JSON model (default: the package's own file)")
    args = parser.parse_args(argv)
    lo, _, hi = args.players.partition("-")
    counts = list(range(int(lo), int(hi) + 1)) if hi else [int(x) for x in args.players.split(",")]
    text = train(counts, args.deals, args.seed).to_json()
    out = args.out or str(resources.files(__package__).joinpath(_RESOURCE))
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {out}: {len(counts)} player counts, {args.deals} games each")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
