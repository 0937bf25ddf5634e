"""Exact solver for talon-empty endgames, where every hand is known.

The question is the one ``mustamaija solve`` answers: can the attacker make
sure of not being the loser, whatever the others do? With two players that is
the exact value of the position; with more, the others are treated as one
side playing against the attacker (a paranoid search), which is exactly the
"make sure" of the question.

Two players with cards: a depth-first AND/OR search. Every turn either
shrinks the attacker's hand or, when the defender beats everything, removes
cards from play, so no position repeats and the search needs no repetition
handling. The value depends only on the two hands, so it is stored for the
player to lead.

More players with cards: cards can circulate for ever (nobody beats, hands
pass cards round the table). Such a deal never ends, and M21 would stop it
without a loser, which is safe for the attacker. So the question is whether
the others can force the hero to lose (whether the position is in their
attractor); every other position is safe. The solver answers it with a
depth-first search that stops as soon as a position is decided and handles
the circles exactly (see ``Solver._search``). Once only two seats hold cards
the two-player search takes over.

Exactness: everything that cuts the search is either an isomorphism (the
position reached is the same up to renaming cards) or a dominance proved
below; nothing is "usually right".

**Canonical key (isomorphism).** Cards that left play no longer matter, and
only the order of the remaining cards within each suit does (whether one card
beats another depends on nothing else), so each suit becomes the sequence of
owners of its remaining cards in rank order. Q♠ never beats and is never
beaten (M2), so her rank is irrelevant: she is kept apart as "who holds her".
The plain suits (neither trumps nor spades, the suit of Q♠) are
interchangeable and are sorted. Seats are numbered from the player to lead,
skipping those who are out.

**The exchange lemma (two players).** Let x < y be cards of one suit with no
other card in play between them (Q♠ aside), and let positions P and P' differ
only in that X holds y and Y holds x in P, the reverse in P'. Then P is at
least as good for X as P'. Proof: X copies a strategy that is safe in P',
playing y wherever it would play x, and answers Y's moves in P as that
strategy answers the same moves in P' with y in place of x. This is always
possible: x and y compare alike with every other card in play, so the only
difference is between x and y themselves. X's copied moves are legal in P,
since y beats everything x beats. Y's moves in P have legal images in P':
Y's x becomes y, which beats everything x beats, and a card of Y that beats
X's y in P beats X's x in P'. Hand sizes, which led cards are beaten, who is
out, and so the turn order and the end, are the same in both games until the
two cards meet in one hand or one of them leaves play; from then on the two
positions are the same up to renaming. So X's copy is safe in P. (With more
seats a third player can receive one of the two cards and the argument
breaks, so the dominances below are used only when two seats hold cards; and
never while a marriage can still be declared, since then a king or a queen
is not interchangeable with its neighbour.)

**Consequences used by the two-player search.**

* Leads: within a *run* (cards of the attacker's hand with no card of the
  defender between them), a lead only needs to take the lowest cards of the
  run: leading a higher card instead leaves a position where, card for card,
  the defender holds lower cards and the attacker higher ones, which by the
  lemma is no better for the attacker's opponent (beaten cards leave play
  either way, and the defender's beaters for cards of one run are the same).
  At the root every legal lead is still judged, since a higher lead of a run
  may be unsafe where the lowest is safe; but when the lowest is unsafe, so
  is every lead it stands for, which is not searched again.
* Defences: the result of a defence depends only on which led cards are
  beaten and which cards beat them. For a given number ``m`` of beaten cards
  and ``k`` of trumps used against a plain lead, it is enough to beat the
  lowest ``m`` led cards (taking the highest, which the lemma says is at
  least as good for the defender, since a beater of a higher card beats a
  lower one), to use the ``k`` lowest trumps, and to beat the lowest
  ``m - k`` of those cards with the same suit greedily, each with the lowest
  card above both it and the previous beater. Swapping any beater for a lower
  unused card that still completes the defence moves a card of the defender
  past cards of the attacker to a higher slot (by the lemma never worse for
  the defender, and past the defender's own cards nothing changes), and the
  greedy choice is the only defence no such swap improves. So the defender
  tries at most one defence per pair ``(m, k)`` instead of every matching.
  This is the only sense in which a lower beater is "better": the proof
  compares keeping the higher card with keeping the lower one, everything
  else equal, never a higher card with a lower one in general.

**Quick exact cut-offs (two players).** Let B be the cards of the player to
lead that some card of the other can beat. If B is empty the leader wins:
leading the plain suits before the trumps, each suit in rising order, the
other can never beat a card (what it picks up is lower than what is still to
come, or of another suit) and must take everything. If B lies in one suit S
and the leader's cards of S, all led at once after the rest has been led so
(the other taking every card, so its hand grows), fit within the lead limit,
the leader also wins: it goes out with that last lead whatever the other
does (M18). This contains the plain case of a hand of one suit within the
limit.

**Move ordering.** Leads that empty a suit first (fewer suits are easier to
get rid of), then bigger leads, then leads the other cannot beat at all; for
the defender, beating everything first, with the most trumps first.

**More seats.** Positions with three or more holders are searched without
dominances, only with isomorphisms (equivalent beaters and equivalent led
cards, as above, which hold with any number of seats). The lost positions
are ranked by how long the others need to force the loss; in the principal
line they always move to a lost position of lower rank, so a lost line ends.

**Marriages still to be declared (V3, V4).** A declaration is a possible first
part of every action of a seat holding a non-spade king and queen; from then
on the solver for the declared trump suit takes over. Before that, every
lead and every defence is tried and positions are keyed by the exact hands.

>>> from mustamaija.games.mustamaija import State
>>> s = State.from_position([["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker=0, trump_suit=3)
>>> r = solve(s)
>>> r.attacker_safe, sorted(" ".join(card_name(c) for c in cards_of(m)) for m in r.safe_leads)
(True, ['3C', '3C AC', '5H 6H', 'QS'])
"""

from __future__ import annotations

import struct
import time
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from mustamaija.core.bits import popcount, popcount64
from mustamaija.core.cards import ALL_CARDS, QS, SUIT_MASKS, card_name, cards_of
from mustamaija.core.errors import MustamaijaError
from mustamaija.core.interrupt import POLL_EVERY, poll
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import Action, Beat, Declare, Lead
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import LEAD, State

if TYPE_CHECKING:  # mypyc's machine integers: compiled, plain 64-bit arithmetic with no tag checks; interpreted, ints.
    from mypy_extensions import i64

__all__ = ["Reply", "SolveResult", "Solver", "solve"]

_QS_BIT: Final = 1 << QS
_NOQS: Final = ALL_CARDS & ~_QS_BIT
_SM: Final = SUIT_MASKS
_KQ: Final = L.MARRIAGES

Hands = tuple[int, ...]
Pairs = tuple[tuple[int, int], ...]
Key = object
"""A position's key in the tables of the search with three or more holders (opaque: compared and hashed only)."""

_KEY: Final = struct.Struct("<3b5q")
"""A canonical key of up to five holders (:meth:`Solver.key`) as the bytes of its eight numbers.

Bytes rather than a tuple: one object of about 70 bytes instead of a tuple and its boxed codes (about 290), which
the garbage collector does not walk and a lookup compares with one ``memcmp``. A deep search keeps millions."""


def _pack_table(width: int, above: bool) -> list[int]:
    """Return, at ``union << width | owned``, the owned bits packed in the union's rank order (``owned`` within ``union``).

    With ``above`` the bit ``1 << count(union)`` is added; without, the count
    is kept above the packed bits, at ``1 << width``.
    """
    out = [0] * (1 << 2 * width)
    for u in range(1 << width):
        for a in range(1 << width):
            if a & ~u:
                continue
            packed = i = 0
            rest = u
            while rest:
                low = rest & -rest
                if a & low:
                    packed |= 1 << i
                i += 1
                rest ^= low
            out[u << width | a] = packed | (1 << i if above else i << width)
    return out


