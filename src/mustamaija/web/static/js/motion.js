// Cards that move. The pages redraw everything from the state on every update, so motion is added around a
// redraw (FLIP): `capture()` notes where each card was, the page redraws, and `play()` starts every card that
// is still shown from where it was, brings new ones in from where they come from (a seat, the talon), and sends
// the ones that left on their way as copies ("ghosts") of what was shown. Only cards the page shows are ever
// moved or copied, and the real elements take clicks while they move, so motion never hides or blocks anything.

import { backEl, cardEl } from "./cards.js";
import { motionScale } from "./settings.js";

// Counts of what ran, for the browser test and for curious players (window.mustamaija.motion).
export const stats = { runs: 0, animations: 0, ghosts: 0, deals: 0 };

const EASE = "cubic-bezier(.2,.7,.25,1)";
const MAX_GHOSTS = 40;

function centre(r) {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/**
 * Return where each shown card of `scope` is: card name -> {rect, width, node}. A card shown twice is taken
 * from the later box (the hand), unless that copy is marked data-motion="weak" (a card of the hand already
 * shown on the table as a defence being put together).
 */
export function capture(scope) {
  if (!motionScale()) return null;
  const cards = new Map();
  for (const box of document.querySelectorAll(scope)) {
    for (const node of box.querySelectorAll(".card[data-card]")) {
      const rect = node.getBoundingClientRect();
      if (!rect.width || (node.dataset.motion === "weak" && cards.has(node.dataset.card))) continue;
      cards.set(node.dataset.card, { rect, width: node.offsetWidth, node });
    }
  }
  return { cards, scope };
}

function rectOf(target) {
  if (!target) return null;
  const node = typeof target === "string" ? document.querySelector(target) : target;
  if (!node) return null;
  const r = node.getBoundingClientRect();
  return r.width || r.height ? r : null;
}

/** Return the first of the anchors (selectors, in order of preference) that is shown. */
function anchor(list) {
  for (const a of [].concat(list || [])) {
    const r = rectOf(a);
    if (r) return r;
  }
  return null;
}

function count(animation) {
  stats.animations += 1;
  return animation;
}

/** Move `node` from the rectangle `from` to where it is now, `to`, keeping its own transform throughout. */
function slide(node, from, to, k, { delay = 0, fade = false, minScale = 0.3, maxScale = 1.6 } = {}) {
  const a = centre(from);
  const b = centre(to);
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  const width = node.offsetWidth || to.width;
  let s = Math.min(maxScale, Math.max(minScale, (from.width || width) / (to.width || width)));
  if (Math.abs(s - 1) < 0.04) s = 1;
  if (Math.abs(dx) < 1.5 && Math.abs(dy) < 1.5 && s === 1) return null;
  // `translate` and `scale` are applied on top of the card's own `transform` (the fan of the hand), so the card
  // lands exactly where the stylesheet puts it.
  const dist = Math.hypot(dx, dy);
  const duration = (110 + Math.min(360, dist * 0.5)) * k;
  const first = { translate: `${dx}px ${dy}px`, scale: String(s) };
  const last = { translate: "0px 0px", scale: "1" };
  if (fade) {
    first.opacity = 0;
    last.opacity = getComputedStyle(node).opacity;
  }
  const frames = [first, last];
  const raise = node.style.zIndex;
  node.style.zIndex = "30";
  const anim = count(node.animate(frames, { duration, delay: delay * k, easing: EASE, fill: "backwards" }));
  const done = () => { node.style.zIndex = raise; };
  anim.finished.then(done, done);
  return anim;
}

let layer = null;

function ghostLayer() {
  if (!layer || !layer.isConnected) {
    layer = document.createElement("div");
    layer.className = "motion-layer";
    layer.setAttribute("aria-hidden", "true");
    document.body.append(layer);
  }
  return layer;
}

/**
 * Fly a copy of `source` (an element that was shown, or a new card element) from `from` to `to`, then drop it.
 * `hold` keeps it still for that share of the time first (a trick stays a moment before it goes); `via` is a
 * rectangle it stops at on the way (the last card of a trick, put down before the trick goes).
 */
function ghost(source, from, to, k, { delay = 0, hold = 0, via = null, width = 0, toScale = 0.45 } = {}) {
  const box = ghostLayer();
  if (!from || !to || box.childElementCount >= MAX_GHOSTS) return;
  const g = source ? source.cloneNode(true) : backEl();
  g.removeAttribute("id");
  g.classList.remove("playable", "unplayable", "selected", "used", "received");
  g.classList.add("ghost");
  g.setAttribute("aria-hidden", "true");
  g.inert = true;
  const w = width || from.width;
  g.style.width = `${w}px`;
  g.style.left = `${from.left + from.width / 2 - w / 2}px`;
  g.style.top = `${from.top + from.height / 2 - (w * 1.4) / 2}px`;
  box.append(g);
  const a = centre(from);
  const b = centre(to);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const duration = (260 + Math.min(320, Math.hypot(dx, dy) * 0.4)) / (1 - hold) * k;
  const frames = [{ translate: "0px 0px", scale: "1", opacity: 1, offset: 0 }];
  if (via) {
    const v = centre(via);
    const stop = { translate: `${v.x - a.x}px ${v.y - a.y}px`, scale: String(Math.min(1.6, via.width / w)), opacity: 1 };
    frames.push({ ...stop, offset: hold * 0.6 }, { ...stop, offset: hold });
  } else if (hold) {
    frames.push({ translate: "0px 0px", scale: "1", opacity: 1, offset: hold });
  }
  frames.push({ translate: `${dx}px ${dy}px`, scale: String(toScale), opacity: 0.15, offset: 1 });
  stats.ghosts += 1;
  const anim = count(g.animate(frames, { duration, delay: delay * k, easing: EASE, fill: "both" }));
  const drop = () => g.remove();
  anim.finished.then(drop, drop);
}

/** Return the rectangle of a ghost's stop: anchors, or the place right after a card shown before. */
function viaRect(snap, via) {
  if (!via.next) return anchor(via);
  const was = snap.cards.get(via.next);
  if (!was) return null;
  const r = was.rect;
  return { left: r.right + 10, top: r.top, width: was.width, height: r.height, right: r.right + 10 + r.width, bottom: r.bottom };
}

/**
 * Start the motion of a redraw, given what `capture()` saw before it. The plan says what a diff of positions
 * cannot know, all optional:
 *   from:    {card: anchors}  where a card shown for the first time comes from (a seat, the talon);
 *   fromDelay: ms            those cards wait that long (the trick before them is still going);
 *   deal:    anchors          the hand was just dealt: its cards come from there one after the other;
 *   ghosts:  [{card, face, from, to, via, delay, hold}]  a card that left, flying to `to`: the copy of the card
 *            as it was shown before, else (from: anchors) its face when `face` says it is public, else a back;
 *            `via` is where it stops on the way: anchors, or {next: card}, the place after that card;
 *   appear:  selector         elements that fade in after the rest (a summary of what just happened);
 *   still:   true             nothing moves (a resize, a setting changed).
 * Anchors are selectors (or lists of them, the first one shown wins).
 */
export function play(snap, plan = {}) {
  const k = motionScale();
  if (!snap || !k || plan.still || document.visibilityState === "hidden") return;
  stats.runs += 1;
  const appear = plan.appear ? [...document.querySelectorAll(plan.appear)] : [];
  const dealFrom = plan.deal ? anchor(plan.deal) : null;
  if (dealFrom) stats.deals += 1;
  let dealt = 0;
  for (const box of document.querySelectorAll(snap.scope)) {
    const inHand = box.id === "hand";
    for (const node of box.querySelectorAll(".card[data-card]")) {
      if (appear.some((a) => a.contains(node))) continue;
      const to = node.getBoundingClientRect();
      if (!to.width) continue;
      const name = node.dataset.card;
      const was = snap.cards.get(name);
      if (dealFrom && inHand) {
        slide(node, dealFrom, to, k, { delay: 40 * dealt++, fade: true, maxScale: 1 });
      } else if (was) {
        slide(node, was.rect, to, k);
      } else if (plan.from && plan.from[name]) {
        // A card coming from a seat grows out of it, never larger than it will be.
        const from = anchor(plan.from[name]);
        if (from) slide(node, from, to, k, { fade: true, minScale: 0.4, maxScale: 1, delay: plan.fromDelay || 0 });
      }
    }
  }
  for (const g of plan.ghosts || []) {
    const to = anchor(g.to);
    const was = g.card ? snap.cards.get(g.card) : null;
    const via = g.via ? viaRect(snap, g.via) : null;
    const opts = { delay: g.delay || 0, hold: g.hold || 0, via };
    if (was) ghost(was.node, was.rect, to, k, { ...opts, width: was.width });
    else if (g.card && g.face) ghost(cardEl(g.card), anchor(g.from), to, k, { ...opts, width: via ? via.width : 48 });
    else ghost(null, anchor(g.from), to, k, { ...opts, width: 40 });
  }
  for (const node of appear) {
    // Its own opacity is the end: a summary drawn faded stays faded.
    const target = getComputedStyle(node).opacity;
    count(node.animate({ opacity: [0, target] }, { duration: 220 * k, delay: 260 * k, fill: "backwards" }));
  }
}
