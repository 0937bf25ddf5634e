// Cards: parsing, naming, ordering, and drawing cards as SVG.
//
// Card names follow docs/formats.md ("QS", "TH"). Suits are told apart by four
// colours AND by shape: each suit has its own pip, and every card carries its
// suit letter, so the table reads the same without colour vision, or with the
// classic two colours a player may choose instead (js/settings.js): the faces
// take their colours from the stylesheet's --suit-S etc., never from here.

export const SUITS = "SHDC";
export const RANKS = "23456789TJQKA";
export const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_WORDS = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const SVG_NS = "http://www.w3.org/2000/svg";

// Pips in a 100×100 box; spades and clubs have stems, diamonds are lozenges.
const PIPS = {
  S: '<path d="M50 4C32 28 6 40 6 60c0 14 11 22 22 22 9 0 15-4 19-10-1 10-5 18-13 23h32c-8-5-12-13-13-23 4 6 10 10 19 10 11 0 22-8 22-22C94 40 68 28 50 4z"/>',
  H: '<path d="M50 92C22 68 4 51 4 31 4 15 16 5 29 5c10 0 17 6 21 14C54 11 61 5 71 5c13 0 25 10 25 26 0 20-18 37-46 61z"/>',
  D: '<path d="M50 3L88 50 50 97 12 50z"/>',
  C: '<circle cx="50" cy="27" r="20"/><circle cx="27" cy="58" r="20"/><circle cx="73" cy="58" r="20"/>'
    + '<path d="M45 50c0 20-5 35-13 45h36c-8-10-13-25-13-45z"/>',
};

/** Return {rank, suit, r, s} of a card name, or null for a bad name. */
export function parse(name) {
  if (typeof name !== "string" || name.length !== 2) return null;
  const r = RANKS.indexOf(name[0]);
  const s = SUITS.indexOf(name[1]);
  if (r < 0 || s < 0) return null;
  return { rank: name[0], suit: name[1], r, s };
}

/** Return the rank as people write it ("10" for T). */
export function rankLabel(name) {
  return name[0] === "T" ? "10" : name[0];
}

/** Return a card with its suit sign, as "10♥". */
export function symbol(name) {
  return rankLabel(name) + SUIT_SIGNS[name[1]];
}

/** Return the spoken name of a card, as "queen of spades". */
export function spoken(name) {
  const rank = RANK_WORDS[name[0]] || name[0];
  return `${rank} of ${SUIT_WORDS[name[1]]}`;
}

/** Return a list of cards with suit signs. */
export function symbols(cards) {
  return cards.map(symbol).join(" ");
}

/** Return the cards sorted for people: suits alternating black and red, trumps last, low to high. */
export function sortHand(cards, trump) {
  const order = ["S", "H", "C", "D"].filter((s) => s !== trump);
  if (trump && SUITS.includes(trump)) order.push(trump);
  return [...cards].sort((a, b) => {
    const sa = order.indexOf(a[1]);
    const sb = order.indexOf(b[1]);
    return sa - sb || RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]);
  });
}

/** Return the 52 cards of the pack, suit by suit in rising rank. */
export function fullDeck() {
  const out = [];
  for (const s of SUITS) for (const r of RANKS) out.push(r + s);
  return out;
}

let spriteDone = false;

/** Put the suit pips into the document once, as SVG symbols the cards refer to. */
export function ensureSprite() {
  if (spriteDone) return;
  spriteDone = true;
  const sprite = document.createElementNS(SVG_NS, "svg");
  sprite.setAttribute("aria-hidden", "true");
  sprite.setAttribute("style", "position:absolute;width:0;height:0;overflow:hidden");
  sprite.innerHTML = "<defs>"
    + Object.entries(PIPS).map(([s, d]) => `<symbol id="pip-${s}" viewBox="0 0 100 100">${d}</symbol>`).join("")
    + '<pattern id="back-pattern" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    + '<rect width="12" height="12" fill="var(--back-a)"/><rect width="6" height="12" fill="var(--back-b)"/></pattern>'
    + "</defs>";
  document.body.prepend(sprite);
}

function svgEl(tag, attrs = {}, text = "") {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text) el.textContent = text;
  return el;
}

function pip(suit, x, y, size, extra = {}) {
  return svgEl("use", { href: `#pip-${suit}`, x, y, width: size, height: size, ...extra });
}

// Pip layouts (x, y in a 100×140 face) for number cards; lower-half pips are turned.
const LAYOUTS = {
  2: [[50, 30], [50, 110]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[32, 30], [68, 30], [32, 110], [68, 110]],
  5: [[32, 30], [68, 30], [50, 70], [32, 110], [68, 110]],
  6: [[32, 30], [68, 30], [32, 70], [68, 70], [32, 110], [68, 110]],
  7: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [32, 110], [68, 110]],
  8: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [50, 90], [32, 110], [68, 110]],
  9: [[32, 28], [68, 28], [32, 56], [68, 56], [50, 70], [32, 84], [68, 84], [32, 112], [68, 112]],
  10: [[32, 28], [68, 28], [50, 44], [32, 56], [68, 56], [32, 84], [68, 84], [50, 96], [32, 112], [68, 112]],
};

