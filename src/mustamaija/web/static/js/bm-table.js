// The Black Maria table page: connects to the table's WebSocket, draws what this seat may see, and lets a person
// pass and play. Everything shown comes from the server's per-seat state (docs/web.md, "Black Maria tables").

import { TableSocket, api, forgetSeat, loadSeat, saveSeat, savedName } from "./api.js";
import { SUIT_WORDS, cardEl, chip, sortHand, spoken, symbols } from "./cards.js";
import { $, el } from "./dom.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

const app = {
  seat: null,
  token: null,
  meta: null,
  state: null,
  log: [],
  chosen: new Set(), // cards chosen to pass
  pending: null, // the id of an action sent and not yet answered
  hint: null,
  focusCard: null,
  socket: null,
  turnKey: "",
  nextId: 1,
};

// --- seat and connection ---------------------------------------------------------------------------

function readSeat() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  const seat = Number(params.get("seat"));
  if (token && Number.isInteger(seat)) {
    saveSeat(tableId, seat, token);
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
  } else if (code === 4404) {
    $("status").textContent = "There is no such table.";
  }
}

function onMessage(msg) {
  if (msg.type === "welcome") {
    app.seat = msg.seat;
  } else if (msg.type === "sync") {
    app.log = msg.log || [];
    setTable(msg.table, msg.state);
  } else if (msg.type === "update") {
    for (const ev of msg.events || []) {
      if (ev.kind === "deal_start") app.log = [];
      if (!app.log.some((e) => e.seq === ev.seq)) app.log.push(ev);
      announce(describeEvent(ev));
    }
    setTable(msg.table, msg.state);
  } else if (msg.type === "ack") {
    if (msg.id === app.pending) app.pending = null;
    render();
  } else if (msg.type === "hint") {
    app.hint = msg.hint;
    render();
  } else if (msg.type === "error") {
    if (msg.id && msg.id === app.pending) app.pending = null;
    if (msg.error.code === "stale" || msg.error.code === "not_your_turn") app.socket.send({ type: "sync" });
    toast(msg.error.message || msg.error.code);
    render();
  }
}

function setTable(meta, state) {
  const before = app.state;
  app.meta = meta;
  app.state = state;
  if (!state || !before || before.deal !== state.deal || state.phase !== "pass") app.chosen.clear();
  if (!state || !before || before.actions !== state.actions) app.hint = null;
  render();
  const l = legal();
  const key = state ? `${state.deal}:${state.actions}` : "";
  if (l && key !== app.turnKey) {
    app.turnKey = key;
    announce(l.kind === "pass" ? `Your turn to pass ${l.count} cards to ${name(left())}.`
      : `Your turn: ${l.cards.length} playable card${l.cards.length === 1 ? "" : "s"}.`);
  }
}

// --- acting ------------------------------------------------------------------------------------------

function legal() {
  return app.state && app.seat != null ? app.state.legal : null;
}

function send(action) {
  if (app.pending) return;
  const id = `a${app.nextId++}`;
  if (!app.socket.send({ type: "action", id, version: app.meta.version, action })) {
    toast("Not connected: the action was not sent.");
    return;
  }
  app.pending = id;
  render();
}

function onCard(card) {
  const l = legal();
  if (!l || app.pending) return;
  app.focusCard = card;
  if (l.kind === "pass") {
    if (app.chosen.has(card)) app.chosen.delete(card);
    else if (app.chosen.size < l.count) app.chosen.add(card);
    else toast(`You pass ${l.count} cards: unchoose one first.`, "info");
    render();
    announce(`${app.chosen.size} of ${l.count} chosen${app.chosen.has(card) ? `: ${spoken(card)}` : ""}.`);
  } else if (l.cards.includes(card)) {
    send({ play: card });
  }
}

function confirmPass() {
  const l = legal();
  if (l && l.kind === "pass" && app.chosen.size === l.count) send({ pass: [...app.chosen] });
}

function requestHint() {
  if (!app.socket.send({ type: "hint", id: "h" })) toast("Not connected: the hint cannot be asked for now.");
}

async function join(seat) {
  try {
    const answer = await api(`/api/tables/${tableId}/join`, { method: "POST", body: { seat, name: savedName() || undefined } });
    saveSeat(tableId, answer.seat, answer.token);
    app.seat = answer.seat;
    app.token = answer.token;
    app.socket.reconnectAs(answer.token);
  } catch (e) {
    toast(e.message);
  }
}

