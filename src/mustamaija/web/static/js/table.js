// The table page of every game: connects to the table's WebSocket, keeps the seat, the log, hints, the replay link
// and rematch, and hands the drawing of the game to the layout the table's metadata names
// (/static/js/layouts/<layout>.js, docs/web.md "The table page").

import { ApiError, TableSocket, api, describeSeat, forgetSeat, loadSeat, saveName, saveSeat, savedName, seatLink } from "./api.js";
import { backEl } from "./cards.js";
import { createChat } from "./chat.js";
import { describeCommon, line, listWords, seatName } from "./describe.js";
import { $, el } from "./dom.js";
import { layoutModule } from "./layouts.js";
import { announce, button, fitHand, handButtons, moveFocus, refocus, toast } from "./hand.js";
import * as motion from "./motion.js";
import { seatFields, signedIn } from "./player.js";
import { mountSettings, onChange } from "./settings.js";
import * as sound from "./sound.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

const app = {
  meta: null,
  state: null,
  seat: null,
  token: null,
  log: [],
  goneAt: {},          // seat -> the time (ms) its `gone_for` was measured
  stateKey: "",        // the position the layout's choice belongs to; a new one clears it
  pending: null,       // id of an action sent and not answered yet
  hint: null,
  socket: null,
  lastSpoken: "",
  welcomes: 0,         // connections made; more than one means the page reconnected
  layout: null,        // the game's layout, once its module is loaded
  game: null,          // the game's entry of GET /api/games (its help text)
  motion: motion.stats, // what moved (js/motion.js), for the browser test
  sound: sound.stats,   // what was heard (js/sound.js)
};

// The cards whose moves are shown: on the table and in the hand (later in the page, so its copy of a card wins).
const MOTION_SCOPE = "#board, #hand";

let layoutName = null;
let queued = [];       // messages that came before the layout's module was loaded

// --- seat and connection ---------------------------------------------------------------------------

function readSeatFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  const seat = Number(params.get("seat"));
  if (token && Number.isInteger(seat)) {
    saveSeat(tableId, seat, token);
    // The token stays out of the address bar, so a screenshot or a shared URL does not give the seat away.
    history.replaceState(null, "", location.pathname + location.search);
  }
  const stored = loadSeat(tableId);
  if (stored) {
    app.seat = stored.seat;
    app.token = stored.token;
  }
}

function setConn(status) {
  if (status !== "live" && app.pending && app.pending !== "http") {
    // The answer to an action sent on a connection that is gone (dropped, or left for another seat) can
    // never come: the server answers on the socket it was asked on. The catch-up after reconnecting shows
    // whether the action was taken, and the table's version keeps a second try from being taken twice.
    app.pending = null;
    render();
  }
  const conn = $("conn");
  conn.className = `conn ${status === "live" ? "live" : status === "down" ? "down" : ""}`;
  conn.textContent = status === "live" ? "live" : status === "down" ? "reconnecting…" : "connecting…";
}

function onFatal(code) {
  if (code === 4401 && app.token) {
    forgetSeat(tableId);
    app.token = null;
    app.seat = null;
    toast("This seat's token was not accepted: you are watching.");
    app.socket.reconnectAs(null);
    return;
  }
  if (code === 4404) {
    // Nothing to connect to, now or later: the page says so and leads to the lobby instead of an empty table.
    document.body.dataset.missing = "1";
    document.querySelector("main.table-layout").hidden = true;
    $("conn").hidden = true;
    $("btn-keys").hidden = true;
    $("missing-table").hidden = false;
    document.title = "Card tables · no such table";
    $("missing-table-lobby").focus();
  }
}

/** Load the layout module the table's metadata names, then handle what waited for it. */
async function loadLayout(meta) {
  layoutName = meta.layout;
  const module = await layoutModule(meta.layout);
  app.layout = module.createLayout(context);
  document.body.dataset.layout = meta.layout;
  fillKeys();
  const waiting = queued;
  queued = [];
  for (const msg of waiting) onMessage(msg);
  api("/api/games").then((answer) => {
    app.game = answer.games.find((g) => g.name === meta.game) || null;
    fillKeys();
  }).catch(() => { /* The help text is a convenience. */ });
}

