"""The UI-free parts of the terminal game: the session every game shares, typed commands, choices, hints, bots.

The session tests run over every game with a terminal table: the same API,
the same bots, undo, saving and loading, whatever the game.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from mustamaija.core.cards import QS, card_name, card_symbol, cards_of, parse_card
from mustamaija.core.errors import CardError, IllegalActionError, MustamaijaError
from mustamaija.core.registry import DEFAULT_GAME, game_for_record, game_names, get_game
from mustamaija.games.mustamaija import Beat, Lead, Rules, State, deck_for_hands, sample_state
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.state import DEFEND, LEAD
from mustamaija.games.mustamaija.tui.commands import parse_command as parse_move
from mustamaija.games.mustamaija.tui.controller import deal_deck
from mustamaija.games.mustamaija.tui.describe import explain_error
from mustamaija.games.mustamaija.tui.hints import action_words, rule_of_thumb
from mustamaija.games.mustamaija.tui.selection import Selection, playable
from mustamaija.players.levels import make_player, resolve_level, split_bots
from mustamaija.players.random import RandomPlayer
from mustamaija.search.hints import TABLE_PLAYOUTS
from mustamaija.tui.commands import parse_command
from mustamaija.tui.describe import sort_hand
from mustamaija.tui.plugin import Hint, table_of
from mustamaija.tui.session import BotJob, GameSession, MatchConfig, autosave_name, bot_action, bot_actions
from mustamaija.tui.setup_screen import table_games

GAMES = [g.name for g in table_games()]


def c(text: str) -> int:
    return parse_card(text)


def mask(text: str) -> int:
    return sum(1 << c(t) for t in text.split())


def run_bots(s: GameSession) -> None:
    """Let the bots play until the person is to act or the deal is over."""
    while s.bot_to_act:
        job = s.bot_job()
        s.apply_bots(job, bot_actions(job, chain=True))


def session(game: str = DEFAULT_GAME, players: int = 3, seed: int = 24, bots: str = "easy", **kw: Any) -> GameSession:
    s = GameSession(MatchConfig(game, players=players, bots=(bots,), seed=seed, **kw))
    run_bots(s)
    return s


def random_move(s: GameSession, seed: int = 1) -> Any:
    """Return a random legal action of the person (a random player, on a copy)."""
    return bot_action(BotJob(s.human, RandomPlayer(seed=seed), s.state.copy(), s.generation, seed))[0]


def play_out(s: GameSession) -> None:
    """Play the person's moves at random until the deal is over."""
    while s.result is None:
        run_bots(s)
        if s.human_to_act:
            s.act(random_move(s, len(s.state.actions())))


# -- the session, for every game -------------------------------------------------------------------


def test_every_registered_game_has_a_terminal_table() -> None:
    assert game_names() == GAMES
    for name in GAMES:
        plugin = table_of(get_game(name))
        assert plugin.renderer.titles["table"] and plugin.controller.words.deal


@pytest.mark.parametrize("game", GAMES)
def test_named_bots_and_the_same_seats(game: str) -> None:
    s = GameSession(MatchConfig(game, players=4, bots=("easy", "hard", "heuristic"), seed=7))
    assert s.names == ["You", "Aino", "Eero", "Helmi"]
    assert s.labels == ["you", "bot 1 · easy", "bot 2 · hard", "bot 3 · heuristic"]
    assert [b.name if b else None for b in s.bots] == [None, "random", "pimc", "heuristic"]
    moved = GameSession(MatchConfig(game, players=4, bots=("medium",), seed=7, human=2))
    assert moved.names[2] == "You" and moved.names[3] == "Aino" and moved.labels[3] == "bot 3 · medium"


@pytest.mark.parametrize("game", GAMES)
def test_the_first_deal_is_the_seeded_deal_and_the_next_one_differs(game: str) -> None:
    s = GameSession(MatchConfig(game, players=4, bots=("easy",), seed=7))
    deck, dealer = s.controller.deal_deck(7, 0, 4)
    assert s.start == get_game(game).deal_from_deck(4, deck, dealer, s.rules)
    assert s.controller.deal_deck(7, 1, 4)[0] != deck
    assert s.controller.deal_deck(7, 1, 4) == s.controller.deal_deck(7, 1, 4)


