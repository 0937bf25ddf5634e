// The lobby: choose a game, set a table (players, rules, bots, match length), list open tables and games in play,
// join or watch, import a record. Every game's options come from the server's registry (GET /api/games).

import { api, describeSeat, loadSeat, saveName, saveSeat, savedName, seatLink } from "./api.js";
import { cardEl } from "./cards.js";
import { $, el } from "./dom.js";
import { seatFields, signIn, signOut, signedIn } from "./player.js";
import "./settings.js"; // The player's suit colours hold here too.

const lobby = { games: [], game: null, seatChoices: [] };
let summaryTimer = null;

/** Return the chosen game's lobby form (from its web renderer). */
function form() {
  return lobby.game.lobby;
}

function ruleInput(key) {
  return $(`r-${key}`);
}

/** Return the rules as chosen in the form: every field of the game's form. */
function formRules() {
  const out = {};
  for (const field of form().rules) {
    const input = ruleInput(field.key);
    if (field.check) out[field.key] = input.checked;
    else if (field.number) out[field.key] = input.value.trim() === "" ? null : Number(input.value);
    else {
      const choice = field.choices.find(([value]) => String(value) === input.value);
      out[field.key] = choice ? choice[0] : input.value;
    }
  }
  return out;
}

function fillRules(rules) {
  for (const field of form().rules) {
    const input = ruleInput(field.key);
    const value = rules[field.key];
    if (field.check) input.checked = Boolean(value);
    else input.value = value == null ? "" : String(value);
  }
}

/** Return the keys of the form whose value differs from the preset's. */
function changedRules(preset) {
  const base = lobby.game.presets[preset] || {};
  const rules = formRules();
  return Object.fromEntries(Object.entries(rules).filter(([k, v]) => (base[k] ?? null) !== (v ?? null)));
}

/** Draw the game's rule fields: choices, numbers and checkboxes as its form describes them. */
function buildRuleFields() {
  const box = $("rule-fields");
  box.replaceChildren();
  for (const field of form().rules) {
    const label = el("label", field.check ? "check" : "field");
    if (field.check) {
      const input = el("input");
      input.type = "checkbox";
      input.id = `r-${field.key}`;
      label.append(input, ` ${field.label}`);
    } else if (field.number) {
      const input = el("input");
      input.type = "number";
      input.id = `r-${field.key}`;
      [input.min, input.max] = field.number.map(String);
      input.placeholder = field.blank || "";
      label.append(el("span", "", field.label), input);
    } else {
      const select = el("select");
      select.id = `r-${field.key}`;
      for (const [value, text] of field.choices) select.add(new Option(text, String(value)));
      label.append(el("span", "", field.label), select);
    }
    box.append(label);
  }
  for (const field of form().rules) ruleInput(field.key).addEventListener("change", onRuleChange);
  $("rule-options").hidden = !form().rules.length;
}

/** Show the chosen game's options: players, presets, rules, match length and the bots of every seat. */
function onGame() {
  lobby.game = lobby.games.find((g) => g.name === $("game").value) || lobby.games[0];
  const g = lobby.game;
  const preset = $("preset");
  preset.replaceChildren();
  const names = Object.keys(g.presets);
  for (const name of names) preset.add(new Option(form().preset_labels[name] || name, name));
  if (form().rules.length) preset.add(new Option("Custom rules", "custom"));
  $("preset-field").hidden = names.length < 2;
  buildRuleFields();
  const kind = $("match-kind");
  kind.replaceChildren();
  for (const end of form().ends) kind.add(new Option(end.label, end.key));
  onMatchKind();
  const players = $("players");
  const keep = Number(players.value) || g.default_players;
  players.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) players.add(new Option(`${n} players`, String(n)));
  players.value = String(Math.max(g.min_players, Math.min(keep, g.max_players)));
  $("hints").disabled = !g.hints;
  onPreset();
}

function onMatchKind() {
  const end = form().ends.find((e) => e.key === $("match-kind").value) || form().ends[0];
  $("match-count-label").textContent = end.count;
  $("match-count").value = String(end.default);
}

function onPreset() {
  const name = $("preset").value;
  if (lobby.game.presets[name]) fillRules(lobby.game.presets[name]);
  refreshSummary();
  refreshSeats();
}

function onRuleChange() {
  const rules = formRules();
  const same = Object.keys(lobby.game.presets).find((name) => Object.keys(rules).every(
    (k) => (lobby.game.presets[name][k] ?? null) === (rules[k] ?? null)));
  $("preset").value = same || "custom";
  refreshSummary();
}

