"""The heuristic player: the strategy knowledge of docs/rules.md as fast hand-written rules.

The player plans a whole compound action (a lead, a defence, a declaration)
from the view at the first step of its action, then emits the plan one step at
a time: a lead card by card in rising order, ending with ``STOP`` unless the
lead completes by itself; a defence by walking the led cards in rising order
(:func:`~mustamaija.games.mustamaija.legality.current_led`) with a beater or ``STOP`` for
each. The plan is a pure function of the view and the seed (which only
breaks ties), and does not depend on the steps already taken, so it is simply
re-derived at every step; a one-entry cache saves the work.

>>> from mustamaija import State
>>> s = State.from_seed(players=3, seed=5)
>>> bots = [HeuristicPlayer(seed=i) for i in range(3)]
>>> while not s.is_over:
...     s.apply(bots[s.to_act].act(s.view(s.to_act)))
>>> s.finished
True

How a plan is chosen: every candidate action (the leads that make sense:
the lowest cards of a suit, a whole suit, Q♠ alone or with her spades, the
top cards of a suit; the defences that beat the best few of the led cards)
is scored by the value of the hand it leaves plus a few terms for its effect
on the table, and the best one is played. The value of a hand differs in the
two phases of a deal:

* while the talon lasts, a hand is worth the sum of its cards' values
  (trumps most, then cards that little can beat; Q♠ is worth keeping early,
  when she would come back round the table, and is a heavy burden late),
  minus a cost for every card above the hand size (such a hand draws
  nothing), plus the value of the cards it will draw;
* once the talon is empty, every card is a burden to shed: the value is
  minus the number of cards and of suits held, minus a heavy cost for Q♠,
  plus a little for cards that are hard to beat; with two players left
  (both hands known), a card costs more, a lead the defender beats entirely
  costs more, and a lead it must partly pick up is judged by what it picks up
  (trumps after the first cost, since they beat our other cards) and by how
  many of our cards it cannot beat afterwards (each keeps us the lead).

:func:`heuristic_step` is the same strategy for search rollouts: it acts for
``state.to_act`` on a full :class:`State`, reading only that seat's hand and
the public facts of the state, without building a view.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from mustamaija.core.bits import popcount64
from mustamaija.core.cards import QS, SUIT_MASKS
from mustamaija.core.history import Log
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import DECLARE, LEAD_ENTRY, STOP
from mustamaija.games.mustamaija.endgame import LOST, EndgameSolver, exact_plan
from mustamaija.games.mustamaija.rules import LEAD, OVER
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.view import View

if TYPE_CHECKING:  # mypyc's machine integers: compiled, 64-bit arithmetic with no tag checks; interpreted, ints.
    from mypy_extensions import i64

__all__ = [
    "ENDGAME_CARDS",
    "ROLLOUT_WEIGHTS",
    "HeuristicPlayer",
    "Plan",
    "Weights",
    "apply_plan",
    "candidate_plans",
    "heuristic_agrees",
    "heuristic_plan",
    "heuristic_step",
    "plan_step",
]

_ALL: Final = (1 << 52) - 1
_QS_BIT: Final = 1 << QS
_RANK: Final = tuple(c % 13 for c in range(52))
_SUIT: Final = tuple(c // 13 for c in range(52))
_ABOVE: Final = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) & ~_QS_BIT for c in range(52))
_BELOW: Final = tuple(SUIT_MASKS[c // 13] & ((1 << c) - 1) for c in range(52))
_POP: Final = tuple(bin(i).count("1") for i in range(16))

Plan: TypeAlias = int | tuple[tuple[int, int], ...]
"""A whole planned action: a lead (a mask of cards) or a defence (``(led, beater)`` pairs, by led card)."""


@dataclass(frozen=True)
class Weights:
    """The tunable numbers of the strategy (defaults tuned by self-play tournaments)."""

    # While the talon lasts: the value of keeping a card.
    trump_base: float = 1.4
    trump_rank: float = 0.05
    top_value: float = 0.0
    per_higher: float = 0.2
    low_floor: float = -0.5
    right_bonus: float = 0.5
    marriage_kq: float = 1.2
    draw_value: float = 0.3
    excess_early: float = 0.0
    excess_late: float = 0.1
    suit_cost: float = 0.4
    qs_early: float = 0.4
    qs_mid: float = -0.6
    qs_late: float = -2.0
    attack_bonus: float = 1.0
    push_bonus: float = 0.3
    # Once the talon is empty.
    end_card: float = 1.0
    end_suit: float = 0.6
    end_qs: float = 2.5
    # About 2.0 plays some 2 points better against three heuristics, and in the tuning lineup too (docs/strength.md,
    # "A stronger player of the search's own seat"); kept, since every measured figure rests on this player.
    end_quality: float = 1.0
    end_attack: float = 2.0
    end_push: float = 0.15
    end_push_two: float = 1.8
    # Two players with cards and the talon empty (docs/strength.md, "Two-player endgames"): a card and the
    # beat-everything bonus weigh more than with more players, and two terms count the defender's known hand.
    two_card: float = 2.0
    two_attack: float = 5.0
    # A lead that hands the defender more than one trump it must pick up: per trump after the first.
    two_gift: float = 1.6
    # Every card we keep that the defender cannot beat once it picked up the lead (each keeps us the lead a turn).
    two_anchor: float = 0.65
    # Beating a led card that was led in the last rounds too (it circulates) is worth this much more.
    circ_bonus: float = 1.5
    circ_lead: float = 0.0
    circ_trumps: bool = False
    # Count exactly what a defender whose whole hand is known can beat.
    exact_known: bool = True
    # Endless-deal guard: after this many turns (or half the rules' max_turns), play to make progress.
    loop_turns: int = 300

    def __reduce__(self) -> tuple[type[Weights], tuple[Any, ...]]:
        """Pickle by the fields, as in the pure build (a compiled frozen dataclass cannot be unpickled field by field)."""
        return Weights, tuple(getattr(self, f.name) for f in dataclasses.fields(self))


# The cards of every 13-bit suit pattern, per suit: _bits reads a hand four suits at a time (the hot spot of rollouts).
_SUIT_BITS: Final = tuple(
    tuple(tuple(13 * s + i for i in range(13) if m >> i & 1) for m in range(1 << 13)) for s in range(4)
)


def _bits(mask: int) -> list[int]:
    t = _SUIT_BITS
    out = list(t[0][mask & 0x1FFF])
    x = mask >> 13 & 0x1FFF
    if x:
        out += t[1][x]
    x = mask >> 26 & 0x1FFF
    if x:
        out += t[2][x]
    x = mask >> 39
    if x:
        out += t[3][x]
    return out


def _suits(mask: int) -> int:
    return _POP[(1 if mask & 0x1FFF else 0) | (2 if mask & 0x3FFE000 else 0)
                | (4 if mask & 0x7FFC000000 else 0) | (8 if mask & 0xFFF8000000000 else 0)]


class _Ctx:
    """What the planner knows: one seat's hand and the public facts, as plain ints."""

    __slots__ = (
        "alive",
        "attacker",
        "bp",
        "bpk",
        "circ",
        "decl",
        "defender",
        "hand",
        "hs",
        "known",
        "left",
        "limit",
        "looping",
        "marriage_open",
        "n",
        "out_there",
        "right",
        "seat",
        "sizes",
        "talon",
        "trump",
        "turns",
        "unseen",
        "vals",
        "w",
    )

    seat: int
    n: int
    hand: int
    trump: int
    talon: int
    hs: int
    sizes: list[int]
    known: list[int]
    unseen: int
    out_there: int
    attacker: int
    defender: int
    limit: int
    marriage_open: bool
    decl: int
    turns: int
    looping: bool
    circ: int
    alive: int
    bp: list[float]
    bpk: int
    vals: list[float]
    left: int
    right: int
    w: Weights

    def finish(self) -> None:
        n, seat, sizes = self.n, self.seat, self.sizes
        alive = 0
        for s in range(n):
            if sizes[s] > 0 or s == seat:
                alive += 1
        self.alive = alive
        left = (seat + 1) % n
        while left != seat and sizes[left] == 0:
            left = (left + 1) % n
        right = (seat - 1) % n
        while right != seat and sizes[right] == 0:
            right = (right - 1) % n
        self.left = left
        self.right = right
        self.bpk = 0  # The led cards whose chance of being beaten is in bp: none yet for this position.


