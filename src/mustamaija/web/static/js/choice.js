// The action a person is putting together: cards chosen for a lead, or led cards paired with beaters.
//
// Everything is judged against the server's `legal` object (docs/web.md), so the page never offers
// a card the engine would refuse. Each click returns a sentence for screen readers.

import { spoken } from "./cards.js";

export class Choice {
  constructor() {
    this.sel = new Set();     // cards chosen for a lead
    this.pairs = new Map();   // led card -> the card chosen to beat it
    this.focusLed = null;     // the led card a beater is being chosen for
    this.pickBeater = null;   // a hand card chosen before its led card
  }

  /** Forget everything chosen. */
  clear() {
    this.sel.clear();
    this.pairs.clear();
    this.focusLed = null;
    this.pickBeater = null;
  }

  /** Return the cards already placed on led cards. */
  used() {
    return new Set(this.pairs.values());
  }

  /** Return whether `card` may be added to (or taken out of) the lead being chosen. */
  leadPlayable(legal, card) {
    if (!legal || legal.kind !== "lead" || !legal.cards.includes(card)) return false;
    if (!this.sel.size || this.sel.has(card)) return true;
    const suit = [...this.sel][0][1];
    return card[1] === suit && this.sel.size < legal.max_cards;
  }

  /** Return the unpaired led cards `card` may beat. */
  targetsOf(legal, card) {
    if (!legal || legal.kind !== "beat" || this.used().has(card)) return [];
    return legal.led.filter((led) => !this.pairs.has(led) && (legal.beaters[led] || []).includes(card));
  }

  /** Return whether clicking `card` does something in the defence being built. */
  beatPlayable(legal, card) {
    if (!legal || legal.kind !== "beat") return false;
    if (this.used().has(card)) return true; // Choosing it again takes it back.
    if (this.focusLed) return (legal.beaters[this.focusLed] || []).includes(card) && !this.pairs.has(this.focusLed);
    return this.targetsOf(legal, card).length > 0;
  }

  /** Return whether the led card can still be beaten by a card not used yet. */
  ledOpen(legal, led) {
    if (this.pairs.has(led)) return false;
    if (this.pickBeater) return (legal.beaters[led] || []).includes(this.pickBeater);
    const used = this.used();
    return (legal.beaters[led] || []).some((c) => !used.has(c));
  }

  /** Pair a led card with its beater. */
  pair(led, card) {
    this.pairs.set(led, card);
    this.focusLed = null;
    this.pickBeater = null;
    return `${spoken(card)} will beat ${spoken(led)}`;
  }

  /** Act on a click on a card of the hand; return what happened, in words. */
  clickHand(legal, card) {
    if (legal.kind === "lead") {
      if (this.sel.has(card)) this.sel.delete(card);
      else if (legal.cards.includes(card)) {
        const suit = this.sel.size ? [...this.sel][0][1] : null;
        // Another suit, or a full lead, starts the choice again with this card.
        if (suit !== card[1] || this.sel.size >= legal.max_cards) this.sel.clear();
        this.sel.add(card);
      }
      return this.sel.size ? `Chosen to lead: ${[...this.sel].map(spoken).join(", ")}` : "Nothing chosen";
    }
    for (const [led, b] of this.pairs) {
      if (b === card) {
        this.pairs.delete(led);
        return `${spoken(card)} no longer beats ${spoken(led)}`;
      }
    }
    if (this.focusLed && (legal.beaters[this.focusLed] || []).includes(card)) return this.pair(this.focusLed, card);
    const targets = this.targetsOf(legal, card);
    if (targets.length === 1) return this.pair(targets[0], card);
    if (targets.length > 1) {
      this.pickBeater = card;
      this.focusLed = null;
      return `${spoken(card)} can beat ${targets.map(spoken).join(" or ")}: choose which on the table`;
    }
    return `${spoken(card)} cannot beat a led card`;
  }

  /** Act on a click on a led card; return what happened, in words. */
  clickLed(legal, led) {
    if (this.pairs.has(led)) {
      this.pairs.delete(led);
      return `${spoken(led)} unpaired`;
    }
    if (this.pickBeater && (legal.beaters[led] || []).includes(this.pickBeater)) return this.pair(led, this.pickBeater);
    this.focusLed = this.focusLed === led ? null : led;
    this.pickBeater = null;
    if (!this.focusLed) return `${spoken(led)} no longer chosen`;
    const used = this.used();
    const can = (legal.beaters[led] || []).filter((c) => !used.has(c));
    return can.length ? `Beat ${spoken(led)} with: ${can.map(spoken).join(", ")}` : `You cannot beat ${spoken(led)}`;
  }

  /** Return the action chosen, in the API's form, or null when nothing can be played yet. */
  action(legal) {
    if (!legal) return null;
    if (legal.kind === "lead") return this.sel.size ? { lead: [...this.sel] } : null;
    return { beat: Object.fromEntries(this.pairs) };
  }
}
