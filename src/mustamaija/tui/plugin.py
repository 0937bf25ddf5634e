"""The game-specific part of the terminal table, and how it is found: ``game.renderer("tui")``.

The terminal game is one stack for every game of the registry: one session
(:mod:`.session`), one application, one setup form, one table screen, one
set of dialogs. What differs from game to game is gathered in a
:class:`TablePlugin`, which the game's package provides and names in its
``RENDERERS["tui"]`` entry (``"package.module:ATTRIBUTE"``):

* a :class:`Controller`, free of any user interface: how a match is dealt
  and how long it lasts, the words of the log, typed moves, the choice of
  cards in the hand, hints;
* a :class:`Renderer`: the Rich renderables of the table's panels.

:func:`table_of` loads it; it is imported only when a table is opened, so
neither Rich nor the plugin is on the import path of the core.

>>> from mustamaija.core.registry import games
>>> all(isinstance(table_of(game), TablePlugin) for game in games())
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

from mustamaija.core.cards import cards_of
from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import load_target

if TYPE_CHECKING:
    from rich.console import RenderableType

    from mustamaija.tui.session import GameSession

__all__ = ["Controller", "HandChoice", "Hint", "Renderer", "Scene", "TablePlugin", "Words", "table_factory", "table_of"]

HINT_ROWS: Final = 8
"""The candidates the hint dialog lists."""


@dataclass
class Hint:
    """A suggested action (``None`` if there is nothing to suggest), the reasons in Markdown, and their source."""

    action: Any
    text: str
    source: str
    header: tuple[str, ...] = ()
    rows: list[tuple[str, ...]] = field(default_factory=list)
    """The candidates as a table (the dialog draws it under the text)."""
    note: str = ""
    """A rule of thumb for the suggested move (under the table)."""
    result: Any = field(default=None, repr=False)
    """The game's own analysis behind the hint, if any."""


class HandChoice(Protocol):
    """What the person has chosen in the hand so far, by keyboard or mouse: one per game, free of any UI.

    Every method that takes ``(state, seat)`` is given the true state, but a
    choice must depend only on what ``seat`` may see.
    """

    order: list[int]
    """The hand as shown, left to right."""
    cursor: int
    """The index in :attr:`order` of the card under the cursor."""
    chosen: int
    """The mask of the cards raised (chosen)."""

    def sync(self, state: Any, seat: int) -> None:
        """Start a new choice when the state has moved on (a new decision, an undo, a new deal)."""
        ...

    def move(self, delta: int) -> None:
        """Move the cursor along the hand."""
        ...

    def aim(self, state: Any, seat: int, delta: int) -> bool:
        """Point at another card on the table (↑ ↓); return whether anything changed."""
        ...

    def toggle(self, state: Any, seat: int) -> str:
        """Choose or put back the cursor's card (space); return what happened, or raise naming the rule."""
        ...

    def click(self, state: Any, seat: int, index: int) -> str:
        """Answer a click on the card at ``index``: move there, and choose it where choosing applies."""
        ...

    def action(self, state: Any, seat: int) -> Any:
        """Return the compound action Enter makes, or raise saying what is missing."""
        ...

    def preview(self, state: Any, seat: int, names: Sequence[str] = ()) -> str:
        """Return what Enter would do now, for the line above the hand ("" for nothing); ``names`` name the seats."""
        ...

    def bright(self, state: Any, seat: int) -> int:
        """Return the mask of the cards drawn bright, the ones that can be played (-1: all)."""
        ...

    def marks(self, state: Any, seat: int) -> dict[int, str]:
        """Return a word to write under some cards."""
        ...

    def focused(self, state: Any, seat: int) -> bool:
        """Return whether the cursor is shown."""
        ...

    def clear(self) -> None:
        """Put back everything chosen (Esc)."""
        ...

    def preselect(self, state: Any, seat: int, action: Any) -> bool:
        """Choose ``action`` in the hand (a hint); return False when it cannot be shown so (then it is played)."""
        ...


@dataclass
class Scene:
    """What a table's panels are drawn from: a state, whose eyes, the seats, and the screen's own settings."""

    state: Any
    """The truth: a renderer draws only what :attr:`seat` may see of it, unless :attr:`reveal`."""
    seat: int | None
    """The person's seat; ``None`` for a replay."""
    names: Sequence[str]
    labels: Sequence[str]
    """Each seat's bot (``"bot 2 · hard"``), ``"you"`` for the person, ``""`` when unknown."""
    totals: Sequence[int] | None = None
    """Each seat's total so far in the match, if there is a match."""
    reveal: bool = False
    """Show every hand (replays, the end of a puzzle)."""
    alternate: bool = False
    """The renderer's other view of the table (F6 when the renderer names one)."""
    choice: HandChoice | None = None
    """The person's choice being made (when it is their turn)."""
    info: Sequence[tuple[str, str]] = ()
    """Lines for the game panel that the stack knows: the deal, the rules, the seed, the pace."""


