// The trick-taking layout: every seat around the table with its passing mark, tricks and points; the trick with
// who led it, the last trick and its winner, the hearts marker; the passing panel; points per hand and totals.
// It draws only the state the server built for this seat (docs/web.md).

import { SUIT_WORDS, cardChips, cardEl, chip, sortHand, spoken, symbol, symbols } from "../cards.js";
import { line, listWords, plural, seatName, verb } from "../describe.js";
import { el } from "../dom.js";

/** The layout's own stylesheet, which the table page and the replay viewer load with the module. */
export const STYLE = "/static/css/trick.css";

/** A seat's penalty cards shown one chip each; more are shown one chip a suit ("♥ 2–A"). */
const WON_CHIPS = 6;
/** Pixels kept between a seat of the ring and the felt's edge. */
const FELT_MARGIN = 4;

const KEYS = [
  ["← →", "move between the cards of your hand"],
  ["Space", "passing: choose or unchoose the card; playing: play it"],
  ["1 … 9", "the first to ninth card of your hand (as Space)"],
  ["Enter", "passing: pass the chosen cards; playing: play the card in focus"],
  ["Esc", "clear the cards chosen to pass"],
];

const HELP = "Pass the chosen cards to your left, then follow suit when you can; the trick goes to the highest card "
  + "of the suit led.";

// --- words ---------------------------------------------------------------------------------------------

/** Return {text, spoken} for an event of this game's hands, or null. */
export function describeEvent(ev, meta, mySeat) {
  const name = (seat) => seatName(meta, seat, mySeat);
  const who = name(ev.seat);
  switch (ev.kind) {
    case "pass":
      return line(`${who} ${verb(who, "pass", "passes")} ${ev.cards} cards`);
    case "exchange":
      return line(`The passed cards change hands; ${name(ev.leader)} ${verb(name(ev.leader), "lead", "leads")}`);
    case "action": {
      const card = ev.action.play;
      let text = `${who} ${verb(who, "play", "plays")} ${symbol(card)}`;
      let words = `${who} ${verb(who, "play", "plays")} the ${spoken(card)}`;
      let after = "";
      if (ev.hearts_broken) after += ". Hearts are broken";
      if (ev.trick) {
        const winner = name(ev.trick.winner);
        after += `. ${winner} ${verb(winner, "win", "wins")} the trick${ev.trick.points ? `, ${plural(ev.trick.points, "point")}` : ""}`;
      }
      text += after;
      words += after;
      return { text, spoken: words };
    }
    case "deal_over":
      return line(`Hand ${ev.in_match ?? ev.deal} over: ${ev.points.map((p, s) => `${name(s)} ${p}`).join(", ")}. `
        + `Totals: ${ev.totals.map((t, s) => `${name(s)} ${t}`).join(", ")}`);
    case "match_over": {
      const winners = ev.winners.map(name);
      return line(`The game is over: ${listWords(winners)} ${winners.length === 1 ? verb(winners[0], "win", "wins") : "win"} `
        + "with the lowest total");
    }
    default:
      return null;
  }
}

// --- the table -----------------------------------------------------------------------------------------