@pytest.mark.parametrize("game", GAMES)
def test_a_deal_is_scored_and_the_match_goes_on(game: str) -> None:
    s = session(game, players=4, seed=5)
    with pytest.raises(MustamaijaError, match="not over yet"):
        s.next_deal()
    play_out(s)
    assert s.result is not None and s.played == 1
    scores = get_game(game).scores(s.state)
    assert scores is not None and s.totals == [round(x) for x in scores]
    c = s.controller
    assert s.log[-1].startswith(f"{c.words.deal.capitalize()} 1 over. {c.words.score.capitalize()} so far: You ")
    dealer = s.dealer
    s.next_deal()
    assert s.deal_no == 1 and s.result is None and s.state.dealer == dealer
    assert s.start == get_game(game).deal_from_deck(4, c.deal_deck(5, 1, 4)[0], dealer, s.rules)


@pytest.mark.parametrize("game", GAMES)
def test_not_your_turn_and_the_deal_over_are_refused(game: str) -> None:
    s = GameSession(MatchConfig(game, players=4, bots=("easy",), seed=3))
    if s.human_to_act:
        s.act(random_move(s))
    assert s.bot_to_act
    rule = s.controller.words.turn_rule
    with pytest.raises(IllegalActionError, match=rf"{rule}: it is {s.names[s.state.to_act]}'s turn to \w+, not yours"):
        s.act(None)  # Refused before the action is even looked at.
    play_out(s)
    with pytest.raises(MustamaijaError, match=f"the {s.controller.words.deal} is over"):
        s.act(None)


@pytest.mark.parametrize("game", GAMES)
def test_undo_in_practice_and_not_in_rated(game: str) -> None:
    s = session(game, players=4)
    with pytest.raises(MustamaijaError, match="nothing to undo"):
        s.undo()
    before = s.state.copy()
    log = list(s.log)
    s.act(random_move(s))
    run_bots(s)
    assert len(s.state.actions()) > len(before.actions())
    assert s.undo().startswith("took back: your ")
    assert s.state == before and s.log == log
    rated = session(game, players=4, rated=True)
    rated.act(random_move(rated))
    with pytest.raises(MustamaijaError, match="hints are not available in rated matches"):
        rated.hint(0)
    with pytest.raises(MustamaijaError, match="undo is not available in rated matches"):
        rated.undo()


@pytest.mark.parametrize("game", GAMES)
def test_save_and_load_round_trip(game: str, tmp_path: Path) -> None:
    s = session(game, players=4, seed=11, bots="medium")
    s.act(random_move(s))
    run_bots(s)
    path = s.save(str(tmp_path / "game.json"))
    obj = json.loads(Path(path).read_text(encoding="utf-8"))
    assert game_for_record(obj).name == game and obj["match"]["bots"] == ["medium"] * 3
    g = get_game(game)
    assert g.load_record(obj).replay() == s.state  # A plain docs/formats.md record, with extra keys.
    t = GameSession.load(path)
    assert t.game.name == game and t.state == s.state and t.names == s.names and t.config.seed == 11
    assert t.totals == s.totals and t.deal_no == s.deal_no and t.log == s.log and t.config.options == s.config.options
    # A plain record (no match key) loads too, as a match of one deal with medium bots.
    plain = tmp_path / "plain.json"
    plain.write_text(g.record_of(s.state).dumps(), encoding="utf-8")
    u = GameSession.load(str(plain), human=0)
    assert u.state == s.state and u.deals == 1 and u.labels[1] == "bot 1 · medium"


@pytest.mark.parametrize("game", GAMES)
def test_load_after_the_deal_ended_keeps_the_score(game: str, tmp_path: Path) -> None:
    s = session(game, players=4, seed=3)
    play_out(s)
    path = s.save(str(tmp_path / "over.json"))
    t = GameSession.load(path)
    assert t.result is not None and t.totals == s.totals and t.played == 1
    t.next_deal()
    s.next_deal()
    assert t.deal_no == 1 and t.state == s.state


@pytest.mark.parametrize("game", GAMES)
def test_a_failing_bot_is_replaced_by_a_random_move(game: str) -> None:
    class Broken:
        name = "broken"

        def act(self, view: object) -> int:
            raise RuntimeError("out of order")

    s = GameSession(MatchConfig(game, players=4, bots=("easy",), seed=2))
    if s.human_to_act:
        s.act(random_move(s))
    job = s.bot_job()
    broken = BotJob(job.seat, Broken(), job.state, job.generation, job.seed)
    action, note = bot_action(broken)
    assert "broken failed (RuntimeError: out of order)" in note
    assert s.apply_bot(broken, (action, note)) is not None
    assert "a random legal move was played" in s.log[-1]


