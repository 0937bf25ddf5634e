"""A hidden-card swap for the no-peeking tests: the same view, a different deal."""

from mustamaija.games.mustamaija import State


def swap_hidden(state: State, seat: int) -> State:
    """Return a copy in which a card of another hand and a talon card the seat cannot see trade places."""
    v = state.view(seat)
    t = state.copy()
    other = next(s for s in range(state.n) if s != seat and state.hands[s] & v.unseen)
    mine = next(c for c in range(52) if (state.hands[other] & v.unseen) >> c & 1)
    talon = list(state.talon)
    j = next(i for i in range(state.tpos, len(talon)) if v.unseen >> talon[i] & 1)
    theirs = talon[j]
    talon[j] = mine
    t.talon = tuple(talon)
    t.hands[other] = (t.hands[other] & ~(1 << mine)) | (1 << theirs)
    t._legal = -1
    return t
