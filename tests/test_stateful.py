"""A Hypothesis state machine on the engine: legal and illegal steps and compound actions.

From a seeded deal with a drawn preset and player count, Hypothesis takes
legal steps and compound actions, and tries illegal ones, which must raise
:class:`IllegalActionError` and leave the state exactly as it was. A
compound action is judged by an oracle written from docs/rules.md (M2, M9-M13,
V3, V4), and the engine must agree with it both ways. Invariants: the 52
cards are conserved, some step is legal unless the deal is over, a copy is
independent of its original and ``step()`` leaves its receiver unchanged.

The run is derandomized and uses no example database, so a failure replays.
"""

from __future__ import annotations

import random
from itertools import islice
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from mustamaija.core.cards import QS, SPADES, cards_of
from mustamaija.core.errors import IllegalActionError
from mustamaija.core.state import state_fields
from mustamaija.games.mustamaija import DECLARE, DEFEND, LEAD, OVER, PRESETS, Beat, Declare, Lead, State
from oracle import oracle_beats

ALL = (1 << 52) - 1
SLOTS = tuple(n for n in state_fields(State) if n != "_legal")  # ``_legal`` is a cache, not state


def snapshot(s: State) -> tuple[Any, ...]:
    """Every field of the state, as plain comparable values."""
    out: list[Any] = []
    for name in SLOTS:
        if name == "hands":
            out.append(tuple(s.hands))
        elif name == "log":
            out.append(tuple(s.actions()))
        else:
            out.append(getattr(s, name))
    return tuple(out)