/** Show the rules in words: the preset's, or the server's summary of the rules as changed (with any error). */
function refreshSummary() {
  const name = $("preset").value;
  const g = lobby.game;
  if (g.preset_texts[name] !== undefined) {
    $("rules-summary").textContent = g.preset_texts[name] || "";
    return;
  }
  clearTimeout(summaryTimer);
  summaryTimer = setTimeout(async () => {
    const base = Object.keys(g.presets)[0];
    try {
      const answer = await api("/api/rules", { method: "POST", body: { game: g.name, preset: base, rules: changedRules(base) } });
      $("rules-summary").textContent = answer.text || "";
    } catch (e) {
      $("rules-summary").textContent = e.message;
    }
  }, 150);
}

function levelOptions(select, chosen) {
  select.replaceChildren();
  const g = lobby.game;
  for (const l of g.levels) select.add(new Option(`Bot: ${l.label}`, `bot:${l.level}`));
  for (const spec of g.bots.filter((b) => !g.levels.some((l) => l.spec === b))) {
    select.add(new Option(`Bot: ${spec}`, `bot:${spec}`));
  }
  select.add(new Option("Open seat for a friend", "person"));
  select.value = chosen;
  if (select.value !== chosen) select.value = "bot:medium";
}

function refreshSeats() {
  const n = Number($("players").value);
  const rows = $("seat-rows");
  while (lobby.seatChoices.length < n) lobby.seatChoices.push(lobby.seatChoices.length === 0 ? "you" : "bot:medium");
  rows.replaceChildren();
  for (let s = 0; s < n; s++) {
    const row = el("div", "seat-row");
    row.append(el("span", "seat-no", `Seat ${s}`));
    if (s === 0) {
      row.append(el("span", "", "You"));
    } else {
      const select = el("select");
      select.id = `seat-${s}`;
      select.setAttribute("aria-label", `Seat ${s}`);
      levelOptions(select, lobby.seatChoices[s]);
      select.addEventListener("change", () => { lobby.seatChoices[s] = select.value; });
      row.append(select);
    }
    rows.append(row);
  }
}

function createBody() {
  const g = lobby.game;
  const n = Number($("players").value);
  const name = $("player-name").value.trim();
  const seats = [{ kind: "person" }];
  for (let s = 1; s < n; s++) {
    const choice = $(`seat-${s}`).value;
    seats.push(choice === "person" ? { kind: "person" } : { kind: "bot", bot: choice.slice(4) });
  }
  const chosen = $("preset").value;
  const preset = g.presets[chosen] ? chosen : Object.keys(g.presets)[0];
  const body = {
    game: g.name,
    players: n,
    seats,
    preset,
    rules: changedRules(preset),
    private: document.querySelector('input[name="visibility"]:checked').value === "private",
    hints: $("hints").checked,
    sit: true,
    player_name: name || "Player",
    ...seatFields("player_name"), // A signed-in name sits as itself, with its key: the seat is rated.
  };
  // The match ends at the chosen end (deals, losses, hands or a score): the other ends are off.
  const count = Number($("match-count").value) || 1;
  for (const end of form().ends) {
    const value = end.key === $("match-kind").value ? count : null;
    if (end.in === "rules") body.rules[end.key] = value;
    else body[end.key] = value;
  }
  const takeover = $("takeover").value.trim();
  if (takeover !== "") body.takeover_after = Number(takeover);
  const clock = $("turn-seconds").value.trim();
  if (clock !== "") body.turn_seconds = Number(clock);
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
    if (name && !signedIn()) saveName(name);
    const answer = await api("/api/tables", { method: "POST", body: createBody() });
    const id = answer.table.id;
    saveSeat(id, answer.seat, answer.token);
    describeSeat(id, answer.table);
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
  const pills = el("div", "seat-pills");
  for (const seat of meta.seats) {
    const free = seat.kind === "person" && !seat.taken;
    pills.append(el("span", `pill ${free ? "free" : seat.kind === "bot" ? "bot" : ""}`,
      free ? `seat ${seat.seat}: free` : seat.name || "player"));
  }
  return pills;
}

function tableItem(meta, { join }) {
  const li = el("li", "table-item");
  li.dataset.table = meta.id;
  const info = el("div");
  const sub = el("div", "meta", [meta.title, `${meta.players} players`, meta.rules_text].filter(Boolean).join(" · ")
    + (meta.status === "playing" ? ` · deal ${meta.match.played + 1}` : ""));
  info.append(el("strong", "", meta.name || `Table ${meta.id.slice(0, 6)}`), sub);
  const actions = el("div", "actions");
  if (loadSeat(meta.id)) {
    const back = el("a", "button primary small", "Back to your seat");
    back.href = `/t/${meta.id}`;
    actions.append(back);
  } else if (join && meta.seats.some((s) => s.kind === "person" && !s.taken)) {
    const b = el("button", "primary small", "Join");
    b.type = "button";
    b.addEventListener("click", () => joinTable(meta.id, b));
    actions.append(b);
  }
  const watch = el("a", "button small", "Watch");
  watch.href = `/t/${meta.id}`;
  actions.append(watch);
  li.append(info, actions, seatPills(meta));
  return li;
}

