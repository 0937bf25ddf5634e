"""The UI-free parts of the terminal game: typed commands, the match controller, keyboard choices, hints, bots."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mustamaija.core.cards import QS, card_name, card_symbol, cards_of, parse_card
from mustamaija.core.errors import CardError, IllegalActionError, MustamaijaError
from mustamaija.games.mustamaija import Beat, Lead, Rules, State, deck_for_hands, sample_state
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.state import DEFEND, LEAD
from mustamaija.players.levels import make_player, resolve_level, split_bots
from mustamaija.tui.commands import parse_command
from mustamaija.tui.describe import explain_error, sort_hand
from mustamaija.tui.hints import suggest
from mustamaija.tui.selection import Selection, playable
from mustamaija.tui.session import BotJob, GameSession, MatchConfig, bot_action, bot_actions, deal_deck


def c(text: str) -> int:
    return parse_card(text)


def mask(text: str) -> int:
    return sum(1 << c(t) for t in text.split())


def run_bots(s: GameSession) -> None:
    """Let the bots play until the person is to act or the deal is over."""
    while s.bot_to_act:
        job = s.bot_job()
        s.apply_bots(job, bot_actions(job, chain=True))


def session(players: int = 3, seed: int = 24, bots: str = "easy", **kw: object) -> GameSession:
    s = GameSession(MatchConfig(players=players, bots=(bots,), seed=seed, **kw))  # type: ignore[arg-type]
    run_bots(s)
    return s


# -- typed commands ---------------------------------------------------------------------------------


def test_commands_parse_moves_and_words() -> None:
    assert parse_command("9h 4H").cards == (c("9H"), c("4H"))
    assert parse_command("lead 10♦").cards == (c("TD"),)
    assert parse_command("9H:JH 4H:-").pairs == ((c("9H"), c("JH")), (c("4H"), None))
    assert parse_command("beat 9H/JH").pairs == ((c("9H"), c("JH")),)
    for word, kind in [("take", "take"), ("-", "take"), ("hint", "hint"), ("UNDO", "undo"), ("rules", "rules"),
                       ("help", "help"), ("quit", "quit"), ("next", "next"), ("", "empty")]:
        assert parse_command(word).kind == kind
    assert parse_command("save my deal.json").arg == "my deal.json"
    assert parse_command("declare ♥").arg == "H"
    assert parse_command("pace 0.5").arg == "0.5"


@pytest.mark.parametrize("text, fragment", [("9X", "'9X'"), ("9H:1S", "'1S'"), ("declare X", "'X'"),
                                            ("pace fast", "'fast'"), ("pace 99", "0 to 10")])
def test_commands_name_the_bad_string(text: str, fragment: str) -> None:
    with pytest.raises(CardError, match=fragment):
        parse_command(text)


def test_errors_get_the_rule_title() -> None:
    assert explain_error("M11: a lead of 3 cards exceeds") == "M11 (the lead limit): a lead of 3 cards exceeds"
    assert explain_error("plain words") == "plain words"


# -- the match controller ------------------------------------------------------------------------------


def test_the_first_deal_is_the_seeded_deal() -> None:
    s = GameSession(MatchConfig(players=4, bots=("easy",), seed=7, deals=2))
    ref = State.from_seed(4, 7)
    assert s.start == ref
    assert s.names == ["You", "Aino", "Eero", "Helmi"]
    assert deal_deck(7, 1, 4)[0] != deal_deck(7, 0, 4)[0]


def test_human_moves_are_checked_with_rule_messages() -> None:
    s = session()
    assert s.human_to_act and s.state.phase == LEAD
    hand = s.state.hands[0]
    foreign = next(x for x in range(52) if not hand >> x & 1)
    with pytest.raises(IllegalActionError, match=f"M10: you do not hold {card_name(foreign)}"):
        s.submit(parse_command(card_name(foreign)))
    suits = {x // 13: x for x in cards_of(hand)}
    if len(suits) >= 2:
        a, b = list(suits.values())[:2]
        with pytest.raises(IllegalActionError, match="M10: a lead must be all one suit"):
            s.submit(parse_command(f"{card_name(a)} {card_name(b)}"))
    with pytest.raises(IllegalActionError, match="M10: you lead now: there is nothing to pick up"):
        s.submit(parse_command("take"))
    with pytest.raises(IllegalActionError, match="pairs such as 9H:JH are for defending"):
        s.submit(parse_command("9H:JH"))
    with pytest.raises(IllegalActionError, match="V2"):
        s.submit(parse_command("declare H"))
    before = s.state.copy()
    assert s.state == before  # Nothing was played by the refused moves.
    low = sort_hand(hand, s.state.trump)[0]
    s.submit(parse_command(card_name(low)))
    assert s.state.actions()[-1] == Lead(0, 1 << low)


def test_not_your_turn_names_the_rule() -> None:
    s = GameSession(MatchConfig(players=3, bots=("easy",), seed=5))
    if s.human_to_act:
        s.submit(parse_command(card_name(cards_of(s.state.hands[0])[0])))
    assert s.bot_to_act
    with pytest.raises(IllegalActionError, match=r"M9: it is .*'s turn to (lead|defend), not yours"):
        s.submit(parse_command("take"))


def test_typed_defences() -> None:
    deck = deck_for_hands([["4H", "9H", "8D", "7C", "6S"], ["JH", "5H", "2S", "3C", "QS"]], dealer=1)
    rec = Record(2, deck, 1, Rules(trump="none"))
    st = rec.start()
    st.lead("4H 9H")
    rec = Record.from_state(st)
    config = MatchConfig(players=2, bots=("easy",), seed=1, deals=1, human=1)
    s = GameSession(config, _start=False)
    s.match.dealer = 1
    s._begin(rec.start(), rec.actions)
    assert s.human_to_act and s.state.phase == DEFEND
    with pytest.raises(IllegalActionError, match="M13: 3♣ does not beat 4♥"):
        s.submit(parse_command("4H:3C"))
    with pytest.raises(IllegalActionError, match="M13: 8H was not led"):
        s.submit(parse_command("8H:JH"))
    with pytest.raises(MustamaijaError, match="say which led card each card beats, such as 4H:JH"):
        s.submit(parse_command("JH"))
    with pytest.raises(IllegalActionError, match="M2: Q♠ can never beat a card"):
        s.submit(parse_command("4H:QS"))
    with pytest.raises(IllegalActionError, match="M13: 2♠ beats none of the led cards"):
        s.submit(parse_command("2S"))
    s.submit(parse_command("5H JH"))  # The only matching: 5H beats 4H, JH beats 9H.
    assert s.state.actions()[-1] == Beat.of(1, {c("4H"): c("5H"), c("9H"): c("JH")})


def test_take_picks_up_everything() -> None:
    deck = deck_for_hands([["4H", "9H", "8D", "7C", "6S"], ["JH", "5H", "2S", "3C", "QS"]], dealer=1)
    st = State.deal(2, deck, dealer=1)
    st.lead("4H 9H")
    rec = Record.from_state(st)
    s = GameSession(MatchConfig(players=2, bots=("easy",), seed=1, deals=1, human=1), _start=False)
    s.match.dealer = 1
    s._begin(rec.start(), rec.actions)
    s.submit(parse_command("take"))
    assert s.state.actions()[-1] == Beat(1, ())
    assert s.state.hands[1] & mask("4H 9H") == mask("4H 9H")
    assert any("You pick up 4♥ 9♥" in line for line in s.log)


def test_a_deal_is_scored_and_the_match_goes_on() -> None:
    s = GameSession(MatchConfig(players=3, bots=("easy",), seed=24, deals=2))
    sel = Selection()
    while s.result is None:
        run_bots(s)
        if s.human_to_act:
            sel.sync(s.state, 0)
            action = sel.action(s.state, 0)
            if isinstance(action, Lead):
                s.lead(action.cards)
            else:
                assert isinstance(action, Beat)
                s.beat(dict(action.pairs))
    assert s.state.finished and s.match.losses[s.state.loser] == 1 and s.match.played == 1
    assert "the Mustamaija" in s.log[-1]
    with pytest.raises(MustamaijaError, match="not over yet"):
        GameSession(MatchConfig(players=3, bots=("easy",), seed=24)).next_deal()
    s.next_deal()
    assert s.deal_no == 1 and s.result is None and s.state.dealer == s.match.dealer
    assert s.state.deck == deal_deck(24, 1, 3)[0]


def test_undo_in_practice_and_not_in_rated() -> None:
    s = session()
    with pytest.raises(MustamaijaError, match="nothing to undo"):
        s.undo()
    before = s.state.copy()
    s.submit(parse_command(card_name(sort_hand(s.state.hands[0], s.state.trump)[0])))
    run_bots(s)
    assert s.state.nlog > before.nlog
    assert s.undo().startswith("took back: your lead")
    assert s.state == before
    rated = session(rated=True)
    rated.submit(parse_command(card_name(sort_hand(rated.state.hands[0], rated.state.trump)[0])))
    with pytest.raises(MustamaijaError, match="undo is not available in rated matches"):
        rated.undo()


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    s = session(players=4, seed=11, bots="medium", deals=3)
    s.submit(parse_command(card_name(sort_hand(s.state.hands[0], s.state.trump)[-1])))
    run_bots(s)
    path = s.save(str(tmp_path / "game.json"))
    obj = json.loads(Path(path).read_text(encoding="utf-8"))
    assert obj["format"] == "mustamaija-record/1" and obj["match"]["bots"] == ["medium"] * 3
    assert Record.load(path).replay() == s.state  # A plain FORMATS.md record, with extra keys.
    t = GameSession.load(path)
    assert t.state == s.state and t.names == s.names and t.config.seed == 11 and t.config.deals == 3
    assert t.match.losses == s.match.losses and t.deal_no == s.deal_no and t.log == s.log
    # A plain record (no match key) loads too, as a one-deal match with medium bots.
    plain = tmp_path / "plain.json"
    Record.from_state(s.state).dump(plain)
    u = GameSession.load(str(plain), human=0)
    assert u.state == s.state and u.config.deals == 1


def test_load_after_the_deal_ended_keeps_the_score(tmp_path: Path) -> None:
    s = GameSession(MatchConfig(players=2, bots=("easy",), seed=3, deals=3))
    sel = Selection()
    while s.result is None:
        run_bots(s)
        if s.human_to_act:
            sel.sync(s.state, 0)
            s.beat({}) if s.state.phase == DEFEND else s.lead(sel.action(s.state, 0).cards)  # type: ignore[union-attr]
    path = s.save(str(tmp_path / "over.json"))
    t = GameSession.load(path)
    assert t.result is not None and t.match.losses == s.match.losses and t.match.played == 1
    t.next_deal()
    assert t.deal_no == 1 and t.state.dealer == s.match.dealer


def test_a_failing_bot_is_replaced_by_a_random_move() -> None:
    class Broken:
        name = "broken"

        def act(self, view: object) -> int:
            raise RuntimeError("out of order")

    s = GameSession(MatchConfig(players=2, bots=("easy",), seed=2))
    if s.human_to_act:
        s.lead(1 << sort_hand(s.state.hands[0], s.state.trump)[0])
    job = s.bot_job()
    broken = BotJob(job.seat, Broken(), job.state, job.generation, job.seed)
    action, note = bot_action(broken)
    assert "broken failed (RuntimeError: out of order)" in note
    assert s.apply_bot(broken, (action, note)) is not None
    assert "a random legal move was played" in s.log[-1]


def test_stale_bot_results_are_dropped() -> None:
    s = session()
    s.submit(parse_command(card_name(sort_hand(s.state.hands[0], s.state.trump)[0])))
    job = s.bot_job()
    result = bot_action(job)
    s.undo()
    assert s.apply_bot(job, result) is None


# -- choosing by keyboard ------------------------------------------------------------------------------


def test_selection_lead_and_defence() -> None:
    deck = deck_for_hands([["9H", "4H", "2S", "3S", "5C"], ["JH", "QS", "7D", "8D", "TC"]], dealer=1)
    st = State.deal(2, deck, dealer=1)
    sel = Selection()
    sel.reset(st, 0)
    assert [card_symbol(x) for x in sel.order] == ["2♠", "3♠", "4♥", "9♥", "5♣"]
    assert playable(st, 0) == st.hands[0]
    sel.toggle(st, 0, c("4H"))
    assert playable(st, 0, sel.chosen) == mask("4H 9H")
    with pytest.raises(IllegalActionError, match="M10"):
        sel.toggle(st, 0, c("5C"))
    sel.toggle(st, 0, c("9H"))
    st.play(sel.action(st, 0))
    sel.sync(st, 1)
    assert sel.target == c("4H")
    trumps = [x for x in cards_of(st.hands[1]) if x // 13 == st.trump and st.trump != 1 and x != QS]
    assert playable(st, 1) == mask("JH") | sum(1 << x for x in trumps)
    with pytest.raises(IllegalActionError, match="M2: Q♠ can never beat a card"):
        sel.toggle(st, 1, c("QS"))
    assert sel.toggle(st, 1, c("JH")) == "J♥ beats 4♥"
    assert sel.preview(st, 1) == "Enter: beat 4♥ with J♥, pick up 9♥"
    assert sel.toggle(st, 1, c("JH")) == "J♥ no longer beats 4♥"
    sel.cycle_target(st, 1)
    assert sel.target == c("9H")
    sel.toggle(st, 1, c("JH"))
    assert sel.action(st, 1) == Beat.of(1, {c("9H"): c("JH")})


def test_hand_sorting_puts_trumps_last() -> None:
    hand = mask("2C AS 3H KD QS 5C")
    assert [card_name(x) for x in sort_hand(hand, trump=3)] == ["QS", "AS", "3H", "KD", "2C", "5C"]
    assert [card_name(x) for x in sort_hand(hand, trump=-1)] == ["QS", "AS", "3H", "2C", "5C", "KD"]


# -- hints and bots -------------------------------------------------------------------------------------


def test_hint_uses_the_solver_once_every_card_is_known() -> None:
    # Two players, talon empty: the view knows the other hand by counting, so the solver may answer.
    st = State.from_position([["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker=0, trump_suit=3)
    hint = suggest(st, 0)
    assert hint.source == "solver" and isinstance(hint.action, Lead) and st.can_play(hint.action)
    assert "Proved by the exact solver" in hint.text and "**Lead 3♣ A♣** makes sure you are not the Mustamaija" in hint.text
    assert hint.header == ("move", "against best play") and hint.rows[0] == ("lead 3♣ A♣", "safe ✓")
    assert {verdict for _, verdict in hint.rows} == {"safe ✓", "you lose"}


def test_hint_searches_the_view_only_early() -> None:
    st = State.from_seed(3, 9)
    seat = st.to_act
    hint = suggest(st, seat, seconds=0)  # No time limit: a fixed number of playouts, so the hint is reproducible.
    assert hint.source == "search" and hint.action is not None and st.can_play(hint.action)
    assert hint.result is not None and 0 < hint.result.worlds <= 200
    best = hint.result.best
    assert best is not None and best.loss_rate is not None
    assert f"about **{100 * best.loss_rate:.0f}%** of {best.visits} playouts" in hint.text
    assert hint.header == ("move", "chance of losing", "playouts")
    assert hint.rows[0] == (f"lead {' '.join(card_symbol(c) for c in cards_of(hint.action.cards))}",  # type: ignore[union-attr]
                            f"{100 * best.loss_rate:.0f}% ± {100 * (best.stderr or 0):.0f}", str(best.visits))
    # Another deal that the seat cannot tell from this one gets the very same hint.
    other = sample_state(st.view(seat), random.Random(4))
    assert other.hands != st.hands
    assert suggest(other, seat, seconds=0).text == hint.text


def test_bot_levels() -> None:
    assert resolve_level("easy") == "random" and resolve_level("Expert") == "pimc:time=2"
    assert make_player("medium", 1).name == "heuristic"
    assert split_bots("easy,medium", 3) == ["easy", "medium"]
    with pytest.raises(MustamaijaError, match="unknown Mustamaija bot 'nobody'"):
        make_player("nobody", 1)
    with pytest.raises(MustamaijaError, match="need 3"):
        split_bots("a,b", 4)


def test_declaring_a_marriage() -> None:
    rules = Rules.preset("salmi")
    deck = deck_for_hands([["KH", "QH", "2H", "3S", "5C", "7D"], ["JH", "QS", "7C", "8D", "TC", "4S"]], dealer=1)
    s = GameSession(MatchConfig(players=2, bots=("easy",), seed=1, deals=1, rules=rules), _start=False)
    s.match.dealer = 1
    s._begin(State.deal(2, deck, rules, dealer=1))
    assert s.human_to_act and s.state.trump == -1
    with pytest.raises(IllegalActionError, match="V3: you do not hold both KD and QD"):
        s.submit(parse_command("declare D"))
    s.submit(parse_command("declare ♥"))
    assert s.state.trump == 1 and s.human_to_act  # Then you lead (V4).
    assert any("You declare the marriage K+Q of hearts" in line for line in s.log)
    with pytest.raises(IllegalActionError, match="V3: trumps are already fixed"):
        s.submit(parse_command("declare H"))
