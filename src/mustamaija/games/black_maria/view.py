"""The one visibility function of Black Maria: what a seat, or a spectator, can know of a hand.

A seat knows its own hand; the cards it passed and, once every seat has
passed, the cards it received (B3: passing is simultaneous, so nothing
received shows before then); which seats have passed; every card played and
who won each trick; the voids that play reveals (failing to follow suit
when reneging is forbidden, or leading a heart before hearts are broken,
B5); and where the cards it passed are until they are played. Reneges are
charged at the end of the hand (B7), so another seat's reneges show only then.

>>> from mustamaija.games.black_maria import State
>>> s = State.from_seed(players=4, seed=1)
>>> v = s.view(s.to_act)
>>> v.hand == s.hands[s.to_act], v.hand_sizes, v.my_turn
(True, (13, 13, 13, 13), True)
>>> s.view(None).hand
0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mustamaija.core.cards import SUITS, card_name, cards_of
from mustamaija.core.view import ViewBase, check_seat
from mustamaija.games.black_maria import legality as L
from mustamaija.games.black_maria.actions import PLAY_ENTRY, Play
from mustamaija.games.black_maria.knowledge import Knowledge, knowledge
from mustamaija.games.black_maria.rules import PASS, PHASES, PLAY

if TYPE_CHECKING:
    from mustamaija.games.black_maria.state import State

__all__ = ["Knowledge", "View", "knowledge", "view_of"]



def _list(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def _names(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask)) or "-"


@dataclass(frozen=True, slots=True)
class View(ViewBase):
    """What one seat (``seat``) or a spectator (``seat is None``) knows of a hand; card sets are masks.

    ``known[s]`` holds the cards known to be in seat ``s``'s hand (the
    viewer's whole hand for the viewer). ``unseen`` holds the cards in play
    whose place the viewer does not know. ``voids[s]`` is a mask of suits
    (bit ``i`` for suit ``i``) seat ``s`` is known to hold no card of.
    ``passed`` and ``received`` are the viewer's own pass and the cards it
    got (empty until every seat has passed); ``sel`` is a pass it is choosing
    step by step. ``reneges`` shows only the viewer's own until the hand is over.
    """

    pass_count: int
    """The cards each seat passes (B3)."""
    leader: int
    """The seat that led the current trick (B4)."""
    trick: tuple[int, ...]
    """The cards of the current trick, in the order played."""
    npassed: int
    """The passes made so far."""
    passed: int
    """The viewer's own pass (0 until it has passed)."""
    voids: tuple[int, ...]
    """The suits each seat is known to hold no card of, as masks (bit ``s`` for suit ``s``)."""
    received: int
    """The cards the viewer received, once every seat has passed (B3)."""
    sel: int
    """The cards the viewer has chosen so far for its pass (0 in other views)."""
    tricks: tuple[int, ...]
    """The tricks each seat has won."""
    led: int
    """The suit led to the current trick, -1 before its first card."""
    broken: bool
    """Whether hearts are broken (B5)."""
    won: tuple[int, ...]
    """The cards each seat has won in tricks (B6)."""
    played: int
    """Every card played to a trick so far."""
    reneges: tuple[int, ...]
    """Each seat's reneges (B7): only the viewer's own until the hand is over."""
    plays: tuple[Play, ...]
    """Every card played so far, oldest first (the passes are private)."""

    # -- acting -------------------------------------------------------------------

    def legal_mask(self) -> int:
        """Return the legal steps as a mask when it is the viewer's turn, else 0 (same rules as the state)."""
        if not self.my_turn:
            return 0
        if self.phase == PASS:
            return L.pass_mask(self.hand, self.sel, self.pass_count)
        return L.play_mask(self.hand, self.led, self.broken, self.rules.allow_renege)

    @property
    def trick_seats(self) -> tuple[int, ...]:
        """Return the seats that played the cards of the current trick, in order."""
        return tuple((self.leader + i) % self.players for i in range(len(self.trick)))

    def points(self) -> list[int]:
        """Return each seat's penalty points so far as the viewer knows them (reneges once the hand is over)."""
        return [L.penalty_of(w) + 10 * r for w, r in zip(self.won, self.reneges, strict=True)]

    # -- rendering ----------------------------------------------------------------------

    def render(self) -> str:
        """Return a plain-text account of the view, one fact a line (used by golden tests and logs)."""
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        phase = PHASES[self.phase]
        act = "-" if self.to_act < 0 else str(self.to_act)
        lines = [f"{who} | {phase} | to act {act} | dealer {self.dealer} | hearts {'broken' if self.broken else 'not broken'}"]
        if self.seat is not None:
            lines.append(f"hand: {_names(self.hand)}")
            if self.phase == PASS:
                lines.append(f"passed: {_names(self.passed)} | passes made {self.npassed}/{self.players}")
            else:
                lines.append(f"passed: {_names(self.passed)} | received: {_names(self.received)}")
            if self.sel:
                lines.append(f"choosing: {_names(self.sel)}")
        points = self.points()
        for s in range(self.players):
            voids = "".join(SUITS[i] for i in range(4) if self.voids[s] >> i & 1) or "-"
            reneges = f", reneges {self.reneges[s]}" if self.reneges[s] else ""
            lines.append(
                f"  {s}: {self.hand_sizes[s]} cards, known {_names(self.known[s]) if s != self.seat else '(own)'}, "
                f"void {voids}, tricks {self.tricks[s]}, points {points[s]}{reneges}"
            )
        if self.trick:
            lines.append("trick: " + " ".join(f"{s}:{card_name(c)}" for s, c in zip(self.trick_seats, self.trick, strict=True)))
        lines.append(f"unseen: {self.unseen.bit_count()} cards")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """Return the view as a JSON object with card names, for web clients (nothing the seat cannot know).

        >>> from mustamaija.games.black_maria import State
        >>> v = State.from_seed(players=3, seed=1).view(0)
        >>> j = v.to_json()
        >>> j["phase"], len(j["hand"]), j["received"], j["known"][1]
        ('pass', 17, [], [])
        """
        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "phase": PHASES[self.phase],
            "to_act": None if self.to_act < 0 else self.to_act,
            "pass_count": self.pass_count,
            "passes_made": self.npassed,
            "hand": _list(self.hand),
            "legal": _list(self.legal_mask()),
            "choosing": _list(self.sel),
            "passed": _list(self.passed),
            "received": _list(self.received),
            "hand_sizes": list(self.hand_sizes),
            "known": [_list(m) for m in self.known],
            "voids": ["".join(SUITS[i] for i in range(4) if v >> i & 1) for v in self.voids],
            "leader": self.leader if self.phase == PLAY else None,
            "trick": [{"seat": s, "card": card_name(c)} for s, c in zip(self.trick_seats, self.trick, strict=True)],
            "led": SUITS[self.led] if self.led >= 0 else None,
            "broken": self.broken,
            "tricks": list(self.tricks),
            "points": self.points(),
            "reneges": list(self.reneges),
            "unseen": self.unseen.bit_count(),
        }


def view_of(state: State, seat: int | None) -> View:
    """Return what ``seat`` can know of ``state``; ``None`` gives the spectator's view.

    This is the only place where hidden information is filtered: what the
    seat knows comes from :func:`knowledge`, the rest is public.
    """
    n = state.n
    check_seat(seat, n)
    own, passed, received, known, unseen, sel, reneges = knowledge(state, seat)
    plays = []
    node = state.log
    while node is not None:
        kind, who, card = node[0]
        if kind == PLAY_ENTRY:
            plays.append(Play(who, card))
        node = node[1]
    plays.reverse()
    return View(
        seat, state.rules, n, tuple(h.bit_count() for h in state.hands), state.dealer, state.phase, state.to_act,
        tuple(known), own, unseen,  # ViewBase
        pass_count=state.k,
        leader=state.leader,
        npassed=state.npassed,
        passed=passed,
        received=received,
        sel=sel,
        voids=state.voids,
        trick=state.trick,
        led=state.led,
        broken=state.broken,
        played=state.played,
        tricks=state.tricks,
        won=state.won,
        reneges=reneges,
        plays=tuple(plays),
    )