def _ctx_from_view(view: View, w: Weights) -> _Ctx:
    seat = view.seat
    assert seat is not None
    c = _empty_ctx()
    c.w = w
    c.seat = seat
    c.n = view.players
    c.hand = view.hand
    c.trump = view.trump
    c.talon = view.talon_size
    c.hs = view.rules.hand_size
    c.sizes = list(view.hand_sizes)
    c.known = list(view.known)
    c.unseen = view.unseen
    c.out_there = _ALL & ~view.hand & ~view.discard
    c.attacker = view.attacker
    c.defender = view.defender
    c.limit = view.limit
    c.marriage_open = view.rules.trump == "marriage" and view.declarer == -1
    c.decl = L.declarable_suits(view.rules, view.hand, view.declarer) if c.marriage_open else 0
    c.turns = view.turns
    c.looping = view.turns >= min(w.loop_turns, view.rules.max_turns // 2)
    c.circ = _circulating(view.history.node, view.led if view.phase else view.hand, c.n, view.phase) if c.talon else 0
    c.finish()
    return c


def _empty_ctx() -> _Ctx:
    c = _Ctx()
    c.sizes = []
    c.known = []
    # Scratch tables by card, kept with the context: a playout refills one context at every action and allocates none.
    c.bp = [0.0] * 52  # _beat_prob of the defender per led card (valid for the cards in bpk), shared by candidate leads.
    c.vals = [0.0] * 52  # _values: each planning step writes the cards it reads.
    return c


def _ctx_from_state(state: State, w: Weights) -> _Ctx:
    c = _empty_ctx()
    _fill_from_state(c, state, w)
    return c


def _fill_from_state(c: _Ctx, state: State, w: Weights) -> None:
    """Make ``c`` what ``state.to_act`` knows, reusing its lists: a playout refills one context at every action."""
    seat = state.to_act
    hands = state.hands
    public = state.public
    own = hands[seat]
    n = state.n
    sizes = c.sizes
    known = c.known
    if len(sizes) != n:
        sizes = c.sizes = [0] * n
        known = c.known = [0] * n
    placed = own | state.discard | state.led
    for s in range(n):
        h = hands[s]
        sizes[s] = popcount64(h)
        if s == seat:
            known[s] = 0
        else:
            k = h & public
            known[s] = k
            placed |= k
    c.w = w
    c.seat = seat
    c.n = n
    c.hand = own
    c.trump = state.trump
    c.talon = len(state.talon) - state.tpos
    c.hs = state.hs
    talon_known = state.tknown & ~placed  # The turned trump card and spades put back, still in the talon.
    unseen = _ALL & ~placed & ~talon_known
    if unseen and c.talon == popcount64(talon_known):
        # Counting, as the view does: when every unseen card must lie in one hand, it is known to be there.
        places = [s for s in range(n) if s != seat and sizes[s] > popcount64(known[s])]
        if len(places) == 1:
            known[places[0]] |= unseen
            unseen = 0
    c.unseen = unseen
    c.out_there = _ALL & ~own & ~state.discard
    c.attacker = state.attacker
    c.defender = state.defender
    c.limit = state.limit
    c.marriage_open = state.facts.marriage and state.declarer == -1
    c.decl = L.declarable_suits(state.rules, own, state.declarer) if c.marriage_open else 0
    c.turns = state.turns
    c.looping = state.turns >= min(w.loop_turns, state.facts.max_turns // 2)
    # A lead counts the circulating cards only through circ_lead: when that is 0.0 (the player's weights), score - 0.0
    # is score exactly, so a playout's leads skip the walk back through the log.
    lead = state.phase == LEAD
    c.circ = _circulating(state.log, own if lead else state.led, n, state.phase) if c.talon and (w.circ_lead or not lead) else 0
    c.finish()


def _circulating(log: Log, cards: int, players: int, phase: int) -> int:
    """Return those of ``cards`` that were led in the last rounds (before the current lead): they circulate.

    ``log`` is a state's log (core/history.py), newest entry first.
    """
    limit = 4 * players + 2
    current = phase == LEAD  # When defending, the newest lead is the current one.
    seen = 0
    i = 0
    # The nodes and entries are read as plain tuples, and only the two fields used are typed: compiled, a node
    # typed as ``Log`` is unpacked whole into a C struct (every field checked and converted) at each step.
    node: tuple[Any, ...] | None = log
    while node is not None and i <= limit:
        entry: tuple[Any, ...] = node[0]
        kind: int = entry[0]
        if kind == LEAD_ENTRY:
            if current:
                led: int = entry[2]
                seen |= led
            current = True
        node = node[1]
        i += 1
    return seen & cards


# -- values ------------------------------------------------------------------------------------


def _qs_value(ctx: _Ctx) -> float:
    """Return the value of holding Q♠ while the talon lasts: positive early (she would come back round)."""
    w = ctx.w
    # Roughly how many more turns the talon lasts; she should not come round the table again before the end.
    turns_left = ctx.talon / (1.0 + 0.2 * ctx.alive)
    if turns_left <= ctx.alive:
        return w.qs_late
    if turns_left <= 2.5 * ctx.alive:
        return w.qs_mid
    return w.qs_early


def _card_value(ctx: _Ctx, c: int, qs: float) -> float:
    """Return how much the seat wants to hold card ``c`` while the talon lasts (negative: rather shed it)."""
    if c == QS:
        return qs
    w = ctx.w
    s = _SUIT[c]
    if s == ctx.trump:
        return w.trump_base + w.trump_rank * _RANK[c]
    higher: int = popcount64(ctx.out_there & _ABOVE[c])
    v = w.top_value - w.per_higher * higher
    if v < w.low_floor:
        v = w.low_floor
    if ctx.known[ctx.right] & _BELOW[c] and ctx.right != ctx.seat:
        v += w.right_bonus  # The player on our right picked up lower cards of this suit: they come back to us.
    if ctx.marriage_open and s != 0 and _RANK[c] in (10, 11):
        v += w.marriage_kq  # A king or queen may yet make a marriage: never hand it to someone else.
    return v


def _end_quality(ctx: _Ctx, c: int) -> float:
    """Return how easy a card is to get rid of in the endgame: high when little can beat it."""
    if c == QS:
        return 0.0
    if _SUIT[c] == ctx.trump:
        return 1.0 + 0.03 * _RANK[c]
    higher: int = popcount64(ctx.out_there & L.BEATERS[ctx.trump][c])
    return 1.0 / (1.0 + higher)


def _sum_of(values: list[float], cards: int) -> float:
    """Return the sum of ``values`` over ``cards``, added in rising card order.

    The cards of each suit come from a table of the 8,192 masks of a suit, read in place: compiled, that
    takes no list and no arithmetic on the mask a card, where taking the lowest card off the mask asked
    for three operations on a boxed integer and its bit length.
    """
    total = 0.0
    t = _SUIT_BITS
    for c in t[0][cards & 0x1FFF]:
        total += values[c]
    x = cards >> 13 & 0x1FFF
    if x:
        for c in t[1][x]:
            total += values[c]
    x = cards >> 26 & 0x1FFF
    if x:
        for c in t[2][x]:
            total += values[c]
    x = cards >> 39
    if x:
        for c in t[3][x]:
            total += values[c]
    return total


def _hand_value(ctx: _Ctx, hand: int, values: list[float]) -> float:
    """Return the value of holding ``hand`` (our cards after an action), by the phase of the deal."""
    w = ctx.w
    size: int = popcount64(hand)
    if ctx.talon == 0:
        if not hand:
            return 1000.0
        v = -(w.two_card if ctx.alive == 2 else w.end_card) * size - w.end_suit * _suits(hand)
        if hand & _QS_BIT:
            v -= w.end_qs
        return v + w.end_quality * _sum_of(values, hand)
    v = _sum_of(values, hand)
    if size < ctx.hs:
        v += w.draw_value * min(ctx.hs - size, ctx.talon)
    elif size > ctx.hs:
        late = 1.0 - min(1.0, ctx.talon / (2.0 * ctx.hs * ctx.alive))
        v -= (w.excess_early + (w.excess_late - w.excess_early) * late) * (size - ctx.hs)
    return v - w.suit_cost * _suits(hand)


def _values(ctx: _Ctx, cards: int) -> list[float]:
    """Return the value of each of ``cards`` to the seat, by card (the other entries are not to be read)."""
    values = ctx.vals  # Only ``cards`` are read by the callers; the other entries are left as they were.
    end = ctx.talon == 0
    qs = 0.0 if end else _qs_value(ctx)
    while cards:
        low = cards & -cards
        c = low.bit_length() - 1
        values[c] = _end_quality(ctx, c) if end else _card_value(ctx, c, qs)
        cards ^= low
    return values


def _beat_prob(ctx: _Ctx, c: int, defender: int) -> float:
    """Return the chance that ``defender`` holds a card beating ``c``, from its known cards and the unseen ones."""
    b = L.BEATERS[ctx.trump][c]
    if not b:
        return 0.0
    if ctx.known[defender] & b:
        return 1.0
    slots: i64 = ctx.sizes[defender] - popcount64(ctx.known[defender])
    if slots <= 0:
        return 0.0
    unseen = ctx.unseen
    u: i64 = popcount64(unseen & b)
    total: i64 = popcount64(unseen)
    if u == 0 or total == 0:
        return 0.0
    # The chance that none of the defender's unknown cards beats c; machine integers, so no tag checks.
    p_none = 1.0
    draws: i64 = slots if slots < total else total
    i: i64 = 0
    while i < draws:
        left = total - u - i
        if left <= 0:
            return 1.0  # A factor of 0.0: none is impossible.
        # Small counts are exact as floats, so the float quotient is the int one's, correctly rounded.
        p_none *= float(left) / float(total - i)
        if p_none == 0.0:
            break
        i += 1
    return 1.0 - p_none


# -- leads ---------------------------------------------------------------------------------------


def _lead_candidates(hand: int, limit: int) -> list[int]:
    out: list[int] = []
    for s in range(4):
        suit = hand & SUIT_MASKS[s]
        if not suit:
            continue
        cards = _SUIT_BITS[s][suit >> 13 * s]  # Read in place, in rising order: no list made.
        m = len(cards)
        top = min(m, limit)
        mask = 0
        for j in range(top):  # The lowest cards.
            mask |= 1 << cards[j]
            out.append(mask)
        mask = 0
        for j in range(top - 1):  # The highest cards.
            mask |= 1 << cards[m - 1 - j]
            out.append(mask)
        # The lowest and the highest j cards of a suit differ for every j < m, so only these can repeat one.
        if s == 0 and suit & _QS_BIT:
            plain = _SUIT_BITS[0][suit & ~_QS_BIT]
            _add_new(out, _QS_BIT)
            mask = _QS_BIT
            for j in range(min(len(plain), limit - 1)):  # Q♠ with the lowest spades.
                mask |= 1 << plain[j]
                _add_new(out, mask)
            mask = 0
            for j in range(min(len(plain), limit)):  # The spades without her.
                mask |= 1 << plain[j]
                _add_new(out, mask)
    return out


def _add_new(out: list[int], lead: int) -> None:
    """Append ``lead`` unless it is there already: the list stays in the order of first appearance."""
    for x in out:
        if x == lead:
            return
    out.append(lead)


def _score_lead(ctx: _Ctx, lead: int, values: list[float], two: bool) -> float:
    rest = ctx.hand & ~lead
    w = ctx.w
    score = _hand_value(ctx, rest, values)
    if ctx.talon == 0 and not rest:
        return score
    d = ctx.defender
    k = popcount64(lead)
    known = ctx.known[d]
    if w.exact_known and popcount64(known) >= ctx.sizes[d]:
        # Every card of the defender is known: count exactly what it can beat.
        pairs = _max_beats(known, lead, ctx.trump)
        beatable = len(pairs)
        push = float(k - beatable)
        beat_all = 1.0 if beatable == k else 0.0
        if two and ctx.talon == 0 and push:
            score -= _gifts(ctx, lead, pairs, rest)
    else:
        push = 0.0
        beat_all = 1.0
        bp = ctx.bp
        bpk = ctx.bpk
        cards = lead
        while cards:
            low = cards & -cards
            c = low.bit_length() - 1
            cards ^= low
            if bpk & low:
                p = bp[c]
            else:
                p = bp[c] = _beat_prob(ctx, c, d)
                bpk |= low
            push += 1.0 - p
            beat_all *= p
        ctx.bpk = bpk
    if ctx.talon == 0:
        score += (w.end_push_two if two else w.end_push) * push
        if two:
            score -= w.two_attack * beat_all  # The defender takes the lead from us.
    else:
        score += w.push_bonus * push
        if ctx.circ:
            score -= w.circ_lead * int(popcount64(lead & ctx.circ))
    return score


def _gifts(ctx: _Ctx, lead: int, pairs: list[tuple[int, int]], rest: int) -> float:
    """Return the cost of a lead that the known defender cannot beat entirely (two players, talon empty).

    ``pairs`` are the led cards it beats and its beaters; it picks up the
    rest of the lead and keeps it. Trumps it picks up beat our other cards,
    so after the first each costs ``two_gift`` (one trump keeps us the lead
    as well as several). Every card we keep that the defender cannot beat
    afterwards is a later lead it must pick up, which keeps us the lead a
    turn more: each is worth ``two_anchor``.
    """
    w = ctx.w
    row = L.BEATERS[ctx.trump]
    picked = lead
    after = ctx.known[ctx.defender]
    for x, b in pairs:
        picked &= ~(1 << x)
        after &= ~(1 << b)
    after |= picked
    cost = 0.0
    if ctx.trump >= 0:
        cost += w.two_gift * max(0, int(popcount64(picked & SUIT_MASKS[ctx.trump])) - 1)
    for x in _bits(rest):
        if not after & row[x]:
            cost -= w.two_anchor
    return cost


def _plan_lead(ctx: _Ctx, rng: random.Random | None, ties: bool) -> int:
    """Return the lead to make; ``rng`` breaks ties (if ``ties``) and endless circulations."""
    hand = ctx.hand
    limit = ctx.limit
    # The whole hand in one lead: out at once (M18).
    if ctx.talon == 0 and popcount64(hand) <= limit and _suits(hand) == 1:
        return hand
    cands = _lead_candidates(hand, limit)
    if ctx.looping and rng is not None:
        return rng.choice(cands)  # Break an endless circulation.
    values = _values(ctx, hand)
    two = ctx.alive == 2
    best = cands[0]
    best_score = -1e18
    for lead in cands:
        sc = _score_lead(ctx, lead, values, two)
        if ties and rng is not None:
            sc += rng.random() * 1e-6
        if sc > best_score:
            best_score = sc
            best = lead
    return best


# -- defences -----------------------------------------------------------------------------------------


def _max_beats(hand: int, led: int, trump: int) -> list[tuple[int, int]]:
    """Return a largest set of (led, beater) pairs: same-suit beaters first, then the lowest trumps."""
    row = L.BEATERS[trump]
    pairs = []
    used = 0
    for x in _bits(led):
        cands = hand & ~used & row[x]
        if not cands:
            continue
        same = cands & SUIT_MASKS[_SUIT[x]]
        pick_mask = same if same else cands
        b = (pick_mask & -pick_mask).bit_length() - 1
        pairs.append((x, b))
        used |= 1 << b
    return pairs


def _sort_by_gain(ctx: _Ctx, pairs: list[tuple[int, int]], led: int) -> list[float]:
    """Order (led, beater) pairs by how much each beat gains over picking the card up; return the card values used."""
    values = _values(ctx, ctx.hand | led)
    # A stable insertion sort on the gains (a handful of pairs): list.sort's order, without a call of a key function each.
    gains = [values[x] + values[b] for x, b in pairs]
    for i in range(1, len(pairs)):
        g = gains[i]
        p = pairs[i]
        j = i - 1
        while j >= 0 and g < gains[j]:
            gains[j + 1] = gains[j]
            pairs[j + 1] = pairs[j]
            j -= 1
        gains[j + 1] = g
        pairs[j + 1] = p
    return values


def _plan_defence(ctx: _Ctx, led: int) -> dict[int, int]:
    """Return the planned defence: led card -> beating card (led cards not in it are picked up)."""
    return dict(_defence_pairs(ctx, led))


def _defence_plan(ctx: _Ctx, led: int) -> tuple[tuple[int, int], ...]:
    """Return the planned defence as a search plan: its (led, beater) pairs sorted by led card."""
    return tuple(sorted(_defence_pairs(ctx, led)))


def _defence_pairs(ctx: _Ctx, led: int) -> list[tuple[int, int]]:
    """Return the planned defence as (led, beater) pairs, best gain first."""
    hand = ctx.hand
    pairs = _max_beats(hand, led, ctx.trump)
    if not pairs or ctx.looping:
        return pairs
    w = ctx.w
    values = _sort_by_gain(ctx, pairs, led)  # Then try every prefix.
    nled = popcount64(led)
    best = 0  # The best prefix's length: its defence is made once, at the end.
    best_score = -1e18
    beaten = beaters = 0
    for k in range(len(pairs) + 1):
        if k:
            x, b = pairs[k - 1]
            beaten |= 1 << x
            beaters |= 1 << b
        after = (hand & ~beaters) | (led & ~beaten)
        score = _hand_value(ctx, after, values)
        if k == nled:
            score += (w.two_attack if ctx.alive == 2 else w.end_attack) if ctx.talon == 0 else w.attack_bonus
        if ctx.circ:
            # Beat the cards of a circulating suit that we can beat within the suit (trumps only if allowed).
            cheap = beaten & ctx.circ if w.circ_trumps else (beaten & ctx.circ) & ~_trump_beaten(pairs[:k], ctx.trump)
            score += w.circ_bonus * int(popcount64(cheap))
        if score > best_score:
            best_score = score
            best = k
    return pairs[:best]


def _trump_beaten(pairs: list[tuple[int, int]], trump: int) -> int:
    """Return the led cards of ``pairs`` that are beaten by a trump of another suit."""
    m = 0
    for x, b in pairs:
        if _SUIT[b] == trump and _SUIT[x] != trump:
            m |= 1 << x
    return m


# -- steps -----------------------------------------------------------------------------------------------


def _lead_step(plan: int, sel: int) -> int:
    """Return the next card of the planned lead above the cards chosen so far, or ``STOP``."""
    rest = plan & ~sel
    if sel:
        top = sel.bit_length() - 1
        rest &= _ABOVE[top] | (_QS_BIT & SUIT_MASKS[_SUIT[top]] & ~((2 << top) - 1))
    if not rest:
        return STOP
    return (rest & -rest).bit_length() - 1


def _defence_step(plan: dict[int, int], rem: int, avail: int, trump: int) -> int:
    cur = L.current_led(rem, avail, trump)
    if cur < 0:
        return STOP
    b = plan.get(cur, -1)
    if b >= 0 and avail >> b & 1 and L.BEATERS[trump][cur] >> b & 1:
        return b
    return STOP


def _declare_step(ctx: _Ctx) -> int:
    """Return the declaration to make now (as soon as we can), or -1."""
    decl = ctx.decl
    if not decl:
        return -1
    best = -1
    best_n = -1
    for s in (1, 2, 3):
        if decl >> s & 1:
            n = popcount64(ctx.hand & SUIT_MASKS[s])
            if n > best_n:
                best, best_n = s, n
    return DECLARE + best


_WEIGHT_FIELDS: Final = {f.name: f.type for f in dataclasses.fields(Weights)}


def _weights(params: dict[str, Any]) -> Weights:
    for key in params:
        if key not in _WEIGHT_FIELDS:
            raise ValueError(f"unknown heuristic parameter {key!r} (known: seed, endgame_cards, {', '.join(_WEIGHT_FIELDS)})")
    return Weights(**params)


ENDGAME_CARDS: Final = 16
"""The player plays two-seat, talon-empty positions of at most this many cards exactly (see :class:`HeuristicPlayer`)."""


class HeuristicPlayer:
    """Plans each compound action from the view with the strategy knowledge of docs/rules.md; the seed only breaks ties.

    Keyword arguments override fields of :class:`Weights`, for experiments.
    Once two seats hold cards and the talon is empty, both hands are known
    to both (M22), and a position of at most ``endgame_cards`` cards is
    played exactly: the endgame solver serves as an endgame table
    (:mod:`~mustamaija.games.mustamaija.endgame`). Rules alone threw away about one won
    two-player endgame in thirteen (docs/strength.md#two-player-endgames);
    up to 16 cards a move took at most 1.1 ms compiled (7.7 ms pure) over
    the endgames of 600 two-player deals. A lost position, or a bigger one,
    is played by the rules. ``endgame_cards=0`` turns this off.
    :func:`heuristic_step` and the searches' candidates
    (:func:`candidate_plans`) stay rules only; :func:`heuristic_play_out`
    plays small endgames exactly when given an :class:`EndgameSolver`, as
    the search kit does.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, endgame_cards: object = ENDGAME_CARDS, **weights: Any) -> None:
        # Typed ``object`` so that a wrong type from a bot spec gets this ValueError in the compiled build too.
        if isinstance(endgame_cards, bool) or not isinstance(endgame_cards, int) or endgame_cards < 0:
            raise ValueError(f"endgame_cards must be a whole number of cards, 0 or more, not {endgame_cards!r}")
        self.seed = 0 if seed is None else seed
        self.weights = _weights(weights)
        self.endgame_cards: int = endgame_cards
        self._endgame = EndgameSolver(max_cards=endgame_cards) if endgame_cards else None
        self._cache: tuple[tuple[Any, ...], int | dict[int, int]] | None = None

    def _plan(self, view: View, ctx: _Ctx) -> int | dict[int, int]:
        key = (view.seat, len(view.history), view.turns, view.hand, view.led, view.phase, view.trump)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        plan: int | dict[int, int]
        if view.phase == LEAD:
            rng = random.Random(hash((self.seed, ctx.seat, len(view.history), view.hand)))
            plan = _plan_lead(ctx, rng, True)
        else:
            plan = _plan_defence(ctx, view.led)
        self._cache = (key, plan)
        return plan

    def act(self, view: View) -> int:
        """Return the next step of the planned action for ``view.seat``."""
        if not view.my_turn:
            raise ValueError(f"seat {view.seat} has nothing to do: it is seat {view.to_act}'s turn")
        if self._endgame is not None and not view.talon_size:
            step = self._endgame.step(view)
            if step is not None:
                return step
        ctx = _ctx_from_view(view, self.weights)
        if not view.in_progress:
            d = _declare_step(ctx)
            if d >= 0:
                return d
        plan = self._plan(view, ctx)
        if isinstance(plan, int):
            return _lead_step(plan, view.sel)
        return _defence_step(plan, view.rem, view.hand & ~view.used, view.trump)


ROLLOUT_WEIGHTS: Final = Weights(circ_lead=0.5, circ_trumps=True, loop_turns=100)
"""The weights of :func:`heuristic_step`: the player's, but breaking circulations sooner, so rollouts stay short."""


def heuristic_step(state: State, rng: random.Random | None = None, weights: Weights = ROLLOUT_WEIGHTS) -> int:
    """Return the heuristic's step for ``state.to_act``, from that seat's hand and the public facts only.

    ``rng`` is used only to break endless circulations (after ``weights.loop_turns`` turns, or half
    the rules' ``max_turns`` if that is fewer).
    """
    ctx = _ctx_from_state(state, weights)
    if not state.in_progress:
        d = _declare_step(ctx)
        if d >= 0:
            return d
    if state.phase == LEAD:
        sel = state.sel
        if sel and ctx.looping:
            return STOP  # A random lead was chosen card by card; end it here.
        return _lead_step(_plan_lead(ctx, rng if sel == 0 else None, False), sel)
    plan = _plan_defence(ctx, state.led)
    return _defence_step(plan, state.rem, state.hands[state.defender] & ~state.used, state.trump)


# -- whole actions, for search ----------------------------------------------------------------------


def heuristic_plan(state: State, rng: random.Random | None = None, weights: Weights = ROLLOUT_WEIGHTS) -> Plan:
    """Return the heuristic's whole action for ``state.to_act`` at the start of its action, from its hand and the public facts.

    A declaration the heuristic would make is made on ``state`` first (V4), since it
    comes before the lead or the defence. Search playouts apply the plan in one go.
    """
    return _plan_with(_empty_ctx(), state, rng, weights)


def _plan_with(ctx: _Ctx, state: State, rng: random.Random | None, weights: Weights) -> Plan:
    """Return :func:`heuristic_plan`'s plan, refilling ``ctx`` for it (a playout keeps one context for all its actions)."""
    _fill_from_state(ctx, state, weights)
    if ctx.decl:
        state._do_declare(_declare_step(ctx) - DECLARE)
        _fill_from_state(ctx, state, weights)
    if state.phase == LEAD:
        return _plan_lead(ctx, rng, False)
    return _defence_plan(ctx, state.led)


def heuristic_agrees(state: State, plan: Plan, weights: Weights) -> bool:
    """Return whether the heuristic player, with ``weights``, could take ``plan`` at ``state`` (the start of an action).

    Its own plan, or a lead that scores within the millionth a player's seed
    adds to break ties, or, while it breaks an endless circulation, any of its
    candidate leads. ``plan`` is a lead's cards or a defence's sorted pairs;
    nothing is changed on ``state``, so a marriage still to declare (V4) is
    not looked at.
    """
    ctx = _ctx_from_state(state, weights)
    if state.phase != LEAD:
        return _defence_plan(ctx, state.led) == plan
    hand = ctx.hand
    if ctx.talon == 0 and popcount64(hand) <= ctx.limit and _suits(hand) == 1:
        return plan == hand
    cands = _lead_candidates(hand, ctx.limit)
    if plan not in cands:
        return False
    if ctx.looping:
        return True
    values = _values(ctx, hand)
    two = ctx.alive == 2
    best = -1e18
    mine = 0.0
    for lead in cands:
        sc = _score_lead(ctx, lead, values, two)
        if sc > best:
            best = sc
        if lead == plan:
            mine = sc
    return mine >= best - 1e-6


def apply_plan(state: State, plan: Plan) -> None:
    """Take a whole planned action on ``state`` in one go: a lead, or a defence by the seat defending."""
    if isinstance(plan, int):
        state._do_lead(plan)
    else:
        state._do_beat(state.defender, plan)


def heuristic_play_out(state: State, rng: random.Random | None = None, endgame: EndgameSolver | None = None,
                       weights: Weights = ROLLOUT_WEIGHTS, until_safe: int = -1) -> bool:
    """Play ``state`` out in place, every seat following the heuristic a whole action at a time.

    A part-done action (a lead being chosen, a defence under way) is finished by :func:`heuristic_step`
    first. The loop lives here, beside the heuristic, so that the compiled build runs a playout in C.
    With ``endgame``, two-seat, talon-empty positions small enough for it are played exactly, as the
    :class:`HeuristicPlayer` plays them (:func:`~mustamaija.games.mustamaija.endgame.exact_plan`): a playout then models
    the player, and scores an endgame by its true value rather than by the rules' mistakes. ``weights`` are
    the rules' numbers: :data:`ROLLOUT_WEIGHTS` by default; the search kit passes the player's own
    (``Weights()``), so that its playouts play as the heuristic player does.

    With ``until_safe`` a seat, the playout stops as soon as that seat cannot lose, and returns ``True``
    (otherwise it plays to the end and returns ``False``). A search that asks one seat's return needs no more:
    the rest of the deal would only decide which of the others loses. A seat is safe once it holds no cards
    while the talon is empty (it never gets cards again, so it cannot be the last holder, and a deal stopped by
    M21 has no loser), or once the exact solver finds it a safe action in a two-seat endgame (it then plays
    safe actions to the end: the position stays in the solver's scope, and a safe position has a safe action
    whatever the other seat does).

    >>> from mustamaija import State
    >>> s = State.from_seed(players=3, seed=5)
    >>> heuristic_play_out(s, random.Random(1)), s.is_over, s.loser
    (False, True, 2)
    >>> s = State.from_seed(players=3, seed=5)
    >>> heuristic_play_out(s, random.Random(1), until_safe=0), s.is_over, s.talon_size, s.hands[0]
    (True, False, 0, 0)
    >>> s = State.from_seed(players=3, seed=5)
    >>> heuristic_play_out(s, random.Random(1), until_safe=2), s.loser
    (False, 2)
    """
    while state.in_progress and state.phase != OVER:
        state.apply(heuristic_step(state, rng, weights))
    ctx = _empty_ctx()
    lost = -1  # A seat the exact play found lost: it stays lost, so it is not asked again (the same games, faster).
    while state.phase != OVER:
        seat = state.to_act
        plan: Plan | None = None
        if not state.talon_size:
            if until_safe >= 0 and not state.hands[until_safe]:
                return True
            if endgame is not None and seat != lost:
                plan = exact_plan(state, endgame)
        if plan is None or plan == LOST:
            if plan is not None:
                lost = seat
            plan = _plan_with(ctx, state, rng, weights)
        elif seat == until_safe:
            return True
        apply_plan(state, plan)
    return False


def candidate_plans(view: View, weights: Weights | None = None) -> tuple[list[Plan], Plan]:
    """Return the whole actions worth searching at the start of ``view.seat``'s action, and the heuristic's choice among them.

    Leads: the lowest cards of each suit, its highest cards, Q♠ alone or with her
    spades, the spades without her, and the whole hand when that ends the deal
    for the seat. Defences: beat none, then the best one, two, ... of the led
    cards in the heuristic's order of gain. The heuristic's own choice is
    always among them.

    >>> from mustamaija import State
    >>> v = State.from_seed(players=3, seed=5).view(1)
    >>> plans, mine = candidate_plans(v)
    >>> mine in plans and all(isinstance(p, int) for p in plans)
    True
    """
    w = weights if weights is not None else Weights()
    ctx = _ctx_from_view(view, w)
    plans: list[Plan]
    if view.phase == LEAD:
        hand, limit = view.hand, view.limit
        plans = list(_lead_candidates(hand, limit))
        if view.talon_size == 0 and popcount64(hand) <= limit and _suits(hand) == 1 and hand not in plans:
            plans.append(hand)
        mine: Plan = _plan_lead(ctx, None, False)
    else:
        pairs = _max_beats(view.hand, view.led, view.trump)
        _sort_by_gain(ctx, pairs, view.led)
        plans = list(dict.fromkeys(tuple(sorted(pairs[:k])) for k in range(len(pairs) + 1)))
        mine = _defence_plan(ctx, view.led)
    if mine not in plans:
        plans.append(mine)
    return plans, mine


def plan_step(plan: Plan, view: View) -> int:
    """Return the next step of a whole planned action for ``view.seat`` (card by card, ``STOP`` to end)."""
    if isinstance(plan, int):
        return _lead_step(plan, view.sel)
    return _defence_step(dict(plan), view.rem, view.hand & ~view.used, view.trump)