function onMessage(msg) {
  if (!app.layout && (msg.type === "sync" || msg.type === "update")) {
    queued.push(msg);
    if (layoutName === null) loadLayout(msg.table).catch((e) => toast(`The table cannot be drawn: ${e.message}`));
    return;
  }
  switch (msg.type) {
    case "welcome":
      app.seat = msg.seat;
      app.welcomes += 1;
      if (app.chat) app.chat.draw(); // A seat and a spectator talk in different channels.
      break;
    case "sync":
      app.log = msg.log || [];
      if (app.chat) app.chat.lines(msg.chat);
      setTable(msg.table, msg.state);
      break;
    case "update": {
      const cues = [];
      for (const ev of msg.events || []) {
        if (ev.kind === "deal_start") app.log = [];
        if (!app.log.some((e) => e.seq === ev.seq)) {
          app.log.push(ev);
          cues.push(cueOf(ev)); // An event heard again after a reconnection is not played again.
        }
        announce(words(ev, msg.table).spoken);
      }
      setTable(msg.table, msg.state, cues);
      break;
    }
    case "ack":
      if (msg.id === app.pending) app.pending = null;
      render();
      break;
    case "chat":
      if (app.chat) app.chat.line(msg);
      break;
    case "hint":
      // A hint is about the position it was asked for: one for a position since left is not shown.
      if (!app.meta || msg.version === undefined || msg.version === app.meta.version) showHint(msg.hint);
      break;
    case "error":
      onError(msg.error, msg.id);
      break;
    default:
      break;
  }
}

function onError(error, id) {
  if (error.code === "not_found" && !app.meta) return;  // No such table: the socket's close (4404) says it on the page.
  if (id && id === app.pending) app.pending = null;
  if (id === "h" && error.code === "stale") return;  // The table moved on before the hint was ready.
  if (error.code === "stale" || error.code === "not_your_turn") {
    // Another update is on its way; make sure this page has the latest state.
    app.socket.send({ type: "sync" });
  }
  toast(error.message || error.code);
  render();
}

/** Return the sound of an event: the layout's, else the deal's start and end that every game has. */
function cueOf(ev) {
  const own = app.layout.cue ? app.layout.cue(ev) : null;
  return own || { deal_start: "deal", deal_over: "over" }[ev.kind] || [];
}

function setTable(meta, state, cues = []) {
  const now = Date.now();
  for (const s of meta.seats) if (s.gone_for != null) app.goneAt[s.seat] = now - s.gone_for * 1000;
  const before = app.state;
  app.meta = meta;
  app.state = state;
  if (app.seat != null && app.token) describeSeat(tableId, { name: meta.name, title: meta.title });
  // The next deal's start, on this page's clock (the server's "in" at the time the message came).
  app.nextDealAt = meta.next_deal ? now + meta.next_deal.in * 1000 : null;
  app.clockAt = meta.clock ? now + meta.clock.in * 1000 : null;
  const key = state ? `${state.deal}:${state.actions}:${state.to_act}` : "";
  let plan = null;
  if (key !== app.stateKey) {
    app.stateKey = key;
    app.layout.newState(before, state);
    app.hint = null;
    plan = app.layout.motionPlan ? app.layout.motionPlan(before, state) : null;
  }
  render({ plan });
  if (maybeAnnounceTurn()) cues.push("turn");
  sound.play(cues);
}

// --- acting ------------------------------------------------------------------------------------------

function legal() {
  return app.state && app.seat != null ? app.state.legal : null;
}

async function sendAction(action) {
  if (!legal() || app.pending) return;
  const version = app.meta.version;
  const id = app.socket.act(version, action);
  if (id) {
    app.pending = id;
    render();
    return;
  }
  // The socket is down: the HTTP API takes the same action.
  app.pending = "http";
  render();
  try {
    await api(`/api/tables/${tableId}/actions`, { method: "POST", body: { version, action }, token: app.token });
  } catch (e) {
    toast(e instanceof ApiError ? e.message : String(e));
  } finally {
    app.pending = null;
    render();
  }
}

function requestHint() {
  if (!app.socket.send({ type: "hint", id: "h" })) toast("Not connected: the hint cannot be asked for now.");
  else announce("Thinking about a hint…");
}

function showHint(hint) {
  app.hint = hint;
  announce(`Hint: ${hint.text}`);
  render();
}

/** Return the hint's first action without its seat, or null. */
function hintAction() {
  const best = app.hint && app.hint.best && app.hint.best.actions && app.hint.best.actions[0];
  if (!best) return null;
  const action = { ...best };
  delete action.seat;
  return action;
}

