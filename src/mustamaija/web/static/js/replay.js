// The replay viewer of every game: steps through a finished deal with every hand shown; exports and imports records.
// The table of each frame is drawn by the layout the replay names (js/layouts/<layout>.js, its `replay` part).

import { api } from "./api.js";
import { cardEl, sortHand } from "./cards.js";
import { $, el } from "./dom.js";
import { layoutModule } from "./layouts.js";
import * as motion from "./motion.js";
import { mountSettings, onChange } from "./settings.js";
import * as sound from "./sound.js";
import { offerReview } from "./review.js";

const view = { replay: null, layout: null, index: 0, timer: null, fileName: "record.json" };
function names() {
  const r = view.replay;
  const raw = r.names || [];
  return Array.from({ length: r.players }, (_, s) => {
    const base = raw[s] || `Seat ${s}`;
    return raw.filter((n) => n === raw[s]).length > 1 ? `${base} (seat ${s})` : base;
  });
}

async function show(replay, title, fileName) {
  view.layout = (await layoutModule(replay.layout)).replay;
  view.replay = replay;
  view.fileName = fileName;
  $("replay-title").textContent = `${replay.title} · ${title}`;
  document.title = `${replay.title} · replay`;
  $("btn-export").disabled = false;
  $("slider").max = String(replay.frames.length - 1);
  const list = $("action-list");
  list.replaceChildren();
  const who = names();
  replay.frames.forEach((f, i) => {
    const li = el("li");
    li.dataset.index = String(i);
    li.textContent = f.action ? `${i}. ${view.layout.actionText(replay.frames, i, who)}` : "The deal";
    li.addEventListener("click", () => go(i));
    list.append(li);
  });
  document.body.dataset.frames = String(replay.frames.length);
  go(0);
}

function go(i) {
  const frames = view.replay.frames;
  const next = Math.max(0, Math.min(frames.length - 1, i));
  // One step moves the cards it plays; a jump redraws at once, as a hundred cards flying would say nothing.
  const step = Math.abs(next - view.index) === 1;
  view.index = next;
  render({ still: !step });
  if (step && next > 0) sound.play("card");
}

function render({ still = true } = {}) {
  const snap = still ? null : motion.capture("#r-table, #r-hands");
  const r = view.replay;
  const frames = r.frames;
  const f = frames[view.index];
  const who = names();
  $("slider").value = String(view.index);
  $("counter").textContent = `${view.index} / ${frames.length - 1}`;
  document.body.dataset.index = String(view.index);
  const text = f.action ? view.layout.actionText(frames, view.index, who) : "The deal: every hand as dealt";
  const last = f.phase === "over" && view.index === frames.length - 1;
  $("frame-text").textContent = last ? `${text}. ${view.layout.endText(f, who)}` : text;
  const table = $("r-table");
  table.replaceChildren();
  view.layout.renderTable(table, frames, view.index, who);
  renderHands(f, who);
  markCurrent();
  motion.play(snap);
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

function renderHands(f, who) {
  const box = $("r-hands");
  box.replaceChildren();
  f.hands.forEach((hand, seat) => {
    const row = el("div", "replay-seat");
    if (f.to_act === seat) row.classList.add("to-act");
    const { text, badges, trump } = view.layout.seatInfo(f, seat);
    const head = el("div");
    head.append(el("strong", "", who[seat]), el("div", "muted", text));
    if (badges.length) {
      const marks = el("div", "badges");
      marks.style.justifyContent = "flex-start";
      marks.append(...badges);
      head.append(marks);
    }
    const cards = el("div", "cards");
    sortHand(hand, trump).forEach((c) => cards.append(cardEl(c)));
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
    await show(replay, `imported record · ${label}`, label.endsWith(".json") ? label : `${replay.game}-record.json`);
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
  $("frame-text").textContent = "Loading the deal…";
  const back = $("back-to-table");
  back.hidden = false;
  back.href = `/t/${tableId}`;
  let title = `Table ${tableId.slice(0, 6)}`;
  let deals = [];
  try {
    const [{ table }, listed] = await Promise.all([api(`/api/tables/${encodeURIComponent(tableId)}`),
      api(`/api/tables/${encodeURIComponent(tableId)}/deals`)]);
    if (table.name) title = table.name;
    deals = listed.deals;
  } catch (e) {
    // The name and the list are a convenience; the deal itself is shown. A table that is not there has no
    // page to go back to.
    if (e.code === "not_found") back.hidden = true;
  }
  const label = dealLabel(deals, deal);
  try {
    const replay = await api(`/api/tables/${encodeURIComponent(tableId)}/deals/${deal}/replay`);
    await show(replay, `${title} · ${label}`, `${replay.game}-${tableId}-deal-${deal}.json`);
    offerReview(api, tableId, deal);
  } catch (e) {
    $("frame-text").textContent = `This deal cannot be shown: ${e.message}`;
    $("import-panel").hidden = false;
  }
  const links = $("deal-links");
  links.replaceChildren();
  for (const d of deals.filter((x) => x.finished)) {
    const a = el("a", `button small ${d.deal === deal ? "primary" : ""}`, dealLabel(deals, d.deal));
    a.href = `/replay/${tableId}/${d.deal}`;
    links.append(a);
  }
  $("deals-panel").hidden = !links.childElementCount;
}

/** Return a deal's name as the table page counts deals: within its match ("match 2, deal 1" after a rematch). */
function dealLabel(deals, number) {
  const d = deals.find((x) => x.deal === number);
  if (!d) return `deal ${number}`;
  const inMatch = deals.filter((x) => x.match === d.match && x.deal <= number).length;
  return deals.some((x) => x.match !== d.match) ? `match ${d.match}, deal ${inMatch}` : `deal ${inMatch}`;
}

function init() {
  mountSettings($("btn-settings"), { testSound: () => { sound.unlock(); sound.play("card"); } });
  onChange(() => { if (view.replay) render(); });
  window.mustamaija = { motion: motion.stats, sound: sound.stats }; // For the browser test.
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
    if (!view.replay || e.target.closest("input, textarea, select, dialog")) return;
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
