// The lobby: create a table, list open tables and games in play, join or watch, import a record.

import { api, loadSeat, saveName, saveSeat, savedName, seatLink } from "./api.js";
import { SUIT_SIGNS, cardEl } from "./cards.js";
import { $ } from "./dom.js";

const RULE_KEYS = ["hand_size", "trump", "trump_suit", "trump_turn", "spades_can_be_trump", "attack_limit", "max_lead", "next_dealer"];
const PRESET_LABELS = {
  standard: "Standard (McLeod)",
  wikipedia: "Wikipedia",
  french: "French sheet",
  "kurki-suonio": "Kurki-Suonio, 3 cards",
  "kurki-suonio-marriage": "Kurki-Suonio, marriage",
  salmi: "Salmi, 6 cards",
  custom: "Custom rules",
};
const FALLBACK_LEVELS = [
  { level: "easy", label: "easy · random" },
  { level: "medium", label: "medium · heuristic" },
  { level: "hard", label: "hard · search 0.5 s" },
  { level: "expert", label: "expert · search 2 s" },
];

const BM_FALLBACK_LEVELS = [
  { level: "easy", label: "random legal cards" },
  { level: "medium", label: "the strategy notes of RULES.md" },
  { level: "hard", label: "Monte Carlo search over sampled deals" },
];

let presets = {};
let bmLevels = BM_FALLBACK_LEVELS;
let levels = FALLBACK_LEVELS;
let botSpecs = [];
const seatChoices = [];

function ruleInputs() {
  const out = {};
  for (const key of RULE_KEYS) out[key] = $(`r-${key}`);
  return out;
}

/** Return the rules as chosen in the form (every key). */
function formRules() {
  const inputs = ruleInputs();
  const maxLead = inputs.max_lead.value.trim();
  return {
    hand_size: Number(inputs.hand_size.value),
    trump: inputs.trump.value,
    trump_suit: inputs.trump_suit.value,
    trump_turn: inputs.trump_turn.value,
    spades_can_be_trump: inputs.spades_can_be_trump.checked,
    attack_limit: inputs.attack_limit.value,
    max_lead: maxLead === "" ? null : Number(maxLead),
    next_dealer: inputs.next_dealer.value,
  };
}

function fillRules(rules) {
  const inputs = ruleInputs();
  for (const key of RULE_KEYS) {
    const value = rules[key];
    if (key === "spades_can_be_trump") inputs[key].checked = Boolean(value);
    else if (key === "max_lead") inputs[key].value = value == null ? "" : String(value);
    else if (value !== undefined) inputs[key].value = String(value);
  }
}

function sameRules(a, b) {
  return RULE_KEYS.every((k) => (a[k] ?? null) === (b[k] ?? null));
}

/** Return a one-line summary of rules, as the engine's describe(). */
function rulesSummary(r) {
  const parts = [`${r.hand_size} cards`];
  if (r.trump === "turned") parts.push(`trump turned ${r.trump_turn === "after_deal" ? "after the deal" : "after the first lead"}`
    + (r.spades_can_be_trump ? ", spades may be trumps" : ""));
  else if (r.trump === "fixed") parts.push(`${SUIT_SIGNS[r.trump_suit]} always trumps`);
  else if (r.trump === "marriage") parts.push("trumps by marriage");
  else parts.push("no trumps");
  parts.push(r.attack_limit === "always" ? "lead limit always" : "lead limit once the talon is empty");
  if (r.max_lead) parts.push(`at most ${r.max_lead} a lead`);
  if (r.next_dealer === "loser") parts.push("loser deals next");
  return parts.join(", ");
}

function isBlackMaria() {
  return $("game").value === "black-maria";
}

function maxPlayers() {
  if (isBlackMaria()) return 7;
  return Number($("r-hand_size").value) === 5 ? 6 : 8;
}

/** Show the options of the chosen game: Mustamaija's rules and match, or Black Maria's (3-7 players, B7, B8). */
function onGame() {
  const bm = isBlackMaria();
  $("bm-options").hidden = !bm;
  for (const id of ["preset", "match-kind", "match-count"]) $(id).closest("label").hidden = bm;
  $("rules-summary").hidden = bm;
  $("rule-options").hidden = bm;
  refreshPlayers();
}