function nextDeal() {
  if (!app.socket.send({ type: "next" })) {
    api(`/api/tables/${tableId}/next`, { method: "POST", token: app.token }).catch((e) => toast(e.message));
  }
}

/** Return the words under a finished deal: when the next one starts, and who has asked for it. */
function nextDealText() {
  const next = app.meta.next_deal;
  if (!next || app.nextDealAt == null) return "The next deal starts in a moment…";
  const left = Math.max(0, Math.ceil((app.nextDealAt - Date.now()) / 1000));
  const ready = next.ready.filter((seat) => seat !== app.seat).map((seat) => name(seat));
  const waiting = ready.length ? ` · ${listWords(ready)} ${ready.length === 1 ? "is" : "are"} ready` : "";
  return `The next deal starts in ${left} s, or when everyone is ready${waiting}.`;
}

function rematch() {
  if (!app.socket.send({ type: "rematch" })) {
    api(`/api/tables/${tableId}/rematch`, { method: "POST", token: app.token }).catch((e) => toast(e.message));
  }
}

/** Ask for the player's name in the page's own dialog; resolve to it, or to null if they cancel. */
function askName() {
  const dialog = $("name-dialog");
  const input = $("join-name");
  input.value = savedName();
  return new Promise((resolve) => {
    const done = (value) => {
      $("name-form").onsubmit = null;
      $("join-cancel").onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(value);
    };
    $("name-form").onsubmit = (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text) done(text);
    };
    $("join-cancel").onclick = () => done(null);
    dialog.onclose = () => done(null);
    dialog.showModal();
    input.select();
  });
}

async function join(seat) {
  try {
    const me = signedIn(); // A signed-in name sits as itself, with its key: the seat is rated.
    const nameText = me ? me.name : await askName();
    if (nameText === null) return;
    if (!me) saveName(nameText);
    const answer = await api(`/api/tables/${tableId}/join`, { method: "POST",
      body: { seat, name: nameText, ...seatFields("name") } });
    saveSeat(tableId, answer.seat, answer.token);
    // Named at once: the lobby's list of this player's tables must not show the table's id if they leave
    // before the next table message arrives.
    if (app.meta) describeSeat(tableId, { name: app.meta.name, title: app.meta.title });
    app.seat = answer.seat;
    app.token = answer.token;
    app.socket.reconnectAs(answer.token);
  } catch (e) {
    toast(e.message);
  }
}

// --- words and announcements ------------------------------------------------------------------------

/** Return {text, spoken} for an event: the common ones here, the game's own from its layout. */
function words(ev, meta = app.meta) {
  // The layout first: it may word a common event with facts of its game (the trump turned at the deal).
  return (app.layout && app.layout.describeEvent(ev, meta)) || describeCommon(ev, meta, app.seat) || line(ev.text || ev.kind);
}

/** Tell a screen reader that it is this seat's turn, once a position; return true when it was told now. */
function maybeAnnounceTurn() {
  const s = app.state;
  const text = legal() ? app.layout.turnText() : "";
  const key = text && `${s.deal}:${s.actions}`;
  if (text && key !== app.lastSpoken) {
    app.lastSpoken = key;
    announce(text);
    return true;
  }
  return false;
}

// --- what layouts use ---------------------------------------------------------------------------------

function name(seat) {
  return seatName(app.meta, seat, app.seat);
}

function goneSeconds(seat) {
  const at = app.goneAt[seat];
  return at ? Math.max(0, Math.round((Date.now() - at) / 1000)) : 0;
}

/** Return the seats clockwise from the viewer's left (from seat 0's for a spectator, who sees seat 0 as "me"). */
function seatOrder() {
  const n = app.meta.players;
  const me = app.seat ?? 0;
  const out = [];
  for (let i = 1; i < n; i++) out.push((me + i) % n);
  return out;
}

/** Return the short line under a seat's name: how many cards, and who plays it. */
function seatSub(seat) {
  const info = app.meta.seats[seat];
  const s = app.state;
  if (info.kind === "person" && !info.taken) return "free seat";
  const kind = info.kind === "bot" ? "bot" : info.takeover ? "a bot plays" : info.online ? "online" : "away";
  if (!s) return kind;
  const n = s.hand_sizes[seat];
  return `${n} card${n === 1 ? "" : "s"} · ${kind}`;
}

/** Return the markers of presence every game shows on a seat: gone for how long, a bot playing for it. */
function presenceBadges(seat) {
  const info = app.meta.seats[seat];
  const out = [];
  if (info.kind === "person" && info.taken && !info.online) out.push(el("span", "badge gone", `gone, ${goneSeconds(seat)} s`));
  if (info.takeover) out.push(el("span", "badge gone", "bot plays"));
  return out;
}