# A suit's 13 ranks as 7 low and 6 high ones: reads of small tables instead of a lookup in a dict of every
# (union, owned) pair met so far, which cost a cache miss a time in the two-player search. The tables are bytes
# (every entry fits one): compiled, a byte is read as a machine integer, with no object to unbox.
_PACK_LO: Final = bytes(v & 0x7F for v in _pack_table(7, False))
_PACK_HI: Final = bytes(_pack_table(6, True))
_COUNT_LO: Final = bytes(v >> 7 for v in _pack_table(7, False)[::129])
"""How many of the low 7 ranks are in play, by the union's 7 bits (the table's entries where ``owned`` is ``union``)."""


def _pack(u: i64, a: i64) -> i64:
    """Return a suit's code: ``a``'s cards among the suit's cards in play ``u`` (13 bits each), packed, with a bit above.

    >>> bin(_pack(0b1011, 0b1001))  # cards 0, 1 and 3 in play, 0 and 3 owned: 1, 0, 1 packed, and the bit above
    '0b1101'
    >>> bin(_pack(0b1_0000_0100_0000, 0b1_0000_0000_0000)), _COUNT_LO[0b1011]
    ('0b110', 3)
    """
    low = u & 0x7F
    lo: i64 = _PACK_LO[low << 7 | (a & 0x7F)]
    hi: i64 = _PACK_HI[(u >> 7) << 6 | (a >> 7)]
    n: i64 = _COUNT_LO[low]
    return lo | hi << n