@pytest.mark.parametrize("game", GAMES)
def test_stale_bot_results_are_dropped(game: str) -> None:
    s = session(game, players=4)
    s.act(random_move(s))
    job = s.bot_job()
    result = bot_action(job)
    s.undo()
    assert s.apply_bot(job, result) is None


@pytest.mark.parametrize("game", GAMES)
def test_settings_are_checked(game: str) -> None:
    g = get_game(game)
    with pytest.raises(MustamaijaError):
        MatchConfig(game, players=g.max_players + 1).validate()
    with pytest.raises(MustamaijaError, match="need 3 bots, got 2"):
        MatchConfig(game, players=4, bots=("easy", "easy")).validate()
    with pytest.raises(MustamaijaError, match="your seat must be 0 to 3"):
        MatchConfig(game, players=4, human=4).validate()
    with pytest.raises(MustamaijaError, match="no match setting 'colour'"):
        MatchConfig(game, options={"colour": 3}).validate()
    assert autosave_name(game) == f"{g.name}-autosave.json"


# -- typed commands -------------------------------------------------------------------------------------


def test_commands_every_table_knows() -> None:
    for word, kind in [("hint", "hint"), ("h", "hint"), ("UNDO", "undo"), ("rules", "rules"), ("help", "help"),
                       ("?", "help"), ("quit", "quit"), ("next", "next"), ("faster", "faster")]:
        assert parse_command(word) == (kind, "")
    assert parse_command("save my deal.json") == ("save", "my deal.json")
    assert parse_command("pace 0.5") == ("pace", "0.5")
    assert parse_command("9H 4H") is None and parse_command("hint 9H") is None and parse_command("take") is None


@pytest.mark.parametrize("text, fragment", [("pace fast", "'fast'"), ("pace 99", "0 to 10")])
def test_commands_name_the_bad_value(text: str, fragment: str) -> None:
    with pytest.raises(CardError, match=fragment):
        parse_command(text)


def test_moves_parse_cards_pairs_and_words() -> None:
    assert parse_move("9h 4H").cards == (c("9H"), c("4H"))
    assert parse_move("lead 10♦").cards == (c("TD"),)
    assert parse_move("9H:JH 4H:-").pairs == ((c("9H"), c("JH")), (c("4H"), None))
    assert parse_move("beat 9H/JH").pairs == ((c("9H"), c("JH")),)
    assert parse_move("take").kind == parse_move("-").kind == "take"
    assert parse_move("declare ♥").arg == "H" and parse_move("m").kind == "marriage"
    for text, fragment in [("9X", "'9X'"), ("9H:1S", "'1S'"), ("declare X", "'X'")]:
        with pytest.raises(CardError, match=fragment):
            parse_move(text)


def test_errors_get_the_rule_title() -> None:
    assert explain_error("M11: a lead of 3 cards exceeds") == "M11 (the lead limit): a lead of 3 cards exceeds"
    assert explain_error("plain words") == "plain words"


# -- the Mustamaija table's moves --------------------------------------------------------------------------