@dataclass(frozen=True)
class Words:
    """How a game names one deal and the series of deals, what its totals count, and two of its rules."""

    deal: str = "deal"
    """One deal (``"hand"``)."""
    match: str = "match"
    """The series of deals (``"game"``)."""
    score: str = "losses"
    """What the totals count (``"points"``)."""
    win_rule: str = ""
    """The rule that the lowest total wins, for the end-of-deal dialog."""
    turn_rule: str = ""
    """The rule id an out-of-turn move breaks."""


class Controller:
    """The game-specific, UI-free part of a terminal table; the defaults suit a game of deals scored by totals.

    Subclasses set the words and override the hooks their game needs.
    """

    words = Words()
    """How the game names its deals, its match and its totals."""
    match_options: Mapping[str, int | None] = {"deals": 5}
    """Settings of a match that are not rules, with their defaults (such as the number of deals)."""
    option_labels: Mapping[str, str] = {"deals": "Deals"}
    """A label for each of :attr:`match_options` (setup form and help)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    # -- the match ----------------------------------------------------------------------------------

    def length(self, rules: Any, options: Mapping[str, int | None]) -> tuple[int | None, int | None]:
        """Return (deals, total) that end a match: after that many deals, or once a seat's total reaches it."""
        return options.get("deals"), None

    def one_deal(self, rules: Any) -> tuple[Any, dict[str, int | None]]:
        """Return the rules and options of a match of one deal (a plain record is played out as one)."""
        return rules, {**self.match_options, "deals": 1}

    def deal_deck(self, seed: int, deal: int, players: int) -> tuple[tuple[int, ...], int]:
        """Return the deck of deal ``deal`` of a match with this seed, and the first dealer the seed draws.

        The default shuffles the game's cards (``game.deck``) with a generator seeded by the seed and the deal.
        """
        cards = cards_of(self.game.deck(players))
        random.Random(f"{seed}/{deal}").shuffle(cards)
        return tuple(cards), random.Random(seed).randrange(players)

    def next_dealer(self, state: Any, dealer: int) -> int:
        """Return who deals next: the seat to the left."""
        return (dealer + 1) % int(state.players)

    # -- words ----------------------------------------------------------------------------------------

    def deal_header(self, session: GameSession) -> list[str]:
        """Return the log's first lines for a new deal."""
        return []

    def narrate(self, before: Any, after: Any, action: Any, names: Sequence[str], seat: int | None) -> list[str]:
        """Return the log lines of ``action``, taken in ``before`` and giving ``after``, as ``seat`` sees it.

        ``names`` name the seats (the person is ``"You"``); ``seat`` ``None``
        is a replay, where every card may be named.
        """
        return [self.game.describe_action(action)]

    def deal_end(self, state: Any, names: Sequence[str], seat: int | None) -> list[str]:
        """Return the log lines that tell how a deal that is over ended."""
        return [self.game.outcome_text(state)]

    def status(self, session: GameSession) -> str:
        """Return one line saying what happens now (the deal goes on)."""
        s = session.state
        if s.to_act == session.human:
            return f"Your turn to {self.doing(s)}."
        return f"{session.names[s.to_act]} is to {self.doing(s)}…"

    def doing(self, state: Any) -> str:
        """Return what the seat to act does now (``"lead"``, ``"pass"``)."""
        return state.phase_name  # type: ignore[no-any-return]

    def paced(self, state: Any) -> bool:
        """Return whether the bot to act waits for the pace (False: its move is made face down, so at once)."""
        return True

    def action_words(self, action: Any) -> str:
        """Return an action in a few words, such as ``"lead 4♥ 9♥"`` (for hints)."""
        return self.game.action_words(action)

    def taken_back(self, action: Any) -> str:
        """Return the person's action in the words of an undo (``"your lead of 4♥"``)."""
        return "your move"

    def explain(self, message: str) -> str:
        """Return an error message with its rule id explained."""
        return message

    def rules_markdown(self, rules: Any) -> str:
        """Return the rule set in force, as Markdown."""
        return "\n".join(["# Rules in force", "", *(f"- `{k}` {v}" for k, v in rules.to_json().items())])

    # -- input --------------------------------------------------------------------------------------------

    def choice(self) -> HandChoice:
        """Return a fresh choice of cards in the hand."""
        raise NotImplementedError

    def parse_move(self, text: str, session: GameSession) -> Any:
        """Return the compound action of a typed move, or raise a :class:`MustamaijaError` naming the problem."""
        raise NotImplementedError

    def command(self, session: GameSession, word: str, arg: str) -> str | None:
        """Answer a typed word of the game's own (such as ``legal``); ``None``: not a word of the game."""
        return None

    def hint(self, state: Any, seat: int, seconds: float) -> Hint:
        """Return what ``seat`` (to act) should do, judged from its view only (:func:`mustamaija.search.hints.table_hint`).

        The game's exact solver decides where it can; else the PIMC search runs a fixed number of playouts, so
        that the same view gets the same hint on every machine, busy or not. ``seconds`` (0: none) caps its time
        as a safety net.
        """
        from mustamaija.search.hints import table_hint

        return self.hint_of(table_hint(self.game, state.view(seat), cap=seconds if seconds > 0 else None))

    def hint_of(self, result: Any) -> Hint:
        """Word a :class:`~mustamaija.search.hints.HintResult` for the hint dialog: its text and its candidates."""
        def words(c: Any) -> str:
            same = f" (+{len(c.also)} alike)" if c.also else ""
            return "; then ".join(self.action_words(a) for a in c.actions) + same

        shown = result.candidates[:HINT_ROWS]
        best = result.best
        text = f"**{words(best)[0].upper() + words(best)[1:]}.** {result.text}" if best is not None else result.text
        rows: list[tuple[str, ...]] = []
        if result.exact:
            rows = [(words(c), "safe ✓" if c.safe else "you lose") for c in shown]
            header: tuple[str, ...] = ("move", "against best play")
        elif any(c.value is not None for c in shown):
            points = result.result_kind == "points"
            header = ("move", self.words.score if points else "chance of losing", "playouts")
            rows = [(words(c), _estimate(c, points), str(c.samples or c.visits or "")) for c in shown]
        else:
            header = ()
        more = len(result.candidates) - len(shown)
        if more > 0 and rows:
            rows.append((f"… and {more} more", *[""] * (len(header) - 1)))
        source = "solver" if result.exact else "rule" if result.method == "rule" else "search"
        return Hint(result.action, text, source, header, rows, result=result)