/** Return an SVG element drawing the face of a card (100×140 units). */
export function cardFace(name) {
  ensureSprite();
  const c = parse(name);
  const svg = svgEl("svg", { viewBox: "0 0 100 140", class: `card-face suit-${c.suit}`, "aria-hidden": "true" });
  svg.append(svgEl("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, class: "card-bg" }));
  const label = rankLabel(name);
  const corner = (flip) => {
    const g = svgEl("g", flip ? { transform: "rotate(180 50 70)" } : {});
    g.append(svgEl("text", { x: 11, y: 25, class: "card-rank", "text-anchor": "middle", "font-size": label.length > 1 ? 19 : 23 }, label));
    g.append(pip(c.suit, 3, 29, 16, { class: "pip" }));
    g.append(svgEl("text", { x: 11, y: 57, class: "card-letter", "text-anchor": "middle" }, c.suit));
    return g;
  };
  svg.append(corner(false), corner(true));
  const n = Number(label);
  if (n >= 2 && n <= 10) {
    for (const [x, y] of LAYOUTS[n]) {
      const size = 20;
      const attrs = { class: "pip" };
      if (y > 75) attrs.transform = `rotate(180 ${x} ${y})`;
      svg.append(pip(c.suit, x - size / 2, y - size / 2, size, attrs));
    }
  } else {
    // Court cards and aces: a framed panel with a large pip and the letter.
    if (c.rank !== "A") {
      svg.append(svgEl("rect", { x: 24, y: 20, width: 52, height: 100, rx: 5, class: "court-frame" }));
      svg.append(svgEl("text", { x: 50, y: 110, class: "court-letter", "text-anchor": "middle" }, c.rank));
    }
    const size = c.rank === "A" ? 46 : 34;
    svg.append(pip(c.suit, 50 - size / 2, c.rank === "A" ? 47 : 38, size, { class: "pip" }));
    if (name === "QS") {
      // Maija: a crown, so the most important card stands out in every view.
      svg.append(svgEl("path", { d: "M34 34l6 -12 5 8 5 -12 5 12 5 -8 6 12z", class: "maija-crown" }));
    }
  }
  return svg;
}

/** Return an SVG element drawing the back of a card. */
export function cardBack() {
  ensureSprite();
  const svg = svgEl("svg", { viewBox: "0 0 100 140", class: "card-back", "aria-hidden": "true" });
  svg.append(svgEl("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, class: "back-edge" }));
  svg.append(svgEl("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, fill: "url(#back-pattern)", class: "back-fill" }));
  svg.append(svgEl("text", { x: 50, y: 80, "text-anchor": "middle", class: "back-mark" }, "M"));
  return svg;
}

/**
 * Return a card element: a button when `opts.button`, else a span, holding the SVG face.
 * opts: {button, classes, label, data}
 */
export function cardEl(name, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "span");
  el.className = ["card", ...(opts.classes || [])].join(" ");
  if (opts.button) el.type = "button";
  el.dataset.card = name;
  el.setAttribute("aria-label", opts.label || spoken(name));
  if (!opts.button) {
    el.setAttribute("role", "img");
    el.title = opts.label || spoken(name);
  }
  el.append(cardFace(name));
  return el;
}

/** Return a face-down card element. */
export function backEl(classes = []) {
  const el = document.createElement("span");
  el.className = ["card", "back", ...classes].join(" ");
  el.setAttribute("aria-hidden", "true");
  el.append(cardBack());
  return el;
}

/** Return a small inline chip for a card in text: "10♥" in its suit colour. */
export function chip(name) {
  const el = document.createElement("span");
  el.className = `chip suit-${name[1]}`;
  el.textContent = symbol(name);
  el.title = spoken(name);
  return el;
}

/**
 * Return the chips of a set of cards (a hand's known cards, a seat's penalty cards): one a card, or, past `most`
 * cards, one a suit with its ranks in runs ("♥ 2–9 J–A"), so that the list stays a line or two and covers neither
 * the table nor the hand. Each suit chip's title names its cards.
 */
export function cardChips(cards, trump, most) {
  const sorted = sortHand(cards, trump);
  if (sorted.length <= most) return sorted.map(chip);
  return [...new Set(sorted.map((c) => c[1]))].map((suit) => {
    const mine = sorted.filter((c) => c[1] === suit);
    const box = document.createElement("span");
    box.className = `chip suit-${suit}`;
    box.textContent = `${SUIT_SIGNS[suit]} ${rankRuns(mine)}`;
    box.title = mine.map(spoken).join(", ");
    return box;
  });
}

/** Return the ranks of cards of one suit (in rising order) as runs: three or more in a row as "first–last". */
function rankRuns(cards) {
  const ranks = cards.map((c) => RANKS.indexOf(c[0]));
  const parts = [];
  for (let i = 0; i < ranks.length;) {
    let j = i;
    while (j + 1 < ranks.length && ranks[j + 1] === ranks[j] + 1) j++;
    if (j - i >= 2) parts.push(`${rankLabel(cards[i])}–${rankLabel(cards[j])}`);
    else for (let k = i; k <= j; k++) parts.push(rankLabel(cards[k]));
    i = j + 1;
  }
  return parts.join(" ");
}

/** Return a small suit sign element in its colour. */
export function suitChip(suit) {
  const el = document.createElement("span");
  el.className = `chip suit-${suit}`;
  el.textContent = SUIT_SIGNS[suit];
  el.title = SUIT_WORDS[suit];
  return el;
}
