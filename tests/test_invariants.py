"""Invariants of random complete deals over every preset and every legal player count (docs/rules.md).

6,000 seeded deals (times ``MUSTAMAIJA_TEST_SCALE``: tests/support.py) are played to the end by random legal steps
(``legal_actions`` / ``apply``) and, for a share of them, by compound actions
(``legal_leads`` / ``legal_beats`` / ``legal_declares`` / ``play``). After
every step the 52 cards must be conserved; at sampled steps (every step for a
subset of deals) the legal steps are compared with an independent oracle and
every seat's view is checked for leaks (M22). Every deal must end with one
loser holding Q♠ well within the M21 guard, and its written record must
replay to the same state and the same views.

Every deal is seeded, so a failure names the preset, player count and seed
that replay it.
"""

from __future__ import annotations

import random
import re
from itertools import combinations, islice

import pytest

from mustamaija.core.cards import QS, SPADES, card_name, cards_of
from mustamaija.games.mustamaija import DECLARE, DEFEND, LEAD, OVER, PRESETS, STOP, Beat, Declare, Lead, Rules, State, View, view_of
from mustamaija.games.mustamaija.record import Record, state_to_json
from oracle import oracle_beats
from support import scaled

ALL = (1 << 52) - 1
SUIT = tuple(0x1FFF << (13 * s) for s in range(4))

