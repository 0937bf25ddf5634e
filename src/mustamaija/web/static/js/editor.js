// The position editor (/editor): set up a position card by card, have the server check it as you go, share it as a
// link or a JSON file, solve it, ask for a hint, or play it out against bots (docs/web.md, "Position editor").
//
// The page builds a position document of the game's position format (docs/formats.md) from its form and posts it
// to /api/positions/check on every change; the server's answer (the normalised document, its one-line text, the
// link and a summary, or the format's own error) is the only judge. The cards are drawn by js/cards.js.

import { api, ApiError, saveSeat, savedName, saveName } from "./api.js";
import { cardEl, fullDeck, parse, RANKS, SUIT_SIGNS, SUIT_WORDS, SUITS, spoken, symbol } from "./cards.js";
import { $, el } from "./dom.js";
import { mountSettings } from "./settings.js";

const V2 = "mustamaija-position/2";
const ORDER = fullDeck(); // Suit by suit, rising: the order a hand is shown and sent in.
// Keys of a loaded document that the form does not edit: they are kept as they were (and can be dropped).
const KEPT = ["dealer", "revealed", "turn_pending", "limit", "out", "turns", "declarer", "selected", "stopped"];

const ed = {
  game: null, // The game's entry of GET /api/games.
  players: 2,
  preset: null, // A preset's name, or "loaded" for the rules of a loaded document.
  loadedRules: null,
  place: new Map(), // card -> "h<seat>" | "talon" | "trump" | "led"; a card in no place is out of play.
  talon: [], // The talon's cards above the trump card, top first.
  public: new Set(),
  trump: "auto",
  order: "unknown",
  attacker: 0,
  phase: "lead",
  extras: {},
  tableExtras: {},
  dest: "h0",
  answer: null, // The last check's answer for the position shown, or null while it is refused.
  asked: 0, // Checks sent; only the newest answer is shown.
  timer: null,
};

// -- the model ---------------------------------------------------------------------------------------

function rules() {
  if (ed.preset === "loaded" && ed.loadedRules) return ed.loadedRules;
  return ed.game.presets[ed.preset] || {};
}

function cardsIn(where) {
  return ORDER.filter((c) => ed.place.get(c) === where);
}

function trumpCard() {
  return ORDER.find((c) => ed.place.get(c) === "trump") || null;
}

/** Put a card somewhere (null: out of play), keeping the talon's order and the public marks consistent. */
function put(card, where) {
  const before = ed.place.get(card) || null;
  if (before === "talon") ed.talon = ed.talon.filter((c) => c !== card);
  if (where === "trump") {
    const old = trumpCard();
    if (old && old !== card) ed.place.delete(old);
  }
  if (where) ed.place.set(card, where);
  else ed.place.delete(card);
  if (where === "talon") ed.talon.push(card);
  if (!where || !where.startsWith("h")) ed.public.delete(card);
}

/** Return the seat that defends: the next seat to the attacker's left that holds cards (M9), or null. */
function defender() {
  for (let i = 1; i < ed.players; i++) {
    const s = (ed.attacker + i) % ed.players;
    if (cardsIn(`h${s}`).length) return s;
  }
  return null;
}

/** Return the position document the form says (docs/formats.md, mustamaija-position/2). */
function documentOf() {
  const hands = [];
  for (let s = 0; s < ed.players; s++) hands.push(cardsIn(`h${s}`));
  const card = trumpCard();
  const doc = {
    format: V2,
    rules: rules(),
    hands,
    public: ORDER.filter((c) => ed.public.has(c) && (ed.place.get(c) || "").startsWith("h")),
    talon: [...ed.talon, ...(card ? [card] : [])],
    talon_order: ed.order,
    phase: ed.phase,
    attacker: ed.phase === "over" ? null : ed.attacker,
  };
  if (card) doc.trump_card = card;
  if (ed.trump === "none") doc.trump_suit = null;
  else if (ed.trump !== "auto") doc.trump_suit = ed.trump;
  if (ed.phase === "defend") doc.table = { led: cardsIn("led"), ...ed.tableExtras };
  for (const [k, v] of Object.entries(ed.extras)) doc[k] = v;
  return doc;
}