// --- words -------------------------------------------------------------------------------------------

function name(seat) {
  if (seat == null || !app.meta) return "";
  if (seat === app.seat) return "you";
  return app.meta.seats[seat].name || `seat ${seat + 1}`;
}

function Name(seat) {
  const n = name(seat);
  return n.charAt(0).toUpperCase() + n.slice(1);
}

function left() {
  return (app.seat + 1) % app.meta.players;
}

function right() {
  return (app.seat + app.meta.players - 1) % app.meta.players;
}

function describeEvent(ev) {
  switch (ev.kind) {
    case "join":
      return `${ev.name} sits in seat ${ev.seat + 1}.`;
    case "deal_start":
      return `Hand ${ev.deal}: ${Name(ev.dealer)} deal${ev.dealer === app.seat ? "" : "s"}.`;
    case "pass":
      return `${Name(ev.seat)} passed ${ev.cards} cards.`;
    case "exchange":
      return `The passed cards change hands; ${name(ev.leader)} lead${ev.leader === app.seat ? "" : "s"}.`;
    case "action": {
      const card = ev.action.play;
      let text = `${Name(ev.seat)} played the ${spoken(card)}.`;
      if (ev.hearts_broken) text += " Hearts are broken.";
      if (ev.trick) text += ` ${Name(ev.trick.winner)} won the trick${ev.trick.points ? `, ${ev.trick.points} point${ev.trick.points === 1 ? "" : "s"}` : ""}.`;
      return text;
    }
    case "deal_over":
      return `The hand is over: ${ev.points.map((p, s) => `${name(s)} ${p}`).join(", ")}. Totals: ${ev.totals.map((t, s) => `${name(s)} ${t}`).join(", ")}.`;
    case "match_over":
      return `The game is over: ${ev.winners.map(name).join(" and ")} win${ev.winners.length === 1 && ev.winners[0] !== app.seat ? "s" : ""} with the lowest total.`;
    case "rematch":
      return `A new game begins (game ${ev.match}).`;
    default:
      return "";
  }
}

function announce(text) {
  if (!text) return;
  const box = $("announcer");
  const p = el("p", "", text);
  box.append(p);
  while (box.childElementCount > 6) box.firstElementChild.remove();
}

function toast(text, kind = "error") {
  const t = el("div", `toast ${kind === "info" ? "info" : ""}`, text);
  t.setAttribute("role", kind === "info" ? "status" : "alert");
  document.body.append(t);
  setTimeout(() => t.remove(), 4500);
  if (kind !== "info") $("alert").textContent = text;
}

// --- drawing -----------------------------------------------------------------------------------------

function render() {
  if (!app.meta) return;
  const meta = app.meta;
  $("table-title").textContent = `${meta.name || "Black Maria"} · ${meta.players} players · `
    + (meta.match.hands ? `${meta.match.hands} hand${meta.match.hands === 1 ? "" : "s"}` : `to ${meta.match.target_score} points`)
    + (meta.rules.allow_renege ? " · reneging allowed" : "");
  renderSeats();
  renderCenter();
  renderMe();
  renderScores();
  renderLog();
}

function seatPositions(n) {
  // Seats around an ellipse, the viewer (or seat 1) at the bottom, the others clockwise from its left.
  const base = app.seat == null ? 0 : app.seat;
  const out = [];
  for (let i = 0; i < n; i++) {
    const seat = (base + i) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * i) / n;
    out.push({ seat, x: 50 + 38 * Math.cos(angle), y: 50 + 41 * Math.sin(angle) });
  }
  return out;
}

