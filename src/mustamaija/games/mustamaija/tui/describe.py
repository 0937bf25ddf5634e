"""Words of the Mustamaija table: actions, trumps, rule ids and the rule set in force.

>>> from mustamaija.games.mustamaija import Rules
>>> rule_title("M13"), rule_title("max_lead")
('beating', 'the lead cap')
>>> explain_error("M13: 7♥ does not beat Q♣ (trumps: D)")
'M13 (beating): 7♥ does not beat Q♣ (trumps: D)'
>>> print(rules_markdown(Rules.preset("kurki-suonio")).splitlines()[0])
# Rules in force: kurki-suonio
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mustamaija.core.cards import SUIT_SYMBOLS, card_symbol
from mustamaija.games.mustamaija.actions import Action, Beat, Declare, Lead
from mustamaija.games.mustamaija.rules import DEFAULT_MAX_TURNS, PRESET_SOURCES, PRESETS, Rules
from mustamaija.games.mustamaija.state import State
from mustamaija.tui.describe import SUIT_WORDS, cards_text

__all__ = ["RULE_TITLES", "describe_action", "explain_error", "rule_title", "rules_markdown", "rules_name", "trump_text"]

RULE_TITLES: Final = {
    "M1": "the pack", "M2": "Maija", "M3": "players", "M4": "the deal", "M5": "the next dealer",
    "M6": "turning the trump", "M7": "spades never trumps", "M8": "the trump card", "M9": "whose turn",
    "M10": "leading", "M11": "the lead limit", "M12": "the attacker draws", "M13": "beating",
    "M14": "discard and pick-up", "M15": "the defender draws", "M16": "the next attacker",
    "M17": "the empty talon", "M18": "going out", "M19": "the end of the deal", "M20": "matches",
    "M21": "endless deals", "M22": "what everybody knows",
    "V1": "hand size", "V2": "how trumps are fixed", "V3": "marriage trumps", "V4": "when to declare",
    "V5": "combinations", "max_lead": "the lead cap", "steps": "one action at a time",
}
"""A few words for every rule id an :class:`~mustamaija.core.errors.IllegalActionError` can name."""


def rule_title(rule: str) -> str:
    """Return the short title of a rule id, or the id itself."""
    return RULE_TITLES.get(rule, rule)


def explain_error(message: str) -> str:
    """Add the rule's title to an error message that starts with a rule id (``"M13: …"``)."""
    rule, sep, rest = message.partition(": ")
    if sep and rule in RULE_TITLES:
        return f"{rule} ({RULE_TITLES[rule]}): {rest}"
    return message


def rules_name(rules: Rules) -> str:
    """Return the preset name of a rule set, or ``"custom"``."""
    return next((name for name, r in PRESETS.items() if r == rules), "custom")


def trump_text(state: State) -> str:
    """Describe the trumps now, such as ``"♣ clubs (turned 7♣)"`` or ``"not turned yet"``."""
    r = state.rules
    if state.trump >= 0:
        suit = f"{SUIT_SYMBOLS[state.trump]} {SUIT_WORDS[state.trump]}"
        if state.trump_card >= 0:
            return f"{suit} (turned {card_symbol(state.trump_card)})"
        if r.trump == "fixed":
            return f"{suit} (always trumps)"
        if state.declarer >= 0:
            return f"{suit} (marriage of seat {state.declarer})"
        return suit
    if r.trump == "turned":
        return "not turned yet (after the first lead)" if state.turn_pending else "none (the talon was empty)"
    if r.trump == "marriage":
        return "none yet: the first marriage fixes them"
    return "no trumps"


