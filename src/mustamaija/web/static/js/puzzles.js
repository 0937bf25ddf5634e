// The puzzle page: a game's endgame puzzles played against its exact solver (docs/web.md, "Puzzles").
//
// The position is drawn by the game's table layout (js/layouts/<layout>.js), as at a table, with the others'
// hands face up, since a puzzle is an open endgame. The server keeps nothing: every move sends the whole list
// of the player's moves from the start (POST /api/puzzles/{id}/moves) and gets the verdict, the others' reply,
// and at the end the solution. The streak (puzzles solved at the first try in a row), the best streak and each
// puzzle's mark live in localStorage, by the puzzle's key, with the rules of the terminal's puzzle screen.

import { api } from "./api.js";
import { cardEl, sortHand } from "./cards.js";
import { $, el } from "./dom.js";
import { layoutModule } from "./layouts.js";
import { announce, button, fitHand, handButtons, moveFocus, refocus, toast } from "./hand.js";
import * as motion from "./motion.js";
import { mountSettings, onChange } from "./settings.js";
import * as sound from "./sound.js";

const PROGRESS_KEY = "mustamaija:puzzles";
const LEVEL_KEY = "mustamaija:puzzles:level";
const MARKS = ["solved", "failed", "later"];
const MARK_SIGNS = { solved: "✓", failed: "✗", later: "↻", "": "·" };
const MARK_WORDS = { solved: "solved at the first try", failed: "failed", later: "solved at a later try", "": "not tried" };
const LEVELS = ["easy", "medium", "hard"];
const LEVEL_DOTS = { easy: "●○○", medium: "●●○", hard: "●●●" };
const MOTION_SCOPE = "#seats, #board, #hand";
const PUZZLE_KEYS = [
  ["R", "try the puzzle again"],
  ["S", "show the solution"],
  ["N", "next unsolved puzzle"],
  ["L", "go to the moves"],
  ["?", "this help"],
];

const app = {
  game: null,          // the game's name, from the list
  list: [],            // GET /api/puzzles: the puzzles, easiest first
  level: readLevel(),  // the list's filter: "all" or a level
  puzzle: null,        // GET /api/puzzles/{id}: the puzzle and its start
  moves: [],           // the player's moves so far, sent whole each time
  answer: null,        // the last answer of POST .../moves
  meta: null,          // what the layout reads of a "table": players, seats, rules
  state: null,         // the position drawn: the start, or the last answer's
  seat: 0,
  pending: null,
  focusCard: null,
  outcome: null,       // how the attempt ended: {solved, first, gaveUp}
  progress: readProgress(),
  layout: null,
  layoutName: null,
  request: 0,          // answers to requests older than the last are dropped
  motion: motion.stats,
};

// --- progress: the streak and the marks ------------------------------------------------------------------

function readProgress() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(PROGRESS_KEY) || "{}") || {};
  } catch {
    stored = {}; // A broken entry is forgotten rather than breaking the page.
  }
  const count = (v) => (Number.isInteger(v) && v >= 0 ? v : 0);
  const marks = {};
  if (stored.marks && typeof stored.marks === "object") {
    for (const [key, mark] of Object.entries(stored.marks)) if (MARKS.includes(mark)) marks[key] = mark;
  }
  const streak = count(stored.streak);
  return { streak, best: Math.max(count(stored.best), streak), marks };
}

function saveProgress() {
  try {
    localStorage.setItem(PROGRESS_KEY, JSON.stringify(app.progress));
  } catch {
    /* A private window may refuse storage: the streak still holds for this page. */
  }
}

function readLevel() {
  try {
    const level = localStorage.getItem(LEVEL_KEY);
    return LEVELS.includes(level) ? level : "all";
  } catch {
    return "all";
  }
}

/**
 * Record the end of an attempt at the puzzle `key` (`solved` false for a wrong move or the solution asked for);
 * return whether it was the puzzle's first try, the only one that counts for the streak.
 */
function finish(key, solved) {
  const p = app.progress;
  const first = !(key in p.marks);
  if (first) {
    p.marks[key] = solved ? "solved" : "failed";
    p.streak = solved ? p.streak + 1 : 0;
    p.best = Math.max(p.best, p.streak);
  } else if (solved && p.marks[key] === "failed") {
    p.marks[key] = "later";
  }
  saveProgress();
  return first;
}

function mark(key) {
  return app.progress.marks[key] || "";
}

// --- what the layout uses (the table page's context, for a table of one person and the solver) ----------------

function legal() {
  return app.state && app.state.legal ? app.state.legal : null;
}