/** Set the form from a position document the server has normalised (/1 or /2). */
function loadDocument(doc) {
  ed.place = new Map();
  ed.talon = [];
  ed.public = new Set();
  ed.players = doc.hands.length;
  doc.hands.forEach((hand, s) => hand.forEach((c) => ed.place.set(c, `h${s}`)));
  const everyPublic = !("public" in doc);
  for (const c of everyPublic ? doc.hands.flat() : doc.public) ed.public.add(c);
  const talon = doc.talon || [];
  const card = doc.trump_card || null;
  talon.forEach((c, i) => {
    if (c === card && i === talon.length - 1) ed.place.set(c, "trump");
    else {
      ed.place.set(c, "talon");
      ed.talon.push(c);
    }
  });
  ed.order = doc.talon_order || "known";
  ed.phase = doc.phase || "lead";
  ed.attacker = doc.attacker ?? 0;
  const table = doc.table || {};
  for (const c of table.led || []) ed.place.set(c, "led");
  ed.tableExtras = {};
  if (table.beaten) ed.tableExtras.beaten = table.beaten;
  if (table.left) ed.tableExtras.left = table.left;
  ed.trump = doc.trump_suit === null || doc.trump_suit === undefined ? (card ? "auto" : "none") : doc.trump_suit;
  if (card) ed.trump = "auto";
  ed.extras = {};
  for (const k of KEPT) {
    if (doc[k] === undefined) continue;
    // Keys at their defaults are left out: the server fills them in again, as the position changes.
    if (k === "dealer" && doc[k] === 0) continue;
    if (k === "turns" && doc[k] === 0) continue;
    if ((k === "revealed" || k === "selected") && !doc[k].length) continue;
    if (k === "stopped" && !doc[k]) continue;
    if (k === "turn_pending") continue; // It follows from the trump and the talon.
    if (k === "limit" && doc.phase !== "defend") continue; // Before a lead it is M11's; during a defence, as led.
    if (k === "out") {
      const plain = doc.hands.map((h, s) => (h.length ? -1 : s)).filter((s) => s >= 0);
      if (JSON.stringify(plain) === JSON.stringify(doc.out)) continue; // The seats with no cards, in seat order.
    }
    if (k === "declarer" && doc[k] === null) continue;
    ed.extras[k] = doc[k];
  }
  const full = { ...ed.game.rule_defaults, ...(doc.rules || {}) };
  const same = Object.keys(ed.game.presets).find((name) => {
    const p = { ...ed.game.rule_defaults, ...ed.game.presets[name] };
    return Object.keys(full).every((k) => JSON.stringify(full[k] ?? null) === JSON.stringify(p[k] ?? null));
  });
  ed.loadedRules = same ? null : doc.rules;
  ed.preset = same || "loaded";
  if (!ed.dest.startsWith("h") || Number(ed.dest.slice(1)) >= ed.players) ed.dest = "h0";
}

// -- typing cards --------------------------------------------------------------------------------------

const SIGN_LETTERS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C" };

/** Return the cards of a typed list ("QS 5h 10♥"), or throw an Error naming the bad word. */
export function readCards(text) {
  const out = [];
  for (const word of text.split(/[\s,;]+/).filter(Boolean)) {
    let w = word.toUpperCase();
    w = w.replace(/[♠♥♦♣♤♡♢♧]/g, (ch) => SIGN_LETTERS[ch]);
    if (w.startsWith("10")) w = `T${w.slice(2)}`;
    if (w.length === 2 && SUITS.includes(w[0]) && RANKS.includes(w[1])) w = w[1] + w[0]; // "S7" as well as "7S"
    if (!parse(w)) throw new Error(`"${word}" is not a card: write a rank (2-10, J, Q, K, A) and a suit (S H D C)`);
    if (out.includes(w)) throw new Error(`${symbol(w)} is given twice`);
    out.push(w);
  }
  return out;
}