async function joinTable(id, button) {
  button.disabled = true;
  try {
    const name = $("player-name").value.trim() || savedName() || "Player";
    const answer = await api(`/api/tables/${id}/join`, { method: "POST", body: { name, ...seatFields("name") } });
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
    list.append(el("li", "empty-note", emptyText));
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
    const li = el("li", "table-item");
    const mine = loadSeat(id);
    const label = [mine.name || `Table ${id.slice(0, 6)}`, mine.title, `seat ${mine.seat}`].filter(Boolean).join(" · ");
    const a = el("a", "", label);
    a.href = `/t/${id}`;
    const copy = el("button", "small ghost", "Copy seat link");
    copy.type = "button";
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

// --- rated play: claiming a name, signing in and out ---------------------------------------------------------

/** Show the account box as the stored sign-in says: the form, or the name with its ratings. */
function showAccount(ratings = null) {
  const me = signedIn();
  $("account-out").hidden = Boolean(me);
  $("account-in").hidden = !me;
  const nameInput = $("player-name");
  nameInput.readOnly = Boolean(me);
  nameInput.title = me ? "You are signed in: you sit under your name" : "";
  if (me) {
    nameInput.value = me.name;
    $("account-who").textContent = me.name;
    const list = $("account-ratings");
    list.replaceChildren();
    for (const r of ratings || []) {
      const item = el("li", "", `${r.title}: ${Math.round(r.rating)}${r.provisional ? "?" : ""}, #${r.rank} `);
      item.append(el("span", "muted", `(${r.games} deal${r.games === 1 ? "" : "s"})`));
      list.append(item);
    }
    if (ratings && !ratings.length) list.append(el("li", "muted", "No rated deal yet: sit down at a table."));
  } else if (nameInput.readOnly === false && !nameInput.value) {
    nameInput.value = savedName();
  }
}

/** Check the stored name and key with the server; a key that no longer signs in is forgotten. */
async function checkAccount() {
  const me = signedIn();
  if (!me) return showAccount();
  try {
    const answer = await api("/api/players/signin", { method: "POST", body: { name: me.name, key: me.key } });
    signIn(answer.name, me.key);
    showAccount(answer.ratings);
  } catch (e) {
    if (e.code === "unauthorized") {
      signOut();
      $("player-name").value = "";
      $("account-error").textContent = `The saved key no longer signs in as ${me.name}: sign in again.`;
    }
    showAccount();
  }
}

async function onSignIn(event) {
  event.preventDefault();
  $("account-error").textContent = "";
  const name = $("account-name").value.trim();
  const key = $("account-key").value.trim();
  if (!name || !key) {
    $("account-error").textContent = "Give your name and its player key (or claim a new name).";
    return;
  }
  try {
    const answer = await api("/api/players/signin", { method: "POST", body: { name, key } });
    signIn(answer.name, key);
    $("account-key").value = "";
    showAccount(answer.ratings);
  } catch (e) {
    $("account-error").textContent = e.message;
  }
}

async function onSignUp() {
  $("account-error").textContent = "";
  const name = $("account-name").value.trim();
  if (!name) {
    $("account-error").textContent = "Write the name you want first.";
    return;
  }
  try {
    const answer = await api("/api/players", { method: "POST", body: { name } });
    signIn(answer.name, answer.key);
    showAccount([]);
    $("account-new").hidden = false;
    $("account-new-key").value = answer.key;
    $("account-new-key").select();
  } catch (e) {
    $("account-error").textContent = e.message;
  }
}

function onSignOut() {
  signOut();
  $("account-new").hidden = true;
  $("account-new-key").value = "";
  $("account-error").textContent = "";
  $("player-name").value = savedName();
  showAccount();
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
  $("account-form").addEventListener("submit", onSignIn);
  $("btn-signup").addEventListener("click", onSignUp);
  $("btn-signout").addEventListener("click", onSignOut);
  $("copy-key").addEventListener("click", () => {
    navigator.clipboard?.writeText($("account-new-key").value);
    $("copy-key").textContent = "Copied";
  });
  showAccount();
  checkAccount();
  try {
    const answer = await api("/api/games");
    lobby.games = answer.games;
    for (const g of lobby.games) {
      $("game").add(new Option(g.title, g.name));
      const item = el("li");
      item.append(el("strong", "", g.title), `: ${g.lobby.blurb}`);
      $("game-blurbs").append(item);
    }
    $("game").value = answer.default;
  } catch (e) {
    $("create-error").textContent = `The games cannot be listed: ${e.message}`;
    return;
  }
  $("game").addEventListener("change", onGame);
  $("preset").addEventListener("change", onPreset);
  $("players").addEventListener("change", refreshSeats);
  $("match-kind").addEventListener("change", onMatchKind);
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
  onGame();
  $("players").value = String(Math.min(4, lobby.game.max_players));
  refreshSeats();
  myTables();
  loadTables();
  setInterval(loadTables, 5000);
  document.body.dataset.ready = "1";
}

init();