function name(seat) {
  if (seat === 0) return "You";
  const names = app.puzzle ? app.puzzle.puzzle.names : [];
  return names[seat] || `Seat ${seat}`;
}

function seatOrder() {
  const out = [];
  for (let seat = 1; seat < app.meta.players; seat++) out.push(seat);
  return out;
}

function seatSub(seat) {
  const n = app.state ? app.state.hand_sizes[seat] : 0;
  return `${n} card${n === 1 ? "" : "s"} · solver`;
}

const context = {
  app, tableId: "", legal, name, send: sendMove, render, announce, toast, button, seatOrder, seatSub,
  presenceBadges: () => [], fitHand, handButtons, moveFocus, refocus,
};

// --- talking to the server ------------------------------------------------------------------------------

function query() {
  return app.game ? `?game=${encodeURIComponent(app.game)}` : "";
}

async function loadList() {
  const answer = await api(`/api/puzzles${query()}`);
  app.game = answer.game;
  app.list = answer.puzzles;
  document.title = `${answer.title} puzzles · Card tables`;
  $("game-title").textContent = `${answer.title} puzzles`;
}

async function loadLayout(layout) {
  if (app.layoutName === layout) return;
  const module = await layoutModule(layout);
  app.layout = module.createLayout(context);
  app.layoutName = layout;
  document.body.dataset.layout = layout;
  fillKeys();
}

/** Open the puzzle `id`: its position, no moves yet. */
async function open(id) {
  const request = ++app.request;
  let position;
  try {
    position = await api(`/api/puzzles/${encodeURIComponent(id)}${query()}`);
  } catch (e) {
    toast(e.message);
    return;
  }
  if (request !== app.request) return;
  await loadLayout(position.layout);
  app.puzzle = position;
  const names = position.puzzle.names;
  app.meta = {
    players: position.puzzle.players,
    rules: position.rules,
    seats: names.map((n, seat) => ({ seat, name: n, kind: seat === 0 ? "person" : "bot", taken: true, online: true })),
  };
  if (location.hash.slice(1) !== id) history.replaceState(null, "", `#${encodeURIComponent(id)}`);
  restart();
  announce(`Puzzle ${position.puzzle.id}, ${position.puzzle.level}: ${position.puzzle.title}. ${position.puzzle.note}`);
}

/** Start the open puzzle again from its position. */
function restart() {
  const before = app.state;
  app.moves = [];
  app.answer = null;
  app.outcome = null;
  app.pending = null;
  app.state = app.puzzle.state;
  app.layout.newState(before, app.state);
  render({ plan: null });
  focusHand();
}

function focusHand() {
  const first = handButtons().find((b) => !b.disabled);
  if (first) first.focus({ preventScroll: true });
}

/** Play a move (sent by the layout: a lead or a defence), with every move before it. */
async function sendMove(action) {
  if (!legal() || app.pending || !app.puzzle) return;
  await ask([...app.moves, action], false);
}

/** Ask the server about `moves`; on an answer they become the attempt's moves. */
async function ask(moves, solution) {
  const request = ++app.request;
  const id = app.puzzle.puzzle.id;
  app.pending = "move";
  render({ still: true });
  let answer;
  try {
    answer = await api(`/api/puzzles/${encodeURIComponent(id)}/moves${query()}`, { method: "POST", body: { moves, solution } });
  } catch (e) {
    if (request === app.request) {
      app.pending = null;
      toast(e.message);
      render({ still: true });
    }
    return;
  }
  if (request !== app.request) return; // Another puzzle, or a restart, since.
  app.pending = null;
  const before = app.state;
  const moved = moves.length !== app.moves.length;
  app.moves = moves;
  app.answer = answer;
  app.state = answer.state;
  const cues = [];
  if (moved) {
    app.layout.newState(before, app.state);
    for (const r of answer.replies) announce(r.text);
    cues.push("card");
  }
  const key = app.puzzle.puzzle.key;
  const earlier = app.outcome;
  if (answer.status !== "solving" && !(earlier && earlier.ended)) {
    const solved = answer.status === "solved";
    const first = finish(key, solved);
    // A solution asked for earlier in this attempt already counted it (as a miss).
    app.outcome = earlier ? { ...earlier, ended: true, solved } : { ended: true, solved, first, gaveUp: false };
    cues.push(solved ? "win" : "lose");
  } else if (solution && answer.status === "solving" && !earlier) {
    // The solution asked for before the end: the attempt is given up (a miss, if it was the first try).
    app.outcome = { ended: false, solved: false, first: finish(key, false), gaveUp: true };
  }
  if (answer.verdict) announce(answer.verdict.message);
  render({ plan: moved && app.layout.motionPlan ? app.layout.motionPlan(before, app.state) : null });
  sound.play(cues);
  if (answer.status === "solving") focusHand();
}

