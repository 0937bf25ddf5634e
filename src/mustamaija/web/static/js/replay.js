// The replay viewer: steps through a finished deal with every hand shown; exports and imports records.

import { api } from "./api.js";
import { SUIT_SIGNS, backEl, cardEl, sortHand, spoken, symbol } from "./cards.js";
import { describeAction } from "./describe.js";
import { $, el } from "./dom.js";


const view = { replay: null, index: 0, timer: null, fileName: "mustamaija-record.json" };

function names() {
  const r = view.replay;
  const raw = r.names || [];
  return Array.from({ length: r.players }, (_, s) => {
    const base = raw[s] || `Seat ${s + 1}`;
    return raw.filter((n) => n === raw[s]).length > 1 ? `${base} ${s + 1}` : base;
  });
}

function show(replay, title, fileName) {
  view.replay = replay;
  view.fileName = fileName;
  $("replay-title").textContent = title;
  $("btn-export").disabled = false;
  $("slider").max = String(replay.frames.length - 1);
  const list = $("action-list");
  list.replaceChildren();
  const who = names();
  replay.frames.forEach((f, i) => {
    const li = el("li");
    li.dataset.index = String(i);
    li.textContent = !f.action ? "The deal" : replay.game === "black-maria" ? `${i}. ${bmText(f, who)}`
      : `${i}. ${describeAction(stripSeat(f.action), who[f.action.seat], facts(i)).text}`;
    li.addEventListener("click", () => go(i));
    list.append(li);
  });
  document.body.dataset.frames = String(replay.frames.length);
  go(0);
}

/** Return a Black Maria action in words: "Ann passes 3♠ Q♥ 2♣" or "Ann plays Q♠". */
function bmText(f, who) {
  const a = f.action;
  return a.pass ? `${who[a.seat]} passes ${a.pass.map(symbol).join(" ")}` : `${who[a.seat]} plays ${symbol(a.play)}`;
}

/** Draw a Black Maria frame: the trick, hearts, points, and every hand (RULES.md Part 2). */
function renderBlackMaria(r, f, who) {
  $("frame-text").textContent = f.action ? bmText(f, who) + (f.finished && view.index === r.frames.length - 1
    ? `. Points: ${f.points.map((p, s) => `${who[s]} ${p}`).join(", ")}.` : "") : "The deal: every hand as dealt";
  for (const id of ["r-talon", "r-discard"]) $(id).replaceChildren();
  const marker = $("r-trump");
  marker.replaceChildren(el("span", "", f.hearts_broken ? "♥ hearts broken" : "♥ hearts not broken"));
  const box = $("r-battle");
  box.replaceChildren();
  const before = r.frames[view.index - 1];
  // A play that completes a trick clears it: show the finished trick from the frame before plus this card.
  let trick = f.trick;
  if (f.action && f.action.play && !f.trick.length && before) trick = [...before.trick, f.action.play];
  trick.forEach((c) => box.append(cardEl(c)));
  box.classList.toggle("empty-table", !trick.length);
  box.dataset.empty = f.phase === "pass" ? "Passing" : "No cards on the table";
  const hands = $("r-hands");
  hands.replaceChildren();
  f.hands.forEach((hand, seat) => {
    const row = el("div", "replay-seat");
    if (f.to_act === seat) row.classList.add("to-act");
    const head = el("div");
    head.append(el("strong", "", who[seat]));
    head.append(el("div", "muted", `${hand.length} cards · ${f.tricks[seat]} tricks · ${f.points[seat]} points`));
    if (f.passed[seat]) head.append(el("div", "muted", `passed ${f.passed[seat].map(symbol).join(" ")}`));
    const cards = el("div", "cards");
    sortHand(hand, null).forEach((c) => cards.append(cardEl(c)));
    row.append(head, cards);
    hands.append(row);
  });
}

function stripSeat(action) {
  const copy = { ...action };
  delete copy.seat;
  return copy;
}

/** Return the public facts of frame i's action: the cards picked up, the trump turned. */
function facts(i) {
  const frames = view.replay.frames;
  const f = frames[i];
  const before = frames[i - 1];
  const out = {};
  if (f.action && f.action.beat && before) out.taken = before.table.map((t) => t.led).filter((c) => !(c in f.action.beat));
  if (f.action && f.action.lead && before && !before.trump_card && f.trump_card) out.turned = f.trump_card;
  return out;
}