/** Make `where` hold exactly the typed cards (a hand, the talon or the led cards); the cards it held go out of play. */
function setZone(where, text, errorEl) {
  let cards;
  try {
    cards = readCards(text);
  } catch (e) {
    errorEl.textContent = e.message;
    return;
  }
  errorEl.textContent = "";
  for (const c of ORDER) if (ed.place.get(c) === where && !cards.includes(c)) put(c, null);
  if (where === "talon") {
    for (const c of cards) {
      if (ed.place.get(c) !== "talon") put(c, "talon");
    }
    ed.talon = cards.filter((c) => ed.place.get(c) === "talon");
  } else {
    for (const c of cards) if (ed.place.get(c) !== where) put(c, where);
  }
  changed();
}

// -- drawing ---------------------------------------------------------------------------------------------

function placeWords(where) {
  if (!where) return "out of play";
  if (where.startsWith("h")) return `seat ${where.slice(1)}`;
  return { talon: "in the talon", trump: "the turned trump card", led: "on the table" }[where];
}

function placeTag(where) {
  if (!where) return "";
  if (where.startsWith("h")) return where.slice(1);
  return { talon: "T", trump: "U", led: "L" }[where];
}

function destinations() {
  const out = [];
  for (let s = 0; s < ed.players; s++) out.push([`h${s}`, `Seat ${s}`, String(s)]);
  out.push(["talon", "Talon", "T"], ["trump", "Trump card", "U"]);
  if (ed.phase === "defend") out.push(["led", "Led cards", "L"]);
  out.push(["out", "Out of play", "X"]);
  return out;
}

function drawDestinations() {
  const box = $("ed-dests");
  box.replaceChildren();
  if (ed.dest === "led" && ed.phase !== "defend") ed.dest = "h0";
  for (const [key, label, shortcut] of destinations()) {
    const lab = el("label", `ed-dest${ed.dest === key ? " chosen" : ""}`);
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "ed-dest";
    radio.value = key;
    radio.checked = ed.dest === key;
    radio.id = `ed-dest-${key}`;
    radio.addEventListener("change", () => {
      ed.dest = key;
      drawDestinations();
    });
    lab.append(radio, el("span", "", label), el("kbd", "", shortcut));
    box.append(lab);
  }
}

function drawPalette() {
  const box = $("palette");
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
  box.replaceChildren();
  for (const suit of SUITS) {
    const row = el("div", "ed-suit-row");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", SUIT_WORDS[suit]);
    for (const rank of RANKS) {
      const c = rank + suit;
      const where = ed.place.get(c) || null;
      const button = cardEl(c, { button: true, classes: ["tiny", "ed-card", where ? `at-${where[0]}` : "free"],
        label: `${spoken(c)}: ${placeWords(where)}` });
      button.tabIndex = c === (focused || "2S") ? 0 : -1;
      if (where) button.append(el("span", "ed-tag", placeTag(where)));
      button.addEventListener("click", () => {
        const target = ed.dest === "out" ? null : ed.dest;
        put(c, ed.place.get(c) === target ? null : target);
        changed();
      });
      row.append(button);
    }
    box.append(row);
  }
  if (focused && box.contains(document.activeElement) === false) {
    const again = box.querySelector(`[data-card="${focused}"]`);
    if (again) again.focus();
  }
}

function seatBadges(s) {
  const out = [];
  if (ed.phase !== "over" && s === ed.attacker) out.push("attacks");
  if (ed.phase !== "over" && s === defender()) out.push("defends");
  return out;
}