function showSolution() {
  if (!app.puzzle || app.pending) return;
  if (app.answer && app.answer.solution) {
    $("solution-panel").scrollIntoView({ block: "nearest" });
    return;
  }
  ask(app.moves, true).then(() => $("solution-panel").scrollIntoView({ block: "nearest" }));
}

/** Return the puzzles the level filter shows. */
function shown() {
  return app.list.filter((p) => app.level === "all" || p.level === app.level);
}

/** Open the next puzzle of the list not tried yet (else one failed), after the open one. */
function nextUnsolved() {
  const list = shown();
  if (!list.length) return;
  const at = app.puzzle ? list.findIndex((p) => p.id === app.puzzle.puzzle.id) : -1;
  const order = list.map((_, k) => list[(at + 1 + k) % list.length]);
  const next = order.find((p) => !mark(p.key) && (!app.puzzle || p.id !== app.puzzle.puzzle.id))
    || order.find((p) => mark(p.key) === "failed" && (!app.puzzle || p.id !== app.puzzle.puzzle.id));
  if (next) open(next.id);
  else toast(`You have solved every puzzle${app.level === "all" ? "" : ` of the ${app.level} level`}.`, "info");
}

// --- drawing -----------------------------------------------------------------------------------------------

function render({ plan = null, still = false } = {}) {
  if (!app.puzzle || !app.layout) return;
  const snap = still ? null : motion.capture(MOTION_SCOPE);
  const active = document.activeElement;
  app.focusCard = active && active.closest && active.closest("#hand, #board") ? active.dataset.card || null : null;
  const status = app.answer ? app.answer.status : "solving";
  const body = document.body.dataset;
  body.status = status;
  body.myTurn = legal() && !app.pending ? "1" : "0";
  body.moves = String(app.moves.length);
  body.puzzle = app.puzzle.puzzle.id;
  renderTop();
  app.layout.renderSeats($("seats"));
  openHands();
  app.layout.renderBoard($("board"));
  renderStatus(status);
  renderResult(status);
  renderMe();
  renderInfo(status);
  renderMoves();
  renderSolution();
  renderList();
  motion.play(snap, plan || {});
}

function renderTop() {
  const p = app.puzzle.puzzle;
  $("puzzle-title").textContent = `${p.id} · ${p.title}`;
  $("streak-now").textContent = String(app.progress.streak);
  $("streak-best").textContent = String(app.progress.best);
  document.body.dataset.streak = String(app.progress.streak);
  document.body.dataset.best = String(app.progress.best);
}

/** Show each other seat's hand face up in place of its card backs: every card of a puzzle is known. */
function openHands() {
  const s = app.state;
  for (const div of $("seats").querySelectorAll(".seat")) {
    const seat = Number(div.dataset.seat);
    const cards = sortHand(s.hands[seat] || [], s.trump_suit);
    const fan = el("div", "open-hand");
    fan.setAttribute("aria-label", `${name(seat)} holds ${cards.length ? cards.join(" ") : "nothing"}`);
    for (const c of cards) fan.append(cardEl(c, { classes: ["small"] }));
    // In the place of the backs, or of the known cards' chips (the same cards again), whichever the seat shows.
    const old = div.querySelector(".mini-fan, .known-row");
    if (old) old.replaceWith(fan);
    else div.insertBefore(fan, div.querySelector(".badges"));
  }
}

function renderStatus(status) {
  const st = $("status");
  let text = "";
  let mine = false;
  if (app.pending) text = "The solver is thinking…";
  else if (status === "solved") text = "Solved: you are safe.";
  else if (status === "failed") text = "Refuted: this line loses.";
  else if (legal()) [text, mine] = app.layout.statusText();
  st.textContent = text;
  st.hidden = !text;
  st.classList.toggle("mine", Boolean(mine));
}

