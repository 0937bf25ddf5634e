"""Taking back the last actions of an endgame: a full state as it was some turns ago, while the talon was empty.

Once the talon is empty no card is drawn, so every action can be undone
from what it shows: a lead took its cards from the attacker's hand, a
defence took the beaten pairs out of play and gave the defender the cards it
did not beat. :func:`draw_free_turns` finds, from the public log alone,
how many of the last actions were taken with the talon empty (the talon's
size after every action follows from the hand sizes, M12), and
:class:`Takeback` takes them back on any full state with that log: the true
state, or one of the deals a search draws from a seat's view. The search
kit uses it to ask, for a drawn deal, whether the other seats' play since
the talon emptied is the play their hands would have made
(:mod:`~mustamaija.games.mustamaija.players.inference`).

>>> from mustamaija import State
>>> from mustamaija.players.registry import make_bot
>>> s = State.from_seed(players=3, seed=4)
>>> bots = [make_bot("heuristic", k) for k in range(3)]
>>> seen = {}
>>> while not s.is_over:
...     if not s.talon_size and not s.in_progress and s.phase_name == "lead":
...         seen[s.nlog] = s.copy()
...     s.apply(bots[s.to_act].act(s.view(s.to_act)))
...     if s.nlog - min(seen, default=s.nlog) >= 4 and not s.in_progress and not s.is_over:
...         break
>>> back = Takeback.of(s.history().node, s.nlog, s.facts.hand_size, s.hand_sizes(), s.talon_size)
>>> back is not None and back.rewind(s).hands == seen[s.nlog - back.count].hands
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mustamaija.core.bits import popcount
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import BEAT_ENTRY, LEAD_ENTRY
from mustamaija.games.mustamaija.rules import LEAD
from mustamaija.games.mustamaija.state import State

__all__ = ["Takeback", "beat_masks", "declared_marriage", "draw_free_turns", "entries", "plans_of", "start_turn"]

Entry = tuple[int, int, Any]


def entries(log: Any, count: int) -> list[Entry]:
    """Return the newest ``count`` entries of a state's log (core/history.py), oldest first."""
    out: list[Entry] = []
    node = log
    while node is not None and len(out) < count:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def draw_free_turns(log: Any, nlog: int, hand_size: int, hand_sizes: Sequence[int], talon_size: int) -> int:
    """Return how many of the last log entries were taken with the talon empty, from the start of a turn.

    The count starts at the first lead after the last card was drawn (M12:
    after a lead the attacker draws, after a defence the defender), so the
    state that many entries back is the start of a turn. It is worked out
    from the public log alone, as any player at the table can: every seat is
    dealt ``hand_size`` cards and the rest is the talon, so the talon's size
    after each action follows from the cards led, beaten and picked up. 0
    when the talon is not empty now, when a declaration (V4) came after the
    last draw, or when the count does not end at ``talon_size`` and the
    hand sizes ``hand_sizes`` (a rule set this count does not know).
    """
    return _draw_free(entries(log, nlog), hand_size, hand_sizes, talon_size)


def _draw_free(log: list[Entry], hand_size: int, hand_sizes: Sequence[int], talon_size: int) -> int:
    """Return :func:`draw_free_turns` of a log given as its entries, oldest first."""
    if talon_size:
        return 0
    players = len(hand_sizes)
    sizes = [hand_size] * players
    talon = 52 - players * hand_size
    led = 0
    last_draw = -1
    for i, (kind, seat, data) in enumerate(log):
        if kind == LEAD_ENTRY:
            led = popcount(data)
            sizes[seat] -= led
        elif kind == BEAT_ENTRY:
            sizes[seat] += led - 2 * len(data)
        else:
            continue
        need = hand_size - sizes[seat]
        if need > 0 and talon:
            drawn = need if need < talon else talon
            sizes[seat] += drawn
            talon -= drawn
            last_draw = i
    if talon or sizes != list(hand_sizes):
        return 0  # The log does not add up to the table as it is.
    start = last_draw + 1
    if last_draw >= 0 and log[last_draw][0] == LEAD_ENTRY:
        # The last draw came with a lead: its defence (and a declaration before it) is part of that turn.
        while start < len(log) and log[start][0] != BEAT_ENTRY:
            start += 1
        start += 1
    if any(kind != LEAD_ENTRY and kind != BEAT_ENTRY for kind, _, _ in log[start:]):
        return 0
    return max(0, len(log) - start)