function drawSeats() {
  const box = $("ed-seats");
  const active = document.activeElement ? document.activeElement.id : null;
  box.replaceChildren();
  for (let s = 0; s < ed.players; s++) {
    const zone = el("div", "ed-zone ed-seat");
    const head = el("div", "ed-zone-head");
    const cards = cardsIn(`h${s}`);
    head.append(el("strong", "", `Seat ${s}`), el("span", "muted", `${cards.length} card${cards.length === 1 ? "" : "s"}`));
    for (const b of seatBadges(s)) head.append(el("span", `pill ed-role ${b}`, b));
    const field = el("label", "field");
    const input = document.createElement("input");
    input.id = `ed-hand-${s}`;
    input.autocomplete = "off";
    input.spellcheck = false;
    input.placeholder = "e.g. QS 5H 8H";
    input.value = cards.map((c) => c).join(" ");
    input.setAttribute("aria-label", `Seat ${s}'s hand: type cards`);
    const err = el("span", "error");
    err.setAttribute("role", "alert");
    input.addEventListener("change", () => setZone(`h${s}`, input.value, err));
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") setZone(`h${s}`, input.value, err);
    });
    field.append(el("span", "", `Seat ${s}'s hand`), input);
    const hand = el("div", "ed-hand");
    hand.setAttribute("role", "group");
    hand.setAttribute("aria-label", `Seat ${s}'s cards: click to make one public or private`);
    for (const c of cards) {
      const open = ed.public.has(c);
      const b = cardEl(c, { button: true, classes: ["ed-handcard", open ? "public" : "private"],
        label: `${spoken(c)}, ${open ? "public" : "private"}: click to make it ${open ? "private" : "public"}` });
      b.setAttribute("aria-pressed", String(open));
      if (open) b.append(el("span", "ed-eye", "public"));
      b.addEventListener("click", () => {
        if (ed.public.has(c)) ed.public.delete(c);
        else ed.public.add(c);
        changed();
        const again = $("ed-seats").querySelector(`[data-card="${c}"]`);
        if (again) again.focus();
      });
      hand.append(b);
    }
    zone.append(head, field, err, hand);
    box.append(zone);
  }
  if (active && active.startsWith("ed-hand-") && $(active)) $(active).focus();
}

function drawTalon() {
  const card = trumpCard();
  const n = ed.talon.length + (card ? 1 : 0);
  $("ed-talon-count").textContent = n ? `${n} card${n === 1 ? "" : "s"}` : "empty";
  if (document.activeElement !== $("ed-talon-input")) $("ed-talon-input").value = ed.talon.join(" ");
  $("ed-order").value = ed.order;
  const list = $("ed-talon");
  list.replaceChildren();
  ed.talon.forEach((c, i) => {
    const item = el("li", "ed-talon-card");
    item.append(cardEl(c, { classes: ["tiny"] }));
    const up = el("button", "small ghost", "↑");
    up.type = "button";
    up.disabled = i === 0;
    up.setAttribute("aria-label", `move ${spoken(c)} up`);
    up.addEventListener("click", () => move(i, -1));
    const down = el("button", "small ghost", "↓");
    down.type = "button";
    down.disabled = i === ed.talon.length - 1;
    down.setAttribute("aria-label", `move ${spoken(c)} down`);
    down.addEventListener("click", () => move(i, 1));
    item.draggable = true;
    item.dataset.index = String(i);
    item.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", String(i)));
    item.addEventListener("dragover", (e) => e.preventDefault());
    item.addEventListener("drop", (e) => {
      e.preventDefault();
      const from = Number(e.dataTransfer.getData("text/plain"));
      if (Number.isInteger(from) && from !== i) {
        const [moved] = ed.talon.splice(from, 1);
        ed.talon.splice(i, 0, moved);
        changed();
      }
    });
    item.append(up, down);
    list.append(item);
  });
  if (card) {
    const item = el("li", "ed-talon-card ed-trump-card");
    item.append(cardEl(card, { classes: ["tiny"] }), el("span", "muted", "the trump card, at the bottom (M8)"));
    list.append(item);
  }
  $("ed-trump-line").textContent = card
    ? `Turned trump card: ${symbol(card)} (trumps ${SUIT_SIGNS[card[1]]}).`
    : "No turned trump card: pick one with the Trump card place, or set the trump suit above.";
}

function move(i, by) {
  const j = i + by;
  [ed.talon[i], ed.talon[j]] = [ed.talon[j], ed.talon[i]];
  changed();
  const buttons = $("ed-talon").children[j]?.querySelectorAll("button");
  if (buttons && buttons.length) buttons[by < 0 ? 0 : 1].focus();
}

function drawLedAndDiscard() {
  $("ed-led-zone").hidden = ed.phase !== "defend";
  const led = cardsIn("led");
  if (document.activeElement !== $("ed-led-input")) $("ed-led-input").value = led.join(" ");
  $("ed-led").replaceChildren(...led.map((c) => cardEl(c, { classes: ["small"] })));
  const out = ORDER.filter((c) => !ed.place.has(c));
  $("ed-discard-count").textContent = `${out.length} card${out.length === 1 ? "" : "s"}`;
  $("ed-discard").replaceChildren(...out.map((c) => cardEl(c, { classes: ["tiny"] })));
}