function go(i) {
  const frames = view.replay.frames;
  view.index = Math.max(0, Math.min(frames.length - 1, i));
  render();
}

function pile(box, count, label, faceUp = null) {
  box.replaceChildren();
  const stack = el("div", "stack");
  if (faceUp) {
    stack.classList.add("with-trump");
    stack.append(cardEl(faceUp, { classes: ["trump-card"] }));
  }
  if (count > (faceUp ? 1 : 0)) stack.append(backEl());
  box.classList.toggle("empty", count === 0);
  box.append(stack, el("span", "count", String(count)), el("span", "", label));
}

function render() {
  const r = view.replay;
  const f = r.frames[view.index];
  const who = names();
  $("slider").value = String(view.index);
  $("counter").textContent = `${view.index} / ${r.frames.length - 1}`;
  document.body.dataset.index = String(view.index);
  if (r.game === "black-maria") {
    renderBlackMaria(r, f, who);
    markCurrent();
    return;
  }
  const text = f.action ? describeAction(stripSeat(f.action), who[f.action.seat], facts(view.index)).text : "The deal: every hand as dealt";
  $("frame-text").textContent = f.phase === "over" && view.index === r.frames.length - 1
    ? `${text}. ${f.stopped ? "The deal was stopped unfinished." : `${who[f.loser]} is left holding Maija.`}`
    : text;
  const bottom = f.trump_card && f.talon.length && f.talon[f.talon.length - 1] === f.trump_card ? f.trump_card : null;
  pile($("r-talon"), f.talon.length, "talon", bottom);
  pile($("r-discard"), f.discard.length, "discarded");
  const trump = $("r-trump");
  trump.replaceChildren();
  if (f.trump_suit) {
    trump.append(el("span", "", "Trumps"), el("span", `chip suit-${f.trump_suit}`, SUIT_SIGNS[f.trump_suit]));
    if (f.declarer != null) trump.append(el("span", "muted", `marriage of ${who[f.declarer]}`));
    else if (f.trump_card) trump.append(el("span", "muted", `${symbol(f.trump_card)} turned`));
  } else trump.append(el("span", "muted", "No trumps yet"));
  renderBattle(f);
  renderHands(f, who);
  markCurrent();
}

function markCurrent() {
  const list = $("action-list");
  for (const li of list.children) {
    const current = Number(li.dataset.index) === view.index;
    li.classList.toggle("current", current);
    // Scroll the list only, never the page.
    if (current && (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight)) {
      list.scrollTop = li.offsetTop - list.clientHeight / 2;
    }
  }
}

function renderBattle(f) {
  const box = $("r-battle");
  box.replaceChildren();
  const before = view.replay.frames[view.index - 1];
  let fights = f.table.map((t) => [t.led, t.beater]);
  let taken = new Set();
  // Right after a defence the table is cleared: show what beat what from the action itself.
  if (f.action && f.action.beat && before) {
    fights = before.table.map((t) => [t.led, f.action.beat[t.led] || null]);
    taken = new Set(fights.filter(([, b]) => !b).map(([l]) => l));
  }
  for (const [led, beater] of fights) {
    const fight = el("div", "fight");
    fight.append(cardEl(led, { classes: ["led"] }));
    if (beater) fight.append(cardEl(beater, { classes: ["beater"], label: `${spoken(beater)} beats ${spoken(led)}` }));
    if (taken.has(led)) fight.append(el("span", "tag", "picked up"));
    box.append(fight);
  }
  if (!fights.length) {
    box.classList.add("empty-table");
    box.dataset.empty = "No cards on the table";
  } else box.classList.remove("empty-table");
}

function renderHands(f, who) {
  const box = $("r-hands");
  box.replaceChildren();
  f.hands.forEach((hand, seat) => {
    const row = el("div", "replay-seat");
    if (f.to_act === seat) row.classList.add("to-act");
    const head = el("div");
    head.append(el("strong", "", who[seat]));
    const badges = el("div", "badges");
    badges.style.justifyContent = "flex-start";
    if (f.phase !== "over" && f.attacker === seat) badges.append(el("span", "badge attack", "attacks"));
    if (f.phase !== "over" && f.defender === seat) badges.append(el("span", "badge defend", "defends"));
    if (f.out.includes(seat)) badges.append(el("span", "badge out", "out"));
    if (f.loser === seat) badges.append(el("span", "badge loser", "Mustamaija"));
    head.append(el("div", "muted", `${hand.length} card${hand.length === 1 ? "" : "s"}`), badges);
    const cards = el("div", "cards");
    sortHand(hand, f.trump_suit).forEach((c) => cards.append(cardEl(c)));
    row.append(head, cards);
    box.append(row);
  });
}