const context = {
  app, tableId, legal, name, send: sendAction, render, announce, toast, button, seatOrder, seatSub, presenceBadges,
  fitHand, handButtons, moveFocus, refocus,
};

// --- drawing ---------------------------------------------------------------------------------------

/**
 * Draw the page from the state. The cards' moves are added around the drawing (js/motion.js): `plan` is the
 * layout's plan for a new position; `still` draws without motion (a resize, a setting changed).
 */
function render({ plan = null, still = false } = {}) {
  if (!app.meta || !app.layout) return;
  const snap = still ? null : motion.capture(MOTION_SCOPE);
  const active = document.activeElement;
  // Redrawing replaces the card buttons: remember the focused card to focus it again.
  app.focusCard = active && active.closest && active.closest("#hand, #board") ? active.dataset.card || null : null;
  const { meta, state: s, layout } = app;
  const body = document.body.dataset;
  body.phase = s ? s.phase : meta.status;
  body.myTurn = legal() && !app.pending ? "1" : "0";
  body.version = String(meta.version);
  body.deal = String(meta.deal);
  body.played = String(meta.match.played);
  body.status = meta.status;
  body.seat = app.seat == null ? "" : String(app.seat);
  renderTop();
  layout.renderSeats($("seats"));
  layout.renderBoard($("board"));
  renderStatus();
  renderResult();
  renderMe();
  renderScores();
  const extra = $("extra-panel");
  extra.hidden = !layout.extraTitle;
  if (layout.extraTitle) {
    $("extra-title").textContent = layout.extraTitle;
    layout.renderExtra($("extra"));
  }
  renderLog();
  motion.play(snap, plan || {});
}

function renderTop() {
  const { meta, layout } = app;
  const title = meta.name || `Table ${meta.id.slice(0, 6)}`;
  $("game-title").textContent = meta.title;
  $("table-title").textContent = [title, meta.rules_text, layout.lengthText()].filter(Boolean).join(" · ");
  document.title = `${meta.title} · ${title}`;
  $("btn-invite").hidden = !meta.seats.some((x) => x.kind === "person" && !x.taken);
  $("btn-seat-link").hidden = !app.token;
  $("scores-title").textContent = layout.scoresTitle;
  $("log-title").textContent = layout.logTitle;
  $("log").setAttribute("aria-label", layout.logTitle);
}

function renderStatus() {
  const { meta, state: s } = app;
  let text = "";
  let mine = false;
  if (!s) {
    const free = meta.seats.filter((x) => x.kind === "person" && !x.taken).map((x) => x.seat);
    text = meta.status === "waiting"
      ? `Waiting for players: seat ${free.join(", ")} ${free.length > 1 ? "are" : "is"} free` : "The deal is about to start";
  } else if (s.phase === "over") {
    text = ""; // The result says it.
  } else {
    [text, mine] = app.layout.statusText();
  }
  const st = $("status");
  st.hidden = !text;
  st.textContent = text;
  st.classList.toggle("mine", Boolean(mine));
  const clock = el("span", "clock");
  clock.id = "turn-clock";
  st.append(clock);
  tickClock();
}

/** Return the words of the clock the seat to act plays against, on this page's clock ("" without one). */
function clockText() {
  const c = app.meta && app.meta.clock;
  if (!c || app.clockAt == null) return "";
  const left = Math.max(0, Math.ceil((app.clockAt - Date.now()) / 1000));
  if (c.kind === "turn") return c.seat === app.seat ? ` · ⏱ ${left} s to move` : ` · ⏱ ${name(c.seat)}: ${left} s`;
  return ` · a bot plays for ${c.seat === app.seat ? "you" : name(c.seat)} in ${left} s`;
}

function tickClock() {
  const clock = $("turn-clock");
  if (!clock) return;
  clock.textContent = clockText();
  const c = app.meta && app.meta.clock;
  clock.classList.toggle("urgent", Boolean(c && c.kind === "turn" && app.clockAt - Date.now() < 10000));
}