function renderSeats() {
  const s = app.state;
  const meta = app.meta;
  const box = $("seats");
  box.replaceChildren();
  for (const { seat, x, y } of seatPositions(meta.players)) {
    const info = meta.seats[seat];
    const d = el("div", "bm-seat");
    d.dataset.seat = seat;
    d.style.left = `${x}%`;
    d.style.top = `${y}%`;
    if (s && s.to_act === seat) d.classList.add("to-act");
    if (seat === app.seat) d.classList.add("me");
    const who = info.name || (info.taken ? `seat ${seat + 1}` : "free seat");
    d.append(el("span", "name", `${who}${seat === app.seat ? " (you)" : ""}`));
    const facts = [`seat ${seat + 1}`];
    if (s && s.dealer === seat) facts.push("dealer");
    if (info.kind === "bot") facts.push("bot");
    if (info.kind === "person" && info.taken && !info.online) facts.push(info.takeover ? "bot plays" : "gone");
    if (s && s.phase === "pass") facts.push(s.passed_seats[seat] ? "passed" : "passing");
    d.append(el("span", "sub", facts.join(" · ")));
    if (s) {
      const pts = el("span", "pts");
      pts.innerHTML = `${s.hand_sizes[seat]} cards · ${s.tricks[seat]} tricks · <b>${s.points[seat]}</b> pts`;
      pts.title = `${s.points[seat]} penalty points taken this hand; total ${meta.match.totals[seat]}`;
      d.append(pts);
      if (s.won[seat].length) {
        const won = el("span", "known-row");
        s.won[seat].forEach((c) => won.append(chip(c)));
        won.setAttribute("aria-label", `penalty cards taken: ${s.won[seat].map(spoken).join(", ")}`);
        d.append(won);
      }
    }
    d.setAttribute("aria-label", `${who}, ${facts.join(", ")}${s ? `, ${s.points[seat]} points this hand, total ${meta.match.totals[seat]}` : ""}`);
    box.append(d);
  }
}

function renderCenter() {
  const s = app.state;
  const meta = app.meta;
  const hearts = $("hearts");
  const trick = $("trick");
  const last = $("last-trick");
  trick.replaceChildren();
  last.replaceChildren();
  $("hand-no").textContent = meta.deal ? `hand ${meta.match.played + (s && s.phase !== "over" ? 1 : 0)}` : "";
  if (!s) {
    hearts.textContent = "";
    setStatus(meta.status === "waiting" ? "Waiting for people to take the free seats." : "");
    return;
  }
  hearts.textContent = s.hearts_broken ? "♥ hearts broken" : "♥ hearts not broken";
  hearts.classList.toggle("broken", s.hearts_broken);
  trick.classList.toggle("empty", !s.trick.length);
  trick.dataset.empty = s.phase === "pass" ? `${s.passed_seats.filter(Boolean).length} of ${meta.players} seats have passed`
    : s.phase === "over" ? "" : `${name(s.to_act)} lead${s.to_act === app.seat ? "" : "s"}`;
  s.trick.forEach((p, i) => {
    const box = el("div", `bm-play${i === 0 ? " led" : ""}`);
    box.append(cardEl(p.card, { label: `${spoken(p.card)}, played by ${name(p.seat)}${i === 0 ? ", led" : ""}` }));
    box.append(el("span", "who", `${name(p.seat)}${i === 0 ? " led" : ""}`));
    trick.append(box);
  });
  if (s.last_trick) {
    const t = s.last_trick;
    last.append(el("span", "", `Last trick: ${name(t.winner)} won it${t.points ? ` (${t.points} pt${t.points === 1 ? "" : "s"})` : ""}:`));
    t.cards.forEach((p) => last.append(chip(p.card)));
    last.dataset.winner = t.winner;
  }
  if (s.phase === "over") {
    const banner = el("div", "bm-banner");
    banner.append(el("p", "", `Hand over: ${s.points.map((p, i) => `${name(i)} ${p}`).join(" · ")}`));
    if (s.reneges.some((r) => r)) banner.append(el("p", "muted", `Reneges (10 points each): ${s.reneges.map((r, i) => (r ? `${name(i)} ${r}` : "")).filter(Boolean).join(", ")}`));
    if (meta.match.over) banner.append(el("p", "", `Game over: ${meta.match.winners.map(name).join(" and ")} win${meta.match.winners.length === 1 && meta.match.winners[0] !== app.seat ? "s" : ""}.`));
    else banner.append(el("p", "muted", "The next hand is dealt in a moment."));
    trick.replaceChildren(banner);
    trick.classList.remove("empty");
  }
  let text = "";
  let mine = false;
  const l = legal();
  if (s.phase === "over") text = meta.match.over ? "The game is over." : "The hand is over.";
  else if (l && l.kind === "pass") { text = `Choose ${l.count} cards to pass to ${name(left())}.`; mine = true; }
  else if (l) { text = s.trick.length ? `Your turn: follow ${SUIT_WORDS[s.led]} if you can.` : "Your turn to lead."; mine = true; }
  else if (s.phase === "pass") text = `${Name(s.to_act)} is choosing cards to pass.`;
  else text = `${Name(s.to_act)} to play.`;
  setStatus(text, mine);
}

function setStatus(text, mine = false) {
  const st = $("status");
  st.textContent = text;
  st.classList.toggle("mine", mine);
}