function exportRecord() {
  const blob = new Blob([`${JSON.stringify(view.replay.record, null, 2)}\n`], { type: "application/json" });
  const a = el("a");
  a.href = URL.createObjectURL(blob);
  a.download = view.fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function importText(text, label) {
  $("import-error").textContent = "";
  let record;
  try {
    record = JSON.parse(text);
  } catch (e) {
    $("import-error").textContent = `${label} is not JSON: ${e.message}`;
    return;
  }
  try {
    const replay = await api("/api/replay", { method: "POST", body: record });
    show(replay, `Imported record · ${label}`, label.endsWith(".json") ? label : "mustamaija-record.json");
  } catch (e) {
    $("import-error").textContent = `${label}: ${e.message}`;
  }
}

function togglePlay() {
  if (view.timer) {
    clearInterval(view.timer);
    view.timer = null;
    $("play").textContent = "▶ Play";
    $("play").setAttribute("aria-label", "Play");
    return;
  }
  $("play").textContent = "❚❚ Pause";
  $("play").setAttribute("aria-label", "Pause");
  view.timer = setInterval(() => {
    if (!view.replay || view.index >= view.replay.frames.length - 1) togglePlay();
    else go(view.index + 1);
  }, 900);
}

async function loadTableDeal(tableId, deal) {
  $("import-panel").hidden = true;
  const back = $("back-to-table");
  back.hidden = false;
  back.href = `/t/${tableId}`;
  try {
    const replay = await api(`/api/tables/${encodeURIComponent(tableId)}/deals/${deal}/replay`);
    const game = replay.game === "black-maria" ? "black-maria" : "mustamaija";
    show(replay, `Table ${tableId.slice(0, 6)} · ${game === "black-maria" ? "hand" : "deal"} ${deal}`, `${game}-${tableId}-deal-${deal}.json`);
  } catch (e) {
    $("frame-text").textContent = `This deal cannot be shown: ${e.message}`;
    $("import-panel").hidden = false;
  }
  try {
    const { deals } = await api(`/api/tables/${encodeURIComponent(tableId)}/deals`);
    const links = $("deal-links");
    links.replaceChildren();
    for (const d of deals.filter((x) => x.finished)) {
      const a = el("a", `button small ${d.deal === deal ? "primary" : ""}`, `Deal ${d.deal}`);
      a.href = `/replay/${tableId}/${d.deal}`;
      links.append(a);
    }
    $("deals-panel").hidden = !links.childElementCount;
  } catch {
    /* The list is a convenience; the deal itself is shown. */
  }
}

function init() {
  $("first").addEventListener("click", () => view.replay && go(0));
  $("prev").addEventListener("click", () => view.replay && go(view.index - 1));
  $("next").addEventListener("click", () => view.replay && go(view.index + 1));
  $("last").addEventListener("click", () => view.replay && go(view.replay.frames.length - 1));
  $("play").addEventListener("click", togglePlay);
  $("slider").addEventListener("input", (e) => view.replay && go(Number(e.target.value)));
  $("btn-export").addEventListener("click", exportRecord);
  $("record-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) importText(await file.text(), file.name);
  });
  const zone = $("drop-zone");
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", async (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    const file = e.dataTransfer.files[0];
    if (file) importText(await file.text(), file.name);
  });
  $("record-go").addEventListener("click", () => importText($("record-text").value, "the pasted record"));
  document.addEventListener("keydown", (e) => {
    if (!view.replay || e.target.closest("input, textarea, select")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) go(view.index + moves[e.key]);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(view.replay.frames.length - 1);
    else if (e.key === " ") togglePlay();
    else return;
    e.preventDefault();
  });
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts.length === 3 && parts[0] === "replay") {
    loadTableDeal(decodeURIComponent(parts[1]), Number(parts[2]));
  } else {
    const pending = sessionStorage.getItem("mustamaija:import");
    if (pending) {
      sessionStorage.removeItem("mustamaija:import");
      importText(pending, "the imported record");
    } else $("frame-text").textContent = "Import a record to view it.";
  }
}

init();