def describe_action(before: State, after: State, action: Action, names: Sequence[str], *,
                    reveal: bool = False) -> list[str]:
    """Return log lines for an action taken in ``before``, giving ``after`` (draws, trump turned, seats out).

    Cards drawn are named for the seat called "You", or for every seat with ``reveal`` (replays).
    """
    seat = action.seat
    who = names[seat]
    lines: list[str] = []
    if isinstance(action, Declare):
        lines.append(f"{who} declare{_s(who)} the marriage K+Q of {SUIT_WORDS[action.suit]}: "
                     f"{SUIT_SYMBOLS[action.suit]} are trumps")
        return lines
    if isinstance(action, Lead):
        lines.append(f"{who} lead{_s(who)} {cards_text(action.cards)} to {names[before.defender]}")
        if before.trump_card < 0 <= after.trump_card:
            lines.append(f"   trump turned: {card_symbol(after.trump_card)}, {SUIT_WORDS[after.trump]} are trumps")
            if after.revealed:
                lines.append(f"   (spades turned and put back into the talon: {cards_text(after.revealed)})")
    else:
        assert isinstance(action, Beat)
        taken = before.led & ~action.beaten
        beats = [f"beat{_s(who)} " + ", ".join(f"{card_symbol(a)} with {card_symbol(b)}" for a, b in action.pairs)]
        picks = [f"pick{_s(who)} up {cards_text(taken)}"]
        lines.append(f"   {who} " + " and ".join(beats * bool(action.pairs) + picks * bool(taken)))
    # What the seat took into its hand, less the led cards a defender picked up, was drawn.
    drawn = after.hands[seat] & ~before.hands[seat] & ~(before.led if isinstance(action, Beat) else 0)
    if drawn:
        what = cards_text(drawn) if reveal or who == "You" else f"{drawn.bit_count()} card{'s' if drawn.bit_count() > 1 else ''}"
        lines.append(f"   {who} draw{_s(who)} {what} ({after.talon_size} left in the talon)")
    for out in after.out[len(before.out):]:
        lines.append(f"   {names[out]} {'are' if names[out] == 'You' else 'is'} out")
    return lines


def _s(who: str) -> str:
    return "" if who == "You" else "s"


def rules_markdown(rules: Rules) -> str:
    """Return the rule set in force as Markdown: its name, every key, and the rules of play that depend on it."""
    name = rules_name(rules)
    lines = [f"# Rules in force: {name}", "", rules.describe() + ".", ""]
    if name in PRESET_SOURCES:
        lines += [f"*Source:* {PRESET_SOURCES[name]}.", ""]
    options = []
    for key, value in rules.to_json().items():
        if key == "trump_suit" and rules.trump != "fixed":
            continue  # Only a fixed trump uses it.
        shown = "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
        options.append(f"`{key}` {shown}")
    options_line = "*Options:* " + " · ".join(options) + "."
    hs = rules.hand_size
    if rules.trump == "turned":
        when = ("after the first attacker has led, before they draw" if rules.trump_turn == "after_first_lead"
                else "right after the deal")
        trump = (f"The top card of the talon is turned {when} (M6) and lies face up at the bottom of the talon, "
                 "drawn last (M8). "
                 + ("Spades may be trumps." if rules.spades_can_be_trump
                    else "Spades are never trumps: a turned spade goes back into the talon (M7)."))
    elif rules.trump == "fixed":
        trump = f"{SUIT_WORDS['SHDC'.index(rules.trump_suit)].capitalize()} are always trumps (V2)."
    elif rules.trump == "marriage":
        trump = ("No trumps at first. A player holding K and Q of a suit other than spades may declare them "
                 "before leading or defending; that suit is trumps for the rest of the deal (V3, V4).")
    else:
        trump = "There are no trumps (V2)."
    limit = ("all game" if rules.attack_limit == "always" else "once the talon is empty")
    cap = f" A lead holds at most {rules.max_lead} cards." if rules.max_lead is not None else ""
    lines += [
        "",
        "## How a turn goes",
        "",
        f"- **Deal (M4, V1).** {hs} cards each; the rest is the talon.",
        f"- **Trumps.** {trump}",
        "- **Lead (M10, M11).** The attacker leads one or more cards, all of one suit. "
        f"The lead may not hold more cards than the defender has {limit}.{cap} "
        f"Then the attacker draws up to {hs} (M12).",
        "- **Beat (M13).** The defender may beat any led cards, each with one card: a higher card of the same "
        "suit, or any trump against a non-trump. A trump is beaten only by a higher trump. Beating is never "
        "compulsory; unbeaten cards are picked up (M14). Then the defender draws (M15).",
        "- **Maija (M2).** Q♠ never beats anything, and when led she is never beaten.",
        "- **Next (M16).** A defender who beat everything attacks next; otherwise the player after the defender "
        "does.",
        "- **The end (M18, M19).** Once the talon is empty a player with no cards is out. The last player left "
        "holding cards, with Q♠, is the Mustamaija and loses the deal.",
        f"- **Endless deals (M21).** A deal is stopped unfinished after {rules.max_turns} turns"
        + (" (the project's default)." if rules.max_turns == DEFAULT_MAX_TURNS else "."),
        "- **Matches (M20).** Each deal's loser scores one loss; the fewest losses win the match.",
        "",
        options_line,
    ]
    return "\n".join(lines)