def _estimate(c: Any, points: bool) -> str:
    if points:
        return f"{-(c.value or 0.0):.1f} ± {c.stderr or 0.0:.1f}"
    return f"{100 * (c.loss_rate or 0.0):.0f}% ± {100 * (c.stderr or 0.0):.0f}"


class Renderer:
    """The game-specific drawing of a terminal table: the panels, as Rich renderables."""

    titles: Mapping[str, str] = {"seats": "Seats", "info": "Game", "table": "Table"}
    """The panels' titles; a ``side`` entry adds a side panel (which hides in narrow terminals)."""
    placeholder = "type a move or a command (hint, undo, rules, save, help); ← → space Enter choose from the hand"
    """The command line's prompt."""
    toggles: Mapping[str, str] = {}
    """Typed words that switch a view: to ``"side"`` (the side panel) or ``"alternate"`` (the table's other view)."""
    keys: Sequence[tuple[str, str, str]] = ()
    """Extra keys: (key, typed line it stands for, description)."""
    help_markdown = ""
    """The game's part of the help: its keys, its typed moves, what its panels show."""
    screenshots: Mapping[str, Callable[[GameSession], bool]] = {}
    """The docs' screenshots of the table: file name -> when to take it (the person to act)."""

    def seats(self, scene: Scene) -> RenderableType:
        """Return the seats panel."""
        raise NotImplementedError

    def info(self, scene: Scene) -> RenderableType:
        """Return the game panel."""
        raise NotImplementedError

    def table(self, scene: Scene) -> tuple[str, RenderableType]:
        """Return the table panel's title and content."""
        raise NotImplementedError

    def side(self, scene: Scene) -> RenderableType:
        """Return the side panel (only asked when :attr:`titles` names one)."""
        return ""

    def hand_title(self, scene: Scene) -> str:
        """Return the hand panel's title."""
        return "Your hand"

    def deal_over(self, session: GameSession) -> RenderableType:
        """Return the headline of the end-of-deal dialog."""
        return session.game.outcome_text(session.state)

    def log_style(self, line: str) -> str:
        """Return a style for a log line that stands out (such as who lost), or ""."""
        return ""


@dataclass(frozen=True)
class TablePlugin:
    """A game's terminal table: its controller and its renderer, and the game's puzzles if it has any."""

    controller: Controller
    renderer: Renderer
    puzzles: str | None = None
    """``module:function`` of the game's ``mustamaija puzzle`` (given the parsed arguments; returns the exit status)."""


def table_factory(controller: type[Controller], renderer: type[Renderer],
                  puzzles: str | None = None) -> Callable[[Game], TablePlugin]:
    """Return what a game's ``RENDERERS["tui"]`` names: a function building its table from the game."""

    def table(game: Game) -> TablePlugin:
        return TablePlugin(controller(game), renderer(), puzzles)

    return table


_LOADED: dict[str, TablePlugin] = {}


def table_of(game: Game) -> TablePlugin:
    """Return the terminal table of ``game``, named by ``game.renderer("tui")``; raise if it has none."""
    cached = _LOADED.get(game.name)
    if cached is not None:
        return cached
    target = game.renderer("tui")
    if not target:
        raise MustamaijaError(f"{game.title} cannot be played in the terminal: it names no terminal table")
    obj = load_target(target, "TABLE")
    if callable(obj) and not isinstance(obj, TablePlugin):
        obj = obj(game)
    if not isinstance(obj, TablePlugin):
        raise MustamaijaError(f"the terminal table of {game.title} ({target}) is not a TablePlugin")
    _LOADED[game.name] = obj
    return obj