function refreshPlayers() {
  const select = $("players");
  const keep = Number(select.value) || 4;
  const top = maxPlayers();
  select.replaceChildren();
  for (let n = isBlackMaria() ? 3 : 2; n <= top; n++) select.add(new Option(`${n} players`, String(n)));
  select.value = String(Math.max(Math.min(keep, top), isBlackMaria() ? 3 : 2));
  refreshSeats();
}

function refreshSummary() {
  $("rules-summary").textContent = rulesSummary(formRules());
}

function levelOptions(select, chosen) {
  select.replaceChildren();
  if (isBlackMaria()) {
    for (const l of bmLevels) select.add(new Option(`Bot: ${l.level} · ${l.label}`, `bot:${l.level}`));
  } else {
    for (const l of levels) select.add(new Option(`Bot: ${l.label}`, `bot:${l.level}`));
    for (const spec of botSpecs) select.add(new Option(`Bot: ${spec}`, `bot:${spec}`));
  }
  select.add(new Option("Open seat for a friend", "person"));
  select.value = chosen;
}

function refreshSeats() {
  const n = Number($("players").value);
  const rows = $("seat-rows");
  while (seatChoices.length < n) seatChoices.push(seatChoices.length === 0 ? "you" : "bot:medium");
  rows.replaceChildren();
  for (let s = 0; s < n; s++) {
    const row = document.createElement("div");
    row.className = "seat-row";
    const no = document.createElement("span");
    no.className = "seat-no";
    no.textContent = `Seat ${s + 1}`;
    row.append(no);
    if (s === 0) {
      const you = document.createElement("span");
      you.textContent = "You";
      row.append(you);
    } else {
      const select = document.createElement("select");
      select.id = `seat-${s}`;
      select.setAttribute("aria-label", `Seat ${s + 1}`);
      levelOptions(select, seatChoices[s]);
      if (select.value !== seatChoices[s]) select.value = "bot:medium";
      select.addEventListener("change", () => { seatChoices[s] = select.value; });
      row.append(select);
    }
    rows.append(row);
  }
}

function onPreset() {
  const name = $("preset").value;
  if (presets[name]) fillRules(presets[name]);
  refreshPlayers();
  refreshSummary();
}

function onRuleChange() {
  const rules = formRules();
  const match = Object.keys(presets).find((name) => sameRules(presets[name], rules));
  $("preset").value = match || "custom";
  refreshPlayers();
  refreshSummary();
}

function createBody() {
  const n = Number($("players").value);
  const name = $("player-name").value.trim();
  const seats = [{ kind: "person" }];
  for (let s = 1; s < n; s++) {
    const choice = seatChoices[s] || "bot:medium";
    seats.push(choice === "person" ? { kind: "person" } : { kind: "bot", bot: choice.slice(4) });
  }
  if (isBlackMaria()) {
    const end = $("bm-end").value;
    const body = {
      game: "black-maria",
      players: n,
      seats,
      rules: { allow_renege: $("bm-renege").checked, hands: null, target_score: null },
      private: document.querySelector('input[name="visibility"]:checked').value === "private",
      hints: $("hints").checked,
      sit: true,
      player_name: name || "Player",
    };
    body.rules[end] = Number($("bm-count").value) || (end === "hands" ? 1 : 50);
    const takeover = $("takeover").value.trim();
    if (takeover !== "") body.takeover_after = Number(takeover);
    const tableName = $("table-name").value.trim();
    if (tableName) body.name = tableName;
    return body;
  }
  const preset = $("preset").value;
  const count = Number($("match-count").value) || 1;
  const body = {
    players: n,
    seats,
    private: document.querySelector('input[name="visibility"]:checked').value === "private",
    hints: $("hints").checked,
    sit: true,
    player_name: name || "Player",
  };
  const takeover = $("takeover").value.trim();
  if (takeover !== "") body.takeover_after = Number(takeover);
  if (preset !== "custom") body.preset = preset;
  else body.rules = formRules();
  if ($("match-kind").value === "deals") body.deals = count;
  else {
    body.deals = null;
    body.max_losses = count;
  }
  const tableName = $("table-name").value.trim();
  if (tableName) body.name = tableName;
  return body;
}