function renderMe() {
  const s = app.state;
  const meta = app.meta;
  const hand = $("hand");
  const actions = $("actions");
  const panel = $("pass-panel");
  hand.replaceChildren();
  actions.replaceChildren();
  panel.replaceChildren();
  panel.hidden = true;
  if (app.seat == null) {
    $("me-name").textContent = "Watching";
    $("me-info").textContent = "hidden cards are never shown to spectators";
    for (const f of meta.seats.filter((x) => x.kind === "person" && !x.taken)) {
      const b = el("button", "primary", `Sit in seat ${f.seat + 1}`);
      b.type = "button";
      b.addEventListener("click", () => join(f.seat));
      actions.append(b);
    }
    return;
  }
  $("me-name").textContent = `${meta.seats[app.seat].name || "You"} (seat ${app.seat + 1})`;
  $("me-info").textContent = s ? `${s.points[app.seat]} points this hand · total ${meta.match.totals[app.seat]}` : "";
  if (meta.match.over && app.seat != null) {
    const b = el("button", "primary", "New game");
    b.type = "button";
    b.addEventListener("click", () => app.socket.send({ type: "rematch" }));
    actions.append(b);
  }
  if (!s) return;
  const l = legal();
  const playable = new Set(l ? l.cards : []);
  const firstTrick = s.phase === "play" && s.tricks.every((t) => t === 0);
  const received = new Set(firstTrick || s.phase === "over" ? s.received : []);
  renderPassPanel(panel, s, l);
  const cards = sortHand(s.hand, null);
  cards.forEach((card, i) => {
    const classes = [];
    if (l) classes.push(playable.has(card) ? "playable" : "unplayable");
    if (app.chosen.has(card)) classes.push("selected");
    if (received.has(card)) classes.push("received");
    const label = `${spoken(card)}${received.has(card) ? ", received" : ""}${app.chosen.has(card) ? ", chosen" : ""}`;
    const b = cardEl(card, { button: true, classes, label });
    if (l && l.kind === "pass") b.setAttribute("aria-pressed", app.chosen.has(card) ? "true" : "false");
    b.disabled = Boolean(l) && !playable.has(card);
    b.tabIndex = -1;
    b.addEventListener("click", () => onCard(card));
    hand.append(b);
    if (i === 0) b.tabIndex = 0;
  });
  if (app.focusCard) {
    const again = hand.querySelector(`[data-card="${app.focusCard}"]`);
    if (again && !again.disabled) {
      handButtons().forEach((x) => { x.tabIndex = -1; });
      again.tabIndex = 0;
      if (hand.contains(document.activeElement) || document.activeElement === document.body) again.focus({ preventScroll: true });
    }
  }
  if (l && meta.hints) {
    const h = el("button", "small ghost", "Hint");
    h.type = "button";
    h.id = "btn-hint";
    h.addEventListener("click", requestHint);
    actions.append(h);
  }
  if (app.hint) actions.append(el("div", "hint-text hint-box", app.hint.text));
  if (app.pending) actions.append(el("div", "hint-text", "Sending…"));
}

function renderPassPanel(panel, s, l) {
  if (s.phase === "pass") {
    panel.hidden = false;
    if (l && l.kind === "pass") {
      panel.append(el("strong", "", `Pass ${l.count} cards to ${name(left())}`));
      const chosen = el("div", "chosen");
      chosen.setAttribute("aria-label", "chosen cards");
      sortHand([...app.chosen], null).forEach((c) => chosen.append(chip(c)));
      if (!app.chosen.size) chosen.append(el("span", "muted", "click the cards in your hand"));
      panel.append(chosen);
      const b = el("button", "primary", `Pass ${app.chosen.size}/${l.count}`);
      b.type = "button";
      b.id = "btn-pass";
      b.disabled = app.chosen.size !== l.count || Boolean(app.pending);
      b.addEventListener("click", confirmPass);
      panel.append(b);
    } else if (s.passed.length) {
      panel.append(el("strong", "", `You passed ${symbols(s.passed)} to ${name(left())}.`));
      panel.append(el("span", "muted", `Waiting for the others: ${s.passed_seats.filter(Boolean).length} of ${s.passed_seats.length} have passed. You see what you receive once everyone has.`));
    } else {
      panel.append(el("span", "muted", `Passing: ${s.passed_seats.filter(Boolean).length} of ${s.passed_seats.length} seats have passed.`));
    }
  } else if (s.received.length && (s.tricks.every((t) => t === 0) || s.phase === "over")) {
    panel.hidden = false;
    panel.id = "pass-panel";
    const line = el("span", "");
    line.append(`You passed ${symbols(s.passed)} to ${name(left())} and received `);
    s.received.forEach((c) => line.append(chip(c), " "));
    line.append(`from ${name(right())}.`);
    panel.append(line);
  }
}