/** Draw the end of a deal: the result in the game's words, the replay link, and rematch once the match is over. */
function renderResult() {
  const box = $("result");
  const s = app.state;
  box.replaceChildren();
  box.hidden = !(s && s.phase === "over");
  if (box.hidden) return;
  const m = app.meta.match;
  const { art, big, lines } = app.layout.result();
  if (art) box.append(art);
  box.append(el("p", "result-big", big));
  for (const text of lines) box.append(el("p", "muted", text));
  if (m.over) box.append(el("p", "", app.layout.matchOverText()));
  const links = el("div", "dialog-actions");
  const replay = el("a", "button", "Replay this deal");
  replay.href = `/replay/${tableId}/${s.deal}`;
  replay.id = "replay-link";
  links.append(replay);
  if (m.over && app.seat != null) links.append(button("btn-rematch", "Rematch", rematch, { primary: true }));
  else if (!m.over) {
    const mine = app.seat != null && app.meta.next_deal && app.meta.next_deal.ready.includes(app.seat);
    if (app.seat != null && app.meta.next_deal) {
      links.append(button("btn-next-deal", mine ? "Waiting for the others…" : "Next deal", nextDeal,
        { primary: true, disabled: mine, key: "N" }));
    }
    const when = el("span", "muted", nextDealText());
    when.id = "next-deal-text";
    links.append(when);
  }
  box.append(links);
}

function renderMe() {
  const { meta, state: s, layout } = app;
  const hand = $("hand");
  const actions = $("actions");
  const extra = $("me-extra");
  const seat = app.seat;
  hand.replaceChildren();
  actions.replaceChildren();
  extra.replaceChildren();
  extra.hidden = true;
  $("me-badges").replaceChildren();
  $("me-info").replaceChildren();
  if (seat == null) {
    // A spectator sees seat 0 from behind: its name, markers, and as many card backs as it holds.
    $("me-name").textContent = `Watching · ${name(0)} (seat 0)`;
    $("me-badges").append(...layout.badges(0), ...presenceBadges(0));
    if (s) {
      for (let i = 0; i < s.hand_sizes[0]; i++) hand.append(backEl());
      fitHand(hand, s.hand_sizes[0]);
    }
    for (const f of meta.seats.filter((x) => x.kind === "person" && !x.taken)) {
      const b = el("button", "primary", `Sit in seat ${f.seat}`);
      b.type = "button";
      b.addEventListener("click", () => join(f.seat));
      actions.append(b);
    }
    actions.append(el("div", "hint-text", "You are watching: hidden cards are never shown to spectators."));
    return;
  }
  $("me-name").textContent = `${meta.seats[seat].name || "You"} (seat ${seat})`;
  $("me-badges").append(...layout.badges(seat), ...presenceBadges(seat));
  layout.renderInfo($("me-info"));
  if (!s) {
    if (meta.status === "waiting") {
      hand.append(el("p", "muted", "The deal starts as soon as every seat is taken."));
      actions.append(inviteBox());
    }
    return;
  }
  layout.renderExtraMe(extra);
  hand.classList.toggle("waiting", !legal());
  layout.renderHand(hand);
  const l = legal();
  if (l) {
    layout.renderActions(actions);
    if (meta.hints) actions.append(button("btn-hint", "Hint", requestHint, { disabled: Boolean(app.pending), key: "H" }));
  }
  actions.append(tipBox(l));
}

function tipBox(l) {
  const tip = el("div", "hint-text");
  const s = app.state;
  if (app.hint) {
    const action = hintAction();
    tip.classList.add("hint-box");
    tip.append(el("strong", "", "Hint: "));
    if (action) {
      tip.append(`${app.layout.describeAction(action)} `);
      const use = button("btn-use-hint", "Use it", () => app.layout.useHint(action));
      use.classList.add("small");
      tip.append(use);
    }
    const why = el("details");
    why.append(el("summary", "", "why?"), el("p", "", app.hint.text));
    tip.append(why);
  } else if (l) {
    tip.textContent = app.pending ? "Sending…" : app.layout.tip();
  } else if (s && s.phase !== "over") {
    tip.textContent = app.pending ? "Sending…" : `Waiting for ${name(s.to_act)}.`;
  }
  return tip;
}

function inviteBox() {
  const box = el("div", "invite");
  const label = el("label", "muted", "Invite friends with this link:");
  const input = el("input");
  input.id = "invite-link";
  input.readOnly = true;
  input.value = `${location.origin}/t/${tableId}`;
  label.htmlFor = "invite-link";
  const copy = button("btn-copy-invite", "Copy", () => {
    navigator.clipboard?.writeText(input.value);
    toast("The invite link is copied.", "info");
  });
  box.append(label, input, copy);
  return box;
}