function drawSetup() {
  const players = $("ed-players");
  players.replaceChildren();
  for (let n = ed.game.min_players; n <= ed.game.max_players; n++) players.add(new Option(`${n} players`, String(n)));
  players.value = String(ed.players);
  const preset = $("ed-preset");
  preset.replaceChildren();
  const labels = (ed.game.lobby && ed.game.lobby.preset_labels) || {};
  for (const name of Object.keys(ed.game.presets)) preset.add(new Option(labels[name] || name, name));
  if (ed.preset === "loaded") preset.add(new Option("As loaded", "loaded"));
  preset.value = ed.preset;
  $("ed-rules-text").textContent = ed.preset === "loaded" ? "The rules of the loaded position."
    : (ed.game.preset_texts && ed.game.preset_texts[ed.preset]) || "";
  const attacker = $("ed-attacker");
  attacker.replaceChildren();
  for (let s = 0; s < ed.players; s++) attacker.add(new Option(`seat ${s}`, String(s)));
  attacker.value = String(ed.attacker);
  attacker.disabled = ed.phase === "over";
  $("ed-phase").value = ed.phase;
  $("ed-trump").value = ed.trump;
  $("ed-trump").disabled = Boolean(trumpCard());
  const keys = Object.keys(ed.extras).concat(Object.keys(ed.tableExtras).map((k) => `table.${k}`));
  $("ed-extras").hidden = !keys.length;
  $("ed-extras").replaceChildren();
  if (keys.length) {
    const drop = el("button", "small ghost", "Drop them");
    drop.type = "button";
    drop.addEventListener("click", () => {
      ed.extras = {};
      ed.tableExtras = {};
      changed();
    });
    $("ed-extras").append(`Also kept from the loaded position: ${keys.map((k) => `${k} ${JSON.stringify(
      k.startsWith("table.") ? ed.tableExtras[k.slice(6)] : ed.extras[k])}`).join("; ")}. `, drop);
  }
  const seat = $("ed-seat");
  const keep = seat.value;
  seat.replaceChildren();
  for (let s = 0; s < ed.players; s++) seat.add(new Option(`seat ${s}`, String(s)));
  seat.value = keep && Number(keep) < ed.players ? keep : String(ed.attacker);
}

function draw() {
  drawSetup();
  drawDestinations();
  drawPalette();
  drawSeats();
  drawTalon();
  drawLedAndDiscard();
}

// -- the server --------------------------------------------------------------------------------------

function changed() {
  draw();
  $("ed-status").textContent = "Checking…";
  ed.asked++; // An answer still on its way is for an older position: it must not be shown.
  clearTimeout(ed.timer);
  ed.timer = setTimeout(check, 120);
}

async function check() {
  const n = ++ed.asked;
  $("ed-status").textContent = "Checking…";
  let answer = null;
  let error = null;
  try {
    answer = await api("/api/positions/check", { method: "POST", body: { game: ed.game.name, position: documentOf() } });
  } catch (e) {
    error = e;
  }
  if (n !== ed.asked) return; // A newer check is on its way.
  showAnswer(answer, error);
}

function showAnswer(answer, error) {
  ed.answer = answer;
  document.body.classList.toggle("ed-valid", Boolean(answer));
  $("ed-solution").replaceChildren();
  $("ed-hint").hidden = true;
  if (!answer) {
    $("ed-status").textContent = "Not a position yet:";
    $("ed-error").textContent = error ? error.message : "";
    for (const id of ["ed-copy", "ed-download", "ed-solve", "ed-play"]) $(id).disabled = true;
    $("ed-solve-note").textContent = "";
    return;
  }
  $("ed-error").textContent = "";
  $("ed-status").textContent = `Valid (${answer.format}): ${answer.summary}.`;
  $("ed-text").textContent = answer.text;
  $("ed-link").value = location.origin + answer.link;
  history.replaceState(null, "", answer.link);
  $("ed-copy").disabled = false;
  $("ed-download").disabled = false;
  $("ed-solve").disabled = false;
  $("ed-play").disabled = answer.over;
  $("ed-solve-note").textContent = answer.solve.ok ? "The exact solver takes this position."
    : `The solver does not apply: ${answer.solve.why}.${answer.solve.hint ? " A hint searches instead." : ""}`;
  $("ed-hint").hidden = answer.solve.ok || !answer.solve.hint;
  if (answer.to_act !== null && !$("ed-seat").dataset.touched) $("ed-seat").value = String(answer.to_act);
}