async function onCreate(event) {
  event.preventDefault();
  const button = $("create");
  $("create-error").textContent = "";
  button.disabled = true;
  try {
    const name = $("player-name").value.trim();
    if (name) saveName(name);
    const answer = await api("/api/tables", { method: "POST", body: createBody() });
    const id = answer.table.id;
    saveSeat(id, answer.seat, answer.token);
    const free = answer.table.seats.some((s) => s.kind === "person" && !s.taken);
    if (free) {
      // Friends are invited by the table's plain link; they take a free seat from there.
      $("invite").hidden = false;
      $("invite-link").value = `${location.origin}/t/${id}`;
      $("go-table").href = `/t/${id}`;
      $("invite-link").select();
      button.disabled = false;
      loadTables();
      return;
    }
    location.assign(`/t/${id}`);
  } catch (e) {
    $("create-error").textContent = e.message;
    button.disabled = false;
  }
}

function seatPills(meta) {
  const pills = document.createElement("div");
  pills.className = "seat-pills";
  for (const seat of meta.seats) {
    const pill = document.createElement("span");
    const free = seat.kind === "person" && !seat.taken;
    pill.className = `pill ${free ? "free" : seat.kind === "bot" ? "bot" : ""}`;
    pill.textContent = free ? `seat ${seat.seat + 1}: free` : seat.name || "player";
    pills.append(pill);
  }
  return pills;
}

function tableItem(meta, { join }) {
  const li = document.createElement("li");
  li.className = "table-item";
  li.dataset.table = meta.id;
  const info = document.createElement("div");
  const title = document.createElement("strong");
  title.textContent = meta.name || `Table ${meta.id.slice(0, 6)}`;
  const sub = document.createElement("div");
  sub.className = "meta";
  const bm = meta.game === "black-maria";
  const length = bm ? (meta.match.hands ? `${meta.match.hands} hands` : `to ${meta.match.target_score} points`)
    : meta.match.max_losses ? `to ${meta.match.max_losses} losses` : `${meta.match.deals} deals`;
  sub.textContent = `${meta.players} players · ${bm ? "Black Maria" : meta.preset || "custom"} · ${length}`
    + (meta.status === "playing" ? ` · deal ${meta.match.played + 1}` : "");
  info.append(title, sub);
  const actions = document.createElement("div");
  actions.className = "actions";
  const mine = loadSeat(meta.id);
  if (mine) {
    const back = document.createElement("a");
    back.className = "button primary small";
    back.href = `/t/${meta.id}`;
    back.textContent = "Back to your seat";
    actions.append(back);
  } else if (join && meta.seats.some((s) => s.kind === "person" && !s.taken)) {
    const b = document.createElement("button");
    b.className = "primary small";
    b.type = "button";
    b.textContent = "Join";
    b.addEventListener("click", () => joinTable(meta.id, b));
    actions.append(b);
  }
  const watch = document.createElement("a");
  watch.className = "button small";
  watch.href = `/t/${meta.id}`;
  watch.textContent = "Watch";
  actions.append(watch);
  li.append(info, actions, seatPills(meta));
  return li;
}

async function joinTable(id, button) {
  button.disabled = true;
  try {
    const name = $("player-name").value.trim() || savedName() || "Player";
    const answer = await api(`/api/tables/${id}/join`, { method: "POST", body: { name } });
    saveSeat(id, answer.seat, answer.token);
    location.assign(`/t/${id}`);
  } catch (e) {
    button.disabled = false;
    $("create-error").textContent = `Cannot join: ${e.message}`;
  }
}

function fillList(list, tables, opts, emptyText) {
  list.replaceChildren();
  if (!tables.length) {
    const li = document.createElement("li");
    li.className = "empty-note";
    li.textContent = emptyText;
    list.append(li);
    return;
  }
  for (const meta of tables) list.append(tableItem(meta, opts));
}