function renderResult(status) {
  const box = $("result");
  box.replaceChildren();
  box.hidden = status === "solving";
  if (box.hidden) return;
  const solved = status === "solved";
  const o = app.outcome || {};
  box.classList.toggle("bad", !solved);
  box.append(el("p", "result-big", solved ? "Solved ✓" : "Refuted ✗"));
  let news;
  if (!o.first) news = `Not your first try at this puzzle: the streak stays at ${app.progress.streak}.`;
  else if (solved && !o.gaveUp) news = `Solved at the first try: streak ${app.progress.streak} (best ${app.progress.best}).`;
  else news = `The streak starts again (best ${app.progress.best}).`;
  const line = el("p", "muted", news);
  line.id = "result-news";
  box.append(line);
  const links = el("div", "dialog-actions");
  links.append(button("btn-result-retry", "Try again", restart, { key: "R" }),
    button("btn-result-next", "Next unsolved", nextUnsolved, { primary: true, key: "N" }));
  box.append(links);
}

function renderMe() {
  const hand = $("hand");
  const actions = $("actions");
  hand.replaceChildren();
  actions.replaceChildren();
  $("me-badges").replaceChildren(...app.layout.badges(0));
  hand.classList.toggle("waiting", !legal());
  app.layout.renderHand(hand);
  if (legal()) app.layout.renderActions(actions);
  const tip = el("div", "hint-text");
  if (app.pending) tip.textContent = "Judging your move…";
  else if (legal()) tip.textContent = app.layout.tip();
  else if (app.answer && app.answer.status === "solved") tip.textContent = "You are out of danger. Open the next puzzle, or try this one again.";
  else if (app.answer && app.answer.status === "failed") tip.textContent = "See the refutation in the moves, and the solution.";
  actions.append(tip);
}

function renderInfo(status) {
  const p = app.puzzle.puzzle;
  const level = $("puzzle-level");
  level.replaceChildren(el("span", `level-dots level-${p.level}`, LEVEL_DOTS[p.level] || ""), ` ${p.level} · ${p.players} players · `,
    el("span", `source-tag source-${p.source}`, p.source === "play" ? "real play" : "made"), ` · ${MARK_WORDS[mark(p.key)]}`);
  $("puzzle-goal").textContent = p.goal;
  $("puzzle-goal").hidden = app.moves.length > 0; // Told before the first move; then the moves need the room.
  $("puzzle-note").textContent = p.note;
  $("puzzle-origin").textContent = p.origin ? `${p.source === "play" ? "Found in" : "Source"}: ${p.origin}` : "";
  const verdict = $("verdict");
  const v = app.answer && app.answer.verdict;
  verdict.hidden = !v;
  if (v) {
    verdict.textContent = v.message;
    verdict.className = `verdict ${v.ok ? "ok" : "bad"}`;
  }
  $("btn-retry").disabled = !app.moves.length && status === "solving";
  $("btn-solution").disabled = Boolean(app.pending);
  $("solution-warning").hidden = !(status === "solving" && !mark(p.key) && !(app.answer && app.answer.solution));
}

function moveItem(m, cls = "") {
  const li = el("li", [cls, m.seat === 0 ? "mine" : ""].filter(Boolean).join(" "), m.text);
  li.dataset.seat = String(m.seat);
  return li;
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  const a = app.answer;
  if (!a || !a.played.length) {
    list.append(el("li", "muted", "No moves yet: you lead."));
    return;
  }
  for (const m of a.played) list.append(moveItem(m));
  if (a.status === "failed" && a.refutation.length > 1) {
    list.append(el("li", "new-deal", "Their answer, and the best play after it:"));
    for (const m of a.refutation.slice(1)) list.append(moveItem(m, "refutation"));
  }
  list.scrollTop = list.scrollHeight;
}

function renderSolution() {
  const panel = $("solution-panel");
  const sol = app.answer && app.answer.solution;
  panel.hidden = !sol;
  if (!sol) return;
  $("solution-leads").textContent = sol.text;
  const list = $("solution-line");
  list.replaceChildren(...sol.line.map((m) => moveItem(m)));
}