/** Check a document or a one-line text from outside the form (a link, a file, a paste) and load it. */
async function loadFrom(source) {
  const body = typeof source === "string" ? { game: ed.game.name, text: source } : { game: ed.game.name, position: source };
  try {
    const answer = await api("/api/positions/check", { method: "POST", body });
    loadDocument(answer.position);
    draw();
    showAnswer(answer, null);
    return true;
  } catch (e) {
    showAnswer(null, e);
    return false;
  }
}

async function solve() {
  const out = $("ed-solution");
  if (ed.answer && !ed.answer.solve.ok) {
    out.replaceChildren(el("p", "", `The solver needs a talon-empty position with every hand known, the attacker to lead: `
      + `${ed.answer.solve.why}.`));
    $("ed-hint").hidden = !ed.answer.solve.hint;
    if (ed.answer.solve.hint) $("ed-hint").focus();
    return;
  }
  out.replaceChildren(el("p", "muted", "Solving…"));
  $("ed-solve").disabled = true;
  try {
    const answer = await api("/api/positions/solve", { method: "POST", body: { game: ed.game.name, position: documentOf() } });
    showSolution(answer.solution);
  } catch (e) {
    out.replaceChildren(el("p", "error", e.message));
  } finally {
    $("ed-solve").disabled = !ed.answer;
  }
}

/** Return the principal line turn by turn, in the solver's own words ("seat 0 leads 3♣ A♣; seat 1 picks up…"). */
function turnsOf(sol) {
  const start = sol.lines.findIndex((l) => l.startsWith("Principal line"));
  const turns = [];
  for (const l of start >= 0 ? sol.lines.slice(start + 1) : []) {
    const m = /^\s*\d+\.\s+(.*)$/.exec(l);
    if (!m) break;
    turns.push(m[1]);
  }
  return turns.length ? turns : sol.line.map((move) => move.text);
}

function leadWords(cards) {
  return cards.map(symbol).join(" ");
}

function showSolution(sol) {
  const out = $("ed-solution");
  const r = sol.result;
  const verdict = el("p", `ed-verdict ${r.attacker_safe ? "safe" : "lost"}`,
    r.attacker_safe ? `Seat ${r.attacker}, the attacker, is safe: it can make sure of not being left with Q♠.`
      : `Seat ${r.attacker}, the attacker, is not safe: against best play the others can leave it with Q♠.`);
  out.replaceChildren(verdict);
  if (r.safe_leads.length) {
    const leads = el("p", "", `Safe first leads (${r.safe_leads.length}): `);
    leads.append(r.safe_leads.map(leadWords).join("; "));
    out.append(leads);
  }
  out.append(el("h4", "", "Principal line"));
  const list = el("ol", "ed-line");
  for (const turn of turnsOf(sol)) list.append(el("li", "", turn));
  out.append(list);
  const end = sol.lines.length ? sol.lines[sol.lines.length - 1] : sol.outcome;
  if (end) out.append(el("p", "muted", end));
  out.append(el("p", "muted ed-small", `${r.nodes} positions searched in ${r.time_s} s.`));
}

async function hint() {
  const out = $("ed-solution");
  out.replaceChildren(el("p", "muted", "Thinking…"));
  $("ed-hint").disabled = true;
  try {
    const answer = await api("/api/positions/hint", { method: "POST", body: { game: ed.game.name, position: documentOf() } });
    const h = answer.hint;
    out.replaceChildren(el("p", "ed-verdict", `Hint for seat ${h.seat}: ${h.text}`));
    const list = el("ol", "ed-line");
    for (const c of (h.candidates || []).slice(0, 5)) {
      let how = "";
      if (c.safe !== undefined) how = c.safe ? ": safe" : ": not safe";
      else if (c.loss_rate !== undefined) how = `: lost ${Math.round(c.loss_rate * 100)}% of sampled deals`;
      list.append(el("li", "", c.words + how));
    }
    out.append(list);
  } catch (e) {
    out.replaceChildren(el("p", "error", e.message));
  } finally {
    $("ed-hint").disabled = false;
  }
}