class Takeback:
    """What taking back the last :attr:`count` entries of a log changes in the public facts; see :meth:`rewind`.

    Made once from the public log (:meth:`of`), then applied to any number
    of full states that share that log.
    """

    def __init__(self, span: list[Entry], base_log: Any, base_nlog: int, prior_public: int) -> None:
        self.span = span
        """The entries taken back, oldest first: a lead, its defence, the next lead..."""
        self.count = len(span)
        self.base_log = base_log
        self.base_nlog = base_nlog
        self.prior_public = prior_public
        """The cards whose place was public before the span: every card ever picked up before it."""
        beats = 0
        out_of_play = 0
        for kind, _, data in span:
            if kind == BEAT_ENTRY:
                beats += 1
                beaten, beaters = beat_masks(data)
                out_of_play |= beaten | beaters
        self.beats = beats
        self.out_of_play = out_of_play
        """The cards the span's defences put out of play (M14)."""
        self.attacker = span[0][1]
        self.defender = span[1][1] if len(span) > 1 else -1
        """The first turn's defender, or -1 when the span is one lead (then the state's defender)."""

    def __reduce__(self) -> tuple[type[Takeback], tuple[list[Entry], Any, int, int]]:
        """Pickle by the constructor's arguments, as in the pure build (a compiled class has no ``__dict__``)."""
        return Takeback, (self.span, self.base_log, self.base_nlog, self.prior_public)

    @classmethod
    def of(cls, log: Any, nlog: int, hand_size: int, hand_sizes: Sequence[int], talon_size: int) -> Takeback | None:
        """Return the takeback of every entry since the talon emptied (:func:`draw_free_turns`), or ``None`` if none."""
        older = entries(log, nlog)
        count = _draw_free(older, hand_size, hand_sizes, talon_size)
        if not count:
            return None
        base = nlog - count
        prior = 0
        led = 0
        for kind, _, data in older[:base]:
            if kind == LEAD_ENTRY:
                led = data
            elif kind == BEAT_ENTRY:
                prior |= led & ~beat_masks(data)[0]
        node = log
        for _ in range(count):
            node = node[1]
        return cls(older[base:], node, base, prior)

    def hands_before(self, hands: list[int]) -> list[int]:
        """Return the hands before the span, from ``hands`` after it (a new list)."""
        out = hands[:]
        defender = -1  # The seat of the defence taken back last (the lead's, next), or -1.
        pairs: tuple[tuple[int, int], ...] = ()
        for kind, seat, data in reversed(self.span):
            if kind == BEAT_ENTRY:
                defender, pairs = seat, data
                continue
            out[seat] |= data  # The lead's cards were in the attacker's hand.
            if defender >= 0:
                beaten, beaters = beat_masks(pairs)
                # It gave back what it picked up, took back its beaters.
                out[defender] = (out[defender] & ~(data & ~beaten)) | beaters
                defender = -1
        return out

    def rewind(self, state: State) -> State:
        """Return a copy of ``state`` (a full state with this log, at the start of an action) before the span.

        The copy is at the start of the span's first turn, with the hands,
        the cards out of play, the turn count, the seats out and the log of
        that moment. Its ``public`` mask holds the cards out of play and those
        picked up before the span (the places that were public then), which
        is all a seat's knowledge reads of it.
        """
        s = state.copy()
        hands = self.hands_before(state.hands)
        s.discard = state.discard & ~self.out_of_play
        s.public = s.discard | self.prior_public | state.tknown | declared_marriage(state.declarer, state.declared)
        s.turns = state.turns - self.beats
        d = self.defender if self.defender >= 0 else state.defender
        start_turn(s, state, hands, self.attacker, d, 0, self.base_log, self.base_nlog)
        return s


def start_turn(s: State, state: State, hands: list[int], attacker: int, defender: int, talon_size: int, log: Any,
               nlog: int) -> None:
    """Make ``s``, a copy of ``state`` being taken back, the start of a turn: these hands, players, log, nothing led.

    The seats out are those of ``state`` with no cards in ``hands``, and
    none while the talon (of ``talon_size`` cards) lasts (M18).
    """
    s.hands = hands
    s.phase = LEAD
    s.attacker = attacker
    s.defender = defender
    s.limit = L.lead_limit(state.facts, popcount(hands[defender]), talon_size)
    s.sel = s.led = s.rem = s.used = 0
    s.pairs = ()
    out = tuple(seat for seat in state.out if not hands[seat]) if not talon_size else ()
    s.out = out
    s.outmask = 0
    for seat in out:
        s.outmask |= 1 << seat
    s.loser = -1
    s.stopped = False
    s.log = log
    s.nlog = nlog
    s._legal = -1  # The legal steps kept are those of the state taken back from.


def declared_marriage(declarer: int, declared: int) -> int:
    """Return the king and queen of a declared marriage (V4), public since the declaration; 0 if none was declared."""
    if declarer < 0 or declared < 0:
        return 0
    return L.MARRIAGES[declared]


def beat_masks(pairs: Any) -> tuple[int, int]:
    """Return the cards a defence's ``(led card, beating card)`` pairs beat, and the cards that beat them."""
    beaten = beaters = 0
    for a, b in pairs:
        beaten |= 1 << a
        beaters |= 1 << b
    return beaten, beaters


def plans_of(span: list[Entry]) -> list[Any]:
    """Return a span's actions as whole plans (``players.heuristic.apply_plan``): a lead's cards, a defence's sorted pairs."""
    return [data if kind == LEAD_ENTRY else tuple(sorted(data)) for kind, _, data in span]