async function loadTables() {
  try {
    const answer = await api("/api/tables");
    fillList($("open-tables"), answer.open, { join: true }, "No table is waiting for players. Create one!");
    fillList($("running-tables"), answer.running, { join: false }, "No game in play right now.");
  } catch (e) {
    $("open-tables").textContent = e.message;
  }
}

function myTables() {
  const ids = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("mustamaija:seat:")) ids.push(key.slice("mustamaija:seat:".length));
    }
  } catch {
    return;
  }
  if (!ids.length) return;
  $("mine-panel").hidden = false;
  const list = $("my-tables");
  list.replaceChildren();
  for (const id of ids.slice(0, 12)) {
    const li = document.createElement("li");
    li.className = "table-item";
    const a = document.createElement("a");
    a.href = `/t/${id}`;
    a.textContent = `Table ${id.slice(0, 6)} · seat ${loadSeat(id).seat + 1}`;
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "small ghost";
    copy.textContent = "Copy seat link";
    copy.title = "Open this link on another device to sit there";
    copy.addEventListener("click", () => {
      const s = loadSeat(id);
      navigator.clipboard?.writeText(seatLink(id, s.seat, s.token));
      copy.textContent = "Copied";
    });
    li.append(a, copy);
    list.append(li);
  }
}

function importRecord(file) {
  const reader = new FileReader();
  reader.onload = () => {
    try {
      JSON.parse(String(reader.result));
    } catch (e) {
      $("import-error").textContent = `${file.name} is not JSON: ${e.message}`;
      return;
    }
    sessionStorage.setItem("mustamaija:import", String(reader.result));
    location.assign("/replay#import");
  };
  reader.readAsText(file);
}

async function init() {
  const fan = $("hero-fan");
  for (const c of ["AH", "KC", "QS", "7D"]) fan.append(cardEl(c));
  $("player-name").value = savedName();
  try {
    presets = (await api("/api/presets")).presets;
  } catch {
    presets = {};
  }
  for (const name of [...Object.keys(presets), "custom"]) $("preset").add(new Option(PRESET_LABELS[name] || name, name));
  try {
    const bots = await api("/api/bots");
    levels = bots.levels;
    botSpecs = bots.bots.filter((b) => b !== "open-hand" && !levels.some((l) => l.spec === b));
    if (bots.black_maria) bmLevels = bots.black_maria.levels;
  } catch {
    levels = FALLBACK_LEVELS;
  }
  $("preset").value = presets.standard ? "standard" : "custom";
  $("preset").addEventListener("change", onPreset);
  for (const input of Object.values(ruleInputs())) input.addEventListener("change", onRuleChange);
  $("players").addEventListener("change", refreshSeats);
  $("game").addEventListener("change", onGame);
  $("bm-end").addEventListener("change", () => {
    const hands = $("bm-end").value === "hands";
    $("bm-count-label").textContent = hands ? "Hands" : "Target score";
    $("bm-count").value = hands ? "4" : "50";
  });
  $("match-kind").addEventListener("change", () => {
    const deals = $("match-kind").value === "deals";
    $("match-count-label").textContent = deals ? "Deals" : "Losses that end the match";
    $("match-count").value = deals ? "5" : "3";
  });
  $("create-form").addEventListener("submit", onCreate);
  $("refresh").addEventListener("click", loadTables);
  $("copy-invite").addEventListener("click", () => {
    navigator.clipboard?.writeText($("invite-link").value);
    $("copy-invite").textContent = "Copied";
  });
  const zone = $("drop-zone");
  $("record-file").addEventListener("change", (e) => e.target.files[0] && importRecord(e.target.files[0]));
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer.files[0]) importRecord(e.dataTransfer.files[0]);
  });
  onPreset();
  refreshPlayers();
  const players = $("players");
  players.value = "4";
  refreshSeats();
  myTables();
  loadTables();
  setInterval(loadTables, 5000);
  document.body.dataset.ready = "1";
}

init();