async function play() {
  $("ed-play-error").textContent = "";
  const name = $("ed-name").value.trim();
  if (name) saveName(name);
  $("ed-play").disabled = true;
  try {
    const made = await api("/api/positions/play", { method: "POST", body: {
      game: ed.game.name, position: documentOf(), seat: Number($("ed-seat").value), bot: $("ed-bots").value,
      preset: ed.preset === "loaded" ? null : ed.preset, player_name: name || null,
    } });
    saveSeat(made.table.id, made.seat, made.token);
    location.href = made.url;
  } catch (e) {
    $("ed-play-error").textContent = e.message;
    $("ed-play").disabled = !ed.answer;
  }
}

async function copyLink() {
  const link = $("ed-link").value;
  try {
    await navigator.clipboard.writeText(link);
    $("ed-copy").textContent = "Copied";
  } catch {
    $("ed-link").select(); // Without clipboard access the link is selected, for Ctrl+C.
    $("ed-copy").textContent = "Press Ctrl+C";
  }
  setTimeout(() => { $("ed-copy").textContent = "Copy link"; }, 1600);
}

function download() {
  if (!ed.answer) return;
  const blob = new Blob([`${JSON.stringify(ed.answer.position, null, 2)}\n`], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "position.json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function loadPasted(text) {
  const t = text.trim();
  if (!t) return;
  if (t.startsWith("{")) {
    let obj;
    try {
      obj = JSON.parse(t);
    } catch (e) {
      showAnswer(null, new ApiError("bad_json", `not valid JSON: ${e.message}`));
      return;
    }
    await loadFrom(obj);
  } else {
    const q = t.includes("?p=") ? new URL(t, location.origin).searchParams.get("p") || t : t;
    await loadFrom(q);
  }
}

// -- starting points -----------------------------------------------------------------------------------

function clearAll() {
  ed.place = new Map();
  ed.talon = [];
  ed.public = new Set();
  ed.extras = {};
  ed.tableExtras = {};
  changed();
}

async function example() {
  await loadFrom({ hands: [["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker: 0, trump_suit: "C",
    rules: ed.game.presets[Object.keys(ed.game.presets)[0]] });
}

/** Deal the chosen rules' hands at random, the rest to the talon of unknown order, as a deal's start. */
function randomDeal() {
  const r = { ...ed.game.rule_defaults, ...rules() };
  const deck = [...ORDER];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  ed.place = new Map();
  ed.talon = [];
  ed.public = new Set();
  ed.extras = {};
  ed.tableExtras = {};
  const size = Number(r.hand_size) || 5;
  for (let s = 0; s < ed.players; s++) for (const c of deck.splice(0, size)) ed.place.set(c, `h${s}`);
  if (r.trump === "turned" && r.trump_turn === "after_deal") {
    // The turned card is the first that may be trumps (spades are put back unless they may be, M7).
    const k = deck.findIndex((c) => c[1] !== "S" || r.spades_can_be_trump);
    const [card] = deck.splice(k, 1);
    ed.place.set(card, "trump");
  }
  for (const c of deck) {
    ed.place.set(c, "talon");
    ed.talon.push(c);
  }
  ed.order = "unknown";
  ed.phase = "lead";
  ed.trump = "auto";
  changed();
}

// -- wiring --------------------------------------------------------------------------------------------

function onKey(e) {
  const t = e.target;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
  if (document.querySelector("dialog[open]")) return;
  const k = e.key.toLowerCase();
  const map = { t: "talon", u: "trump", l: "led", x: "out" };
  if (/^[0-9]$/.test(k) && Number(k) < ed.players) ed.dest = `h${k}`;
  else if (map[k] && (k !== "l" || ed.phase === "defend")) ed.dest = map[k];
  else if (k === "s") {
    solve();
    return;
  } else if (e.key === "?") {
    $("keys-help").showModal();
    return;
  } else return;
  e.preventDefault();
  drawDestinations();
}

function paletteKeys(e) {
  const cards = [...$("palette").querySelectorAll(".ed-card")];
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return;
  const by = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 13, ArrowUp: -13, Home: -i, End: cards.length - 1 - i }[e.key];
  if (by === undefined) return;
  e.preventDefault();
  const j = Math.max(0, Math.min(cards.length - 1, i + by));
  cards[i].tabIndex = -1;
  cards[j].tabIndex = 0;
  cards[j].focus();
}

async function main() {
  mountSettings($("btn-settings"));
  const params = new URLSearchParams(location.search);
  let games;
  try {
    games = await api("/api/games");
  } catch (e) {
    $("ed-error").textContent = e.message;
    return;
  }
  ed.game = games.games.find((g) => g.name === (params.get("game") || games.default)) || games.games[0];
  $("game-name").textContent = ed.game.title;
  ed.preset = Object.keys(ed.game.presets)[0];
  ed.players = Math.max(ed.game.min_players, 2);
  const bots = $("ed-bots");
  for (const l of ed.game.levels) bots.add(new Option(l.label, l.level));
  bots.value = ed.game.levels.length > 1 ? ed.game.levels[1].level : ed.game.levels[0].level;
  $("ed-name").value = savedName();

  $("ed-players").addEventListener("change", (e) => {
    ed.players = Number(e.target.value);
    for (const [c, where] of [...ed.place]) if (where.startsWith("h") && Number(where.slice(1)) >= ed.players) put(c, null);
    if (ed.attacker >= ed.players) ed.attacker = 0;
    changed();
  });
  $("ed-preset").addEventListener("change", (e) => {
    ed.preset = e.target.value;
    changed();
  });
  $("ed-attacker").addEventListener("change", (e) => {
    ed.attacker = Number(e.target.value);
    changed();
  });
  $("ed-phase").addEventListener("change", (e) => {
    ed.phase = e.target.value;
    if (ed.phase !== "defend") for (const c of cardsIn("led")) put(c, null);
    changed();
  });
  $("ed-trump").addEventListener("change", (e) => {
    ed.trump = e.target.value;
    changed();
  });
  $("ed-order").addEventListener("change", (e) => {
    ed.order = e.target.value;
    changed();
  });
  $("ed-seat").addEventListener("change", () => { $("ed-seat").dataset.touched = "1"; });
  const talonInput = $("ed-talon-input");
  talonInput.addEventListener("change", () => setZone("talon", talonInput.value, $("ed-talon-error")));
  talonInput.addEventListener("keydown", (e) => e.key === "Enter" && setZone("talon", talonInput.value, $("ed-talon-error")));
  const ledInput = $("ed-led-input");
  ledInput.addEventListener("change", () => setZone("led", ledInput.value, $("ed-led-error")));
  ledInput.addEventListener("keydown", (e) => e.key === "Enter" && setZone("led", ledInput.value, $("ed-led-error")));
  $("ed-clear").addEventListener("click", clearAll);
  $("ed-example").addEventListener("click", example);
  $("ed-random").addEventListener("click", randomDeal);
  $("ed-copy").addEventListener("click", copyLink);
  $("ed-download").addEventListener("click", download);
  $("ed-load-open").addEventListener("click", () => {
    const box = $("ed-load");
    box.hidden = !box.hidden;
    $("ed-load-open").setAttribute("aria-expanded", String(!box.hidden));
    if (!box.hidden) $("ed-paste").focus();
  });
  $("ed-load-go").addEventListener("click", () => loadPasted($("ed-paste").value));
  $("ed-file").addEventListener("change", async (e) => {
    const file = e.target.files && e.target.files[0];
    if (file) await loadPasted(await file.text());
  });
  $("ed-solve").addEventListener("click", solve);
  $("ed-hint").addEventListener("click", hint);
  $("ed-play").addEventListener("click", play);
  $("btn-keys").addEventListener("click", () => $("keys-help").showModal());
  $("palette").addEventListener("keydown", paletteKeys);
  document.addEventListener("keydown", onKey);

  const shared = params.get("p");
  if (shared) {
    draw();
    if (!(await loadFrom(shared))) $("ed-paste").value = shared;
  } else {
    await example();
  }
}

main();
