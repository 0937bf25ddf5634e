"""Exact solver for talon-empty endgames, where every hand is known.

The question is the one ``mustamaija solve`` answers: can the attacker make
sure of not being the loser, whatever the others do? With two players that is
the exact value of the position; with more, the others are treated as one
side playing against the attacker (a paranoid search), which is exactly the
"make sure" of the question.

Two players: a depth-first AND/OR search. Every turn either shrinks the
attacker's hand or, when the defender beats everything, removes cards from
play, so no position repeats and the search needs no repetition handling.

More players: cards can circulate for ever (nobody beats, hands pass cards
round the table). Such a deal never ends, and M21 would stop it without a
loser, which is safe for the attacker. So the solver lists every reachable
position and computes, by fixpoint iteration, those from which the others
can force the attacker to lose (their attractor); every other position is
safe.

What keeps both fast, in the manner of double-dummy solvers:

* a canonical position key: each suit becomes the owners of its remaining
  cards in rank order (cards that left play no longer matter, so equal shapes
  share an entry), plain suits other than spades are sorted, and seats are
  numbered from the attacker with players who are out left out;
* equivalent cards: cards of one hand with no other remaining card between
  them in rank do the same work, so a lead only says how many of such a run
  it takes, and only one of them is tried as a beater;
* quick cut-offs: a player who can lead their whole hand at once goes out at
  once (M18);
* move ordering: leads holding a card the defender cannot beat, and bigger
  leads, first; defences that beat everything (and so take the lead) first.

>>> from mustamaija.game import State
>>> s = State.from_position([["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker=0, trump_suit=3)
>>> r = solve(s)
>>> r.attacker_safe, [" ".join(card_name(c) for c in cards_of(m)) for m in r.safe_leads]
(True, ['3C AC', '3C', 'QS', '5H 6H'])
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from ..cards import QS, SUIT_MASKS, card_name, cards_of
from ..errors import MustamaijaError
from ..game import legality as L
from ..game.actions import Action, Beat, Lead
from ..game.rules import Rules
from ..game.state import LEAD, State

__all__ = ["SolveResult", "Solver", "solve"]

_QS_BIT: Final = 1 << QS

Hands = tuple[int, ...]
Pairs = tuple[tuple[int, int], ...]


@dataclass
class SolveResult:
    """The answer for the attacker of a position: safe or not, every safe first lead, and a principal line."""

    attacker: int
    attacker_safe: bool
    safe_leads: list[int]
    line: list[Action]
    nodes: int = 0
    stats: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """Return the ``solve --json`` object of FORMATS.md (leads' cards sorted by rank then suit)."""
        return {
            "attacker": self.attacker,
            "attacker_safe": self.attacker_safe,
            "safe_leads": [_sorted_names(m) for m in self.safe_leads],
            "line": [a.to_json() for a in self.line],
            "nodes": self.nodes,
        }


def _sorted_names(mask: int) -> list[str]:
    return [card_name(c) for c in sorted(cards_of(mask), key=lambda c: (c % 13, c // 13))]


def _counts(runs: list[list[int]], limit: int) -> Iterator[tuple[int, ...]]:
    """Yield how many cards to take from each run: at least one card in all, at most ``limit``."""

    def rec(i: int, room: int) -> Iterator[tuple[int, ...]]:
        if i == len(runs):
            yield ()
            return
        for k in range(min(room, len(runs[i])) + 1):
            for rest in rec(i + 1, room - k):
                yield (k, *rest)

    for counts in rec(0, limit):
        if any(counts):
            yield counts


def _one_suit(hand: int) -> bool:
    return any(not hand & ~m for m in SUIT_MASKS)


def _others(hands: Hands, seat: int) -> int:
    m = 0
    for s, h in enumerate(hands):
        if s != seat:
            m |= h
    return m


class Solver:
    """Solves positions for one rule set, trump suit and seat count; its table survives between calls."""

    def __init__(self, rules: Rules, trump: int, players: int) -> None:
        self.rules = rules
        self.trump = trump
        self.n = players
        self.row = L.BEATERS[trump]
        self.max_lead = rules.max_lead if rules.max_lead is not None else 52
        self.plain = [s for s in range(4) if s != trump and s != 0]
        self.table: dict[tuple[object, ...], bool] = {}
        self.loss: set[tuple[object, ...]] = set()
        self.graphs = 0
        self.nodes = 0

    # -- positions -------------------------------------------------------------

    def key(self, hands: Hands, attacker: int, hero: int) -> tuple[object, ...]:
        """Return the canonical key of a lead position (see the module docstring)."""
        n = self.n
        order = [h for h in hands[attacker:] + hands[:attacker] if h]
        hero_i = sum(1 for k in range((hero - attacker) % n) if hands[(attacker + k) % n]) if hands[hero] else -1
        union = 0
        for h in order:
            union |= h
        qs_owner = next(i for i, h in enumerate(order) if h & _QS_BIT)
        union &= ~_QS_BIT
        base = len(order)
        codes = []
        for suit in range(4):
            u = union & SUIT_MASKS[suit]
            code = 1
            while u:
                low = u & -u
                u ^= low
                i = 0
                while not order[i] & low:
                    i += 1
                code = code * base + i
            codes.append(code)
        trump = self.trump
        plain = sorted(codes[s] for s in self.plain)
        return (base, hero_i, qs_owner, codes[trump] if trump >= 0 else 0, codes[0] if trump != 0 else 0, *plain)

    def defender_of(self, hands: Hands, attacker: int) -> int:
        """Return the defender: the next seat after the attacker with cards (M9)."""
        d = (attacker + 1) % self.n
        while not hands[d]:
            d = (d + 1) % self.n
        return d

    def resolve(self, hands: Hands, attacker: int, d: int, lead: int, pairs: Pairs) -> tuple[Hands, int]:
        """Play a lead and its defence; return the hands and the next attacker, or -1 if the deal is over (M14-M19)."""
        beaten = beaters = 0
        for t, b in pairs:
            beaten |= 1 << t
            beaters |= 1 << b
        taken = lead & ~beaten
        h = list(hands)
        h[attacker] &= ~lead
        h[d] = (h[d] & ~beaters) | taken
        out = tuple(h)
        if sum(1 for x in out if x) <= 1:
            return out, -1
        a = d if not taken else (d + 1) % self.n
        while not out[a]:
            a = (a + 1) % self.n
        return out, a

    # -- moves -----------------------------------------------------------------

    def leads(self, hand: int, defender: int, others: int) -> list[int]:
        """Return the leads worth trying, most promising first, one per class of equivalent leads."""
        limit = min(defender.bit_count(), self.max_lead)
        others &= ~_QS_BIT
        row = self.row
        scored = []
        for suit in range(4):
            cards = cards_of(hand & SUIT_MASKS[suit])
            if not cards:
                continue
            runs: list[list[int]] = []
            last = -1
            for c in cards:
                if c == QS:
                    runs.append([c])
                    last = -1
                elif last >= 0 and not others & ((1 << c) - (2 << last)):
                    runs[-1].append(c)
                    last = c
                else:
                    runs.append([c])
                    last = c
            for counts in _counts(runs, limit):
                m = stuck = 0
                for run, k in zip(runs, counts, strict=True):
                    for c in run[:k]:
                        m |= 1 << c
                        if not row[c] & defender:
                            stuck += 1
                scored.append((stuck > 0, m.bit_count(), stuck, m))
        scored.sort(reverse=True)
        return [m for *_, m in scored]

    def defences(self, hand: int, led: int, others: int) -> Iterator[Pairs]:
        """Yield defences against ``led``, beating everything first, one beater per class of equivalent cards.

        ``others`` holds every remaining card outside the defender's hand
        (the led cards included).
        """
        row = self.row
        targets = sorted(cards_of(led), key=lambda c: -(row[c] & hand).bit_count())
        n_targets = len(targets)
        others &= ~_QS_BIT

        def distinct(avail: int) -> list[int]:
            picks = []
            last = -1
            for b in cards_of(avail):
                if last >= 0 and b // 13 == last // 13 and not others & ((1 << b) - (2 << last)):
                    last = b
                    continue
                picks.append(b)
                last = b
            return picks

        def rec(i: int, avail: int) -> Iterator[Pairs]:
            if i == n_targets:
                yield ()
                return
            t = targets[i]
            for b in distinct(avail & row[t]):
                for rest in rec(i + 1, avail & ~(1 << b)):
                    yield ((t, b), *rest)
            yield from rec(i + 1, avail)

        yield from rec(0, hand)

    def options(self, hands: Hands, attacker: int) -> list[tuple[int, list[tuple[Pairs, Hands, int]]]]:
        """Return each lead with each defence and the position it leads to."""
        d = self.defender_of(hands, attacker)
        out = []
        for lead in self.leads(hands[attacker], hands[d], _others(hands, attacker)):
            h = list(hands)
            h[attacker] &= ~lead
            others = _others(tuple(h), d) | lead
            replies = [(p, *self.resolve(hands, attacker, d, lead, p)) for p in self.defences(h[d], lead, others)]
            out.append((lead, replies))
        return out

    # -- values ------------------------------------------------------------------

    def safe(self, hands: Hands, attacker: int, hero: int) -> bool:
        """Return whether ``hero`` can make sure of not losing, ``attacker`` to lead."""
        if not hands[hero]:
            return True
        if sum(1 for h in hands if h) <= 1:
            return False
        if self.n > 2:
            return self._graph_safe(hands, attacker, hero)
        return self._dfs(hands, attacker, hero)

    def after(self, hands: Hands, next_attacker: int, hero: int) -> bool:
        """Return whether ``hero`` is safe in the position after a defence."""
        if not hands[hero]:
            return True
        if next_attacker < 0:
            return False
        return self.safe(hands, next_attacker, hero)

    def _dfs(self, hands: Hands, attacker: int, hero: int) -> bool:
        self.nodes += 1
        d = self.defender_of(hands, attacker)
        ha, hd = hands[attacker], hands[d]
        if ha.bit_count() <= min(hd.bit_count(), self.max_lead) and _one_suit(ha):
            return attacker == hero  # The attacker goes out at once; with two players the other loses.
        key = self.key(hands, attacker, hero)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        want = attacker == hero
        result = not want
        for lead in self.leads(ha, hd, _others(hands, attacker)):
            if self._lead_value(hands, attacker, d, lead, hero) == want:
                result = want
                break
        self.table[key] = result
        return result

    def _lead_value(self, hands: Hands, attacker: int, d: int, lead: int, hero: int) -> bool:
        h = list(hands)
        h[attacker] &= ~lead
        others = _others(tuple(h), d) | lead
        want = d == hero
        for pairs in self.defences(h[d], lead, others):
            after, nxt = self.resolve(hands, attacker, d, lead, pairs)
            if self.after(after, nxt, hero) == want:
                return want
        return not want

    def lead_safe(self, hands: Hands, attacker: int, lead: int, hero: int) -> bool:
        """Return whether ``hero`` is safe after ``attacker`` leads ``lead``."""
        return self._lead_value(hands, attacker, self.defender_of(hands, attacker), lead, hero)

    # -- many players: the attractor of the others ---------------------------------------

    def _graph_safe(self, hands: Hands, attacker: int, hero: int) -> bool:
        key = self.key(hands, attacker, hero)
        if key not in self.table:
            self._build(hands, attacker, hero)
        return key not in self.loss

    def _build(self, hands: Hands, attacker: int, hero: int) -> None:
        """List every position reachable from this one and find those where the others can force a loss."""
        self.graphs += 1
        # node key -> (chooser is hero, options: per lead, (defender is hero, successor keys))
        graph: dict[tuple[object, ...], tuple[bool, list[tuple[bool, list[tuple[object, ...]]]]]] = {}
        lost: set[tuple[object, ...]] = set()
        won: tuple[object, ...] = ("won",)
        gone: tuple[object, ...] = ("lost",)
        stack = [(hands, attacker)]
        while stack:
            hs, a = stack.pop()
            k = self.key(hs, a, hero)
            if k in graph or k in self.table:
                continue
            self.nodes += 1
            d = self.defender_of(hs, a)
            opts: list[tuple[bool, list[tuple[object, ...]]]] = []
            for _, replies in self.options(hs, a):
                succ: list[tuple[object, ...]] = []
                for _, after, nxt in replies:
                    if not after[hero]:
                        succ.append(won)
                    elif nxt < 0:
                        succ.append(gone)
                    else:
                        sk = self.key(after, nxt, hero)
                        succ.append(sk)
                        if sk not in graph and sk not in self.table:
                            stack.append((after, nxt))
                opts.append((d == hero, succ))
            graph[k] = (a == hero, opts)
        lost.add(gone)
        lost.update(k for k in self.loss)

        def option_lost(defender_is_hero: bool, succ: list[tuple[object, ...]]) -> bool:
            if defender_is_hero:
                return all(s in lost for s in succ)
            return any(s in lost for s in succ)

        changed = True
        while changed:
            changed = False
            for k, (mine, opts) in graph.items():
                if k in lost:
                    continue
                verdicts = (option_lost(dh, succ) for dh, succ in opts)
                if all(verdicts) if mine else any(verdicts):
                    lost.add(k)
                    changed = True
        for k in graph:
            self.table[k] = k not in lost
            if k in lost:
                self.loss.add(k)

    # -- the principal line ----------------------------------------------------------

    def line(self, hands: Hands, attacker: int, hero: int, limit: int = 200) -> list[Action]:
        """Return a principal variation to the end of the deal (or ``limit`` turns), as record actions.

        The side with a winning plan follows it; the other side resists as
        long as it can (it cannot change the result).
        """
        out: list[Action] = []
        for _ in range(limit):
            if not hands[hero] or sum(1 for x in hands if x) <= 1:
                break
            value = self.safe(hands, attacker, hero)
            d = self.defender_of(hands, attacker)
            options = self.options(hands, attacker)
            lead, replies = options[0]
            for lead_i, replies_i in options:
                if self._lead_value(hands, attacker, d, lead_i, hero) == value:
                    lead, replies = lead_i, replies_i
                    break
            pairs, after, nxt = replies[0]
            for p, a2, n2 in replies:
                if self.after(a2, n2, hero) == value:
                    pairs, after, nxt = p, a2, n2
                    break
            out.append(Lead(attacker, lead))
            out.append(Beat(d, tuple(sorted(pairs))))
            hands = after
            if nxt < 0:
                break
            attacker = nxt
        return out


def solve(state: State, *, all_leads: bool = True) -> SolveResult:
    """Solve a talon-empty position with the attacker to lead.

    Returns whether the attacker can make sure of not losing, every first
    lead that makes sure of it (one per class of equivalent leads; all of
    them unless ``all_leads`` is false), and a principal line.
    """
    if state.talon_size or state.phase != LEAD or state.in_progress:
        raise MustamaijaError("the solver needs a position with an empty talon and the attacker about to lead")
    if state.rules.trump == "marriage" and state.declarer == -1:
        raise MustamaijaError("the solver needs the trumps fixed: give the position a trump_suit (or none)")
    hero = state.attacker
    solver = Solver(state.rules, state.trump, state.n)
    hands = tuple(state.hands)
    d = state.defender
    safe_leads: list[int] = []
    for lead in solver.leads(hands[hero], hands[d], _others(hands, hero)):
        if solver.lead_safe(hands, hero, lead, hero):
            safe_leads.append(lead)
            if not all_leads:
                break
    value = bool(safe_leads)
    line = solver.line(hands, hero, hero)
    stats = {"table": len(solver.table), "graphs": solver.graphs}
    return SolveResult(hero, value, safe_leads, line, solver.nodes, stats)