/** Return the layout of a trick-taking table for the page's context (js/table.js). */
export function createLayout(ctx) {
  const { app, name, legal } = ctx;
  const chosen = new Set(); // the cards chosen to pass
  let fitted = null; // the seats' box a ResizeObserver keeps fitted to the felt

  const left = () => ((app.seat ?? 0) + 1) % app.meta.players;
  const right = () => ((app.seat ?? 0) + app.meta.players - 1) % app.meta.players;

  function onCard(card) {
    const l = legal();
    if (!l || app.pending) return;
    app.focusCard = card;
    if (l.kind === "pass") {
      if (chosen.has(card)) chosen.delete(card);
      else if (chosen.size < l.count) chosen.add(card);
      else ctx.toast(`You pass ${l.count} cards: unchoose one first.`, "info");
      ctx.render();
      ctx.announce(`${chosen.size} of ${l.count} chosen${chosen.has(card) ? `: ${spoken(card)}` : ""}.`);
    } else if (l.cards.includes(card)) {
      ctx.send({ play: card });
    }
  }

  function confirmPass() {
    const l = legal();
    if (l && l.kind === "pass" && chosen.size === l.count) ctx.send({ pass: [...chosen] });
  }

  function badges(seat) {
    const s = app.state;
    const out = [];
    if (s && s.dealer === seat) out.push(el("span", "badge dealer", "dealer"));
    if (s && s.phase === "pass") out.push(el("span", "badge", s.passed_seats[seat] ? "passed" : "passing"));
    if (s && s.phase === "play" && s.leader === seat) out.push(el("span", "badge attack", "led"));
    return out;
  }

  function renderSeats(box) {
    const { meta, state: s } = app;
    box.replaceChildren();
    // Seats around an ellipse, the viewer (or seat 0) at the bottom, the others clockwise from its left.
    const base = app.seat ?? 0;
    for (let i = 0; i < meta.players; i++) {
      const seat = (base + i) % meta.players;
      const angle = Math.PI / 2 + (2 * Math.PI * i) / meta.players;
      const d = el("div", "trick-seat");
      d.dataset.seat = String(seat);
      d.dataset.x = String(50 + 38 * Math.cos(angle));
      d.dataset.y = String(50 + 41 * Math.sin(angle));
      d.style.left = `${d.dataset.x}%`;
      d.style.top = `${d.dataset.y}%`;
      if (s && s.to_act === seat) d.classList.add("to-act");
      if (seat === base) d.classList.add("me");  // The seat of the panel below: the viewer, or the seat a spectator watches.
      const label = name(seat);
      d.append(el("span", "name", label), el("span", "sub", ctx.seatSub(seat)));
      const marks = el("div", "badges");
      marks.append(...badges(seat), ...ctx.presenceBadges(seat));
      d.append(marks);
      if (s) {
        const pts = el("span", "pts");
        pts.append(`${plural(s.tricks[seat], "trick")} · `, el("b", "", String(s.points[seat])), " pts");
        pts.title = `${s.points[seat]} penalty points taken this hand; total ${meta.match.totals[seat]}`;
        d.append(pts);
        if (s.won[seat].length) {
          const won = el("span", "known-row");
          won.append(...cardChips(s.won[seat], null, WON_CHIPS));
          won.setAttribute("aria-label", `penalty cards taken: ${s.won[seat].map(spoken).join(", ")}`);
          d.append(won);
        }
      }
      d.setAttribute("aria-label", `${label}: ${ctx.seatSub(seat)}${s ? `, ${s.points[seat]} points this hand, total ${meta.match.totals[seat]}` : ""}`);
      box.append(d);
    }
    fitSeats(box);
    if (fitted !== box) {  // The felt follows the window, the middle its content: fit again when either changes.
      fitted = box;
      const watch = new ResizeObserver(() => fitSeats(box));
      watch.observe(box);
      const middle = middleOf(box);
      if (middle) watch.observe(middle);
    }
  }

  /**
   * Move every seat of the ring inside the felt. A seat's centre lies on an ellipse, and a tall seat (badges,
   * penalty cards) on a short screen would reach past the felt's edge, under the top bar or over the hand.
   * Seats laid out in a grid (phones) or hidden are left alone, by this and by clearMiddle.
   */
  function fitSeats(box) {
    const w = box.clientWidth, h = box.clientHeight;
    const ring = [...box.children].filter((d) => d.offsetHeight && getComputedStyle(d).position === "absolute");
    for (const d of ring) {
      const halfW = d.offsetWidth / 2 + FELT_MARGIN, halfH = d.offsetHeight / 2 + FELT_MARGIN;
      d.style.left = `${Math.max(halfW, Math.min(w - halfW, (Number(d.dataset.x) * w) / 100))}px`;
      d.style.top = `${Math.max(halfH, Math.min(h - halfH, (Number(d.dataset.y) * h) / 100))}px`;
    }
    clearMiddle(box, ring);
  }

  /**
   * Move the middle of the felt (the markers, the trick, the status) down below the seats across the table
   * when they reach into it, as far as the felt's bottom edge allows: on a short screen a seat with badges
   * and penalty cards lay over the hearts marker. `ring`: the seats fitSeats placed.
   */
  function clearMiddle(box, ring) {
    const middle = middleOf(box);
    if (!middle || getComputedStyle(middle).position !== "absolute") return;
    middle.style.top = "";
    const frame = box.getBoundingClientRect(), mid = middle.getBoundingClientRect();
    let lowest = mid.top;
    for (const d of ring) {
      const r = d.getBoundingClientRect();
      const across = r.top + r.height / 2 < mid.top && r.right > mid.left && r.left < mid.right;
      if (across && r.bottom > mid.top) lowest = Math.max(lowest, r.bottom + FELT_MARGIN);
    }
    const shift = Math.min(lowest - mid.top, frame.bottom - FELT_MARGIN - mid.bottom);
    if (shift > 0) middle.style.top = `${mid.top + mid.height / 2 + shift - frame.top}px`;
  }

  /** Return the middle of the felt the seats' box lies on (the markers, the trick, the status), if any. */
  function middleOf(box) {
    return box.parentElement?.querySelector(".center");
  }

  function renderBoard(board) {
    const { meta, state: s } = app;
    board.replaceChildren();
    if (!s) return;
    const markers = el("div", "trick-markers");
    const hearts = el("span", `trick-hearts${s.hearts_broken ? " broken" : ""}`, s.hearts_broken ? "♥ hearts broken" : "♥ hearts not broken");
    hearts.id = "hearts";
    const handNo = el("span", "trick-hand-no", `hand ${meta.match.played + (s.phase !== "over" ? 1 : 0)}`);
    markers.append(hearts, handNo);
    const trick = el("div", `trick-cards${s.trick.length ? "" : " empty"}`);
    trick.id = "trick";
    trick.setAttribute("aria-label", "The trick");
    trick.dataset.empty = s.phase === "pass" ? `${s.passed_seats.filter(Boolean).length} of ${meta.players} seats have passed`
      : s.phase === "over" ? "" : `${name(s.to_act)} ${verb(name(s.to_act), "lead", "leads")}`;
    s.trick.forEach((p, i) => {
      const box = el("div", `trick-play${i === 0 ? " led" : ""}`);
      box.append(cardEl(p.card, { label: `${spoken(p.card)}, played by ${name(p.seat)}${i === 0 ? ", led" : ""}` }));
      box.append(el("span", "who", `${name(p.seat)}${i === 0 ? " led" : ""}`));
      trick.append(box);
    });
    const last = el("div", "trick-last");
    last.id = "last-trick";
    if (s.last_trick) {
      const t = s.last_trick;
      last.append(el("span", "", `Last trick: ${name(t.winner)} won it${t.points ? ` (${t.points} pt${t.points === 1 ? "" : "s"})` : ""}:`));
      t.cards.forEach((p) => last.append(chip(p.card)));
      last.dataset.winner = String(t.winner);
    }
    // Once the hand is over, the result takes the place of the trick and of what was said about it (the log keeps
    // the last trick): a result taller than a trick would otherwise push them onto the seat across the table.
    if (s.phase !== "over") board.append(markers, trick, last);
  }

  function statusText() {
    const s = app.state;
    const l = legal();
    if (l && l.kind === "pass") return [`Choose ${l.count} cards to pass to ${name(left())}.`, true];
    if (l) return [s.trick.length ? `Your turn: follow ${SUIT_WORDS[s.led]} if you can.` : "Your turn to lead.", true];
    if (s.phase === "pass") return [`${name(s.to_act)} ${verb(name(s.to_act), "are", "is")} choosing cards to pass.`, false];
    return [`${name(s.to_act)} to play.`, false];
  }

  function result() {
    const { meta, state: s } = app;
    const lines = [];
    if (s.reneges.some((r) => r)) {
      lines.push(`Reneges (10 points each): ${s.reneges.map((r, i) => (r ? `${name(i)} ${r}` : "")).filter(Boolean).join(", ")}`);
    }
    lines.unshift(`Points: ${s.points.map((p, i) => `${name(i)} ${p}`).join(" · ")}`);
    return { art: null, big: meta.match.over ? "The last hand is over" : "Hand over", lines };
  }

  function winnersText() {
    const winners = app.meta.match.winners.map(name);
    return `Game over: ${listWords(winners)} ${winners.length === 1 ? verb(winners[0], "win", "wins") : "win"} with the lowest total.`;
  }

  function renderInfo(box) {
    const s = app.state;
    if (s) box.append(el("span", "muted", `${s.points[app.seat]} points this hand · total ${app.meta.match.totals[app.seat]}`));
  }

  function renderExtraMe(extra) {
    const s = app.state;
    const l = legal();
    const panel = el("div", "trick-pass");
    panel.id = "pass-panel";
    if (s.phase === "pass") {
      if (l && l.kind === "pass") {
        panel.append(el("strong", "", `Pass ${l.count} cards to ${name(left())}`));
        const box = el("div", "chosen");
        box.setAttribute("aria-label", "chosen cards");
        sortHand([...chosen], null).forEach((c) => box.append(chip(c)));
        if (!chosen.size) box.append(el("span", "muted", "click the cards in your hand"));
        const b = ctx.button("btn-pass", `Pass ${chosen.size}/${l.count}`, confirmPass, { primary: true });
        b.disabled = chosen.size !== l.count || Boolean(app.pending);
        panel.append(box, b);
      } else if (s.passed.length) {
        panel.append(el("strong", "", `You passed ${symbols(s.passed)} to ${name(left())}.`));
        panel.append(el("span", "muted", `Waiting for the others: ${s.passed_seats.filter(Boolean).length} of `
          + `${s.passed_seats.length} have passed. You see what you receive once everyone has.`));
      } else {
        panel.append(el("span", "muted", `Passing: ${s.passed_seats.filter(Boolean).length} of ${s.passed_seats.length} seats have passed.`));
      }
    } else if (s.received.length && (s.tricks.every((t) => t === 0) || s.phase === "over")) {
      const text = el("span", "");
      text.append(`You passed ${symbols(s.passed)} to ${name(left())} and received `);
      s.received.forEach((c) => text.append(chip(c), " "));
      text.append(`from ${name(right())}.`);
      panel.append(text);
    } else {
      return;
    }
    extra.hidden = false;
    extra.append(panel);
  }

  function renderHand(hand) {
    const s = app.state;
    const l = legal();
    const playable = new Set(l && !app.pending ? l.cards : []);
    const firstTrick = s.phase === "play" && s.tricks.every((t) => t === 0);
    const received = new Set(firstTrick || s.phase === "over" ? s.received : []);
    const cards = sortHand(s.hand, null);
    cards.forEach((card, i) => {
      const classes = [];
      if (l) classes.push(playable.has(card) ? "playable" : "unplayable");
      if (chosen.has(card)) classes.push("selected");
      if (received.has(card)) classes.push("received");
      const label = `${spoken(card)}${received.has(card) ? ", received" : ""}${chosen.has(card) ? ", chosen" : ""}`;
      const b = cardEl(card, { button: true, classes, label });
      if (l && l.kind === "pass") b.setAttribute("aria-pressed", chosen.has(card) ? "true" : "false");
      b.disabled = Boolean(l) && !playable.has(card);
      b.tabIndex = i === 0 ? 0 : -1;
      b.addEventListener("click", () => onCard(card));
      hand.append(b);
    });
    ctx.fitHand(hand, cards.length);
    ctx.refocus(app.focusCard);
  }

  function renderScores(box) {
    const { meta, state: s } = app;
    const m = meta.match;
    const table = el("table", "trick-scores");
    const head = el("tr");
    ["Seat", ...m.results.map((r, i) => `H${i + 1}`), "This hand", "Total"].forEach((t) => head.append(el("th", "", t)));
    table.append(head);
    const low = Math.min(...m.totals);
    for (let seat = 0; seat < meta.players; seat++) {
      const row = el("tr", m.played && m.totals[seat] === low ? "lead" : "");
      row.append(el("td", "", name(seat)));
      m.results.forEach((r) => row.append(el("td", "", String(r.points[seat]))));
      row.append(el("td", "", s && s.phase !== "over" ? String(s.points[seat]) : "–"));
      row.append(el("td", "", String(m.totals[seat])));
      table.append(row);
    }
    const end = m.hands ? `${m.played} of ${plural(m.hands, "hand")} played`
      : `game to ${m.target_score} points; ${plural(m.played, "hand")} played`;
    box.append(table, el("p", "muted", `${end}. The lowest total wins.`));
  }

  // --- motion and sound -----------------------------------------------------------------------------

  /** Return where a seat's cards come from and go to: its place in the ring, else the viewer's own hand. */
  function seatAnchor(seat) {
    const ring = `#seats .trick-seat[data-seat="${seat}"]`;
    return seat === (app.seat ?? 0) ? [ring, "#hand", "#me"] : [ring];
  }

  /** Return the motion of the change from `before` to `after` (js/motion.js), from the two states alone. */
  function motionPlan(before, after) {
    if (!after) return null;
    const centre = ["#trick", "#board"];
    const plan = { from: {}, ghosts: [] };
    const others = [];
    for (let i = 1; i < app.meta.players; i++) others.push(((app.seat ?? 0) + i) % app.meta.players);
    if (!before || before.deal !== after.deal) {
      // Only a hand seen from its start is dealt again on the screen, not a page opened in the middle of one.
      if (after.actions > 0 || after.phase === "over") return null;
      plan.deal = centre;
      others.forEach((seat, i) => {
        for (let c = 0; c < 2; c++) plan.ghosts.push({ from: centre, to: seatAnchor(seat), delay: 70 * (i + c * others.length) });
      });
      return plan;
    }
    if (after.actions <= before.actions) return null;
    const passed = after.passed || [];
    const received = after.received || [];
    if (passed.length && !(before.passed || []).length) {
      passed.forEach((c, i) => plan.ghosts.push({ card: c, to: seatAnchor(left()), delay: 40 * i }));
    }
    if (received.length && !(before.received || []).length) received.forEach((c) => { plan.from[c] = seatAnchor(right()); });
    const shown = new Set(before.trick.map((p) => p.card));
    for (const p of after.trick) if (!shown.has(p.card)) plan.from[p.card] = seatAnchor(p.seat);
    const t = after.last_trick;
    if (t && JSON.stringify(t) !== JSON.stringify(before.last_trick)) {
      // The trick stays a moment where it was played, then slides to its winner; a card it was not shown with
      // (the last one) is put down beside it first.
      let prev = null;
      for (const p of t.cards) {
        const via = shown.has(p.card) ? null : prev ? { next: prev } : centre;
        plan.ghosts.push({ card: p.card, face: true, from: seatAnchor(p.seat), to: seatAnchor(t.winner), via, hold: 0.5 });
        prev = p.card;
      }
      plan.fromDelay = 450; // The next trick's lead waits until this one has left.
    }
    if (after.phase === "over" && before.phase !== "over") plan.appear = "#result";
    return plan;
  }

  /** Return the sounds of an event, or null. */
  function cue(ev) {
    if (ev.kind === "action") return ev.trick ? ["card", "trick"] : "card";
    if (ev.kind === "pass") return "card";
    if (ev.kind === "exchange") return "deal";
    if (ev.kind === "deal_over") {
      if (app.seat == null || !ev.points) return "over";
      return ev.points[app.seat] === Math.min(...ev.points) ? "win" : "lose";
    }
    return null;
  }

  function onKey(e) {
    const hand = ctx.handButtons();
    const i = hand.indexOf(document.activeElement);
    const key = e.key;
    const l = legal();
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const enabled = hand.filter((b) => !b.disabled);
      if (enabled.length) app.focusCard = ctx.moveFocus(enabled, key === "ArrowLeft" ? -1 : 1).dataset.card;
      return enabled.length > 0;
    }
    if (key === " " && i >= 0) {
      onCard(hand[i].dataset.card);
      return true;
    }
    if (key === "Enter" && l && l.kind === "pass") {
      confirmPass();
      return true;
    }
    if (key === "Enter" && l && i >= 0) {
      onCard(hand[i].dataset.card);
      return true;
    }
    if (/^[1-9]$/.test(key) && hand[Number(key) - 1]) {
      hand[Number(key) - 1].focus();
      onCard(hand[Number(key) - 1].dataset.card);
      return true;
    }
    return false;
  }

  return {
    keys: KEYS,
    help: HELP,
    scoresTitle: "Scores",
    logTitle: "Hand log",
    extraTitle: null,
    clear: () => chosen.clear(),
    newState(before, after) {
      // Others pass while this seat chooses: keep its choice until the passing is over.
      if (!after || !before || before.deal !== after.deal || after.phase !== "pass") chosen.clear();
    },
    describeEvent: (ev, meta) => describeEvent(ev, meta, app.seat),
    describeAction: (action) => (action.pass ? `pass ${symbols(action.pass)}` : `play ${symbol(action.play)}`),
    turnText() {
      const l = legal();
      return l.kind === "pass" ? `Your turn to pass ${l.count} cards to ${name(left())}.`
        : `Your turn: ${plural(l.cards.length, "playable card")}.`;
    },
    lengthText() {
      const m = app.meta.match;
      const current = Math.max(1, m.played + (app.state && app.state.phase !== "over" ? 1 : 0));
      return m.hands ? `hand ${Math.min(current, m.hands)} of ${m.hands}` : `hand ${current}`;
    },
    statusText,
    result,
    matchOverText: winnersText,
    badges,
    renderSeats,
    renderBoard,
    renderInfo,
    renderExtraMe,
    renderHand,
    renderActions() {},
    tip() {
      const l = legal();
      return l.kind === "pass" ? "Click the cards to pass, then confirm." : "Highlighted cards may be played: click one to play it.";
    },
    renderScores,
    renderExtra() {},
    motionPlan,
    cue,
    useHint(action) {
      // "Use it" makes the hinted move, the pass as well as a card (as the beating layout's does).
      chosen.clear();
      ctx.send(action.pass ? { pass: action.pass } : { play: action.play });
    },
    onKey,
  };
}