function renderList() {
  const box = $("levels");
  if (!box.childElementCount) {
    for (const level of ["all", ...LEVELS]) {
      const b = el("button", "small ghost", level === "all" ? "All" : level[0].toUpperCase() + level.slice(1));
      b.type = "button";
      b.dataset.level = level;
      b.setAttribute("role", "radio");
      b.addEventListener("click", () => {
        app.level = level;
        try { localStorage.setItem(LEVEL_KEY, level); } catch { /* As above. */ }
        render({ still: true });
      });
      box.append(b);
    }
  }
  for (const b of box.children) b.setAttribute("aria-checked", String(b.dataset.level === app.level));
  const list = $("puzzle-list");
  list.replaceChildren();
  const current = app.puzzle && app.puzzle.puzzle.id;
  for (const p of shown()) {
    const li = el("li");
    const m = mark(p.key);
    const b = el("button", `puzzle-item${p.id === current ? " current" : ""}`);
    b.type = "button";
    b.dataset.id = p.id;
    b.dataset.mark = m;
    b.setAttribute("aria-label", `Puzzle ${p.id}, ${p.level}, ${p.title}, ${MARK_WORDS[m]}`);
    if (p.id === current) b.setAttribute("aria-current", "true");
    b.append(el("span", `mark mark-${m || "none"}`, MARK_SIGNS[m]), el("span", "pid", p.id),
      el("span", `level-dots level-${p.level}`, LEVEL_DOTS[p.level] || ""), el("span", "ptitle", p.title));
    if (p.source === "play") b.append(el("span", "source-tag source-play", "play"));
    b.addEventListener("click", () => open(p.id));
    li.append(b);
    list.append(li);
  }
  const keys = app.list.map((p) => p.key);
  const solved = keys.filter((k) => ["solved", "later"].includes(mark(k))).length;
  $("list-counts").textContent = `${solved} of ${keys.length} solved`;
  const here = list.querySelector(".current");
  if (here && list.dataset.scrolledTo !== current) {
    // Scroll the list only, not the page: the open puzzle's line in view.
    list.dataset.scrolledTo = current;
    const item = here.parentElement;
    if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop - list.clientHeight / 2;
    }
  }
}

function fillKeys() {
  const keys = $("keys-list");
  keys.replaceChildren();
  const own = app.layout ? app.layout.keys.filter(([key]) => key !== "M") : [];
  for (const [key, text] of [...own, ...PUZZLE_KEYS]) {
    const k = el("span");
    key.split(" ").forEach((part, i) => { if (i) k.append(" "); k.append(el("kbd", "", part)); });
    keys.append(k, el("span", "", text));
  }
  $("keys-help").textContent = [app.puzzle && app.puzzle.puzzle.help, app.layout && app.layout.help].filter(Boolean).join(" ");
}

// --- keyboard ------------------------------------------------------------------------------------------------

function onKey(e) {
  if (e.target.closest("input, textarea, select, dialog") || e.ctrlKey || e.metaKey || e.altKey || !app.layout || !app.puzzle) return;
  const key = e.key;
  if (app.layout.onKey(e)) {
    e.preventDefault();
  } else if (key === "Escape") {
    app.layout.clear();
    render({ still: true });
  } else if (key === "r" || key === "R") {
    restart();
  } else if (key === "s" || key === "S") {
    showSolution();
  } else if (key === "n" || key === "N") {
    nextUnsolved();
  } else if (key === "l" || key === "L") {
    $("moves").focus();
  } else if (key === "?") {
    fillKeys();
    $("keys-dialog").showModal();
  }
}

// --- start -------------------------------------------------------------------------------------------------

async function init() {
  $("btn-keys").addEventListener("click", () => {
    fillKeys();
    $("keys-dialog").showModal();
  });
  $("keys-close").addEventListener("click", () => $("keys-dialog").close());
  $("btn-retry").addEventListener("click", restart);
  $("btn-solution").addEventListener("click", showSolution);
  $("btn-next").addEventListener("click", nextUnsolved);
  $("btn-reset").addEventListener("click", () => {
    if (!window.confirm("Forget the streak and every puzzle's mark on this device?")) return;
    app.progress = { streak: 0, best: 0, marks: {} };
    saveProgress();
    render({ still: true });
  });
  mountSettings($("btn-settings"), { testSound: () => { sound.unlock(); sound.play("turn"); } });
  onChange(() => render({ still: true }));
  document.addEventListener("keydown", onKey);
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => render({ still: true }), 120);
  });
  // Another tab solved a puzzle: its streak is this page's too.
  window.addEventListener("storage", (e) => {
    if (e.key === PROGRESS_KEY) {
      app.progress = readProgress();
      render({ still: true });
    }
  });
  window.addEventListener("hashchange", () => {
    const id = decodeURIComponent(location.hash.slice(1));
    if (id && (!app.puzzle || id !== app.puzzle.puzzle.id)) open(id);
  });
  app.game = new URLSearchParams(location.search).get("game");
  try {
    await loadList();
  } catch (e) {
    $("status").textContent = `The puzzles cannot be loaded: ${e.message}`;
    return;
  }
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (app.list.some((p) => p.id === wanted)) await open(wanted);
  else {
    const first = shown().find((p) => !mark(p.key)) || shown()[0] || app.list[0];
    if (first) await open(first.id);
  }
  window.puzzles = app; // For the browser test and for curious players in the console.
}

init();