def _sorted3(a: i64, b: i64, c: i64) -> tuple[i64, i64, i64]:
    """Return three codes in rising order, by swaps (compiled, the tuple of machine integers is not boxed)."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return a, b, c


@dataclass(frozen=True, slots=True)
class Reply:
    """One answer to a lead: an optional marriage declared first, the defence, and where it leads."""

    declare: int
    pairs: Pairs
    hands: Hands
    next: int
    trump: int

    def __reduce__(self) -> tuple[type[Reply], tuple[int, Pairs, Hands, int, int]]:
        """Pickle by the fields, as in the pure build (a compiled frozen dataclass cannot be unpickled field by field)."""
        return Reply, (self.declare, self.pairs, self.hands, self.next, self.trump)


@dataclass
class SolveResult:
    """The answer for the attacker of a position: safe or not, every safe first lead, and a principal line."""

    attacker: int
    attacker_safe: bool
    safe_leads: list[int]
    line: list[Action]
    nodes: int = 0
    stats: dict[str, int] = field(default_factory=dict)
    declarations: dict[int, list[int]] = field(default_factory=dict)
    time_s: float = 0.0

    def to_json(self) -> dict[str, object]:
        """Return the ``solve --json`` object of docs/formats.md (leads' cards sorted by rank then suit)."""
        out: dict[str, object] = {
            "attacker": self.attacker,
            "attacker_safe": self.attacker_safe,
            "safe_leads": sorted(_sorted_names(m) for m in self.safe_leads),
            "line": [a.to_json() for a in self.line],
            "nodes": self.nodes,
            "time_s": round(self.time_s, 4),
        }
        if self.declarations:
            out["safe_declarations"] = {
                "SHDC"[s]: sorted(_sorted_names(m) for m in leads) for s, leads in sorted(self.declarations.items())
            }
        return out


def _sorted_names(mask: int) -> list[str]:
    return [card_name(c) for c in sorted(cards_of(mask), key=lambda c: (c % 13, c // 13))]


def _one_suit(hand: int) -> bool:
    low = hand & -hand
    return not hand & ~_SM[(low.bit_length() - 1) // 13]


def _spread(k: i64) -> i64:
    """Return a key under ``2 ** 63`` mixed one to one (three xorshifts), so that keys that differ spread over a dict.

    A dict places an int key by its low bits, which in the solver's keys are
    one suit's code, shared by thousands of keys: one table's keys fell on a
    few hundred places each, and every lookup probed and compared along a
    chain. Each step is invertible (``x ^ x >> s``, and ``x ^ x << s`` within
    63 bits), so distinct keys stay distinct and nothing but the time changes.

    Here 4,096 keys share their low 14 bits (a suit's code), and so one place in a dict of 8,192:

    >>> keys = [0b101101 | i << 14 for i in range(4096)]
    >>> len({k & 8191 for k in keys}), len({_spread(k) for k in keys}), len({_spread(k) & 8191 for k in keys})
    (1, 4096, 2048)
    """
    k ^= k >> 31
    k ^= (k & 0xFFFFFFFFFFFFF) << 11  # The low 52 bits only: the result stays under 2 ** 63, a machine word.
    return k ^ k >> 17


def _below_top(x: i64) -> i64:
    """Return the bits of a positive ``x`` below its highest one: compiled, six shifts of a machine word.

    >>> bin(_below_top(0b10110)), _below_top(1)
    ('0b1111', 0)
    """
    x |= x >> 1
    x |= x >> 2
    x |= x >> 4
    x |= x >> 8
    x |= x >> 16
    x |= x >> 32
    return x >> 1


def _below_top_interpreted(x: int) -> int:
    return (1 << (x.bit_length() - 1)) - 1


if isinstance(_below_top, types.FunctionType):  # Interpreted, the C method is quicker than the shifts.
    globals()["_below_top"] = _below_top_interpreted


def _defence_key(low: i64, sh: i64, d: i64, tm: i64, tsh: i64) -> i64:
    """Return the defence cache's key of a lead against ``d``: what the defences depend on, in one machine word.

    ``low`` is the lead's cards of its suit (13 bits), ``sh`` the suit's
    shift, ``tm`` and ``tsh`` the trump suit's mask and shift: the defender's
    cards of the led suit (Q♠ aside) and its trumps are all that matter. The key is spread (:func:`_spread`).
    """
    return _spread(low | (d >> sh & _NOQS >> sh & 0x1FFF) << 13 | (d & tm) >> tsh << 26 | sh << 39)


def _others(hands: Hands, seat: int) -> int:
    m = 0
    for s, h in enumerate(hands):
        if s != seat:
            m |= h
    return m


def _pairs_of(targets: list[int], beaters: int) -> Pairs:
    """Match beaten cards to beating cards: each target to the lowest unused beater that beats it (or any trump)."""
    out = []
    for t in targets:
        suit = t // 13
        same = beaters & _SM[suit] & ~((2 << t) - 1)
        pick = same & -same if same else beaters & -beaters
        out.append((t, pick.bit_length() - 1))
        beaters &= ~pick
    return tuple(sorted(out))


def _holders(hands: Hands) -> int:
    """Return how many of ``hands`` hold cards.

    A loop over the typed tuple: compiled, ``hands.count(0)`` was a generic method call, costlier than the loop.
    """
    k = 0
    for h in hands:
        if h:
            k += 1
    return k


_SAFE: Final = -1
_LOST: Final = -2
_NONE: Final = -3


class _Option:
    """An option of a position in the search whose value its known replies did not settle."""

    def __init__(self, hero_chooses: bool, rank: int, kids: list[tuple[Hands, int, Key]], order: int) -> None:
        self.hero_chooses = hero_chooses  # The hero defends (or declares): the option is lost only if every reply is.
        self.rank = rank  # The highest rank of its lost replies so far.
        self.kids = kids  # The replies still to search: the hands, the next attacker and the key.
        self.order = order  # Searched in rising order: likeliest to decide its position first.


class _Frame:
    """A position on the path of :meth:`Solver._search`, with where its options have got to."""

    def __init__(self, key: Key, hero_moves: bool, opts: list[_Option], node_rank: int, idx: int) -> None:
        self.key = key
        self.hero_moves = hero_moves
        self.opts = opts
        self.oi = 0
        self.ki = 0
        self.node_rank = node_rank  # The hero to lead: the highest rank of its lost options so far.
        self.idx = idx  # Its place on the path.
        self.deps = 0  # The places on the path whose being safe its value so far rests on: bit i for place i.
        # Safe positions below it kept back, each group here because this is the deepest place it rests on: it is
        # decided when this position is. Passing groups up frame by frame cost a walk of every level on a deep path.
        self.groups: list[_Group] = []


class _Group:
    """Safe positions kept back together, because they rest on the same places on the path (``mask``)."""

    def __init__(self, keys: list[Key], mask: int) -> None:
        self.keys = keys
        self.mask = mask
        self.merged: _Group | None = None  # What it rested on deepest turned out safe: it is part of this group now.
        self.dead = False  # A place it rested on turned out lost: its positions are dropped.


def _take(hero_chooses: bool, rank: int, v: int) -> tuple[int, int]:
    """Take one value (``_SAFE`` or a lost rank) into a choice: return its value if that settles it, and the highest lost rank.

    Where the hero chooses, one safe value settles it (safe); where another
    seat does, one lost value does (lost, with that rank).
    """
    if v == _SAFE:
        return (_SAFE if hero_chooses else _NONE), rank
    if hero_chooses:
        return _NONE, max(rank, v)
    return v, rank


def _standing(hands: Hands, hero: int) -> int:
    """Return how badly off the hero looks after a reply: its cards against the others' (for move ordering only)."""
    h = popcount(hands[hero])
    return 4 * h - (sum(popcount(x) for x in hands) - h)


def _open_replies(o: _Option) -> tuple[int, int]:
    return (o.order, len(o.kids))


def _alive(g: _Group | None) -> _Group | None:
    """Return the group a kept-back position belongs to now, or None if it was dropped.

    Groups merge again and again on a deep path, so the walk shortens what it walks (path compression): every
    group on the way then points at the group they all belong to.
    """
    if g is None:
        return None
    root = g
    while root.merged is not None:
        root = root.merged
    while g.merged is not None and g.merged is not root:
        g.merged, g = root, g.merged
    return None if root.dead else root


class Solver:
    """Solves positions for one rule set, trump suit and seat count; its tables survive between calls.

    ``trump`` is a suit index or -1. Under marriage rules, -1 means no
    marriage has been declared yet, so one still may be (V3, V4).
    """

    def __init__(self, rules: Rules, trump: int, players: int) -> None:
        self.rules = rules
        self.trump = trump
        self.n = players
        self.row = L.BEATERS[trump]
        self.max_lead = rules.max_lead if rules.max_lead is not None else 52
        self.undeclared = rules.trump == "marriage" and trump < 0
        self.plain = [s for s in range(4) if s != trump and s != 0]
        self.trump_mask = _SM[trump] & _NOQS if trump >= 0 else 0
        self.trump_shift = 13 * trump if trump >= 0 else 0
        self.table: dict[int, bool] = {}
        self.mtable: dict[Key, int] = {}  # Positions of three or more holders decided: _SAFE, or a lost one's rank.
        self.utable: dict[int, bool] = {}
        self._subs: dict[int, Solver] = {}
        self._lead_cache: dict[int, list[int]] = {}
        self._def_cache: dict[int, list[tuple[int, int]]] = {}
        self._mdef_cache: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
        self._counter = [0]
        self.searches = 0
        self.kept_back = 0  # Safe positions found resting on the search path (see _search).
        self.dropped = 0  # Of those, the ones dropped because what they rested on was lost.
        self._two = _TwoHolders(self)

    @property
    def nodes(self) -> int:
        """Return the positions this solver has searched (each once: the tables remember them)."""
        return self._counter[0] + self._two.nodes

    def sub(self, trump: int) -> Solver:
        """Return the solver for the rest of the deal once ``trump`` is declared (sharing nothing but the rules)."""
        s = self._subs.get(trump)
        if s is None:
            s = self._subs[trump] = Solver(self.rules, trump, self.n)
        return s

    def total_nodes(self) -> int:
        """Return the positions searched by this solver and the ones it handed over to after a marriage."""
        return self.nodes + sum(s.total_nodes() for s in self._subs.values())

    # -- positions -------------------------------------------------------------

    def key(self, hands: Hands, attacker: int, hero: int) -> Key:
        """Return the canonical key of a lead position for ``hero`` (see the module docstring).

        Each suit's code packs, holder by holder from the player to lead
        (the last one implied), which of the suit's remaining cards the
        holder has, in rank order. With up to five holders the codes fit a
        machine integer, and are built so, with no list.
        """
        n = len(hands)
        count = 0
        hero_i = -1
        qs_owner = -1
        union = 0
        seat = attacker
        for _ in range(n):
            h = hands[seat]
            if h:
                if seat == hero:
                    hero_i = count
                if h & _QS_BIT:
                    qs_owner = count
                union |= h
                count += 1
            seat = seat + 1 if seat + 1 < n else 0
        if count > 5:
            return self._key_long(hands, attacker, count, hero_i, qs_owner, union)
        u: i64 = union & _NOQS
        u0: i64 = u & 0x1FFF
        u1: i64 = u >> 13 & 0x1FFF
        u2: i64 = u >> 26 & 0x1FFF
        u3: i64 = u >> 39
        c0: i64 = 0
        c1: i64 = 0
        c2: i64 = 0
        c3: i64 = 0
        k = 0
        seat = attacker
        for _ in range(n):
            h = hands[seat]
            if h:
                k += 1
                if k == count:
                    break  # The last holder's cards are the rest: implied.
                hm: i64 = h & _NOQS
                c0 = c0 << 14 | _pack(u0, hm & u0)
                c1 = c1 << 14 | _pack(u1, hm >> 13 & u1)
                c2 = c2 << 14 | _pack(u2, hm >> 26 & u2)
                c3 = c3 << 14 | _pack(u3, hm >> 39 & u3)
            seat = seat + 1 if seat + 1 < n else 0
        trump = self.trump
        spades = c0 if trump != 0 else 0
        if trump < 0 or trump == 0:
            # Hearts, diamonds and clubs are interchangeable: sorted.
            c1, c2, c3 = _sorted3(c1, c2, c3)
            return _KEY.pack(count, hero_i, qs_owner, c0 if trump == 0 else 0, spades, c1, c2, c3)
        tr, p, q = (c1, c2, c3) if trump == 1 else (c2, c1, c3) if trump == 2 else (c3, c1, c2)
        if p > q:
            p, q = q, p
        return _KEY.pack(count, hero_i, qs_owner, tr, spades, p, q, 0)  # The trumps fixed per solver: no clash.

    def _key_long(self, hands: Hands, attacker: int, count: int, hero_i: int, qs_owner: int,
                  union: int) -> Key:
        """Return :meth:`key` for six holders or more, whose codes pass 64 bits: the same key, by Python ints."""
        n = len(hands)
        order = [hands[(attacker + k) % n] for k in range(n) if hands[(attacker + k) % n]]
        u = union & _NOQS
        codes = []
        for shift in (0, 13, 26, 39):
            us = u >> shift & 0x1FFF
            code = 0
            for h in order[:-1]:
                code = code << 14 | int(_pack(us, h >> shift & us))
            codes.append(code)
        trump = self.trump
        plain = sorted(codes[s] for s in self.plain)
        return (count, hero_i, qs_owner, codes[trump] if trump >= 0 else 0, codes[0] if trump != 0 else 0, *plain)

    def key2(self, a: i64, d: i64) -> i64:
        """Return the canonical key of a two-holder lead position: ``a`` to lead, ``d`` to defend."""
        qs: i64 = a >> QS & 1
        u: i64 = (a | d) & _NOQS
        a &= u
        c0 = _pack(u & 0x1FFF, a & 0x1FFF)
        c1 = _pack(u >> 13 & 0x1FFF, a >> 13 & 0x1FFF)
        c2 = _pack(u >> 26 & 0x1FFF, a >> 26 & 0x1FFF)
        c3 = _pack(u >> 39, a >> 39)
        t = self.trump
        if t <= 0:
            # Spades (trumps or not) stay first; hearts, diamonds and clubs are interchangeable: sorted.
            c1, c2, c3 = _sorted3(c1, c2, c3)
            return (((c0 << 14 | c1) << 14 | c2) << 14 | c3) << 1 | qs
        tr, p, q = (c1, c2, c3) if t == 1 else (c2, c1, c3) if t == 2 else (c3, c1, c2)
        if p > q:
            p, q = q, p
        return (((tr << 14 | c0) << 14 | p) << 14 | q) << 1 | qs

    def defender_of(self, hands: Hands, attacker: int) -> int:
        """Return the defender: the next seat after the attacker with cards (M9)."""
        n = len(hands)
        d = (attacker + 1) % n
        while not hands[d]:
            d = (d + 1) % n
        return d

    def resolve(self, hands: Hands, attacker: int, d: int, lead: int, pairs: Pairs) -> tuple[Hands, int]:
        """Play a lead and its defence; return the hands and the next attacker, or -1 if the deal is over (M14-M19)."""
        beaten = beaters = 0
        for t, b in pairs:
            beaten |= 1 << t
            beaters |= 1 << b
        return self._resolve_masks(hands, attacker, d, lead, beaten, beaters)

    def _resolve_masks(self, hands: Hands, attacker: int, d: int, lead: int, beaten: int, beaters: int) -> tuple[Hands, int]:
        taken = lead & ~beaten
        h = list(hands)
        h[attacker] &= ~lead
        h[d] = (h[d] & ~beaters) | taken
        out = tuple(h)
        if _holders(out) <= 1:
            return out, -1
        n = len(out)
        a = d if not taken else (d + 1) % n
        while not out[a]:
            a = (a + 1) % n
        return out, a

    # -- moves -----------------------------------------------------------------

    def _suit_leads(self, suit: int, cards: int, theirs: int, trumped: bool, cap: int) -> list[int]:
        """Return the leads from one suit (two holders), lowest cards of each run only, encoded for sorting.

        ``cards`` are the leader's cards of ``suit``, ``theirs`` the
        defender's (Q♠ aside), ``trumped`` whether the defender holds a
        trump, ``cap`` the most cards a lead may hold. Each entry is
        ``score << 15 | suit << 13 | mask >> 13 * suit``, where the score prefers leads
        that empty the suit (fewer suits in hand are easier to get rid of),
        then bigger leads, then leads the defender cannot beat at all.
        """
        # Q♠ is a run of her own; the other cards form runs whatever her place (she never beats nor is beaten).
        runs: list[list[int]] = [[QS]] if cards & _QS_BIT else []
        current: list[int] = []
        last = -1
        for c in cards_of(cards & _NOQS):
            if last >= 0 and not theirs & ((1 << c) - (2 << last)):
                current.append(c)
            else:
                current = [c]
                runs.append(current)
            last = c
        plain = cards & _NOQS
        if trumped and suit != self.trump:
            beatable = plain
        elif theirs:
            beatable = plain & _below_top(theirs)
        else:
            beatable = 0
        masks = [0]
        for run in runs:
            prefixes = [0]
            for c in run:
                prefixes.append(prefixes[-1] | 1 << c)
            masks = [m | p for m in masks for p in prefixes if popcount(m | p) <= cap]
        out = []
        for m in masks:
            if m:
                score = ((m == cards) << 5) | (popcount(m) << 1) | (not m & beatable)
                # Under 2 ** 30: a one-digit int, which list.sort compares in C without a rich comparison.
                out.append(score << 15 | suit << 13 | m >> 13 * suit)
        out.sort(reverse=True)
        return out

    def leads(self, hand: int, defender: int, others: int) -> list[int]:
        """Return the leads worth trying, most promising first.

        With two holders (``others`` is then the defender's hand) one lead per
        run count is enough (see the module docstring); with more holders, or
        while a marriage may still be declared, every legal lead is listed.
        """
        limit = min(popcount(defender), self.max_lead)
        if self.undeclared or others != defender:
            return L.lead_list(hand, limit)
        return self._leads2(hand, defender, limit)

    def _leads2(self, a: int, d: int, lim: int) -> list[int]:
        trumped = bool(d & self.trump_mask)
        scored: list[int] = []
        for suit in range(4):
            cards = a & _SM[suit]
            if cards:
                cap = min(lim, popcount(cards))
                scored += self._suit_leads(suit, cards, d & _SM[suit] & _NOQS, trumped, cap)
        scored.sort(reverse=True)
        return [(x & 0x1FFF) << (x >> 13 & 3) * 13 for x in scored]

    def _dopts(self, lead: int, d: int) -> list[tuple[int, int]]:
        """Return the defences worth trying against ``lead`` as (beaten, beaters) masks (two holders, see the docstring)."""
        sh = (lead.bit_length() - 1) // 13 * 13
        key = _defence_key(lead >> sh, sh, d, self.trump_mask, self.trump_shift)
        hit = self._def_cache.get(key)
        if hit is not None:
            return hit
        return self._make_dopts(lead, d, key)

    def _make_dopts(self, lead: i64, d: i64, key: i64) -> list[tuple[int, int]]:
        # Masks as machine integers, and cards walked bit by bit (see _TwoHolders.win).
        sm: i64 = _SM[popcount64(_below_top(lead)) // 13]
        tm: i64 = self.trump_mask
        targets: i64 = lead & _NOQS
        ds = d & sm & _NOQS
        greedy: list[int] = [0]
        beaters: i64 = 0
        floor: i64 = 0  # The last beater taken (a bit), or none.
        rest = targets
        while rest:
            t = rest & -rest
            rest ^= t
            cand = ds & ~(((t if t > floor else floor) << 1) - 1)  # The defender's cards above both.
            if not cand:
                break
            floor = cand & -cand
            beaters |= floor
            greedy.append(beaters)
        jmax = len(greedy) - 1
        trumps: list[int] = [0]
        if tm and not tm & sm:
            tr = d & tm
            used: i64 = 0
            while tr:
                low = tr & -tr
                used |= low
                trumps.append(used)
                tr ^= low
        ntr = len(trumps) - 1
        prefix: list[int] = [0]
        beaten: i64 = 0
        rest = targets
        while rest:
            t = rest & -rest
            rest ^= t
            beaten |= t
            prefix.append(beaten)
        out = []
        for m in range(len(prefix) - 1, -1, -1):
            for k in range(min(m, ntr), max(0, m - jmax) - 1, -1):
                out.append((prefix[m], greedy[m - k] | trumps[k]))
        self._def_cache[key] = out
        return out

    def defences(self, hand: int, led: int, others: int, *, two_holders: bool | None = None) -> Iterator[Pairs]:
        """Yield defences against ``led`` worth trying, as (led, beater) pairs.

        ``others`` holds every remaining card outside the defender's hand (the
        led cards included). With two holders (the default when the solver
        is for two seats) this is one defence per (cards beaten, trumps used),
        which is enough (see the module docstring); otherwise every defence,
        one per class of equivalent beaters and equivalent led cards.
        """
        if two_holders is None:
            two_holders = self.n == 2
        if two_holders and not self.undeclared:
            targets = cards_of(led & _NOQS)
            for beaten, beaters in self._dopts(led, hand):
                yield _pairs_of([t for t in targets if beaten >> t & 1], beaters)
            return
        seen: set[tuple[int, int]] = set()
        for pairs in self._all_defences(hand, led, others, exact=self.undeclared):
            beaten = beaters = 0
            for t, b in pairs:
                beaten |= 1 << t
                beaters |= 1 << b
            if (beaten, beaters) not in seen:
                seen.add((beaten, beaters))
                yield pairs

    def _all_defences(self, hand: int, led: int, others: int, *, exact: bool) -> Iterator[Pairs]:
        """Yield every defence, or (unless ``exact``) one per class of equivalent beaters and led cards.

        Equivalent beaters: cards of the defender's hand with no other card in
        play between them; equivalent led cards: led cards with no other card
        in play between them. Swapping such cards gives the same position up
        to renaming, with any number of seats. Under a marriage still to be
        declared a king or a queen is never equivalent to another card.
        """
        row = self.row
        others &= _NOQS
        special = 0
        if exact:
            for s in (1, 2, 3):
                special |= _KQ[s]
        targets = cards_of(led & _NOQS)
        # Equivalent led cards: only the lowest ones of a run of led cards need be beaten first.
        run_prev: list[int] = []
        inplay = (others | hand) & _NOQS
        for i, t in enumerate(targets):
            prev = targets[i - 1] if i else -1
            same = (
                not exact
                and prev >= 0
                and prev // 13 == t // 13
                and not (inplay & ~led) & ((1 << t) - (2 << prev))
                and not (special >> t & 1 or special >> prev & 1)
            )
            run_prev.append(i - 1 if same else -1)

        def distinct(avail: int) -> list[int]:
            if exact:
                return cards_of(avail)
            picks = []
            last = -1
            for b in cards_of(avail):
                if last >= 0 and b // 13 == last // 13 and not others & ((1 << b) - (2 << last)):
                    last = b
                    continue
                picks.append(b)
                last = b
            return picks

        n_targets = len(targets)

        def rec(i: int, avail: int, beat_prev: bool) -> Iterator[Pairs]:
            if i == n_targets:
                yield ()
                return
            t = targets[i]
            can_beat = run_prev[i] < 0 or beat_prev
            if can_beat:
                for b in distinct(avail & row[t]):
                    for rest in rec(i + 1, avail & ~(1 << b), True):
                        yield ((t, b), *rest)
            yield from rec(i + 1, avail, False)

        yield from rec(0, hand, True)

    def _defence_masks(self, hand: int, led: int, others: int) -> list[tuple[int, int]]:
        """Return the defences of :meth:`_all_defences` (equivalences only) as distinct (beaten, beaters) masks, cached."""
        suit = (led.bit_length() - 1) // 13
        relevant = (_SM[suit] | self.trump_mask) & _NOQS
        key = (led, hand & relevant, others & relevant)
        hit = self._mdef_cache.get(key)
        if hit is not None:
            return hit
        seen: dict[tuple[int, int], None] = {}
        for pairs in self._all_defences(hand & relevant, led, others & relevant, exact=False):
            beaten = beaters = 0
            for t, b in pairs:
                beaten |= 1 << t
                beaters |= 1 << b
            seen[(beaten, beaters)] = None
        out = list(seen)
        self._mdef_cache[key] = out
        return out

    def _declarable(self, hand: int) -> list[int]:
        if not self.undeclared:
            return []
        return [s for s in (1, 2, 3) if hand & _KQ[s] == _KQ[s]]

    def replies(self, hands: Hands, attacker: int, lead: int) -> list[Reply]:
        """Return the defender's answers to ``lead`` worth trying, each with the position it leads to.

        Under a marriage still to be declared these include the defender's
        declarations, each followed by the defences under the new trumps.
        """
        d = self.defender_of(hands, attacker)
        h = list(hands)
        h[attacker] &= ~lead
        two = _holders(hands) - (h[attacker] == 0) <= 2  # Two holders from here on: the dominances hold.
        others = _others(tuple(h), d) | lead
        out = []
        for pairs in self.defences(hands[d], lead, others, two_holders=two):
            after, nxt = self.resolve(hands, attacker, d, lead, pairs)
            out.append(Reply(-1, pairs, after, nxt, self.trump))
        for s in self._declarable(hands[d]):
            sub = self.sub(s)
            for pairs in sub.defences(hands[d], lead, others, two_holders=two):
                after, nxt = sub.resolve(hands, attacker, d, lead, pairs)
                out.append(Reply(s, pairs, after, nxt, s))
        return out

    def options(self, hands: Hands, attacker: int) -> list[tuple[int, list[tuple[Pairs, Hands, int]]]]:
        """Return each lead with each defence and the position it leads to (no declarations)."""
        d = self.defender_of(hands, attacker)
        out = []
        for lead in self.leads(hands[attacker], hands[d], _others(hands, attacker)):
            out.append((lead, [(r.pairs, r.hands, r.next) for r in self.replies(hands, attacker, lead) if r.declare < 0]))
        return out

    # -- values ------------------------------------------------------------------

    def safe(self, hands: Hands, attacker: int, hero: int) -> bool:
        """Return whether ``hero`` can make sure of not losing, ``attacker`` to lead."""
        if not hands[hero]:
            return True
        holders = [s for s, h in enumerate(hands) if h]
        if len(holders) <= 1:
            return False
        if len(holders) == 2:
            d = self.defender_of(hands, attacker)
            win = self._win2u(hands[attacker], hands[d]) if self.undeclared else self._two.win(hands[attacker], hands[d])
            return win if hero == attacker else not win
        return self._graph_safe(hands, attacker, hero)

    def state_safe(self, state: State, hero: int) -> bool:
        """Return whether ``hero`` can make sure of not losing from ``state``, between turns or over."""
        if state.is_over:
            return state.loser != hero
        if not state.hands[hero]:
            return True
        return self.safe(tuple(state.hands), state.attacker, hero)

    def after(self, hands: Hands, next_attacker: int, hero: int) -> bool:
        """Return whether ``hero`` is safe in the position after a defence."""
        if not hands[hero]:
            return True
        if next_attacker < 0:
            return False
        return self.safe(hands, next_attacker, hero)

    def reply_safe(self, reply: Reply, hero: int) -> bool:
        """Return whether ``hero`` is safe after ``reply`` (under the trumps it leaves)."""
        solver = self if reply.trump == self.trump else self.sub(reply.trump)
        return solver.after(reply.hands, reply.next, hero)

    def lead_safe(self, hands: Hands, attacker: int, lead: int, hero: int) -> bool:
        """Return whether ``hero`` is safe after ``attacker`` leads ``lead`` (every legal lead may be asked)."""
        d = self.defender_of(hands, attacker)
        a2 = hands[attacker] & ~lead
        if _holders(hands) == 2 and not self.undeclared:
            if not a2:
                return hero != d  # The attacker is out at once; the defender is left with cards.
            win = self._lead_wins2(hands[attacker], hands[d], lead)
            if hero == attacker:
                return win
            return not win if hero == d else True
        want = d == hero
        for r in self.replies(hands, attacker, lead):
            if self.reply_safe(r, hero) == want:
                return want
        return not want

    def _lead_wins2(self, a: int, d: int, lead: int) -> bool:
        """Return whether the player to lead (holding ``a``) is safe after leading ``lead`` against ``d``."""
        a2 = a & ~lead
        if not a2:
            return True
        two = self._two
        for beaten, beaters in self._dopts(lead, d):
            d2 = (d & ~beaters) | (lead & ~beaten)
            if not d2:
                return False
            if beaten == lead:
                if two.win(d2, a2):
                    return False
            elif not two.win(a2, d2):
                return False
        return True

    # -- marriages still to be declared, two holders ----------------------------------

    def _win2u(self, a: int, d: int) -> bool:
        """As :meth:`_TwoHolders.win` while a marriage may still be declared: no dominance, every move tried."""
        nd = popcount(d)
        lim = nd if nd < self.max_lead else self.max_lead
        if popcount(a) <= lim and _one_suit(a):
            return True
        key = a << 52 | d
        hit = self.utable.get(key)
        if hit is not None:
            return hit
        self._counter[0] += 1
        if not self._counter[0] & (POLL_EVERY - 1):
            poll()
        result = any(self.sub(s)._two.win(a, d) for s in self._declarable(a))
        if not result:
            for lead in L.iter_leads(a, lim):
                if self._lead_wins2u(a, d, lead):
                    result = True
                    break
        self.utable[key] = result
        return result

    def _lead_wins2u(self, a: int, d: int, lead: int) -> bool:
        a2 = a & ~lead
        if not a2:
            return True
        for s in self._declarable(d):
            sub = self.sub(s)
            for beaten, beaters in sub._dopts(lead, d):
                d2 = (d & ~beaters) | (lead & ~beaten)
                if not d2 or (sub._two.win(d2, a2) if beaten == lead else not sub._two.win(a2, d2)):
                    return False
        seen: set[tuple[int, int]] = set()
        for pairs in self._all_defences(d, lead, a2 | lead, exact=True):
            beaten = beaters = 0
            for t, b in pairs:
                beaten |= 1 << t
                beaters |= 1 << b
            if (beaten, beaters) in seen:
                continue
            seen.add((beaten, beaters))
            d2 = (d & ~beaters) | (lead & ~beaten)
            if not d2 or (self._win2u(d2, a2) if beaten == lead else not self._win2u(a2, d2)):
                return False
        return True

    # -- three or more holders: the attractor of the others ---------------------------------------

    def _graph_safe(self, hands: Hands, attacker: int, hero: int) -> bool:
        key = self._mkey(hands, attacker, hero)
        known = self.mtable.get(key)
        if known is None:
            self._search(hands, attacker, hero, key)
            known = self.mtable[key]
        return known == _SAFE

    def _mkey(self, hands: Hands, attacker: int, hero: int) -> Key:
        if self.undeclared:
            # A king or queen may still make a marriage: no renaming of cards.
            return ("u", hands, attacker, hero)
        return self.key(hands, attacker, hero)

    def _stored(self, key: Key) -> int:
        """Return the stored value of a position: ``_SAFE``, the rank of a lost one, or ``_NONE`` if not decided yet."""
        known = self.mtable.get(key)
        return _NONE if known is None else known

    def _store(self, key: Key, value: int) -> None:
        self.mtable[key] = value

    def _open(self, key: Key, hands: Hands, attacker: int, hero: int, idx: int) -> _Frame | int:
        """Return the value of a position if the known values of the positions after it settle it, else its frame.

        The value is ``_SAFE`` or the rank of a lost position. Each option
        first takes the replies whose value is known (the end of the deal,
        two holders left, or stored), so that a position one known reply
        settles is never searched (an enhanced transposition cut-off); the
        unsettled options are then searched fewest open replies first.
        """
        self._counter[0] += 1
        if not self._counter[0] & (POLL_EVERY - 1):
            poll()
        d = self.defender_of(hands, attacker)
        hero_moves = attacker == hero
        cands: list[tuple[Solver, int]] = [(self.sub(s), -1) for s in self._declarable(hands[attacker])]
        cands += [(self, lead) for lead in self.leads(hands[attacker], hands[d], _others(hands, attacker))]
        opts: list[_Option] = []
        node_rank = 0
        for sv, lead in cands:
            hero_chooses = lead < 0 or d == hero
            rank = 0
            decided = _NONE
            rest: list[tuple[Hands, int, Key]] = []
            for hs, nxt in self._kids(hands, attacker, d, sv, lead, hero):
                if nxt < 0:
                    q = _SAFE if nxt == _SAFE else 0
                elif _holders(hs) <= 2:
                    q = _SAFE if self.safe(hs, nxt, hero) else 0
                else:
                    k = self._mkey(hs, nxt, hero)
                    q = self._stored(k)
                    if q == _NONE:
                        rest.append((hs, nxt, k))
                        continue
                decided, rank = _take(hero_chooses, rank, q)
                if decided != _NONE:
                    break
            if decided == _NONE:
                if rest:
                    # Likeliest to decide the position first: the hero best off when it leads, worst off otherwise.
                    # A loop, not min() or max(): compiled, a builtin is looked up and called generically.
                    order = _standing(rest[0][0], hero)
                    for i in range(1, len(rest)):
                        st = _standing(rest[i][0], hero)
                        if (st < order) if hero_chooses else (st > order):
                            order = st
                    if not hero_moves:
                        order = -order
                    opts.append(_Option(hero_chooses, rank, rest, order))
                    continue
                decided = rank if hero_chooses else _SAFE
            nv, node_rank = _take(hero_moves, node_rank, decided)
            if nv != _NONE:
                return nv + 1 if nv >= 0 else nv
        if not opts:
            return node_rank + 1 if hero_moves else _SAFE
        opts.sort(key=_open_replies)
        return _Frame(key, hero_moves, opts, node_rank, idx)

    def _kids(self, hands: Hands, a: int, d: int, sv: Solver, lead: int, hero: int) -> list[tuple[Hands, int]]:
        """Return the positions one option can lead to, each with the next attacker (or _SAFE / _LOST: decided)."""
        hs = hands
        if lead < 0:
            return [(hs, _SAFE if sv.safe(hs, a, hero) else _LOST)]
        out: list[tuple[Hands, int]] = []
        if not self.undeclared:
            # Two holders from here on (the attacker leads its last cards): the dominances hold.
            two = _holders(hs) - (hs[a] == lead) <= 2
            defs = self._dopts(lead, hs[d]) if two else self._defence_masks(hs[d], lead, _others(hs, d) | lead)
            for beaten, beaters in defs:
                after, nxt = self._resolve_masks(hs, a, d, lead, beaten, beaters)
                if not after[hero]:
                    out.append((hs, _SAFE))
                elif nxt < 0:
                    out.append((hs, _LOST))
                else:
                    out.append((after, nxt))
            return out
        for r in self.replies(hs, a, lead):
            if not r.hands[hero]:
                out.append((hs, _SAFE))
            elif r.next < 0:
                out.append((hs, _LOST))
            elif r.trump != self.trump:
                out.append((hs, _SAFE if self.reply_safe(r, hero) else _LOST))
            else:
                out.append((r.hands, r.next))
        return out

    def _search(self, hands: Hands, attacker: int, hero: int, root: Key) -> None:
        """Decide a position with three or more holders by a depth-first search of the AND/OR graph; store its value.

        A position where the hero leads is lost when all its options are,
        one where another seat leads when one is; an option whose defender is
        the hero is lost when all its replies are, any other when one is.
        Each position stops being searched as soon as its value is decided.

        Play can go round in circles. A position met again on the search
        path counts as safe there: if the others can force a loss, they can do
        it without ever coming back to a position (in a reachability game the
        attractor's strategy strictly lowers the rank), so a "lost" found this
        way is always right, and the root's value is exact. A "safe" that
        rested on such an assumption is kept back, not stored, with the set of
        places on the path it rests on, until each of them is decided safe
        too (a place decided safe hands on what it rests on itself); if one
        of them is lost, it is dropped (and searched again when met). Until
        then it is reused, and whatever uses it rests on the same places.
        Together the stored safe positions then form a set the hero can stay
        inside for ever, which is what safe means.

        Lost positions are ranked: 1 plus the highest rank of the hero's
        options, or of the option another seat takes (positions decided on the
        spot rank 0). In the principal line the others always move to a lost
        position of lower rank, so a lost line ends.
        """
        self.searches += 1
        mtable = self.mtable
        first = self._open(root, hands, attacker, hero, 0)
        if not isinstance(first, _Frame):
            self._store(root, first)
            return
        on_path: dict[Key, int] = {root: 0}
        kept: dict[Key, _Group] = {}  # Safe positions kept back, with the group holding them.
        stack: list[_Frame] = [first]
        v = _NONE  # A value coming back to the top frame: _SAFE, or the rank of a lost position.
        while True:
            f = stack[-1]
            o = f.opts[f.oi]
            ov = _NONE  # The value of the option, once decided.
            if v == _NONE:
                if f.ki < len(o.kids):
                    hs, nxt, k = o.kids[f.ki]
                    f.ki += 1
                    v = self._stored(k)  # Perhaps decided since the position was opened.
                    if v == _NONE:
                        g = _alive(kept.get(k))
                        i = on_path.get(k, -1)
                        if g is not None or i >= 0:
                            # Kept back as safe, or met again on the path: safe here, resting on what that rests on.
                            if g is not None:
                                f.deps |= g.mask
                            else:
                                f.deps |= 1 << i
                            v = _SAFE
                        else:
                            opened = self._open(k, hs, nxt, hero, len(stack))
                            if isinstance(opened, _Frame):
                                on_path[k] = len(stack)
                                stack.append(opened)
                                continue
                            self._store(k, opened)
                            v = opened
                    continue
                ov = o.rank if o.hero_chooses else _SAFE  # Every reply taken, none settled it.
            else:
                ov, o.rank = _take(o.hero_chooses, o.rank, v)
                v = _NONE
                if ov == _NONE:
                    continue
            # The option is decided: does it decide the position?
            nv, f.node_rank = _take(f.hero_moves, f.node_rank, ov)
            if nv >= 0:
                nv += 1  # A lost position ranks above the option that loses it.
            if nv == _NONE:
                f.oi += 1
                f.ki = 0
                if f.oi < len(f.opts):
                    continue
                nv = f.node_rank + 1 if f.hero_moves else _SAFE
            # The position is decided: store it, or keep it back (see above).
            stack.pop()
            del on_path[f.key]
            here = f.idx
            # The groups of this frame rest on this place, the deepest place each rests on (see _Frame.groups).
            if nv != _SAFE:
                self._store(f.key, nv)
                for g in f.groups:
                    g.dead = True
                    self.dropped += len(g.keys)
            else:
                group = _Group([f.key], f.deps)
                for g in f.groups:
                    g.merged = group
                    if len(g.keys) > len(group.keys):  # The shorter list joins the longer: no key is copied often.
                        g.keys += group.keys
                        group.keys = g.keys
                    else:
                        group.keys += g.keys
                    group.mask |= g.mask
                group.mask &= ~(1 << here)
                if not group.mask:
                    for k in group.keys:
                        mtable[k] = _SAFE
                else:
                    self.kept_back += 1
                    kept[f.key] = group
                    stack[group.mask.bit_length() - 1].groups.append(group)
                    stack[-1].deps |= group.mask
            if not stack:
                return
            v = nv

    # -- every safe first lead -----------------------------------------------------------

    def representative(self, hand: int, defender: int, lead: int) -> int:
        """Return the lead that takes, from each run of ``hand``, as many of its lowest cards as ``lead`` takes of it.

        Runs are as in the module docstring (two holders): by the exchange
        lemma the representative is at least as good for the leader as
        ``lead``, so when it is not safe, neither is ``lead``.
        """
        suit = (lead.bit_length() - 1) // 13
        theirs = defender & _SM[suit] & _NOQS
        out = lead & _QS_BIT
        runs: list[list[int]] = []
        last = -1
        for c in cards_of(hand & _SM[suit] & _NOQS):
            if last >= 0 and not theirs & ((1 << c) - (2 << last)):
                runs[-1].append(c)
            else:
                runs.append([c])
            last = c
        for run in runs:
            k = sum(1 for c in run if lead >> c & 1)
            for c in run[:k]:
                out |= 1 << c
        return out

    def safe_leads(self, hands: Hands, attacker: int, *, all_leads: bool = True) -> list[int]:
        """Return every legal lead after which ``attacker`` is sure not to lose (just the first found unless ``all_leads``).

        Every legal lead is judged on its own; with two holders a lead whose
        representative (see :meth:`representative`) is not safe is not safe
        either, which spares most of the work.
        """
        d = self.defender_of(hands, attacker)
        limit = min(popcount(hands[d]), self.max_lead)
        first = self.leads(hands[attacker], hands[d], _others(hands, attacker))
        tried = set(first)
        rest = [m for m in L.iter_leads(hands[attacker], limit) if m not in tried]
        two = _holders(hands) == 2 and not self.undeclared
        verdict: dict[int, bool] = {}
        out = []
        for lead in first + rest:
            if two and lead not in tried and not verdict.get(self.representative(hands[attacker], hands[d], lead), True):
                continue
            ok = verdict[lead] = self.lead_safe(hands, attacker, lead, attacker)
            if ok:
                out.append(lead)
                if not all_leads:
                    break
        return out

    # -- the principal line ----------------------------------------------------------

    def line(self, hands: Hands, attacker: int, hero: int, limit: int = 200) -> list[Action]:
        """Return a principal variation to the end of the deal (or ``limit`` turns), as record actions.

        The side with a winning plan follows it; the other side resists as
        long as it can (it cannot change the result). With three or more
        holders the others, when they can force the hero to lose, always move
        to a lost position of lower rank (see :meth:`_lost_step`), so the line
        reaches the end; when they cannot, play may go round for ever and the
        line stops after ``limit`` turns.
        """
        out: list[Action] = []
        solver = self
        for _ in range(limit):
            if not hands[hero] or _holders(hands) <= 1:
                break
            d = solver.defender_of(hands, attacker)
            decl, lead, reply, solver = solver._line_step(hands, attacker, d, hero)
            if decl >= 0:
                out.append(Declare(attacker, decl))
            out.append(Lead(attacker, lead))
            if reply.declare >= 0:
                out.append(Declare(d, reply.declare))
                solver = solver.sub(reply.declare)
            out.append(Beat(d, tuple(sorted(reply.pairs))))
            hands = reply.hands
            if reply.next < 0:
                break
            attacker = reply.next
        return out

    def _known_value(self, reply: Reply, hero: int) -> int:
        """Return ``hero``'s value after ``reply`` if it is known without a search: ``_SAFE``, a lost rank, or ``_NONE``.

        Known: the end of the deal, the hero out, two holders left (the
        two-player solver, which is quick), or a position the search has
        stored (under the trumps the reply leaves).
        """
        if not reply.hands[hero]:
            return _SAFE
        if reply.next < 0:
            return 0
        solver = self if reply.trump == self.trump else self.sub(reply.trump)
        if _holders(reply.hands) <= 2:
            return _SAFE if solver.safe(reply.hands, reply.next, hero) else 0
        return solver._stored(solver._mkey(reply.hands, reply.next, hero))

    def _lost_step(self, hands: Hands, attacker: int, d: int, hero: int,
                   choices: list[tuple[int, Solver]]) -> tuple[int, int, Reply, Solver] | None:
        """Return the next step of a line from a lost position, judged from what the search has stored; no search.

        The search that found the position lost stored, for every option it
        judged, the lost positions that decided it, with their ranks (see
        :meth:`_search`). So without searching anything more: the others take
        the option of lowest rank among those known to be lost (a lead whose
        defender is the hero is lost when every reply is, with the highest of
        their ranks; any other when one reply is, with the lowest), and the
        hero, when it leads, the option whose known lowest rank is highest,
        resisting as long as it can see. The option the search decided by
        is among them, so the rank falls at every step and the line ends
        with the hero's loss. ``None``: nothing known (never expected).
        """
        best: tuple[int, int, int, Reply, Solver] | None = None  # (rank, decl, lead, reply, solver)
        hero_leads = attacker == hero
        for decl, sv in choices:
            for lead in sv.leads(hands[attacker], hands[d], _others(hands, attacker)):
                chosen: tuple[int, Reply] | None = None
                for r in sv.replies(hands, attacker, lead):
                    v = sv._known_value(r, hero)
                    if d == hero:  # The hero replies: lost only if every reply is; it takes the highest rank.
                        if v < 0:
                            chosen = None
                            break
                        if chosen is None or v > chosen[0]:
                            chosen = (v, r)
                    elif v >= 0 and (chosen is None or v < chosen[0]):  # Another seat replies: the lowest rank.
                        chosen = (v, r)
                if chosen is None:
                    continue
                rank, reply = chosen
                if best is None or (rank > best[0] if hero_leads else rank < best[0]):
                    best = (rank, decl, lead, reply, sv)
        if best is None:
            return None
        return best[1], best[2], best[3], best[4]

    def _loss_rank(self, reply: Reply, hero: int) -> int | None:
        """Return ``None`` if ``hero`` is safe after ``reply``, else the rank of the lost position (0: it ends without cycles)."""
        if self.reply_safe(reply, hero):
            return None
        if reply.next < 0 or _holders(reply.hands) <= 2:
            return 0
        solver = self if reply.trump == self.trump else self.sub(reply.trump)
        return max(solver.mtable.get(solver._mkey(reply.hands, reply.next, hero), 0), 0)

    def _line_step(self, hands: Hands, attacker: int, d: int, hero: int) -> tuple[int, int, Reply, Solver]:
        """Choose the next (declaration, lead, reply) of the principal line, and the solver for the lead's trumps."""
        value = self.safe(hands, attacker, hero)
        choices: list[tuple[int, Solver]] = [(-1, self)] + [(s, self.sub(s)) for s in self._declarable(hands[attacker])]
        if _holders(hands) == 2 and not self.undeclared:
            # Two holders: no cycles, so any move that keeps the value will do.
            lead = self._choose_lead(self, hands, attacker, d, hero, value)
            replies = self.replies(hands, attacker, lead)
            reply = next((r for r in replies if self.reply_safe(r, hero) == value), replies[0])
            return -1, lead, reply, self
        found = self._safe_step(hands, attacker, d, hero, choices) if value else self._lost_step(hands, attacker, d, hero,
                                                                                                 choices)
        if found is not None:
            return found
        best: tuple[tuple[int, int], int, int, Reply, Solver] | None = None
        for decl, sv in choices:
            for lead in sv.leads(hands[attacker], hands[d], _others(hands, attacker)):
                ranked = [(sv._loss_rank(r, hero), r) for r in sv.replies(hands, attacker, lead)]
                if d == hero:
                    safe_r = [r for rank, r in ranked if rank is None]
                    if safe_r:
                        reply, score = safe_r[0], (0, 0)
                    else:  # The hero resists as long as it can.
                        reply = max(ranked, key=lambda x: x[0] or 0)[1]
                        score = (1, max(rank or 0 for rank, _ in ranked))
                else:
                    lost = [(rank, r) for rank, r in ranked if rank is not None]
                    if lost:
                        rank, reply = min(lost, key=lambda x: x[0])
                        score = (1, rank)
                    else:
                        reply, score = ranked[0][1], (0, 0)
                safe_option = score[0] == 0
                if attacker == hero:
                    # The hero keeps the value; when lost, it resists as long as it can.
                    key = (0 if safe_option else 1, -score[1])
                else:
                    key = (0 if not safe_option else 1, score[1]) if not value else (0, 0)
                if best is None or key < best[0]:
                    best = (key, decl, lead, reply, sv)
        assert best is not None
        _, decl, lead, reply, sv = best
        return decl, lead, reply, sv

    @staticmethod
    def _safe_step(hands: Hands, attacker: int, d: int, hero: int,
                   choices: list[tuple[int, Solver]]) -> tuple[int, int, Reply, Solver] | None:
        """Return the step the ranking of :meth:`_line_step` chooses when the hero is safe, ranking nothing else.

        Every option that keeps the hero safe ranks first there, and ties go
        to the earliest: so the hero takes its first safe option (and, when it
        defends, its first safe reply), and the others take their first option
        (with its first reply, or the hero's first safe one). Judging only
        these spares searching, for their ranks, positions the value never
        needed (most of a three-seat solve). ``None``: nothing found (the
        hero defending with no safe reply cannot happen while it is safe).
        """
        for decl, sv in choices:
            for lead in sv.leads(hands[attacker], hands[d], _others(hands, attacker)):
                replies = sv.replies(hands, attacker, lead)
                if d == hero:
                    reply = next((r for r in replies if sv.reply_safe(r, hero)), None)
                    if reply is not None:
                        return decl, lead, reply, sv
                    if attacker != hero:
                        return None
                elif attacker != hero or all(sv.reply_safe(r, hero) for r in replies):
                    return decl, lead, replies[0], sv
        return None

    @staticmethod
    def _choose_lead(solver: Solver, hands: Hands, attacker: int, d: int, hero: int, value: bool) -> int:
        leads = solver.leads(hands[attacker], hands[d], _others(hands, attacker))
        for lead in leads:
            if solver.lead_safe(hands, attacker, lead, hero) == value:
                return lead
        return leads[0]


class _TwoHolders:
    """The two-holder search of a :class:`Solver` (:meth:`win`), with the solver's tables.

    A class of its own, not a closure: compiled, a method calls itself natively, where a nested function called
    itself through Python's calling convention, boxing its arguments and result (a fifth of the search's time).
    """

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self.table = solver.table
        self.lead_cache = solver._lead_cache
        self.def_cache = solver._def_cache
        # Masks the search reads as machine integers: compiled, a module's int constant is unboxed at every read, and a
        # literal shifted by a variable is shifted as a 32-bit C int.
        self.noqs: i64 = _NOQS
        self.suit_bits: i64 = 0x1FFF
        self.tm: i64 = solver.trump_mask
        self.ml: i64 = solver.max_lead
        self.tsh: i64 = solver.trump_shift
        self.nodes: i64 = 0  # The positions searched here (the solver adds them to its own count).

    def win(self, a: i64, d: i64) -> bool:
        """Return whether the player to lead, holding ``a``, can make sure of not losing against ``d``."""
        # Masks and codes are machine integers (i64): compiled, their arithmetic is plain, with no tag checks.
        noqs = self.noqs
        tm = self.tm
        ml = self.ml
        # Quick exact cut-offs (module docstring): the cards of ours the other can beat.
        an = a & noqs
        dn = d & noqs
        dt = dn & tm
        beat: i64 = 0
        if dt:
            beat = (an & ~tm) | (an & tm & _below_top(dt))
        else:
            x = dn & 0x1FFF
            if x:
                beat = an & 0x1FFF & _below_top(x)
            x = dn & 0x3FFE000
            if x:
                beat |= an & 0x3FFE000 & _below_top(x)
            x = dn & 0x7FFC000000
            if x:
                beat |= an & 0x7FFC000000 & _below_top(x)
            x = dn & 0xFFF8000000000
            if x:
                beat |= an & 0xFFF8000000000 & _below_top(x)
        if not beat:
            return True  # Nothing of ours can be beaten: plain suits, then trumps, each rising.
        nd: i64 = popcount64(d)
        low = beat & -beat
        suit_bits = self.suit_bits
        one = a & suit_bits << popcount64(low - 1) // 13 * 13  # Our cards of that card's suit.
        if not beat & ~one:
            # Only one suit can be beaten: lead the rest first (the other must take it), then that suit at once.
            ns: i64 = popcount64(one)
            if ns <= nd + popcount64(a) - ns and ns <= ml:
                return True
        key = _spread(self.solver.key2(a, d))  # The canonical key (module docstring), spread for the dict.
        table = self.table
        hit = table.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if not self.nodes & (POLL_EVERY - 1):
            poll()
        lim = nd if nd < ml else ml
        trumped: i64 = 1 if dt else 0
        # Each suit's leads come from the cache negated and sorted in rising order, so that one plain sort()
        # (compiled, a direct call; with reverse=True a keyword call) orders them best first, and a hand of one suit
        # needs none: its cached list is used as it is, never changed.
        scored: list[int] = []
        suits_led = 0
        lead_cache = self.lead_cache
        s: i64
        for s in range(4):
            sh = 13 * s
            sm = suit_bits << sh
            cards = a & sm
            if cards:
                n: i64 = popcount64(cards)
                cap = lim if lim < n else n
                ds = dn & sm
                # Keys that fit a machine word: a bigger int would be made anew, limb by limb, at every use.
                k: i64 = _spread(cards >> sh | ds >> sh << 13 | trumped << 26 | cap << 27 | sh << 33)
                lst = lead_cache.get(k)
                if lst is None:
                    lst = lead_cache[k] = [-x for x in self.solver._suit_leads(s, cards, ds, bool(dt), cap)]
                if suits_led == 0:
                    scored = lst
                elif suits_led == 1:
                    scored = scored + lst
                else:
                    scored.extend(lst)
                suits_led += 1
        if suits_led > 1:
            scored.sort()
        def_cache = self.def_cache
        tsh: i64 = self.tsh
        result = False
        beaten: i64
        beaters: i64
        for code in scored:
            x = -code
            lsh = (x >> 13 & 3) * 13
            lead = (x & 0x1FFF) << lsh
            a2 = a & ~lead
            k = _defence_key(x & 0x1FFF, lsh, d, tm, tsh)
            opts = def_cache.get(k)
            if opts is None:
                opts = self.solver._make_dopts(lead, d, k)
            for beaten, beaters in opts:
                d2 = (d & ~beaters) | (lead & ~beaten)
                if not d2:
                    break
                if beaten == lead:
                    if self.win(d2, a2):
                        break
                elif not self.win(a2, d2):
                    break
            else:
                result = True
                break
        table[key] = result
        return result


def solve(state: State, *, all_leads: bool = True) -> SolveResult:
    """Solve a talon-empty position with the attacker to lead.

    Returns whether the attacker can make sure of not losing, every first
    lead that makes sure of it (every legal lead, not one per class; with
    ``all_leads`` false only the first safe one found), and a principal line.
    Under a marriage still to be declared the attacker may declare first:
    ``declarations`` then maps each suit whose declaration is safe to the
    safe leads after it.
    """
    if state.talon_size or state.phase != LEAD or state.in_progress:
        raise MustamaijaError("the solver needs a position with an empty talon and the attacker about to lead")
    start = time.perf_counter()
    hero = state.attacker
    solver = Solver(state.rules, state.trump, state.n)
    hands = tuple(state.hands)
    safe_leads = solver.safe_leads(hands, hero, all_leads=all_leads)
    declarations: dict[int, list[int]] = {}
    for s in solver._declarable(hands[hero]):
        if safe_leads and not all_leads:
            break
        found = solver.sub(s).safe_leads(hands, hero, all_leads=all_leads)
        if found:
            declarations[s] = found
    value = bool(safe_leads) or bool(declarations)
    line = solver.line(hands, hero, hero)
    stats = {"table": len(solver.table) + len(solver.mtable) + len(solver.utable), "searches": solver.searches,
             "kept_back": solver.kept_back, "dropped": solver.dropped}
    return SolveResult(hero, value, safe_leads, line, solver.total_nodes(), stats, declarations,
                       time.perf_counter() - start)