COMBOS = [(name, n) for name, r in PRESETS.items() for n in range(r.min_players, r.max_players + 1)]
DEALS = scaled(6_000, least=1_000)
DEALS_PER_COMBO = -(-DEALS // len(COMBOS))
FULL_VIEW_EVERY = 139  # deals 0 and 139 of each combination check views at every step
COMPOUND_SHARE = 3  # every 3rd deal is played mostly with compound actions
SAMPLE_RATE = 0.01  # the other deals check views and the oracle at about 1% of their steps
CARD_TOKEN = re.compile(r"(?<![0-9A-Z])([2-9TJQKA][SHDC])(?![0-9A-Z])")


def test_the_deals_cover_every_preset_and_player_count() -> None:
    assert len(COMBOS) * DEALS_PER_COMBO >= DEALS >= 1_000
    assert {name for name, _ in COMBOS} == set(PRESETS)
    for name, r in PRESETS.items():
        assert {n for p, n in COMBOS if p == name} == set(range(2, r.max_players + 1))


# -- an independent oracle of the rules ---------------------------------------------------


def oracle_limit(rules: Rules, defender_cards: int, talon_size: int) -> int:
    """M11, M17 and ``max_lead``: the most cards a lead may hold (52: no limit)."""
    limit = 52
    if talon_size == 0 or rules.attack_limit == "always":
        limit = defender_cards
    if rules.max_lead is not None:
        limit = min(limit, rules.max_lead)
    return limit


def oracle_declarable(s: State, hand: int) -> list[int]:
    """V3: the non-spade suits whose K and Q are held, while no marriage has been declared."""
    if s.rules.trump != "marriage" or s.declarer >= 0:
        return []
    return [u for u in (1, 2, 3) if hand >> (u * 13 + 10) & 1 and hand >> (u * 13 + 11) & 1]


def oracle_steps(s: State) -> set[int]:
    """The legal steps of the card-at-a-time decomposition, from the rules and the step table."""
    if s.phase == OVER:
        return set()
    if s.phase == LEAD:
        hand = s.hands[s.attacker]
        if not s.sel:
            return set(cards_of(hand)) | {DECLARE + u for u in oracle_declarable(s, hand)}
        top = max(cards_of(s.sel))
        if s.sel.bit_count() >= s.limit:
            return {STOP}
        return {c for c in cards_of(hand) if c // 13 == top // 13 and c > top} | {STOP}
    hand = s.hands[s.defender]
    avail = hand & ~s.used
    out = {STOP}
    if s.rem == s.led:
        out |= {DECLARE + u for u in oracle_declarable(s, hand)}
    for led in sorted(cards_of(s.rem)):
        beaters = {b for b in cards_of(avail) if oracle_beats(b, led, s.trump)}
        if beaters:
            return out | beaters
    return out


def oracle_lead_ok(s: State, seat: int, cards: int) -> bool:
    if s.phase != LEAD or s.in_progress or seat != s.attacker or not cards or cards & ~s.hands[seat]:
        return False
    suits = {c // 13 for c in cards_of(cards)}
    limit = oracle_limit(s.rules, s.hands[s.defender].bit_count(), s.talon_size)
    return len(suits) == 1 and cards.bit_count() <= limit


def oracle_beat_ok(s: State, seat: int, pairs: tuple[tuple[int, int], ...]) -> bool:
    if s.phase != DEFEND or s.in_progress or seat != s.defender:
        return False
    targets = [t for t, _ in pairs]
    beaters = [b for _, b in pairs]
    if len(set(targets)) != len(targets) or len(set(beaters)) != len(beaters):
        return False
    hand = s.hands[seat]
    return all(s.led >> t & 1 and hand >> b & 1 and oracle_beats(b, t, s.trump) for t, b in pairs)


def oracle_leads(s: State) -> set[Lead]:
    a = s.attacker
    hand = s.hands[a]
    limit = oracle_limit(s.rules, s.hands[s.defender].bit_count(), s.talon_size)
    out = set()
    for u in range(4):
        cards = cards_of(hand & SUIT[u])
        for k in range(1, min(limit, len(cards)) + 1):
            for combo in combinations(cards, k):
                out.add(Lead(a, sum(1 << c for c in combo)))
    return out


def oracle_beats_all(s: State) -> set[Beat]:
    d = s.defender
    targets = cards_of(s.led)
    hand = cards_of(s.hands[d])
    out: set[Beat] = set()

    def rec(i: int, used: frozenset[int], pairs: dict[int, int]) -> None:
        if i == len(targets):
            out.add(Beat.of(d, pairs))
            return
        t = targets[i]
        rec(i + 1, used, pairs)
        for b in hand:
            if b not in used and oracle_beats(b, t, s.trump):
                rec(i + 1, used | {b}, {**pairs, t: b})

    rec(0, frozenset(), {})
    return out


def test_beaters_table_matches_the_oracle() -> None:
    from mustamaija.games.mustamaija.legality import BEATERS, beats

    for trump in (-1, 0, 1, 2, 3):
        for led in range(52):
            for card in range(52):
                assert beats(card, led, trump) == oracle_beats(card, led, trump), (card_name(card), card_name(led), trump)
                assert bool(BEATERS[trump][led] >> card & 1) == oracle_beats(card, led, trump)


# -- checks ----------------------------------------------------------------------------------


def check_state(s: State) -> None:
    """Conservation of the 52 cards and the structural facts of M9, M16, M18, M19."""
    hands = s.hands
    talon = s.talon_cards
    tmask = 0
    for c in talon:
        assert not tmask >> c & 1, f"{card_name(c)} twice in the talon"
        tmask |= 1 << c
    seen = 0
    for part in (*hands, tmask, s.discard, s.led):
        assert not seen & part, f"cards in two places: {[card_name(c) for c in cards_of(seen & part)]}"
        seen |= part
    assert seen == ALL, f"cards lost: {[card_name(c) for c in cards_of(ALL & ~seen)]}"
    assert not s.discard >> QS & 1, "M19: Q♠ never leaves play"
    assert s.discard.bit_count() % 2 == 0, "M14: beaten cards leave with their beaters, in pairs"
    if s.trump_card >= 0 and talon:
        assert talon[-1] == s.trump_card, "M8: the trump card lies at the bottom of the talon"
    assert len(set(s.out)) == len(s.out)
    for seat in s.out:
        assert hands[seat] == 0, "M18: a seat that is out holds nothing"
    for seat in range(s.n):
        # A hand empties only once the talon is empty (draws refill it before), so it is out (M18).
        assert (hands[seat] == 0) == (seat in s.out), f"seat {seat}: empty hand and being out disagree"
    assert 0 <= s.turns <= s.rules.max_turns
    if s.phase == OVER:
        assert s.attacker == s.defender == -1 and s.led == 0 and s.sel == 0
        return
    a, d = s.attacker, s.defender
    assert a != d and hands[d], "M9: the defender holds cards"
    x = (a + 1) % s.n
    while not hands[x]:
        x = (x + 1) % s.n
    assert x == d, "M9: the defender is the next seat to the attacker's left that holds cards"
    if s.phase == LEAD:
        assert hands[a] and s.led == 0 and s.rem == 0 and s.used == 0 and not s.pairs
        assert s.sel & ~hands[a] == 0
        assert s.limit == oracle_limit(s.rules, hands[d].bit_count(), s.talon_size)
        if s.sel:
            assert len({c // 13 for c in cards_of(s.sel)}) == 1
    else:
        assert s.led and s.sel == 0
        assert s.rem & ~s.led == 0 and s.used & ~hands[d] == 0
        assert {b for _, b in s.pairs} == set(cards_of(s.used))
        if not hands[a]:
            assert not talon and a in s.out, "M18: an attacker who led the last cards is out at once"


def check_finished(s: State) -> None:
    assert s.is_over
    assert not s.stopped, "M21 stopped a random deal: the default max_turns must never be reached in random play"
    assert s.finished and s.turns < s.rules.max_turns
    assert 0 <= s.loser < s.n
    holders = [seat for seat in range(s.n) if s.hands[seat]]
    assert holders == [s.loser], "M19: exactly one player holds cards at the end"
    assert s.hands[s.loser] >> QS & 1, "M19: the loser holds Q♠"
    assert sorted(s.out) == [seat for seat in range(s.n) if seat != s.loser]
    assert s.talon_size == 0
    assert s.legal_mask() == 0 and s.legal_actions() == []
    assert s.turns == sum(isinstance(a, Beat) for a in s.actions())


def check_views(s: State) -> dict[int | None, tuple[View, str]]:
    """Every view shows the truth it may show and nothing it may not (M22); return the views and their text."""
    out: dict[int | None, tuple[View, str]] = {}
    truth_sizes = tuple(h.bit_count() for h in s.hands)
    talon = s.talon_cards
    history = s.history()
    for viewer in (None, *range(s.n)):
        v = view_of(s, viewer)
        own = s.hands[viewer] if viewer is not None else 0
        assert v.seat == viewer and v.hand == own
        assert v.hand_sizes == truth_sizes and v.talon_size == s.talon_size
        assert (v.trump, v.trump_card, v.revealed, v.discard, v.led) == (s.trump, s.trump_card, s.revealed, s.discard, s.led)
        assert (v.phase, v.attacker, v.defender, v.to_act, v.out, v.loser, v.turns) == (
            s.phase, s.attacker, s.defender, s.to_act, s.out, s.loser, s.turns)
        assert v.history == history
        tk = 0
        for depth, c in v.talon_known:
            assert talon[depth] == c, "talon_known names a card at the wrong depth"
            tk |= 1 << c
        known_others = 0
        slots = 0
        for t in range(s.n):
            assert v.known[t] & ~s.hands[t] == 0, f"view of {viewer} claims a card in seat {t}'s hand that is not there"
            if t != viewer:
                assert not known_others & v.known[t]
                known_others |= v.known[t]
                slots += s.hands[t].bit_count() - v.known[t].bit_count()
        slots += s.talon_size - len(v.talon_known)
        placed = 0
        for part in (own, s.discard, s.led, tk, known_others, v.unseen):
            assert not placed & part, f"view of {viewer}: a card is placed twice"
            placed |= part
        assert placed == ALL, f"view of {viewer}: the view does not account for every card"
        assert v.unseen.bit_count() == slots
        if viewer == s.to_act:
            assert (v.sel, v.rem, v.used, v.pairs) == (s.sel, s.rem, s.used, s.pairs)
            assert v.legal_mask() == s.legal_mask()
        else:
            assert (v.sel, v.used, v.pairs, v.rem) == (0, 0, (), s.led), "a partial action leaks to another seat"
            assert v.legal_mask() == 0
        text = v.render()
        shown = {m for m in CARD_TOKEN.findall(text)}
        leaked = shown & {card_name(c) for c in cards_of(v.unseen)}
        assert not leaked, f"view of {viewer} renders unseen cards {sorted(leaked)}"
        assert ("hand:" in text) == (viewer is not None)
        out[viewer] = (v, text)
    return out


def check_legal_oracle(s: State) -> None:
    assert set(s.legal_actions()) == oracle_steps(s)
    assert bool(s.legal_mask()) == (s.phase != OVER), "the legal mask is empty only when the deal is over"


def step_reachable(s: State) -> set[object]:
    """Every compound lead or defence reachable by steps from here (declaring excluded)."""
    out: set[object] = set()
    stack = [s.copy()]
    start = s.nlog
    while stack:
        x = stack.pop()
        for step in x.legal_actions():
            if step >= DECLARE:
                continue
            y = x.step(step)
            if y.nlog > start:
                out.add(y.last_action())
            else:
                stack.append(y)
    return out


def check_enumerations(s: State) -> None:
    """Compound listing, the oracle and the step decomposition agree, when small enough to list."""
    if s.in_progress or s.phase == OVER:
        return
    if s.phase == LEAD:
        hand = s.hands[s.attacker]
        if hand.bit_count() > 9:
            return
        listed = list(s.legal_leads())
        assert len(listed) == len(set(listed))
        assert set(listed) == oracle_leads(s) == step_reachable(s)
    else:
        if s.led.bit_count() > 4 or s.hands[s.defender].bit_count() > 9:
            return
        listed_b = list(s.legal_beats())
        assert len(listed_b) == len(set(listed_b))
        assert listed_b[0].pairs == (), "picking up everything is listed first"
        assert set(listed_b) == oracle_beats_all(s) == step_reachable(s)
    decl = {d.suit for d in s.legal_declares()}
    assert decl == set(oracle_declarable(s, s.hands[s.to_act]))


def check_replay(s: State, views: dict[int | None, tuple[View, str]] | None = None, *, with_views: bool = True) -> None:
    """The written record replays to the same state and the same views (``views``: those of ``s``, if known)."""
    rec = Record.from_state(s)
    again = Record.loads(rec.dumps())
    assert again == rec
    r = again.replay()
    assert state_to_json(r) == state_to_json(s)
    assert r.actions() == s.actions() and r.hands == s.hands and r.public == s.public
    if not with_views:
        return
    for viewer in (None, *range(s.n)):
        a, text = views[viewer] if views else (view_of(s, viewer), view_of(s, viewer).render())
        b = view_of(r, viewer)
        assert b == a
        assert b.render() == text


def oracle_turn(rules: Rules, talon: tuple[int, ...]) -> tuple[int, ...]:
    """docs/formats.md, turning the trump: the talon after turning, trump card last (M6-M8)."""
    t = list(talon)
    if not t:
        return ()
    j = 0
    if not rules.spades_can_be_trump:
        while j < len(t) and t[j] // 13 == SPADES:
            j += 1
        if j == len(t):
            j = 0
    others = t[j + 1:]
    half = len(others) // 2
    return (*others[:half], *t[:j], *others[half:], t[j])


def check_deal(s: State) -> None:
    """docs/formats.md, the deal: one card at a time from the top, from the dealer's left (M4)."""
    assert s.deck is not None and s.actions() == []
    hs = s.rules.hand_size
    hands = [0] * s.n
    for i in range(s.n * hs):
        hands[(s.dealer + 1 + i) % s.n] |= 1 << s.deck[i]
    assert s.hands == hands
    talon = s.deck[s.n * hs:]
    if s.rules.trump == "turned" and s.rules.trump_turn == "after_deal":
        talon = oracle_turn(s.rules, talon)
        assert s.trump_card == talon[-1] and s.trump == talon[-1] // 13
    elif s.rules.trump == "fixed":
        assert s.trump == "SHDC".index(s.rules.trump_suit)
    else:
        assert s.trump == -1 and s.trump_card == -1
    assert s.talon_cards == talon
    assert s.attacker == (s.dealer + 1) % s.n and s.defender == (s.dealer + 2) % s.n, "M9"


def _draw(hs: int, hand: int, talon: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """M12, M15: refill ``hand`` from the top of ``talon`` up to the hand size."""
    k = max(0, min(hs - hand.bit_count(), len(talon)))
    return hand | sum(1 << c for c in talon[:k]), talon[k:]


def check_transition(pre: State, s: State) -> None:
    """The effect of the compound action just completed, from the rule text (M6-M8, M12-M19, V3)."""
    action = s.last_action()
    hs = s.rules.hand_size
    unchanged = [t for t in range(s.n) if t != action.seat]
    assert [s.hands[t] for t in unchanged] == [pre.hands[t] for t in unchanged]
    if isinstance(action, Declare):
        assert (s.trump, s.declarer, s.declared) == (action.suit, action.seat, action.suit)
        assert s.hands == pre.hands and s.talon_cards == pre.talon_cards and s.phase == pre.phase
        return
    if isinstance(action, Lead):
        talon = pre.talon_cards
        if s.rules.trump == "turned" and pre.trump_card < 0:
            talon = oracle_turn(s.rules, talon)  # M6: after the first lead, before the first draw
            assert s.trump_card == talon[-1] and s.trump == s.trump_card // 13
        hand, rest = _draw(hs, pre.hands[action.seat] & ~action.cards, talon)
        assert s.hands[action.seat] == hand and s.talon_cards == rest
        assert s.phase == DEFEND and s.led == action.cards and s.defender == pre.defender
        return
    assert isinstance(action, Beat)
    d = action.seat
    taken = pre.led & ~action.beaten
    hand, rest = _draw(hs, (pre.hands[d] & ~action.beaters) | taken, pre.talon_cards)
    assert s.hands[d] == hand and s.talon_cards == rest
    assert s.discard == pre.discard | action.beaten | action.beaters
    assert s.turns == pre.turns + 1
    holders = [t for t in range(s.n) if s.hands[t]]
    if len(holders) <= 1:
        assert s.phase == OVER and s.loser == holders[0]
        return
    if s.turns >= s.rules.max_turns:
        assert s.phase == OVER and s.stopped
        return
    a = d if not taken else (d + 1) % s.n  # M16
    while not s.hands[a]:
        a = (a + 1) % s.n
    b = (a + 1) % s.n
    while not s.hands[b]:
        b = (b + 1) % s.n
    assert (s.phase, s.attacker, s.defender) == (LEAD, a, b), "M16: the next attacker and defender"


# -- drivers --------------------------------------------------------------------------------------


def random_lead(s: State, rng: random.Random) -> Lead:
    hand = cards_of(s.hands[s.attacker])
    suit = rng.choice(hand) // 13
    cards = [c for c in hand if c // 13 == suit]
    k = rng.randint(1, min(s.limit, len(cards)))
    return Lead(s.attacker, sum(1 << c for c in rng.sample(cards, k)))


def random_beat(s: State, rng: random.Random) -> Beat:
    avail = set(cards_of(s.hands[s.defender]))
    pairs = {}
    p = rng.random()
    targets = cards_of(s.led)
    rng.shuffle(targets)
    for t in targets:
        options = sorted(b for b in avail if oracle_beats(b, t, s.trump))
        if options and rng.random() < p:
            b = rng.choice(options)
            avail.discard(b)
            pairs[t] = b
    return Beat.of(s.defender, pairs)


def take_compound(s: State, rng: random.Random) -> None:
    declares = s.legal_declares()
    if declares and rng.random() < 0.5:
        s.play(rng.choice(declares))
        return
    action: Lead | Beat
    if s.phase == LEAD:
        listed = rng.random() < 0.4
        action = rng.choice(list(islice(s.legal_leads(), 300))) if listed else random_lead(s, rng)
        assert oracle_lead_ok(s, action.seat, action.cards)
    else:
        listed = rng.random() < 0.4
        action = rng.choice(list(islice(s.legal_beats(), 300))) if listed else random_beat(s, rng)
        assert oracle_beat_ok(s, action.seat, action.pairs)
    assert s.can_play(action)
    s.play(action)


def play_deal(name: str, players: int, seed: int, *, compound: bool, full_views: bool, transitions: bool) -> State:
    rules = PRESETS[name]
    s = State.from_seed(players, seed, rules)
    rng = random.Random(seed * 7919 + 1)
    check_deal(s)
    check_state(s)
    check_views(s)
    check_legal_oracle(s)
    bound = rules.max_turns * 32
    steps = 0
    while not s.is_over:
        pre = s.copy() if transitions else None
        if compound and not s.in_progress and rng.random() < 0.85:
            take_compound(s, rng)
        else:
            s.apply(rng.choice(s.legal_actions()))
        steps += 1
        if pre is not None and s.nlog > pre.nlog:
            check_transition(pre, s)
        assert steps < bound, "the deal does not end"
        check_state(s)
        if full_views or rng.random() < SAMPLE_RATE:
            check_views(s)
            check_legal_oracle(s)
            if rng.random() < 0.3:
                check_enumerations(s)
            if full_views and not s.in_progress and rng.random() < 0.05:
                check_replay(s)
    check_finished(s)
    if full_views or seed % 3 == 0:
        check_replay(s, check_views(s))
    else:
        check_replay(s, with_views=False)
    return s


@pytest.mark.parametrize(("name", "players"), COMBOS, ids=[f"{n}-{p}" for n, p in COMBOS])
def test_random_deals(name: str, players: int) -> None:
    base = (list(PRESETS).index(name) * 10 + players) * 100_000
    trumps = set()
    declared = revealed = 0
    for i in range(DEALS_PER_COMBO):
        seed = base + i
        s = play_deal(name, players, seed, compound=i % COMPOUND_SHARE == 1, full_views=i % FULL_VIEW_EVERY == 0,
                      transitions=i % 3 == 0)
        trumps.add(s.trump)
        declared += s.declarer >= 0
        revealed += s.revealed != 0
    rules = PRESETS[name]
    # The runs must exercise what the rule set is about.
    if rules.trump == "turned":
        assert trumps <= {1, 2, 3} and len(trumps) == 3, "M7: spades are never trumps, every other suit turns up"
        assert revealed > 0, "M7: some deals turn spades and put them back"
    elif rules.trump == "fixed":
        assert trumps == {"SHDC".index(rules.trump_suit)}
    elif rules.trump == "marriage":
        assert declared > 0 and trumps - {-1} <= {1, 2, 3}
    assert SPADES not in trumps


def test_replay_of_a_deal_stopped_by_the_turn_guard() -> None:
    """M21: a deal that reaches max_turns stops unfinished, and its record replays to the same stop."""
    rules = Rules(max_turns=3)
    for seed in range(40):
        s = State.from_seed(3, seed, rules)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            check_state(s)
        if s.finished:
            continue
        assert s.stopped and s.turns == 3 and s.loser == -1 and s.legal_mask() == 0
        check_views(s)
        check_replay(s)
        assert "stopped unfinished (M21)" in view_of(s, None).render()
        return
    pytest.fail("no deal reached the three-turn guard")
