// The table page: connects to the table's WebSocket, draws what this seat may see, and lets a person play.

import { ApiError, TableSocket, api, forgetSeat, loadSeat, saveName, saveSeat, savedName, seatLink } from "./api.js";
import { SUIT_SIGNS, SUIT_WORDS, backEl, cardEl, chip, sortHand, spoken, symbols } from "./cards.js";
import { Choice } from "./choice.js";
import { describeAction, describeEvent, describeRules, seatName } from "./describe.js";
import { $, el } from "./dom.js";
import { renderLog, renderMemory, renderScores } from "./panels.js";

const BOT_ICON = '<svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor"><rect x="4" y="7" width="16" height="12" rx="3"/>'
  + '<rect x="11" y="2" width="2" height="5"/><circle cx="12" cy="2.5" r="1.8"/><circle cx="9" cy="12" r="1.8" fill="#dfe6ff"/>'
  + '<circle cx="15" cy="12" r="1.8" fill="#dfe6ff"/><rect x="8.5" y="15.5" width="7" height="1.6" rx="0.8" fill="#dfe6ff"/></svg>';

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

const app = {
  meta: null,
  state: null,
  seat: null,
  token: null,
  log: [],
  goneAt: {},          // seat -> the time (ms) its `gone_for` was measured
  choice: new Choice(),
  choiceKey: "",       // the state the choice belongs to; a new state clears it
  pending: null,       // id of an action sent and not answered yet
  hint: null,
  socket: null,
  lastSpoken: "",
  welcomes: 0,         // connections made; more than one means the page reconnected
};

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
    setConn("down");
    $("status").textContent = "There is no such table.";
    document.body.dataset.missing = "1";
  }
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      app.seat = msg.seat;
      app.welcomes += 1;
      break;
    case "sync":
      app.log = msg.log || [];
      setTable(msg.table, msg.state);
      break;
    case "update":
      for (const ev of msg.events || []) {
        if (ev.kind === "deal_start") app.log = [];
        if (!app.log.some((e) => e.seq === ev.seq)) app.log.push(ev);
        announceEvent(ev);
      }
      setTable(msg.table, msg.state);
      break;
    case "ack":
      if (msg.id === app.pending) app.pending = null;
      render();
      break;
    case "hint":
      showHint(msg.hint);
      break;
    case "error":
      onError(msg.error, msg.id);
      break;
    default:
      break;
  }
}

function onError(error, id) {
  if (id && id === app.pending) app.pending = null;
  if (error.code === "stale" || error.code === "not_your_turn") {
    // Another update is on its way; make sure this page has the latest state.
    app.socket.send({ type: "sync" });
  }
  toast(error.message || error.code);
  render();
}

function setTable(meta, state) {
  const now = Date.now();
  for (const s of meta.seats) if (s.gone_for != null) app.goneAt[s.seat] = now - s.gone_for * 1000;
  app.meta = meta;
  app.state = state;
  const key = state ? `${state.deal}:${state.actions}:${state.to_act}` : "";
  if (key !== app.choiceKey) {
    app.choiceKey = key;
    clearChoice();
    app.hint = null;
  }
  render();
  maybeAnnounceTurn();
}

function clearChoice() {
  app.choice.clear();
}

// --- acting ------------------------------------------------------------------------------------------

