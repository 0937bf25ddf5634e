r"""Chat at a table: the players' channel and the spectators' own, short lines and quick emotes, bounded in every way.

People seated at a table talk in the ``table`` channel; spectators talk in
``spectators``, which the players do not see (so a spectator cannot coach a
player). Nothing here is stored: a table's last :data:`KEEP` lines of each
channel live in memory and go to whoever joins, and leave with the table.

>>> room = ChatRoom()
>>> line = room.say("table", seat=0, name="Ann", text="  good\tluck\u0007 ", now=100.0)
>>> line["text"], line["channel"], line["seat"]
('good luck', 'table', 0)
>>> room.say("table", seat=1, name="Bea", emote="gg", now=101.0)["emote"]
'gg'
>>> [m["name"] for m in room.recent("table")], room.recent("spectators")
(['Ann', 'Bea'], [])
>>> room.say("table", seat=0, name="Ann", text="x" * 201, now=102.0)
Traceback (most recent call last):
...
mustamaija.web.errors.ApiError: a chat line holds at most 200 characters, not 201
"""

from __future__ import annotations

import unicodedata
from collections import deque
from typing import Any, Final

from mustamaija.web.errors import ApiError

__all__ = ["CHANNELS", "EMOTES", "KEEP", "MAX_LENGTH", "ChatRoom", "channel_of", "clean_text"]

MAX_LENGTH: Final = 200
"""The most characters of one line (after its spaces are tidied)."""
KEEP: Final = 50
"""The lines of each channel a table keeps for those who join later."""
BURST: Final = 5
RATE_WINDOW: Final = 10.0
"""One speaker may say at most :data:`BURST` lines in :data:`RATE_WINDOW` seconds."""

EMOTES: Final = {
    "hi": "Hello!",
    "gg": "Good game!",
    "wp": "Well played!",
    "oops": "Oops!",
    "thanks": "Thanks!",
    "hurry": "Your turn…",
}
"""The quick emotes: key -> the words a page shows for it."""

CHANNELS: Final = ("table", "spectators")


def channel_of(seat: int | None) -> str:
    """Return the channel of a subscriber: seats talk at the table, spectators among themselves."""
    return "table" if seat is not None else "spectators"


def clean_text(text: object) -> str:
    r"""Return a chat line tidied: one line, no control or format characters, spaces collapsed; refuse a bad one.

    >>> clean_text(" hi\n there\u200b ")
    'hi there'
    """
    if not isinstance(text, str):
        raise ApiError("bad_request", f"'text' must be a string, not {type(text).__name__}")
    if len(text) > 4 * MAX_LENGTH:  # Before the work of tidying: a long line is refused cheaply.
        raise ApiError("bad_request", f"a chat line holds at most {MAX_LENGTH} characters")
    # Control, format (bidirectional overrides, zero-width) and unassigned characters could hide or fake text.
    kept = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in text
                   if unicodedata.category(c) not in ("Cf", "Cn", "Co", "Cs"))
    line = " ".join(kept.split())
    if not line:
        raise ApiError("bad_request", "a chat line needs some text")
    if len(line) > MAX_LENGTH:
        raise ApiError("bad_request", f"a chat line holds at most {MAX_LENGTH} characters, not {len(line)}")
    return line


class ChatRoom:
    """A table's chat: the last lines of each channel and each speaker's recent lines (for the rate limit)."""

    def __init__(self) -> None:
        self._lines: dict[str, deque[dict[str, Any]]] = {c: deque(maxlen=KEEP) for c in CHANNELS}
        self._said: dict[object, deque[float]] = {}

    def say(self, channel: str, *, seat: int | None, name: str, text: object = None, emote: object = None,
            now: float, speaker: object = None) -> dict[str, Any]:
        """Check and keep one line (``text`` or a quick ``emote``); return the ``chat`` message to deliver.

        ``speaker`` identifies who is rate-limited (the seat, or a spectator's connection).
        """
        if (text is None) == (emote is None):
            raise ApiError("bad_request", "a chat message holds either 'text' or 'emote'")
        said = self._said.setdefault(speaker if speaker is not None else (channel, seat), deque(maxlen=BURST))
        if len(said) == BURST and now - said[0] < RATE_WINDOW:
            raise ApiError("rate_limited", f"at most {BURST} chat lines in {RATE_WINDOW:.0f} s: wait a moment")
        line: dict[str, Any] = {"type": "chat", "channel": channel, "seat": seat, "name": name, "at": round(now, 3)}
        if emote is not None:
            if not isinstance(emote, str) or emote not in EMOTES:
                raise ApiError("bad_request", f"'emote' must be one of {', '.join(EMOTES)}")
            line["emote"] = emote
        else:
            line["text"] = clean_text(text)
        said.append(now)
        self._lines[channel].append(line)
        return line

    def forget(self, speaker: object) -> None:
        """Drop a speaker's rate-limit record (its connection closed)."""
        self._said.pop(speaker, None)

    def recent(self, channel: str) -> list[dict[str, Any]]:
        """Return the kept lines of a channel, oldest first."""
        return list(self._lines[channel])
