// The hand, the buttons and the messages of a card page: shared by the table (table.js) and the puzzles (puzzles.js).

import { $, el } from "./dom.js";

/** Overlap the cards of a long hand so that it fits on one row (two on a narrow screen). */
export function fitHand(hand, n) {
  if (n < 2 || !hand.firstElementChild) return;
  const w = hand.firstElementChild.getBoundingClientRect().width;
  // Each card takes `step` pixels of the row (its width plus the gap, negative when cards overlap). A row of k
  // overlapping cards shows k - 1 steps and one whole card, so that is what must fit the room: a row of k
  // steps ran past both ends of the hand by half a gap, which in a big hand (30 cards and more) is half a card.
  // The fan turns the end cards about a point below them (the CSS's transform-origin, 130% of a card's height),
  // which swings their top corners outwards: that swing is kept free at each end too.
  const h = hand.firstElementChild.getBoundingClientRect().height;
  const turnFor = (k) => Math.min(3, 28 / k);  // Degrees between neighbours in a line of k cards.
  const swing = (k) => 1.3 * h * Math.sin((turnFor(k) * (k - 1) / 2) * Math.PI / 180);
  const room = hand.clientWidth - 48;
  const fit = (k) => (room - 2 * swing(k) - w) / (k - 1);
  let perRow = n;
  let step = fit(n);
  if (step < w * 0.36) {
    perRow = Math.ceil(n / 2);
    step = perRow > 1 ? fit(perRow) : w + 10;
  }
  const gap = Math.min(step, w + 10) - w;
  hand.style.setProperty("--gap", `${gap.toFixed(1)}px`);
  // Overlapping cards: the sides are padded so that a line holds exactly perRow of them (flex breaks lines by
  // width, and the fan below turns each line's cards about its middle), centred, their ends in the padding.
  const side = gap < 0 ? `${Math.max(0, (hand.clientWidth - perRow * step) / 2 - 1).toFixed(1)}px` : "";
  hand.style.paddingLeft = side;
  hand.style.paddingRight = side;
  const mid = (perRow - 1) / 2;
  const turn = turnFor(perRow);
  // The arc drops the end cards by the square of their distance from the middle: a long line is kept to a
  // gentle curve, and the room the end cards drop into is kept below the hand (past what the CSS pads for a
  // hand of a few cards), so that they cover neither the buttons under the hand nor its panel's edge.
  const bend = Math.min(0.45, (0.3 * h) / Math.max(1, mid * mid * turn));
  const drop = mid * mid * turn * bend + (w / 2) * Math.sin((mid * turn * Math.PI) / 180);
  hand.style.setProperty("--fan-drop", `${Math.max(0, drop - 12).toFixed(1)}px`);
  [...hand.children].forEach((card, i) => {
    const d = (i % perRow) - mid;
    card.style.setProperty("--rot", `${(d * turn).toFixed(2)}deg`);
    card.style.setProperty("--arc", `${(d * d * turn * bend).toFixed(1)}px`);
  });
}

/** Return the card buttons of the hand. */
export function handButtons() {
  return [...$("hand").querySelectorAll("button.card")];
}

/**
 * Move the focus `delta` buttons along `list` (round the end), as the arrow keys do, or to `to`; return the
 * button focused. From outside the list, a delta of 0 lands on its first button.
 */
export function moveFocus(list, delta, to = null) {
  const i = list.indexOf(document.activeElement);
  const next = to || list[(Math.max(i, delta > 0 ? -1 : 0) + delta + list.length) % list.length];
  list.forEach((b) => { b.tabIndex = -1; });
  next.tabIndex = 0;
  next.focus();
  return next;
}

/** Focus the hand's button of `card` again after a redraw, if it is still there and enabled. */
export function refocus(card, selector = "#hand") {
  if (!card) return;
  // Each box of the list ("#hand, #battle") gets the card's attribute: the list's first box itself is no card.
  const within = selector.split(",").map((box) => `${box.trim()} [data-card="${card}"]`).join(", ");
  const again = document.querySelector(within);
  // A card that can no longer be chosen (the redraw disabled it) leaves the focus in its box, on the first card
  // there that can take it, rather than dropping it to the page, where the arrow keys would find nothing.
  const box = again && again.closest(selector);
  const target = again && !again.disabled ? again : box && [...box.querySelectorAll("button.card")].find((b) => !b.disabled);
  if (target && target.matches("button")) {
    handButtons().forEach((x) => { x.tabIndex = -1; });
    target.tabIndex = 0;
    target.focus({ preventScroll: true });
  }
}

/** Tell a screen reader `text` (the page's live region keeps the last six). */
export function announce(text) {
  if (!text) return;
  const live = $("announcer");
  live.append(el("p", "", text));
  while (live.childElementCount > 6) live.firstElementChild.remove();
}

let toastTimer = null;
/** Show `text` for a few seconds (an error unless `kind` is "info"), and put it in the page's alert region. */
export function toast(text, kind = "error") {
  let t = document.querySelector(".toast");
  if (!t) {
    t = el("div", "toast");
    document.body.append(t);
  }
  t.className = `toast ${kind === "info" ? "info" : ""}`;
  t.textContent = text;
  $("alert").textContent = text;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.remove(), 4200);
}

/** Return a button with an id, a label, a handler and an optional key hint. */
export function button(id, text, onClick, { primary = false, disabled = false, key = "" } = {}) {
  const b = el("button", primary ? "primary" : "");
  b.id = id;
  b.type = "button";
  b.textContent = text;
  if (key) b.append(" ", el("kbd", "key-hint", key));
  b.disabled = disabled;
  b.addEventListener("click", onClick);
  return b;
}