def oracle_lead(s: State, seat: int, cards: int) -> bool:
    """M9, M10, M11 and max_lead."""
    if s.phase != LEAD or s.in_progress or seat != s.attacker:
        return False
    if not cards or cards & ~s.hands[seat] or len({c // 13 for c in cards_of(cards)}) != 1:
        return False
    limit = 52
    if s.talon_size == 0 or s.rules.attack_limit == "always":
        limit = s.hands[s.defender].bit_count()
    if s.rules.max_lead is not None:
        limit = min(limit, s.rules.max_lead)
    return cards.bit_count() <= limit


def oracle_beat(s: State, seat: int, pairs: tuple[tuple[int, int], ...]) -> bool:
    """M9, M13: distinct led cards, distinct beaters from hand, each beating its card."""
    if s.phase != DEFEND or s.in_progress or seat != s.defender:
        return False
    targets = [t for t, _ in pairs]
    beaters = [b for _, b in pairs]
    if len(set(targets)) != len(targets) or len(set(beaters)) != len(beaters):
        return False
    return all(s.led >> t & 1 and s.hands[seat] >> b & 1 and oracle_beats(b, t, s.trump) for t, b in pairs)


def oracle_declare(s: State, seat: int, suit: int) -> bool:
    """V3, V4: the first marriage, of a non-spade suit held, declared by the actor before acting."""
    if s.phase == OVER or s.rules.trump != "marriage" or s.declarer >= 0 or s.in_progress or seat != s.to_act:
        return False
    hand = s.hands[seat]
    return suit != SPADES and bool(hand >> (suit * 13 + 10) & 1) and bool(hand >> (suit * 13 + 11) & 1)


class EngineMachine(RuleBasedStateMachine):
    s: State

    @initialize(name=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1), data=st.data())
    def deal(self, name: str, seed: int, data: st.DataObject) -> None:
        rules = PRESETS[name]
        players = data.draw(st.integers(2, rules.max_players), label="players")
        self.s = State.from_seed(players, seed, rules)

    # -- helpers -------------------------------------------------------------------------------

    def _judge(self, action: Lead | Beat | Declare, legal: bool) -> None:
        """Play ``action``; the engine must agree with the oracle, and an illegal one changes nothing."""
        s = self.s
        assert s.can_play(action) == legal, (action, legal)
        before = snapshot(s)
        if legal:
            s.play(action)
            assert s.last_action() == action
        else:
            try:
                s.play(action)
            except IllegalActionError as e:
                assert e.rule, "an illegal action names the rule it breaks"
            else:
                raise AssertionError(f"illegal {action} was accepted")
            assert snapshot(s) == before, f"a refused {action} changed the state"

    def _maybe_declare(self, data: st.DataObject) -> None:
        """V4: a marriage may be declared as the first part of one's action."""
        declares = self.s.legal_declares()
        if declares and data.draw(st.booleans(), label="declare first") is True:
            d = data.draw(st.sampled_from(declares), label="declaration")
            assert oracle_declare(self.s, d.seat, d.suit)
            self._judge(d, True)

    # -- legal play ----------------------------------------------------------------------------

    @precondition(lambda self: not self.s.is_over)
    @rule(data=st.data())
    def take_step(self, data: st.DataObject) -> None:
        s = self.s
        step = data.draw(st.sampled_from(s.legal_actions()), label="step")
        before = snapshot(s)
        t = s.step(step)
        assert snapshot(s) == before, "step() changed its receiver"
        s.apply(step)
        assert snapshot(s) == snapshot(t), "step() and apply() disagree"

    @precondition(lambda self: not self.s.is_over)
    @rule(seed=st.integers(0, 2**16), count=st.integers(1, 200))
    def advance(self, seed: int, count: int) -> None:
        """Several random legal steps at once, to reach the endgame within few rules."""
        rng = random.Random(seed)
        s = self.s
        for _ in range(count):
            if s.is_over:
                break
            steps = s.legal_actions()
            if steps[-1] >= DECLARE and rng.random() < 0.5:
                steps = [x for x in steps if x >= DECLARE]  # marriages are rare in uniform play
            s.apply(rng.choice(steps))

    @precondition(lambda self: self.s.phase == LEAD and not self.s.in_progress)
    @rule(data=st.data())
    def lead(self, data: st.DataObject) -> None:
        self._maybe_declare(data)
        s = self.s
        hand = cards_of(s.hands[s.attacker])
        mode = data.draw(st.integers(0, 3), label="lead mode")
        seat = s.attacker
        if mode == 0:
            action = data.draw(st.sampled_from(list(islice(s.legal_leads(), 64))), label="listed lead")
            assert oracle_lead(s, action.seat, action.cards)
            self._judge(action, True)
            return
        if mode == 1:
            suit = data.draw(st.sampled_from(sorted({c // 13 for c in hand})), label="suit")
            pool = [c for c in hand if c // 13 == suit]
        elif mode == 2:
            pool = hand
        else:
            pool = list(range(52))
            seat = data.draw(st.integers(0, s.n - 1), label="seat")
        chosen = data.draw(st.sets(st.sampled_from(pool), min_size=0 if mode == 3 else 1, max_size=6), label="cards")
        cards = sum(1 << c for c in chosen)
        self._judge(Lead(seat, cards), oracle_lead(s, seat, cards))

    @precondition(lambda self: self.s.phase == DEFEND and not self.s.in_progress)
    @rule(data=st.data())
    def beat(self, data: st.DataObject) -> None:
        self._maybe_declare(data)
        s = self.s
        mode = data.draw(st.integers(0, 3), label="beat mode")
        seat = s.defender
        listed = list(islice(s.legal_beats(), 64))
        if mode == 0:
            action = data.draw(st.sampled_from(listed), label="listed defence")
            assert oracle_beat(s, action.seat, action.pairs)
            self._judge(action, True)
            return
        led = cards_of(s.led)
        hand = cards_of(s.hands[seat])
        if mode == 3 and len(listed) > 1:
            # A legal defence with one pair spoilt: a led card beaten twice, a beater used twice,
            # Q♠ as a beater, or a card that does not beat.
            base = list(data.draw(st.sampled_from(listed[1:]), label="defence to spoil").pairs)
            t0, b0 = base[0]
            how = data.draw(st.integers(0, 3), label="spoiler")
            if how == 0:
                others = [b for b in hand if b != b0 and b not in {x for _, x in base}]
                base.append((t0, data.draw(st.sampled_from(others), label="second beater") if others else b0))
            elif how == 1:
                base.append((data.draw(st.sampled_from(led), label="second target"), b0))
            elif how == 2:
                base[0] = (t0, QS)
            else:
                base[0] = (t0, data.draw(st.sampled_from([*hand, *range(52)]), label="beater"))
            action = Beat(seat, tuple(sorted(base)))
            self._judge(action, oracle_beat(s, seat, action.pairs))
            return
        if mode == 1:
            targets, beaters = led, hand
        else:
            targets, beaters = [*led, *range(52)], [*hand, *range(52)]
            seat = data.draw(st.sampled_from([seat, seat, (seat + 1) % s.n]), label="seat")
        pairs = data.draw(
            st.lists(st.tuples(st.sampled_from(targets), st.sampled_from(beaters)), max_size=4), label="pairs"
        )
        # Built directly, so repeated led cards or beaters reach the engine's checks.
        action = Beat(seat, tuple(sorted(pairs)))
        self._judge(action, oracle_beat(s, seat, action.pairs))

    @rule(data=st.data())
    def declare(self, data: st.DataObject) -> None:
        s = self.s
        declares = s.legal_declares()
        if declares and data.draw(st.booleans(), label="listed declaration") is True:
            d = data.draw(st.sampled_from(declares), label="declaration")
            assert oracle_declare(s, d.seat, d.suit)
            self._judge(d, True)
            return
        seat = data.draw(st.integers(0, s.n - 1), label="seat")
        suit = data.draw(st.integers(0, 3), label="suit")
        self._judge(Declare(seat, suit), oracle_declare(s, seat, suit))

    # -- illegal play ---------------------------------------------------------------------------

    @rule(step=st.integers(-3, 60))
    def illegal_step(self, step: int) -> None:
        s = self.s
        if 0 <= step < 57 and s.legal_mask() >> step & 1:
            return
        before = snapshot(s)
        assert not s.can_step(step)
        try:
            s.apply(step)
        except IllegalActionError as e:
            assert e.rule
        else:
            raise AssertionError(f"illegal step {step} was accepted")
        assert snapshot(s) == before, f"a refused step {step} changed the state"

    @rule(data=st.data())
    def any_seat_any_time(self, data: st.DataObject) -> None:
        """A plain lead or a pick-up by any seat, in any phase (also mid-action and after the end)."""
        s = self.s
        seat = data.draw(st.integers(0, s.n - 1), label="seat")
        hand = s.hands[seat]
        cards = hand & -hand if hand else 1 << data.draw(st.integers(0, 51), label="card")
        self._judge(Lead(seat, cards), oracle_lead(s, seat, cards))
        self._judge(Beat(seat, ()), oracle_beat(s, seat, ()))

    # -- copies ---------------------------------------------------------------------------------

    @rule(seed=st.integers(0, 2**16))
    def copy_is_independent(self, seed: int) -> None:
        s = self.s
        before = snapshot(s)
        c = s.copy()
        assert snapshot(c) == before
        rng = random.Random(seed)
        for _ in range(5):
            if c.is_over:
                break
            c.apply(rng.choice(c.legal_actions()))
        c.hands[0] ^= 1 << 5
        c.hands.append(0)
        c.talon = ()
        c.discard = ALL
        assert snapshot(s) == before, "changing a copy changed the original"
        assert s.legal_mask() == snapshot_mask(s)

    # -- invariants -----------------------------------------------------------------------------

    @invariant()
    def cards_are_conserved(self) -> None:
        s = self.s
        seen = 0
        talon = s.talon_cards
        assert len(set(talon)) == len(talon)
        for part in (*s.hands, sum(1 << c for c in talon), s.discard, s.led):
            assert not seen & part, "a card is in two places"
            seen |= part
        assert seen == ALL, "a card is lost"
        assert not s.discard >> QS & 1 and s.discard.bit_count() % 2 == 0
        for seat in range(s.n):
            assert (s.hands[seat] == 0) == (seat in s.out)

    @invariant()
    def something_is_legal_unless_over(self) -> None:
        s = self.s
        if s.is_over:
            assert s.legal_mask() == 0
            if not s.stopped:
                assert [t for t in range(s.n) if s.hands[t]] == [s.loser] and s.hands[s.loser] >> QS & 1
        else:
            assert s.legal_mask() != 0 and s.legal_mask() & ~((1 << 57) - 1) == 0
            assert s.hands[s.to_act]


def snapshot_mask(s: State) -> int:
    """The legal mask of a fresh copy, computed without the receiver's cache."""
    c = s.copy()
    c._legal = -1
    return c.legal_mask()


EngineMachine.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=50,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestEngine = EngineMachine.TestCase


def _refused(s: State, action: Lead | Beat | Declare, rule: str) -> None:
    before = snapshot(s)
    assert not s.can_play(action), action
    try:
        s.play(action)
    except IllegalActionError as e:
        assert e.rule == rule, (action, e)
    else:
        raise AssertionError(f"illegal {action} was accepted")
    assert snapshot(s) == before


def test_spoilt_actions_are_refused_with_their_rule() -> None:
    """A deterministic sweep: legal leads and defences, each spoilt in one way, must be refused (M2, M10, M11, M13)."""
    checked = 0
    for seed in range(120):
        name = sorted(PRESETS)[seed % len(PRESETS)]
        rules = PRESETS[name]
        s = State.from_seed(2 + seed % (rules.max_players - 1), seed, rules)
        rng = random.Random(seed)
        while not s.is_over:
            if s.phase == DEFEND and not s.in_progress:
                d = s.defender
                hand = cards_of(s.hands[d])
                for beat in islice(s.legal_beats(), 1, 12):
                    pairs = list(beat.pairs)
                    t0, b0 = pairs[0]
                    used = {b for _, b in pairs}
                    spare = [b for b in hand if b not in used]
                    for b in spare:  # a led card beaten twice
                        if oracle_beats(b, t0, s.trump):
                            _refused(s, Beat(d, tuple(sorted([*pairs, (t0, b)]))), "M13")
                            break
                    for t in cards_of(s.led & ~beat.beaten & ~(1 << QS)):  # one card beating two
                        _refused(s, Beat(d, tuple(sorted([*pairs, (t, b0)]))), "M13")
                        break
                    if s.hands[d] >> QS & 1:
                        _refused(s, Beat(d, ((t0, QS), *pairs[1:])), "M2")
                    not_held = next(c for c in range(52) if not s.hands[d] >> c & 1 and c != QS)
                    _refused(s, Beat(d, ((t0, not_held), *pairs[1:])), "M13")
                    weak = [b for b in spare if b != QS and not oracle_beats(b, t0, s.trump)]
                    if weak:
                        _refused(s, Beat(d, ((t0, weak[0]), *pairs[1:])), "M13")
                    checked += 1
                if s.led >> QS & 1:
                    for b in hand:
                        _refused(s, Beat(d, ((QS, b),)), "M2")
            elif s.phase == LEAD and not s.in_progress:
                a = s.attacker
                held = s.hands[a]
                suits = sorted({c // 13 for c in cards_of(held)})
                if len(suits) > 1:
                    two = [next(c for c in cards_of(held) if c // 13 == u) for u in suits[:2]]
                    _refused(s, Lead(a, (1 << two[0]) | (1 << two[1])), "M10")
                _refused(s, Lead(a, 0), "M10")
                not_held = next(c for c in range(52) if not held >> c & 1)
                _refused(s, Lead(a, (held & -held) | (1 << not_held)), "M10")
                limit = s.limit
                for u in suits:
                    cards = held & (0x1FFF << 13 * u)
                    if limit < 52 and cards.bit_count() > limit:
                        cap = s.rules.max_lead
                        rule = "max_lead" if cap is not None and cards.bit_count() > cap else "M11"
                        _refused(s, Lead(a, cards), rule)
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 1000