function renderScores() {
  const meta = app.meta;
  const s = app.state;
  const box = $("scores");
  box.replaceChildren();
  const table = el("table", "bm-scores");
  const head = el("tr");
  ["Seat", ...meta.match.results.map((r) => `H${meta.match.results.indexOf(r) + 1}`), "This hand", "Total"].forEach((t) => head.append(el("th", "", t)));
  table.append(head);
  const low = Math.min(...meta.match.totals);
  for (let seat = 0; seat < meta.players; seat++) {
    const row = el("tr", meta.match.played && meta.match.totals[seat] === low ? "lead" : "");
    row.append(el("td", "", name(seat) || `seat ${seat + 1}`));
    meta.match.results.forEach((r) => row.append(el("td", "", String(r.points[seat]))));
    row.append(el("td", "", s && s.phase !== "over" ? String(s.points[seat]) : "–"));
    row.append(el("td", "", String(meta.match.totals[seat])));
    table.append(row);
  }
  box.append(table);
  const end = meta.match.hands ? `${meta.match.played} of ${meta.match.hands} hands played` : `game to ${meta.match.target_score} points; ${meta.match.played} hands played`;
  box.append(el("p", "muted", `${end}. The lowest total wins.`));
}

function renderLog() {
  const list = $("log");
  list.replaceChildren();
  for (const ev of app.log) {
    const text = describeEvent(ev);
    if (!text) continue;
    const li = el("li", ev.kind === "deal_start" ? "new-deal" : "", text);
    if (ev.seat === app.seat) li.classList.add("mine");
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

// --- keyboard ----------------------------------------------------------------------------------------

function handButtons() {
  return [...$("hand").querySelectorAll("button.card")];
}

function onKey(e) {
  if (e.target.closest("input, textarea, select, dialog") || e.ctrlKey || e.metaKey || e.altKey) return;
  const hand = handButtons();
  const i = hand.indexOf(document.activeElement);
  const key = e.key;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const enabled = hand.filter((b) => !b.disabled);
    if (!enabled.length) return;
    const at = enabled.indexOf(document.activeElement);
    const next = enabled[(at + (key === "ArrowLeft" ? -1 : 1) + enabled.length) % enabled.length];
    hand.forEach((b) => { b.tabIndex = -1; });
    next.tabIndex = 0;
    next.focus();
    app.focusCard = next.dataset.card;
    e.preventDefault();
  } else if (key === " " && i >= 0) {
    onCard(hand[i].dataset.card);
    e.preventDefault();
  } else if (key === "Enter") {
    const l = legal();
    if (l && l.kind === "pass") {
      confirmPass();
      e.preventDefault();
    } else if (l && i >= 0) {
      onCard(hand[i].dataset.card);
      e.preventDefault();
    }
  } else if (/^[1-9]$/.test(key) && hand[Number(key) - 1]) {
    hand[Number(key) - 1].focus();
    onCard(hand[Number(key) - 1].dataset.card);
  } else if (key === "Escape") {
    app.chosen.clear();
    render();
  } else if ((key === "h" || key === "H") && legal() && app.meta.hints) {
    requestHint();
  } else if (key === "l" || key === "L") {
    $("log").focus();
  } else if (key === "?") {
    $("keys-dialog").showModal();
  }
}

// --- start -------------------------------------------------------------------------------------------

function init() {
  if (!tableId) return;
  readSeat();
  $("btn-keys").addEventListener("click", () => $("keys-dialog").showModal());
  $("keys-close").addEventListener("click", () => $("keys-dialog").close());
  $("btn-invite").addEventListener("click", () => {
    navigator.clipboard?.writeText(`${location.origin}/t/${tableId}`);
    toast("The table's link is copied: friends take a free seat from it.", "info");
  });
  document.addEventListener("keydown", onKey);
  app.socket = new TableSocket(tableId, app.token, { message: onMessage, status: setConn, fatal: onFatal });
  app.socket.connect();
  window.mustamaija = app; // For the browser test and for curious players in the console.
}

init();