function legal() {
  return app.state && app.state.legal;
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

/** Play the action chosen: the lead, or the defence with the pairs made (led cards left unpaired are taken). */
function play() {
  const action = app.choice.action(legal());
  if (action) sendAction(action);
}

function declare(suit) {
  const l = legal();
  if (!l || !l.declare.includes(suit)) return;
  sendAction({ declare: suit });
}

function onHandCard(card) {
  const l = legal();
  if (!l || app.pending) return;
  announce(app.choice.clickHand(l, card));
  render();
}

function onLedCard(led) {
  const l = legal();
  if (!l || l.kind !== "beat" || app.pending) return;
  announce(app.choice.clickLed(l, led));
  render();
}

function applyHint() {
  const best = app.hint && app.hint.best && app.hint.best.actions && app.hint.best.actions[0];
  if (!best) return;
  if (best.declare) {
    declare(best.declare);
    return;
  }
  app.choice.adopt(best);
  render();
}

function showHint(hint) {
  app.hint = hint;
  announce(`Hint: ${hint.text}`);
  render();
}

// --- announcements --------------------------------------------------------------------------------

function announce(text) {
  const live = $("announcer");
  const p = el("p", "", text);
  live.append(p);
  while (live.childElementCount > 6) live.firstElementChild.remove();
}

function announceEvent(ev) {
  if (!app.meta) return;
  announce(describeEvent(ev, app.meta, app.seat).spoken);
}

function maybeAnnounceTurn() {
  const s = app.state;
  const l = s && s.legal;
  let text = "";
  if (l && l.kind === "lead") text = `Your turn to lead. You hold ${s.hand.map(spoken).join(", ")}`;
  else if (l && l.kind === "beat") text = `Your turn to defend against ${l.led.map(spoken).join(", ")}`;
  const key = text && `${s.deal}:${s.actions}`;
  if (text && key !== app.lastSpoken) {
    app.lastSpoken = key;
    announce(text);
  }
}

let toastTimer = null;
function toast(text, kind = "error") {
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

// --- drawing ---------------------------------------------------------------------------------------

function name(seat) {
  return seatName(app.meta, seat, app.seat);
}

function goneSeconds(seat) {
  const at = app.goneAt[seat];
  return at ? Math.max(0, Math.round((Date.now() - at) / 1000)) : 0;
}

function panelContext() {
  return {
    meta: app.meta, state: app.state, seat: app.seat, log: app.log, name, tableId,
    others: app.seat == null ? [0, ...seatOrder()] : seatOrder(),
  };
}

function render() {
  if (!app.meta) return;
  // Redrawing replaces the card buttons: remember the focused card to focus it again.
  const active = document.activeElement;
  app.focusCard = active && active.closest && active.closest("#hand, #battle") ? active.dataset.card || null : null;
  const meta = app.meta;
  const s = app.state;
  const body = document.body.dataset;
  body.phase = s ? s.phase : meta.status;
  body.myTurn = s && s.legal && !app.pending ? "1" : "0";
  body.version = String(meta.version);
  body.deal = String(meta.deal);
  body.played = String(meta.match.played);
  body.status = meta.status;
  body.seat = app.seat == null ? "" : String(app.seat);
  renderTop();
  renderSeats();
  renderCenter();
  renderMe();
  const ctx = panelContext();
  renderScores($("scores"), ctx);
  renderMemory($("memory"), ctx);
  renderLog($("log"), ctx);
}

function renderTop() {
  const meta = app.meta;
  const title = meta.name || `Table ${meta.id.slice(0, 6)}`;
  const m = meta.match;
  const inPlay = app.state && app.state.phase !== "over" ? 1 : 0;
  const current = Math.max(1, m.played + inPlay);
  const length = m.max_losses ? `deal ${current}, to ${m.max_losses} losses` : `deal ${Math.min(current, m.deals)} of ${m.deals}`;
  $("table-title").textContent = `${title} · ${describeRules(meta.rules)} · ${length}`;
  document.title = `Mustamaija · ${title}`;
  $("btn-invite").hidden = !meta.seats.some((x) => x.kind === "person" && !x.taken);
  $("btn-seat-link").hidden = !app.token;
}

function seatOrder() {
  const n = app.meta.players;
  const me = app.seat ?? 0;
  const out = [];
  for (let i = 1; i < n; i++) out.push((me + i) % n);
  return out;
}

function seatBadges(seat, { compact = false } = {}) {
  const meta = app.meta;
  const s = app.state;
  const info = meta.seats[seat];
  const wrap = el("div", "badges");
  if (s && s.phase !== "over") {
    if (s.attacker === seat) wrap.append(el("span", "badge attack", "attacks"));
    if (s.defender === seat) wrap.append(el("span", "badge defend", "defends"));
  }
  if (s && s.out.includes(seat)) wrap.append(el("span", "badge out", `out ${ordinal(s.out.indexOf(seat) + 1)}`));
  if (s && s.loser === seat) wrap.append(el("span", "badge loser", "Mustamaija"));
  if (s && s.dealer === seat && !compact) wrap.append(el("span", "badge dealer", "dealer"));
  if (info.kind === "person" && info.taken && !info.online) {
    wrap.append(el("span", "badge gone", `gone, ${goneSeconds(seat)} s`));
  }
  if (info.takeover) wrap.append(el("span", "badge gone", "bot plays"));
  return wrap;
}

function ordinal(n) {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

function seatSub(seat) {
  const info = app.meta.seats[seat];
  const s = app.state;
  if (info.kind === "person" && !info.taken) return "free seat";
  const kind = info.kind === "bot" ? `${info.bot} bot` : info.takeover ? "bot playing" : info.online ? "online" : "away";
  if (!s) return kind;
  const n = s.hand_sizes[seat];
  return `${n} card${n === 1 ? "" : "s"} · ${kind}`;
}

function renderSeats() {
  const box = $("seats");
  box.replaceChildren();
  const order = seatOrder();
  const k = order.length;
  const s = app.state;
  order.forEach((seat, i) => {
    const info = app.meta.seats[seat];
    // Clockwise from this seat's left: the left side, over the top, to the right.
    // Crowded tables use more of the sides, so that neighbours' known cards do not overlap.
    const range = k >= 5 ? 244 : 220;
    const angle = k === 1 ? 90 : 90 + range / 2 - (i + 0.5) * (range / k);
    const rad = (angle * Math.PI) / 180;
    const div = el("div", "seat");
    div.dataset.seat = String(seat);
    div.style.left = `${50 + 41 * Math.cos(rad)}%`;
    div.style.top = `${48 - 37 * Math.sin(rad)}%`;
    if (s && s.to_act === seat) div.classList.add("to-act");
    if (s && s.out.includes(seat)) div.classList.add("is-out");
    if (info.kind === "person" && info.taken && !info.online) div.classList.add("gone");
    const plate = el("div", "plate");
    const label = name(seat);
    const avatar = el("span", `avatar ${info.kind === "bot" || info.takeover ? "bot" : ""}`);
    if (info.kind === "bot" || info.takeover) avatar.innerHTML = BOT_ICON;
    else avatar.textContent = label.slice(0, 1).toUpperCase();
    avatar.setAttribute("aria-hidden", "true");
    const who = el("span", "who");
    const sub = el("span", "sub");
    const [count, kind] = seatSub(seat).split(" · ");
    sub.append(el("span", "", count));
    if (kind) sub.append(el("span", "kind", ` · ${kind}`));
    who.append(el("span", "name", label), sub);
    plate.append(avatar, who);
    div.append(plate);
    if (s) {
      const fan = el("div", "mini-fan");
      fan.setAttribute("aria-hidden", "true");
      for (let c = 0; c < Math.min(s.hand_sizes[seat], 10); c++) fan.append(backEl(["tiny"]));
      div.append(fan);
    }
    div.append(seatBadges(seat, { compact: true }));
    if (s && s.known[seat] && s.known[seat].length) {
      const known = el("div", "known-row");
      known.title = `Known to be in ${label}'s hand`;
      sortHand(s.known[seat], s.trump_suit).forEach((c) => known.append(chip(c)));
      div.append(known);
    }
    div.setAttribute("aria-label", `${label}: ${seatSub(seat)}`);
    box.append(div);
  });
}

function renderCenter() {
  const s = app.state;
  const meta = app.meta;
  const talon = $("talon");
  const discard = $("discard");
  const trump = $("trump");
  talon.replaceChildren();
  discard.replaceChildren();
  trump.replaceChildren();
  trump.hidden = !s;
  if (!s) {
    $("battle").replaceChildren();
    const free = meta.seats.filter((x) => x.kind === "person" && !x.taken).map((x) => x.seat + 1);
    setStatus(meta.status === "waiting" ? `Waiting for players: seat ${free.join(", ")} ${free.length > 1 ? "are" : "is"} free` : "The deal is about to start", false);
    return;
  }
  // Talon with the trump card lying under it (M8).
  const stack = el("div", "stack");
  const trumpInTalon = s.talon_known.find((k) => k.card === s.trump_card);
  stack.classList.toggle("with-trump", Boolean(s.trump_card && trumpInTalon));
  if (s.trump_card && trumpInTalon) stack.append(cardEl(s.trump_card, { classes: ["trump-card"], label: `trump card ${spoken(s.trump_card)}` }));
  if (s.talon > (trumpInTalon ? 1 : 0)) stack.append(backEl());
  talon.classList.toggle("empty", s.talon === 0);
  talon.append(stack, el("span", "count", String(s.talon)), el("span", "", "talon"));
  talon.setAttribute("aria-label", `Talon: ${s.talon} cards`);
  const dstack = el("div", "stack");
  if (s.discard.length) dstack.append(backEl());
  discard.classList.toggle("empty", !s.discard.length);
  discard.append(dstack, el("span", "count", String(s.discard.length)), el("span", "", "discarded"));
  discard.setAttribute("aria-label", `Discard pile: ${s.discard.length} cards`);
  if (s.trump_suit) {
    const sign = el("span", `chip suit-${s.trump_suit}`, SUIT_SIGNS[s.trump_suit]);
    trump.append(el("span", "", "Trumps"), sign);
    if (s.declarer != null) trump.append(el("span", "muted", s.declarer === app.seat ? "your marriage" : `marriage of ${name(s.declarer)}`));
    else if (s.trump_card) trump.append(el("span", "muted", `${symbols([s.trump_card])} turned`));
    else if (meta.rules.trump === "fixed") trump.append(el("span", "muted", "fixed"));
    trump.setAttribute("aria-label", `Trumps: ${SUIT_WORDS[s.trump_suit]}`);
  } else {
    const rule = meta.rules.trump;
    trump.append(el("span", "muted", rule === "marriage" ? "No trumps until a marriage" : rule === "none" ? "No trumps" : "Trump not turned yet"));
  }
  renderBattle();
  renderStatus();
}

function fight(led, beater, opts = {}) {
  const f = el("div", "fight");
  f.dataset.led = led;
  const l = legal();
  const mine = l && l.kind === "beat" && opts.live;
  const ledCard = cardEl(led, { button: mine, classes: ["led"], label: `led ${spoken(led)}${beater ? `, beaten by ${spoken(beater)}` : ""}` });
  if (mine) {
    ledCard.addEventListener("click", () => onLedCard(led));
    ledCard.tabIndex = -1;
    // Drag a beater from the hand onto a led card to pair them.
    f.addEventListener("dragover", (e) => {
      if (!app.choice.pairs.has(led)) e.preventDefault();
    });
    f.addEventListener("drop", (e) => {
      e.preventDefault();
      const card = e.dataTransfer.getData("text/plain");
      if (app.choice.targetsOf(l, card).includes(led)) {
        announce(app.choice.pair(led, card));
        render();
      }
    });
  }
  f.append(ledCard);
  if (beater) f.append(cardEl(beater, { classes: ["beater", ...(opts.pending ? ["pending"] : [])] }));
  if (opts.tag) f.append(el("span", "tag", opts.tag));
  return f;
}

function renderBattle() {
  const s = app.state;
  const box = $("battle");
  box.replaceChildren();
  box.classList.remove("empty-table");
  box.removeAttribute("data-empty");
  const l = legal();
  if (s.phase === "defend" && s.table.length) {
    for (const t of s.table) {
      const pending = app.choice.pairs.get(t.led) || null;
      const f = fight(t.led, t.beater || pending, { live: true, pending: Boolean(pending) });
      if (l && l.kind === "beat") {
        if (app.choice.focusLed === t.led) f.classList.add("chosen");
        if (app.choice.ledOpen(l, t.led)) f.classList.add("target");
        if (!pending && !(l.beaters[t.led] || []).length) f.append(el("span", "tag", "cannot beat"));
      }
      box.append(f);
    }
    box.setAttribute("aria-label", `Cards on the table, led by ${name(s.attacker)}: ${s.table.map((t) => spoken(t.led)).join(", ")}`);
    return;
  }
  if (s.phase === "over") {
    box.append(dealOverBanner());
    return;
  }
  const last = s.last_turn;
  if (last) {
    const took = last.taken.length ? `, ${last.defender === app.seat ? "you" : name(last.defender)} took ${symbols(last.taken)}` : "";
    const caption = el("div", "battle-caption", `Last turn: ${name(last.attacker)} → ${name(last.defender)}${took}`);
    box.append(caption);
    for (const led of last.led) {
      const beater = last.beat[led] || null;
      const f = fight(led, beater, { tag: beater ? "" : "taken" });
      f.classList.add("taken");
      f.style.opacity = "0.72";
      box.append(f);
    }
    box.setAttribute("aria-label", "The last turn");
    return;
  }
  box.classList.add("empty-table");
  box.dataset.empty = "No cards on the table";
}

function dealOverBanner() {
  const s = app.state;
  const m = app.meta.match;
  const banner = el("div", "deal-over");
  banner.setAttribute("role", "status");
  const mine = s.loser === app.seat;
  if (s.stopped) banner.append(el("p", "result-big", "Deal stopped unfinished"));
  else {
    const card = cardEl("QS", { label: "Maija, the queen of spades" });
    card.classList.add("maija");
    banner.append(card);
    banner.append(el("p", "result-big", mine ? "You are Mustamaija!" : `${name(s.loser)} is Mustamaija`));
  }
  const sub = el("p", "muted");
  const safe = s.out.map((seat) => name(seat));
  sub.textContent = safe.length ? `Out in order: ${safe.join(", ")}` : "";
  banner.append(sub);
  const links = el("div", "dialog-actions");
  const replay = el("a", "button", "Replay this deal");
  replay.href = `/replay/${tableId}/${s.deal}`;
  replay.id = "replay-link";
  links.append(replay);
  if (m.over && app.seat != null) {
    links.append(button("btn-rematch", "Rematch", rematch, { primary: true }));
  } else if (!m.over) links.append(el("span", "muted", "The next deal starts in a moment…"));
  banner.append(links);
  return banner;
}

function rematch() {
  if (!app.socket.send({ type: "rematch" })) {
    api(`/api/tables/${tableId}/rematch`, { method: "POST", token: app.token }).catch((e) => toast(e.message));
  }
}

function setStatus(text, mine) {
  const st = $("status");
  st.textContent = text;
  st.classList.toggle("mine", Boolean(mine));
}

function renderStatus() {
  const s = app.state;
  const l = legal();
  const meta = app.meta;
  if (s.phase === "over") {
    const m = meta.match;
    setStatus(m.over ? `The match is over after ${m.played} deal${m.played === 1 ? "" : "s"}` : `Deal over · ${m.played} of ${m.deals || "?"} played`, false);
    return;
  }
  if (l && l.kind === "lead") {
    const max = l.max_cards;
    const limit = max >= s.hand.length ? "as many cards as you like" : max === 1 ? "one card" : `at most ${max} cards`;
    setStatus(`Your lead: one suit, ${limit}`, true);
  } else if (l && l.kind === "beat") {
    setStatus(`Defend against ${name(s.attacker)}: beat what you can, take the rest`, true);
  } else if (s.phase === "lead") {
    setStatus(`${name(s.to_act)} to lead${s.to_act === s.attacker ? ` against ${name(s.defender)}` : ""}…`, false);
  } else {
    setStatus(`${name(s.defender)} ${s.defender === app.seat ? "defend" : "defends"} against ${name(s.attacker)}…`, false);
  }
}

function renderMe() {
  const s = app.state;
  const meta = app.meta;
  const hand = $("hand");
  const actions = $("actions");
  const seat = app.seat;
  hand.replaceChildren();
  actions.replaceChildren();
  $("me-badges").replaceChildren();
  $("me-known").replaceChildren();
  if (seat == null) {
    // A spectator sees seat 1 from behind: its name, markers, what is known of it, and card backs.
    $("me-name").textContent = `Watching · ${name(0)} (seat 1)`;
    $("me-badges").append(...seatBadges(0).children);
    if (s && s.known[0].length) {
      $("me-known").append(el("span", "muted", "known: "));
      sortHand(s.known[0], s.trump_suit).forEach((c) => $("me-known").append(chip(c)));
    }
    if (s) {
      for (let i = 0; i < s.hand_sizes[0]; i++) hand.append(backEl());
      fitHand(hand, s.hand_sizes[0]);
    }
    const free = meta.seats.filter((x) => x.kind === "person" && !x.taken);
    for (const f of free) {
      const b = el("button", "primary", `Sit in seat ${f.seat + 1}`);
      b.type = "button";
      b.addEventListener("click", () => join(f.seat));
      actions.append(b);
    }
    actions.append(el("div", "hint-text", "You are watching: hidden cards are never shown to spectators."));
    return;
  }
  $("me-name").textContent = `${meta.seats[seat].name || "You"} (seat ${seat + 1})`;
  $("me-badges").append(...seatBadges(seat).children);
  if (s && s.known[seat] && s.known[seat].length) {
    $("me-known").append(el("span", "muted", "others know: "));
    sortHand(s.known[seat], s.trump_suit).forEach((c) => $("me-known").append(chip(c)));
  }
  if (meta.status === "over" || meta.match.over) renderMatchOver(actions);
  if (!s) {
    if (meta.status === "waiting") {
      hand.append(el("p", "muted", "The deal starts as soon as every seat is taken."));
      actions.append(inviteBox());
    }
    return;
  }
  const l = legal();
  hand.classList.toggle("waiting", !l);
  const cards = sortHand(s.hand, s.trump_suit);
  const focusCard = app.focusCard;
  cards.forEach((card, i) => {
    const isTrump = s.trump_suit === card[1];
    let playable = false;
    if (l && !app.pending) playable = l.kind === "lead" ? app.choice.leadPlayable(l, card) : app.choice.beatPlayable(l, card);
    const classes = [];
    if (l) classes.push(playable ? "playable" : "unplayable");
    if (app.choice.sel.has(card) || app.choice.pickBeater === card) classes.push("selected");
    if (app.choice.used().has(card)) classes.push("used");
    const label = `${spoken(card)}${isTrump ? ", trump" : ""}${app.choice.sel.has(card) ? ", chosen" : ""}`;
    const b = cardEl(card, { button: true, classes, label });
    b.setAttribute("aria-pressed", app.choice.sel.has(card) || app.choice.used().has(card) ? "true" : "false");
    b.disabled = Boolean(l) && !playable && !app.choice.sel.has(card);
    b.tabIndex = i === 0 ? 0 : -1;
    b.addEventListener("click", () => onHandCard(card));
    if (l && l.kind === "beat" && playable && !app.choice.used().has(card)) {
      b.draggable = true;
      b.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", card));
    }
    b.addEventListener("dblclick", () => {
      if (l && l.kind === "lead" && app.choice.sel.size === 1 && app.choice.sel.has(card)) play();
    });
    hand.append(b);
  });
  fitHand(hand, cards.length);
  if (!cards.length && s.out.includes(seat)) hand.append(el("p", "muted", "You have no cards left: you are out and safe this deal."));
  if (focusCard) {
    const again = document.querySelector(`#hand [data-card="${focusCard}"], #battle button[data-card="${focusCard}"]`);
    if (again && !again.disabled) {
      handButtons().forEach((x) => { x.tabIndex = -1; });
      again.tabIndex = 0;
      again.focus({ preventScroll: true });
    }
  }
  renderActions(actions, l);
}

/** Overlap the cards of a long hand so that it fits on one row (two on a narrow screen). */
function fitHand(hand, n) {
  if (n < 2) return;
  const w = hand.firstElementChild.getBoundingClientRect().width;
  // Each card takes `step` pixels of the row (its width plus the gap, negative when cards overlap).
  const room = hand.clientWidth - 48;
  let perRow = n;
  let step = room / n;
  if (step < w * 0.36) {
    perRow = Math.ceil(n / 2);
    step = room / perRow;
  }
  const gap = Math.min(step, w + 10) - w;
  hand.style.setProperty("--gap", `${gap.toFixed(1)}px`);
  const cards = [...hand.children];
  const mid = (perRow - 1) / 2;
  const turn = Math.min(3, 28 / perRow);
  cards.forEach((card, i) => {
    const d = (i % perRow) - mid;
    card.style.setProperty("--rot", `${(d * turn).toFixed(2)}deg`);
    card.style.setProperty("--arc", `${(d * d * turn * 0.45).toFixed(1)}px`);
  });
}

function button(id, text, onClick, { primary = false, disabled = false, key = "" } = {}) {
  const b = el("button", primary ? "primary" : "");
  b.id = id;
  b.type = "button";
  b.textContent = text;
  if (key) {
    const k = el("kbd", "key-hint", key);
    b.append(" ", k);
  }
  b.disabled = disabled;
  b.addEventListener("click", onClick);
  return b;
}

function renderActions(bar, l) {
  const s = app.state;
  const busy = Boolean(app.pending);
  if (l && l.kind === "lead") {
    const n = app.choice.sel.size;
    bar.append(button("btn-lead", n ? `Lead ${symbols(sortHand([...app.choice.sel], null))}` : "Lead", play, { primary: true, disabled: !n || busy, key: "Enter" }));
    if (n) bar.append(button("btn-clear", "Clear", () => { clearChoice(); render(); }, { key: "Esc" }));
  } else if (l && l.kind === "beat") {
    const beaten = app.choice.pairs.size;
    const left = l.led.length - beaten;
    const text = left === 0 ? `Beat all ${beaten}` : beaten ? `Beat ${beaten}, take ${left}` : `Take ${left === 1 ? "it" : `all ${left}`}`;
    bar.append(button("btn-defend", text, play, { primary: true, disabled: busy, key: "Enter" }));
    if (beaten) bar.append(button("btn-clear", "Clear", () => { clearChoice(); render(); }, { key: "Esc" }));
  }
  if (l) {
    for (const suit of l.declare) {
      bar.append(button(`btn-declare-${suit}`, `Declare K${SUIT_SIGNS[suit]} Q${SUIT_SIGNS[suit]} marriage`, () => declare(suit), { disabled: busy, key: "M" }));
    }
    if (app.meta.hints) bar.append(button("btn-hint", "Hint", requestHint, { disabled: busy, key: "H" }));
  }
  const tip = el("div", "hint-text");
  if (app.hint) {
    const best = app.hint.best && app.hint.best.actions && app.hint.best.actions[0];
    tip.classList.add("hint-box");
    tip.append(el("strong", "", "Hint: "));
    if (best) {
      const action = { ...best };
      delete action.seat;
      tip.append(`${describeAction(action, "You").text.replace(/^You /, "")} `);
      const use = el("button", "small", "Use it");
      use.type = "button";
      use.id = "btn-use-hint";
      use.addEventListener("click", applyHint);
      tip.append(use);
    }
    const why = el("details");
    why.append(el("summary", "", "why?"), el("p", "", app.hint.text));
    tip.append(why);
  } else if (l && l.kind === "beat" && app.choice.pickBeater) {
    tip.textContent = `Choose the led card ${symbols([app.choice.pickBeater])} should beat.`;
  } else if (l && l.kind === "beat" && app.choice.focusLed) {
    tip.textContent = `Choose a card to beat ${symbols([app.choice.focusLed])}.`;
  } else if (l) {
    tip.textContent = l.kind === "lead" ? "Highlighted cards can be led. Double-click a card to lead it alone." : "Choose a card that beats a led card; unpaired led cards are picked up.";
  } else if (s && s.phase !== "over") {
    tip.textContent = busy ? "Sending…" : `Waiting for ${name(s.to_act)}.`;
  }
  bar.append(tip);
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

function renderMatchOver(bar) {
  if (!app.meta.match.over) return;
  const standings = [...app.meta.seats].sort((a, b) => app.meta.match.losses[a.seat] - app.meta.match.losses[b.seat]);
  bar.append(el("strong", "", `Match over. Fewest losses: ${name(standings[0].seat)}.`));
}

function requestHint() {
  if (!app.socket.send({ type: "hint", id: "h" })) toast("Not connected: the hint cannot be asked for now.");
  else announce("Thinking about a hint…");
}

async function join(seat) {
  try {
    const nameText = savedName() || prompt("Your name?", "") || "Player";
    saveName(nameText);
    const answer = await api(`/api/tables/${tableId}/join`, { method: "POST", body: { seat, name: nameText } });
    saveSeat(tableId, answer.seat, answer.token);
    app.seat = answer.seat;
    app.token = answer.token;
    app.socket.reconnectAs(answer.token);
  } catch (e) {
    toast(e.message);
  }
}

// --- keyboard ----------------------------------------------------------------------------------------

function handButtons() {
  return [...$("hand").querySelectorAll("button.card")];
}

function moveFocus(list, delta) {
  if (!list.length) return;
  const i = list.indexOf(document.activeElement);
  const next = list[(i + delta + list.length) % list.length];
  list.forEach((b) => { b.tabIndex = -1; });
  next.tabIndex = 0;
  next.focus();
}

function onKey(e) {
  if (e.target.closest("input, textarea, select, dialog") || e.ctrlKey || e.metaKey || e.altKey) return;
  const l = legal();
  const hand = handButtons();
  const ledButtons = [...$("battle").querySelectorAll("button.card")];
  const inHand = hand.includes(document.activeElement);
  const onLed = ledButtons.includes(document.activeElement);
  const key = e.key;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const list = onLed ? ledButtons : hand;
    moveFocus(list, key === "ArrowLeft" ? -1 : 1);
    e.preventDefault();
  } else if (key === "ArrowUp" && ledButtons.length && !onLed) {
    ledButtons[0].focus();
    e.preventDefault();
  } else if (key === "ArrowDown" && onLed && hand.length) {
    hand[0].focus();
    e.preventDefault();
  } else if (key === "Enter") {
    if (inHand || onLed || document.activeElement === document.body || !document.activeElement.matches("button, a")) {
      play();
      e.preventDefault();
    }
  } else if (/^[1-9]$/.test(key) && hand[Number(key) - 1]) {
    hand[Number(key) - 1].focus();
    onHandCard(hand[Number(key) - 1].dataset.card);
  } else if ((key === "t" || key === "T") && l && l.kind === "beat") {
    play();
  } else if (key === "m" || key === "M") {
    if (l && l.declare.length) declare(l.declare[0]);
  } else if (key === "Escape") {
    clearChoice();
    render();
  } else if (key === "h" || key === "H") {
    if (l && app.meta.hints) requestHint();
  } else if (key === "l" || key === "L") {
    $("log").focus();
  } else if (key === "?") {
    $("keys-dialog").showModal();
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
  document.addEventListener("keydown", onKey);
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(render, 120);
  });
  app.socket = new TableSocket(tableId, app.token, { message: onMessage, status: setConn, fatal: onFatal });
  app.socket.connect();
  // "gone, N s" counts up between messages.
  setInterval(() => {
    if (app.meta && app.meta.seats.some((x) => x.kind === "person" && x.taken && !x.online)) {
      renderSeats();
      if (app.seat != null) {
        $("me-badges").replaceChildren(...seatBadges(app.seat).children);
      }
    }
  }, 1000);
  window.mustamaija = app; // For the browser test and for curious players in the console.
}

init();