// --- replays -------------------------------------------------------------------------------------------

/** The replay viewer's part of the layout (js/replay.js): words for a frame, the table, and each seat. */
export const replay = {
  actionText(frames, i, who) {
    const a = frames[i].action;
    return a.pass ? `${who[a.seat]} passes ${a.pass.map(symbol).join(" ")}` : `${who[a.seat]} plays ${symbol(a.play)}`;
  },
  endText(f, who) {
    return `Points: ${f.points.map((p, s) => `${who[s]} ${p}`).join(", ")}.`;
  },
  renderTable(box, frames, i) {
    const f = frames[i];
    const before = frames[i - 1];
    const marker = el("div", "trick-hearts", f.hearts_broken ? "♥ hearts broken" : "♥ hearts not broken");
    const trick = el("div", "battle");
    // A play that completes a trick clears it: show the finished trick from the frame before plus this card.
    let cards = f.trick;
    if (f.action && f.action.play && !f.trick.length && before) cards = [...before.trick, f.action.play];
    cards.forEach((c) => trick.append(cardEl(c)));
    if (!cards.length) {
      trick.classList.add("empty-table");
      trick.dataset.empty = f.phase === "pass" ? "Passing" : "No cards on the table";
    }
    box.append(marker, trick);
  },
  seatInfo(f, seat) {
    const lines = [`${plural(f.hands[seat].length, "card")} · ${plural(f.tricks[seat], "trick")} · ${f.points[seat]} points`];
    if (f.passed[seat]) lines.push(`passed ${f.passed[seat].map(symbol).join(" ")}`);
    return { text: lines.join(" · "), badges: [], trump: null };
  },
};