def test_human_moves_are_checked_with_rule_messages() -> None:
    s = session()
    assert s.human_to_act and s.state.phase == LEAD
    hand = s.state.hands[0]
    foreign = next(x for x in range(52) if not hand >> x & 1)
    with pytest.raises(IllegalActionError, match=f"M10: you do not hold {card_name(foreign)}"):
        s.submit(card_name(foreign))
    suits = {x // 13: x for x in cards_of(hand)}
    if len(suits) >= 2:
        a, b = list(suits.values())[:2]
        with pytest.raises(IllegalActionError, match="M10: a lead must be all one suit"):
            s.submit(f"{card_name(a)} {card_name(b)}")
    with pytest.raises(IllegalActionError, match="M10: you lead now: there is nothing to pick up"):
        s.submit("take")
    with pytest.raises(IllegalActionError, match="pairs such as 9H:JH are for defending"):
        s.submit("9H:JH")
    with pytest.raises(IllegalActionError, match="V2"):
        s.submit("declare H")
    before = s.state.copy()
    assert s.state == before  # Nothing was played by the refused moves.
    low = sort_hand(hand, s.state.trump)[0]
    s.submit(card_name(low))
    assert s.state.last_action() == Lead(0, 1 << low)


def test_not_your_turn_names_the_rule() -> None:
    s = GameSession(MatchConfig(players=3, bots=("easy",), seed=5))
    if s.human_to_act:
        s.submit(card_name(cards_of(s.state.hands[0])[0]))
    assert s.bot_to_act
    with pytest.raises(IllegalActionError, match=r"M9: it is .*'s turn to (lead|defend), not yours"):
        s.submit("take")


def _defending(rules: Rules | None = None) -> GameSession:
    deck = deck_for_hands([["4H", "9H", "8D", "7C", "6S"], ["JH", "5H", "2S", "3C", "QS"]], dealer=1)
    rec = Record(2, deck, 1, rules or Rules(trump="none"))
    st = rec.start()
    st.lead("4H 9H")
    s = GameSession(MatchConfig(players=2, bots=("easy",), seed=1, human=1, rules=st.rules), _start=False)
    s.dealer = 1
    s._begin(rec.start(), Record.from_state(st).actions)
    return s


def test_typed_defences() -> None:
    s = _defending()
    assert s.human_to_act and s.state.phase == DEFEND
    with pytest.raises(IllegalActionError, match="M13: 3♣ does not beat 4♥"):
        s.submit("4H:3C")
    with pytest.raises(IllegalActionError, match="M13: 8H was not led"):
        s.submit("8H:JH")
    with pytest.raises(MustamaijaError, match="say which led card each card beats, such as 4H:JH"):
        s.submit("JH")
    with pytest.raises(IllegalActionError, match="M2: Q♠ can never beat a card"):
        s.submit("4H:QS")
    with pytest.raises(IllegalActionError, match="M13: 2♠ beats none of the led cards"):
        s.submit("2S")
    s.submit("5H JH")  # The only matching: 5H beats 4H, JH beats 9H.
    assert s.state.last_action() == Beat.of(1, {c("4H"): c("5H"), c("9H"): c("JH")})


def test_take_picks_up_everything() -> None:
    s = _defending(Rules())
    s.submit("take")
    assert s.state.last_action() == Beat(1, ())
    assert s.state.hands[1] & mask("4H 9H") == mask("4H 9H")
    assert any("You pick up 4♥ 9♥" in line for line in s.log)


def test_a_mustamaija_deal_names_the_loser() -> None:
    s = session(players=3, options={"deals": 2})
    sel = Selection()
    while s.result is None:
        run_bots(s)
        if s.human_to_act:
            sel.sync(s.state, 0)
            s.act(sel.action(s.state, 0))
    assert s.state.finished and s.totals[s.state.loser] == 1
    assert any(f"{s.names[s.state.loser]} {'are' if s.state.loser == 0 else 'is'} the Mustamaija" in line for line in s.log)
    assert deal_deck(24, 1, 3)[0] != deal_deck(24, 0, 3)[0]


def test_declaring_a_marriage() -> None:
    rules = Rules.preset("salmi")
    deck = deck_for_hands([["KH", "QH", "2H", "3S", "5C", "7D"], ["JH", "QS", "7C", "8D", "TC", "4S"]], dealer=1)
    s = GameSession(MatchConfig(players=2, bots=("easy",), seed=1, rules=rules), _start=False)
    s.dealer = 1
    s._begin(State.deal(2, deck, rules, dealer=1))
    assert s.human_to_act and s.state.trump == -1
    with pytest.raises(IllegalActionError, match="V3: you do not hold both KD and QD"):
        s.submit("declare D")
    s.submit("m")  # The only marriage held.
    assert s.state.trump == 1 and s.human_to_act  # Then you lead (V4).
    assert any("You declare the marriage K+Q of hearts" in line for line in s.log)
    with pytest.raises(IllegalActionError, match="V3: trumps are already fixed"):
        s.submit("declare H")


# -- choosing by keyboard ------------------------------------------------------------------------------


def test_selection_lead_and_defence() -> None:
    deck = deck_for_hands([["9H", "4H", "2S", "3S", "5C"], ["JH", "QS", "7D", "8D", "TC"]], dealer=1)
    st = State.deal(2, deck, dealer=1)
    sel = Selection()
    sel.reset(st, 0)
    assert [card_symbol(x) for x in sel.order] == ["2♠", "3♠", "4♥", "9♥", "5♣"]
    assert playable(st, 0) == st.hands[0] == sel.bright(st, 0)
    with pytest.raises(MustamaijaError, match="wait for your turn"):
        sel.toggle(st, 1, c("JH"))
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
    assert sel.marks(st, 1) == {c("JH"): "→4♥"}
    assert sel.toggle(st, 1, c("JH")) == "J♥ no longer beats 4♥"
    assert sel.aim(st, 1, 1) and sel.target == c("9H")
    sel.toggle(st, 1, c("JH"))
    assert sel.action(st, 1) == Beat.of(1, {c("9H"): c("JH")})


def test_hand_sorting_puts_trumps_last() -> None:
    hand = mask("2C AS 3H KD QS 5C")
    assert [card_name(x) for x in sort_hand(hand, trump=3)] == ["QS", "AS", "3H", "KD", "2C", "5C"]
    assert [card_name(x) for x in sort_hand(hand, trump=-1)] == ["QS", "AS", "3H", "2C", "5C", "KD"]


# -- hints and bots -------------------------------------------------------------------------------------


def _hint_at(state: State, seat: int, seconds: float = 0) -> Hint:
    return table_of(get_game(DEFAULT_GAME)).controller.hint(state, seat, seconds)


def test_hint_uses_the_solver_once_every_card_is_known() -> None:
    # Two players, talon empty: the view knows the other hand by counting, so the solver may answer.
    st = State.from_position([["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker=0, trump_suit=3)
    hint = _hint_at(st, 0)
    assert hint.source == "solver" and isinstance(hint.action, Lead) and st.can_play(hint.action)
    assert hint.text.startswith("**Lead 3♣ A♣.** Exact: ")
    assert hint.header == ("move", "against best play") and hint.rows[0] == ("lead 3♣ A♣", "safe ✓")
    assert {verdict for _, verdict in hint.rows} == {"safe ✓", "you lose"}
    assert hint.note == rule_of_thumb(st.view(0), hint.action)


def test_hint_searches_the_view_only_early() -> None:
    st = State.from_seed(3, 9)
    seat = st.to_act
    hint = _hint_at(st, seat)  # No time limit: a fixed number of playouts, so the hint is reproducible.
    assert hint.source == "search" and hint.action is not None and st.can_play(hint.action)
    result = hint.result
    assert result is not None and result.worlds == TABLE_PLAYOUTS
    best = result.best
    assert best is not None and best.loss_rate is not None
    assert hint.header == ("move", "chance of losing", "playouts")
    assert hint.rows[0] == (action_words(hint.action), f"{100 * best.loss_rate:.0f}% ± {100 * (best.stderr or 0):.0f}",
                            str(best.samples))
    # Another deal that the seat cannot tell from this one gets the very same hint.
    other = sample_state(st.view(seat), random.Random(4))
    assert other.hands != st.hands
    assert _hint_at(other, seat).text == hint.text


@pytest.mark.parametrize("game", GAMES)
def test_hints_depend_on_the_view_only(game: str) -> None:
    s = session(game, players=4, seed=9)
    hint = s.hint(0)
    assert hint.action is not None and s.state.can_play(hint.action) and hint.text and (hint.rows or hint.source == "rule")
    other = get_game(game).sample(s.view(), random.Random(4))
    assert other.hands != s.state.hands
    assert s.controller.hint(other, s.human, 0).action == hint.action


def test_bot_levels() -> None:
    assert resolve_level("easy") == "random" and resolve_level("Expert") == "pimc:iters=1500:time=4"
    assert make_player("medium", 1).name == "heuristic"
    assert split_bots("easy,medium", 3) == ["easy", "medium"]
    with pytest.raises(MustamaijaError, match="unknown Mustamaija bot 'nobody'"):
        make_player("nobody", 1)
    with pytest.raises(MustamaijaError, match="need 3"):
        split_bots("a,b", 4)


def test_a_game_without_a_terminal_table_says_so() -> None:
    class NoTable:
        name = "no-table"
        title = "No Table"

        def renderer(self, front_end: str) -> str | None:
            return None

    with pytest.raises(MustamaijaError, match="No Table cannot be played in the terminal"):
        table_of(NoTable())  # type: ignore[arg-type]


def test_nobody_is_asked_for_a_move_no_choice_could_change() -> None:
    # Issue 16, bug 9: the last player holding cards still had to take them after everyone else was out.
    from mustamaija.core.registry import get_game

    game = get_game("mustamaija")
    seen = 0
    for seed in range(12):
        s = session("mustamaija", players=2, seed=seed)
        while s.result is None:
            run_bots(s)
            assert not (s.human_to_act and game.decided_action(s.state) is not None)
            if s.human_to_act:
                s.act(random_move(s, len(s.state.actions())))
        seen += sum("no choice could change the result" in line for line in s.log)
    assert seen, "no deal ended with a seat left alone holding cards: the test proves nothing"