/** Draw the game's scores, then the links to the replays of the match's finished deals. */
function renderScores() {
  const box = $("scores");
  box.replaceChildren();
  app.layout.renderScores(box);
  const results = app.meta.match.results;
  if (!results.length) return;
  const list = el("p", "muted replays");
  list.append("Replays: ");
  for (const r of results) {
    const a = el("a", "", `#${r.deal}`);
    a.href = `/replay/${tableId}/${r.deal}`;
    a.title = `the replay of deal ${r.deal}`;
    list.append(a, " ");
  }
  box.append(list);
}

/** Draw the deal log, keeping it scrolled to the end when it was there. */
function renderLog() {
  const list = $("log");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  list.replaceChildren();
  for (const ev of app.log) {
    const mine = ev.seat === app.seat && ev.version !== undefined;
    list.append(el("li", ev.kind === "deal_start" ? "new-deal" : mine ? "mine" : "", words(ev).text));
  }
  if (atEnd) list.scrollTop = list.scrollHeight;
}

function fillKeys() {
  const keys = $("keys-list");
  keys.replaceChildren();
  const log = app.layout ? app.layout.logTitle.toLowerCase() : "log";
  const common = [["H", "hint (when the table allows hints)"], ["L", `go to the ${log}`], ["?", "this help"]];
  for (const [key, text] of [...(app.layout ? app.layout.keys : []), ...common]) {
    const k = el("span");
    key.split(" ").forEach((part, i) => { if (i) k.append(" "); k.append(el("kbd", "", part)); });
    keys.append(k, el("span", "", text));
  }
  const help = [app.layout && app.layout.help, app.game && app.game.lobby.blurb].filter(Boolean);
  $("keys-help").textContent = help.join(" ");
}

// --- keyboard ----------------------------------------------------------------------------------------

function onKey(e) {
  if (e.target.closest("input, textarea, select, dialog") || e.ctrlKey || e.metaKey || e.altKey || !app.layout) return;
  const key = e.key;
  if (app.layout.onKey(e)) {
    e.preventDefault();
  } else if (key === "Escape") {
    app.layout.clear();
    render();
  } else if (key === "h" || key === "H") {
    if (legal() && app.meta.hints) requestHint();
  } else if (key === "l" || key === "L") {
    $("log").focus();
  } else if (key === "?") {
    $("keys-dialog").showModal();
  } else if ((key === "n" || key === "N") && app.seat != null && app.meta.next_deal) {
    nextDeal();
  }
}

// --- start -------------------------------------------------------------------------------------------

function init() {
  if (!tableId) return;
  readSeatFromFragment();
  $("btn-keys").addEventListener("click", () => $("keys-dialog").showModal());
  $("keys-close").addEventListener("click", () => $("keys-dialog").close());
  $("btn-invite").addEventListener("click", () => {
    navigator.clipboard?.writeText(`${location.origin}/t/${tableId}`);
    toast("The table's link is copied: friends take a free seat from it.", "info");
  });
  $("btn-seat-link").addEventListener("click", () => {
    navigator.clipboard?.writeText(seatLink(tableId, app.seat, app.token));
    toast("Your seat link is copied: open it on another device to play from there. Keep it private.", "info");
  });
  mountSettings($("btn-settings"), { testSound: () => { sound.unlock(); sound.play("turn"); } });
  // A new card size changes how the hand fits; a new colour or speed needs no redraw but costs nothing.
  onChange(() => render({ still: true }));
  document.addEventListener("keydown", onKey);
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => render({ still: true }), 120);
  });
  app.socket = new TableSocket(tableId, app.token, { message: onMessage, status: setConn, fatal: onFatal });
  app.chat = createChat({ send: (msg) => app.socket.send(msg), isSpectator: () => app.seat == null, onError: toast });
  app.socket.connect();
  // "gone, N s" counts up between messages, and the next deal's start counts down.
  setInterval(() => {
    const when = $("next-deal-text");
    if (when && app.meta) when.textContent = nextDealText();
    tickClock();
    if (app.meta && app.layout && app.meta.seats.some((x) => x.kind === "person" && x.taken && !x.online)) {
      app.layout.renderSeats($("seats"));
      const seat = app.seat ?? 0;
      $("me-badges").replaceChildren(...app.layout.badges(seat), ...presenceBadges(seat));
    }
  }, 1000);
  window.mustamaija = app; // For the browser test and for curious players in the console.
}

init();
