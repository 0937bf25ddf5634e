// The beating-game layout: seats around the table, the talon with the trump card under it, the discard pile,
// the led cards and their beaters; a lead or a defence put together card by card (choice.js); the match's losses
// and the memory panel. It draws only the state the server built for this seat (docs/web.md).

import { SUIT_SIGNS, SUIT_WORDS, backEl, cardChips, cardEl, chip, fullDeck, sortHand, spoken, symbol, symbols } from "../cards.js";
import { Choice } from "../choice.js";
import { line, listWords, plural, seatName, verb } from "../describe.js";
import { el } from "../dom.js";

const BOT_ICON = '<svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor"><rect x="4" y="7" width="16" height="12" rx="3"/>'
  + '<rect x="11" y="2" width="2" height="5"/><circle cx="12" cy="2.5" r="1.8"/><circle cx="9" cy="12" r="1.8" fill="#dfe6ff"/>'
  + '<circle cx="15" cy="12" r="1.8" fill="#dfe6ff"/><rect x="8.5" y="15.5" width="7" height="1.6" rx="0.8" fill="#dfe6ff"/></svg>';

/** Known cards of a hand shown one chip each; more are shown one chip a suit. */
const KNOWN_CHIPS = 8;
/** A seat on the felt shows its known cards on a line, or past this many a chip a suit (two lines at most). */
const SEAT_KNOWN_CHIPS = 6;

const KEYS = [
  ["← →", "move between the cards of your hand"],
  ["↑ ↓", "move between your hand and the cards on the table"],
  ["Space", "choose the card (lead), or pair it with the led card (defence)"],
  ["1 … 9", "choose the first to ninth card of your hand"],
  ["Enter", "play: lead the chosen cards, or defend with the pairs made"],
  ["T", "take: pick up every led card not paired yet"],
  ["M", "declare a marriage (when you may)"],
  ["Esc", "clear your choice"],
];

const DOUBLE_CLICK_MS = 450;

const HELP = "Defending: choose a led card on the table, then the card that beats it (or the other way round). "
  + "A card that beats only one led card pairs at once. Led cards you leave unpaired are picked up.";

function losses(n) {
  return n === 1 ? "1 loss" : `${n} losses`;
}

function ordinal(n) {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

// --- words ---------------------------------------------------------------------------------------------

/** Return {text, spoken} to add for the trump card turned, after any spades turned and put back (M7). */
function turnedWords(facts) {
  if (!facts.turned) return { text: "", spoken: "" };
  let text = "";
  let words = "";
  const back = facts.put_back || [];
  if (back.length) {
    text += ` · ${symbols(back)} turned and put back into the talon (spades are not trumps)`;
    words += `. ${back.map(spoken).join(", ")} turned and put back into the talon, as spades are not trumps`;
  }
  return { text: `${text} · trump turned: ${symbols([facts.turned])}`,
    spoken: `${words}. The trump card turned is the ${spoken(facts.turned)}` };
}

/** Return {text, spoken} for a record action (without seat) made by `who`; `facts` are the event's. */
export function describeAction(action, who, facts = {}) {
  if (action.lead) {
    let text = `${who} ${verb(who, "lead", "leads")} ${symbols(action.lead)}`;
    let words = `${who} ${verb(who, "lead", "leads")} ${action.lead.map(spoken).join(", ")}`;
    const turned = turnedWords(facts);
    return { text: text + turned.text, spoken: words + turned.spoken };
  }
  if (action.beat) {
    const pairs = Object.entries(action.beat);
    const taken = facts.taken || [];
    const parts = [];
    const words = [];
    if (pairs.length) {
      parts.push(`${verb(who, "beat", "beats")} ${pairs.map(([l, b]) => `${symbols([l])} with ${symbols([b])}`).join(", ")}`);
      words.push(`${verb(who, "beat", "beats")} ${pairs.map(([l, b]) => `${spoken(l)} with ${spoken(b)}`).join(", ")}`);
    }
    if (taken.length) {
      parts.push(`${verb(who, "pick up", "picks up")} ${symbols(taken)}`);
      words.push(`${verb(who, "pick up", "picks up")} ${taken.map(spoken).join(", ")}`);
    }
    if (!parts.length) {
      parts.push(verb(who, "pass", "passes"));
      words.push(verb(who, "pass", "passes"));
    }
    // M16, told because new players wonder: who picks up loses the turn to attack, so may defend again at once.
    const again = facts.defends_again
      ? ` · ${who === "You" ? "you" : who} ${verb(who, "defend", "defends")} again: who picks up does not attack next (M16)` : "";
    return { text: `${who} ${parts.join(" and ")}${again}`, spoken: `${who} ${words.join(" and ")}${again.replace(" · ", ". ")}` };
  }
  if (action.declare) {
    const s = action.declare;
    return {
      text: `${who} ${verb(who, "declare", "declares")} the marriage K${SUIT_SIGNS[s]} Q${SUIT_SIGNS[s]}: ${SUIT_SIGNS[s]} trumps`,
      spoken: `${who} ${verb(who, "declare", "declares")} the marriage in ${SUIT_WORDS[s]}; ${SUIT_WORDS[s]} are trumps`,
    };
  }
  return line(JSON.stringify(action));
}

/** Return {text, spoken} for an event of this game's deals, or null. */
export function describeEvent(ev, meta, mySeat) {
  switch (ev.kind) {
    case "deal_start": {
      if (!ev.turned) return null;
      const dealer = seatName(meta, ev.dealer, mySeat);
      const turned = turnedWords(ev);
      return line(`Deal ${ev.in_match ?? ev.deal}: ${dealer} ${verb(dealer, "deal", "deals")}${turned.text}`,
        `Deal ${ev.in_match ?? ev.deal}: ${dealer} ${verb(dealer, "deal", "deals")}${turned.spoken}`);
    }
    case "action":
      return describeAction(ev.action, seatName(meta, ev.seat, mySeat), ev);
    case "deal_over": {
      if (ev.stopped) return line(`Deal ${ev.in_match ?? ev.deal} stopped unfinished after ${ev.turns} turns`);
      const loser = seatName(meta, ev.loser, mySeat);
      return line(`${loser} ${verb(loser, "are", "is")} left holding Maija: deal ${ev.in_match ?? ev.deal} lost`);
    }
    case "match_over": {
      const order = (ev.standings || []).map(([seat, losses]) => `${seatName(meta, seat, mySeat)} ${losses}`).join(", ");
      return line(`Match over. Losses: ${order}`);
    }
    default:
      return null;
  }
}

// --- the table -----------------------------------------------------------------------------------------

/** Return the layout of a beating-game table for the page's context (js/table.js). */
export function createLayout(ctx) {
  const { app, name, legal } = ctx;
  const choice = new Choice();
  app.choice = choice; // The browser test reads it.

  function send(action) {
    ctx.send(action);
  }

  function play() {
    const action = choice.action(legal());
    if (action) send(action);
  }

  function declare(suit) {
    const l = legal();
    if (l && l.declare.includes(suit)) send({ declare: suit });
  }

  // A second click on the same card soon after the first leads it alone. The hand is drawn again after each
  // click, so the browser's own dblclick (two clicks on one element) never reaches the new card.
  let lastClick = { card: null, at: -Infinity };

  function onHandCard(card) {
    const l = legal();
    if (!l || app.pending) return;
    const now = performance.now();
    const again = lastClick.card === card && now - lastClick.at < DOUBLE_CLICK_MS;
    lastClick = { card, at: again ? -Infinity : now };
    if (again && l.kind === "lead" && l.cards.includes(card)) {
      choice.clear();
      choice.sel.add(card);
      ctx.announce(`Leading ${spoken(card)} alone`);
      play();
      return;
    }
    ctx.announce(choice.clickHand(l, card));
    ctx.render();
  }

  function onLedCard(led) {
    const l = legal();
    if (!l || l.kind !== "beat" || app.pending) return;
    ctx.announce(choice.clickLed(l, led));
    ctx.render();
  }

  function badges(seat, { compact = false } = {}) {
    const s = app.state;
    const out = [];
    if (s && s.phase !== "over") {
      if (s.attacker === seat) out.push(el("span", "badge attack", "attacks"));
      if (s.defender === seat) out.push(el("span", "badge defend", "defends"));
    }
    if (s && s.out.includes(seat)) out.push(el("span", "badge out", `out ${ordinal(s.out.indexOf(seat) + 1)}`));
    if (s && s.loser === seat) out.push(el("span", "badge loser", "holds Maija"));
    if (s && s.dealer === seat && !compact) out.push(el("span", "badge dealer", "dealer"));
    return out;
  }

  function renderSeats(box) {
    box.replaceChildren();
    const order = ctx.seatOrder();
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
      const bot = info.kind === "bot" || info.takeover;
      const avatar = el("span", `avatar ${bot ? "bot" : ""}`);
      if (bot) avatar.innerHTML = BOT_ICON;
      else avatar.textContent = label.slice(0, 1).toUpperCase();
      avatar.setAttribute("aria-hidden", "true");
      const who = el("span", "who");
      const sub = el("span", "sub");
      const [count, kind] = ctx.seatSub(seat).split(" · ");
      sub.append(el("span", "", count));
      if (kind) sub.append(el("span", "kind", ` · ${kind}`));
      who.append(el("span", "name", label), sub);
      plate.append(avatar, who);
      div.append(plate);
      // A hand with known cards shows them instead of its backs (the plate says how many cards it holds), so
      // that a seat never grows over the piles or past the felt's edge.
      const known = s && s.known[seat] && s.known[seat].length ? s.known[seat] : null;
      if (s && !known && s.hand_sizes[seat]) {
        const fan = el("div", "mini-fan");
        fan.setAttribute("aria-hidden", "true");
        for (let c = 0; c < Math.min(s.hand_sizes[seat], 10); c++) fan.append(backEl(["tiny"]));
        div.append(fan);
      }
      const marks = el("div", "badges");
      marks.append(...badges(seat, { compact: true }), ...ctx.presenceBadges(seat));
      if (known) {
        const row = el("div", "known-row");
        row.title = `Known to be in ${label}'s hand`;
        row.append(...cardChips(known, s.trump_suit, SEAT_KNOWN_CHIPS));
        div.append(row);
      }
      div.append(marks);
      div.setAttribute("aria-label", `${label}: ${ctx.seatSub(seat)}`);
      box.append(div);
    });
  }

  function pile(id, label, count, spokenLabel) {
    const box = el("div", `pile${count ? "" : " empty"}`);
    box.id = id;
    box.setAttribute("aria-label", spokenLabel);
    return [box, el("span", "count", String(count)), el("span", "", label)];
  }

  function renderBoard(board) {
    board.replaceChildren();
    const s = app.state;
    if (!s) return;
    const piles = el("div", "piles");
    const [talon, talonCount, talonLabel] = pile("talon", "talon", s.talon, `Talon: ${s.talon} cards`);
    // The talon with the trump card lying under it (M8).
    const stack = el("div", "stack");
    const trumpInTalon = s.talon_known.find((k) => k.card === s.trump_card);
    stack.classList.toggle("with-trump", Boolean(s.trump_card && trumpInTalon));
    if (s.trump_card && trumpInTalon) stack.append(cardEl(s.trump_card, { classes: ["trump-card"], label: `trump card ${spoken(s.trump_card)}` }));
    if (s.talon > (trumpInTalon ? 1 : 0)) stack.append(backEl());
    talon.append(stack, talonCount, talonLabel);
    const [discard, discardCount, discardLabel] = pile("discard", "discarded", s.discard.length, `Discard pile: ${s.discard.length} cards`);
    const dstack = el("div", "stack");
    if (s.discard.length) dstack.append(backEl());
    discard.append(dstack, discardCount, discardLabel);
    piles.append(talon, trumpBadge(), discard);
    board.append(piles);
    if (s.phase === "over") return; // The result takes the place of the cards on the table.
    const battle = el("div", "battle");
    battle.id = "battle";
    battle.setAttribute("aria-label", "Cards on the table");
    renderBattle(battle);
    board.append(battle);
  }

  function trumpBadge() {
    const s = app.state;
    const trump = el("div", "trump-badge");
    trump.id = "trump";
    if (s.trump_suit) {
      trump.append(el("span", "", "Trumps"), el("span", `chip suit-${s.trump_suit}`, SUIT_SIGNS[s.trump_suit]));
      if (s.declarer != null) trump.append(el("span", "muted", s.declarer === app.seat ? "your marriage" : `marriage of ${name(s.declarer)}`));
      else if (s.trump_card) trump.append(el("span", "muted", `${symbols([s.trump_card])} turned`));
      else if (app.meta.rules.trump === "fixed") trump.append(el("span", "muted", "fixed"));
      trump.setAttribute("aria-label", `Trumps: ${SUIT_WORDS[s.trump_suit]}`);
    } else {
      const rule = app.meta.rules.trump;
      trump.append(el("span", "muted", rule === "marriage" ? "No trumps until a marriage" : rule === "none" ? "No trumps" : "Trump not turned yet"));
    }
    return trump;
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
        if (!choice.pairs.has(led)) e.preventDefault();
      });
      f.addEventListener("drop", (e) => {
        e.preventDefault();
        const card = e.dataTransfer.getData("text/plain");
        if (choice.targetsOf(l, card).includes(led)) {
          ctx.announce(choice.pair(led, card));
          ctx.render();
        }
      });
    }
    f.append(ledCard);
    if (beater) f.append(cardEl(beater, { classes: ["beater", ...(opts.pending ? ["pending"] : [])] }));
    if (opts.tag) f.append(el("span", "tag", opts.tag));
    return f;
  }

  function renderBattle(box) {
    const s = app.state;
    const l = legal();
    if (s.phase === "defend" && s.table.length) {
      for (const t of s.table) {
        const pending = choice.pairs.get(t.led) || null;
        const f = fight(t.led, t.beater || pending, { live: true, pending: Boolean(pending) });
        if (l && l.kind === "beat") {
          if (choice.focusLed === t.led) f.classList.add("chosen");
          if (choice.ledOpen(l, t.led)) f.classList.add("target");
          if (!pending && !(l.beaters[t.led] || []).length) f.append(el("span", "tag", "cannot beat"));
        }
        box.append(f);
      }
      box.setAttribute("aria-label", `Cards on the table, led by ${name(s.attacker)}: ${s.table.map((t) => spoken(t.led)).join(", ")}`);
      return;
    }
    const last = s.last_turn;
    if (last) {
      const took = last.taken.length ? `, ${last.defender === app.seat ? "you" : name(last.defender)} took ${symbols(last.taken)}` : "";
      box.append(el("div", "battle-caption", `Last turn: ${name(last.attacker)} → ${name(last.defender)}${took}`));
      for (const led of last.led) {
        const beater = last.beat[led] || null;
        const f = fight(led, beater, { tag: beater ? "" : "taken" });
        f.classList.add("taken");
        if (!beater) f.dataset.picked = "1";
        f.style.opacity = "0.72";
        box.append(f);
      }
      box.setAttribute("aria-label", "The last turn");
      return;
    }
    box.classList.add("empty-table");
    box.dataset.empty = "No cards on the table";
  }

  function statusText() {
    const s = app.state;
    const l = legal();
    if (l && l.kind === "lead") {
      const max = l.max_cards;
      const limit = max >= s.hand.length ? "as many cards as you like" : max === 1 ? "one card" : `at most ${max} cards`;
      return [`Your lead: one suit, ${limit}`, true];
    }
    if (l && l.kind === "beat") return [`Defend against ${name(s.attacker)}: beat what you can, take the rest`, true];
    if (s.phase === "lead") return [`${name(s.to_act)} to lead${s.to_act === s.attacker ? ` against ${name(s.defender)}` : ""}…`, false];
    return [`${name(s.defender)} ${s.defender === app.seat ? "defend" : "defends"} against ${name(s.attacker)}…`, false];
  }

  function result() {
    const s = app.state;
    const safe = s.out.map((seat) => name(seat));
    const lines = safe.length ? [`Out in order: ${safe.join(", ")}`] : [];
    if (s.stopped) return { art: null, big: "Deal stopped unfinished", lines };
    const art = cardEl("QS", { label: "Maija, the queen of spades" });
    art.classList.add("maija");
    const big = s.loser === app.seat ? "You are left holding Maija!" : `${name(s.loser)} is left holding Maija`;
    return { art, big, lines };
  }

  function matchOverText() {
    const m = app.meta.match;
    const fewest = Math.min(...app.meta.seats.map((seat) => m.losses[seat.seat]));
    const best = app.meta.seats.filter((seat) => m.losses[seat.seat] === fewest).map((seat) => name(seat.seat));
    if (best.length === 1) return `Match over. Fewest losses: ${best[0]}.`;
    return `Match over. Tied for fewest losses (${fewest}): ${listWords(best)}.`;
  }

  function renderInfo(box) {
    const s = app.state;
    const mine = s && s.known[app.seat];
    if (!mine || !mine.length) return;
    box.title = "What the others know of your hand";
    if (mine.length === s.hand.length && mine.length > 1) {
      box.append(el("span", "muted", `others know your whole hand (${mine.length} cards)`));
      return;
    }
    box.append(el("span", "muted", "others know: "), ...cardChips(mine, s.trump_suit, KNOWN_CHIPS));
  }

  function renderHand(hand) {
    const s = app.state;
    const l = legal();
    const cards = sortHand(s.hand, s.trump_suit);
    const used = choice.used();
    cards.forEach((card, i) => {
      const isTrump = s.trump_suit === card[1];
      let playable = false;
      if (l && !app.pending) playable = l.kind === "lead" ? choice.leadPlayable(l, card) : choice.beatPlayable(l, card);
      const classes = [];
      if (l) classes.push(playable ? "playable" : "unplayable");
      if (choice.sel.has(card) || choice.pickBeater === card) classes.push("selected");
      if (used.has(card)) classes.push("used");
      const label = `${spoken(card)}${isTrump ? ", trump" : ""}${choice.sel.has(card) ? ", chosen" : ""}`;
      const b = cardEl(card, { button: true, classes, label });
      b.setAttribute("aria-pressed", choice.sel.has(card) || used.has(card) ? "true" : "false");
      b.disabled = Boolean(l) && !playable && !choice.sel.has(card);
      // A card paired is shown on the table too, on its led card: its next move starts there (js/motion.js).
      if (used.has(card)) b.dataset.motion = "weak";
      b.tabIndex = i === 0 ? 0 : -1;
      b.addEventListener("click", () => onHandCard(card));
      if (l && l.kind === "beat" && playable && !used.has(card)) {
        b.draggable = true;
        b.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", card));
      }
      hand.append(b);
    });
    ctx.fitHand(hand, cards.length);
    if (!cards.length && s.out.includes(app.seat)) hand.append(el("p", "muted", "You have no cards left: you are out and safe this deal."));
    ctx.refocus(app.focusCard, "#hand, #battle");
  }

  function renderActions(bar) {
    const l = legal();
    const busy = Boolean(app.pending);
    const clear = () => { choice.clear(); ctx.render(); };
    if (l.kind === "lead") {
      const n = choice.sel.size;
      bar.append(ctx.button("btn-lead", n ? `Lead ${symbols(sortHand([...choice.sel], null))}` : "Lead", play, { primary: true, disabled: !n || busy, key: "Enter" }));
      if (n) bar.append(ctx.button("btn-clear", "Clear", clear, { key: "Esc" }));
    } else {
      const beaten = choice.pairs.size;
      const left = l.led.length - beaten;
      const text = left === 0 ? `Beat all ${beaten}` : beaten ? `Beat ${beaten}, take ${left}` : `Take ${left === 1 ? "it" : `all ${left}`}`;
      bar.append(ctx.button("btn-defend", text, play, { primary: true, disabled: busy, key: "Enter" }));
      if (beaten) bar.append(ctx.button("btn-clear", "Clear", clear, { key: "Esc" }));
    }
    for (const suit of l.declare) {
      bar.append(ctx.button(`btn-declare-${suit}`, `Declare K${SUIT_SIGNS[suit]} Q${SUIT_SIGNS[suit]} marriage`, () => declare(suit), { disabled: busy, key: "M" }));
    }
  }

  function tip() {
    const l = legal();
    if (l.kind === "beat" && choice.pickBeater) return `Choose the led card ${symbols([choice.pickBeater])} should beat.`;
    if (l.kind === "beat" && choice.focusLed) return `Choose a card to beat ${symbols([choice.focusLed])}.`;
    return l.kind === "lead" ? "Highlighted cards can be led. Double-click a card to lead it alone."
      : "Choose a card that beats a led card; unpaired led cards are picked up.";
  }

  function renderScores(box) {
    const m = app.meta.match;
    const table = el("table");
    const head = el("tr");
    head.append(el("th", "", "Player"), el("th", "num", "Losses"));
    table.append(head);
    const order = [...app.meta.seats].sort((a, b) => m.losses[a.seat] - m.losses[b.seat] || a.seat - b.seat);
    for (const seat of order) {
      const tr = el("tr");
      const who = el("td", "", seat.seat === app.seat ? seat.name || "You" : name(seat.seat));
      if (seat.seat === app.seat) who.append(" ", el("span", "badge you", "you"));
      tr.append(who, el("td", "num", String(m.losses[seat.seat])));
      table.append(tr);
    }
    const length = m.max_losses ? `first to ${losses(m.max_losses)} ends it`
      : `${m.played} of ${plural(m.deals, "deal")} played`;
    box.append(table, el("p", "muted", `Match ${m.number}: ${length}${m.over ? " · over" : ""}`));
  }

  /** Draw the memory panel: where each card is, as far as this seat knows, and what each hand is known to hold. */
  function renderExtra(box) {
    const s = app.state;
    box.replaceChildren();
    if (!s) {
      box.append(el("p", "muted", "The memory panel fills up as the deal goes on."));
      return;
    }
    const where = {};
    for (const c of s.discard) where[c] = ["gone", "out of play"];
    for (const t of s.table) where[t.led] = ["table", "on the table"];
    for (const k of s.talon_known) where[k.card] = ["talon", `in the talon, ${k.depth === s.talon - 1 ? "at the bottom" : `${k.depth} from the top`}`];
    s.known.forEach((cards, seat) => cards.forEach((c) => { if (seat !== app.seat) where[c] = ["known", `held by ${name(seat)}`]; }));
    for (const c of s.hand) where[c] = ["mine", "in your hand"];
    const grid = el("div", "memory-grid");
    grid.setAttribute("role", "list");
    grid.setAttribute("aria-label", "Where every card is, as far as you know");
    for (const suit of ["S", "H", "C", "D"]) {
      const head = el("span", `suit chip suit-${suit}`, SUIT_SIGNS[suit]);
      head.setAttribute("aria-hidden", "true");
      grid.append(head);
      for (const card of fullDeck().filter((c) => c[1] === suit)) {
        const [cls, text] = where[card] || ["", "not seen"];
        const cell = el("span", `cell ${cls}`, card[0] === "T" ? "10" : card[0]);
        cell.title = `${spoken(card)}: ${text}`;
        cell.setAttribute("role", "listitem");
        cell.setAttribute("aria-label", `${spoken(card)}: ${text}`);
        grid.append(cell);
      }
    }
    const legend = el("div", "legend");
    legend.append(el("span", "l-mine", "yours"), el("span", "l-known", "known in a hand"), el("span", "l-table", "on the table"),
      el("span", "l-talon", "in the talon"), el("span", "l-gone", "out of play (struck)"));
    const list = el("ul", "memory-list");
    for (const seat of app.seat == null ? [0, ...ctx.seatOrder()] : ctx.seatOrder()) {
      const li = el("li");
      li.append(el("span", "who", name(seat)));
      const cards = s.known[seat] || [];
      if (cards.length) li.append(...cardChips(cards, s.trump_suit, KNOWN_CHIPS));
      else li.append(el("span", "muted", "nothing known"));
      list.append(li);
    }
    box.append(grid, legend, list);
  }

  // --- motion and sound -----------------------------------------------------------------------------

  /** Return where a seat's cards come from and go to: its plate at the table, or the viewer's own hand. */
  function seatAnchor(seat) {
    if (seat === (app.seat ?? 0)) return ["#hand", "#me"];
    return [`#seats .seat[data-seat="${seat}"] .mini-fan`, `#seats .seat[data-seat="${seat}"]`];
  }

  /** Return the motion of the change from `before` to `after` (js/motion.js), from the two states alone. */
  function motionPlan(before, after) {
    if (!after) return null;
    const talon = ["#talon .stack", "#talon"];
    const others = app.seat == null ? [0, ...ctx.seatOrder()] : ctx.seatOrder();
    const plan = { from: {}, ghosts: [] };
    if (!before || before.deal !== after.deal) {
      // Only a deal seen from its start is dealt again on the screen, not a page opened in the middle of one.
      if (after.actions > 0 || after.phase === "over") return null;
      plan.deal = talon;
      others.forEach((seat, i) => {
        for (let c = 0; c < Math.min(3, after.hand_sizes[seat]); c++) {
          plan.ghosts.push({ from: talon, to: seatAnchor(seat), delay: 70 * (i + c * others.length) });
        }
      });
      return plan;
    }
    if (after.actions <= before.actions) return null;
    const played = {};
    const taken = {};
    const add = (box, seat, n) => { box[seat] = (box[seat] || 0) + n; };
    const wasLed = new Set(before.table.map((t) => t.led));
    if (after.phase === "defend") {
      for (const t of after.table) {
        if (wasLed.has(t.led)) continue;
        plan.from[t.led] = seatAnchor(after.attacker);
        add(played, after.attacker, 1);
      }
    }
    const last = after.last_turn;
    const newTurn = last && JSON.stringify(last) !== JSON.stringify(before.last_turn);
    if (newTurn) {
      // The defence: each beater comes from the defender onto its led card; what was not beaten goes to the
      // defender; the table then shows the turn as it ended.
      for (const beater of Object.values(last.beat)) plan.from[beater] = seatAnchor(last.defender);
      add(played, last.defender, Object.keys(last.beat).length);
      add(taken, last.defender, last.taken.length);
      if (last.defender !== app.seat) last.taken.forEach((c) => plan.ghosts.push({ card: c, to: seatAnchor(last.defender) }));
      plan.appear = "#battle .fight[data-picked], #battle .battle-caption";
    } else if (before.phase !== "defend" && before.last_turn && after.phase === "defend") {
      // The next lead clears the last turn: its beaten pairs go to the discard pile.
      const discard = ["#discard .stack", "#discard"];
      for (const [led, beater] of Object.entries(before.last_turn.beat)) {
        plan.ghosts.push({ card: led, to: discard }, { card: beater, to: discard, delay: 40 });
      }
    }
    const drawn = before.talon - after.talon;
    if (drawn > 0) {
      const onTable = new Set([...wasLed, ...(before.last_turn ? before.last_turn.led : [])]);
      const mine = new Set(before.hand);
      for (const c of after.hand) if (!mine.has(c) && !onTable.has(c)) plan.from[c] = talon;
      let left = drawn - Object.keys(plan.from).filter((c) => plan.from[c] === talon).length;
      for (const seat of others) {
        if (seat === app.seat || left <= 0) continue;
        const n = Math.min(left, after.hand_sizes[seat] - before.hand_sizes[seat] + (played[seat] || 0) - (taken[seat] || 0));
        if (n <= 0) continue;
        left -= n;
        // The trump card under the talon is public: whoever draws it is seen to take it.
        const trump = after.trump_card && (after.known[seat] || []).includes(after.trump_card)
          && before.talon_known.some((k) => k.card === after.trump_card) ? after.trump_card : null;
        for (let i = 0; i < Math.min(n, 4); i++) {
          const card = i === 0 && trump ? trump : null;
          plan.ghosts.push({ card, from: talon, to: seatAnchor(seat), delay: 220 + 60 * i });
        }
      }
    }
    if (after.phase === "over" && before.phase !== "over") plan.appear = [plan.appear, "#result"].filter(Boolean).join(", ");
    return plan;
  }

  /** Return the sound of an event, or null. */
  function cue(ev) {
    if (ev.kind === "action") {
      if (ev.action.beat) return (ev.taken || []).length ? "pickup" : "card";
      return ev.action.declare ? "trick" : "card";
    }
    if (ev.kind === "deal_over") {
      if (ev.stopped || app.seat == null) return "over";
      return ev.loser === app.seat ? "lose" : "win";
    }
    return null;
  }

  function onKey(e) {
    const l = legal();
    const hand = ctx.handButtons();
    // The arrows move among the cards that can take the focus: a disabled button cannot.
    const handOpen = hand.filter((b) => !b.disabled);
    const ledButtons = [...document.querySelectorAll("#battle button.card")].filter((b) => !b.disabled);
    const inHand = hand.includes(document.activeElement);
    const onLed = ledButtons.includes(document.activeElement);
    const key = e.key;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const list = onLed ? ledButtons : handOpen;
      if (list.length) ctx.moveFocus(list, key === "ArrowLeft" ? -1 : 1);
      return list.length > 0;
    }
    if (key === "ArrowUp" && ledButtons.length && !onLed) {
      ctx.moveFocus(ledButtons, 0);
      return true;
    }
    if (key === "ArrowDown" && onLed && handOpen.length) {
      // Back to the hand card last used, if it can still be focused, else the first that can.
      const back = handOpen.find((b) => b.dataset.card === app.focusCard);
      ctx.moveFocus(handOpen, 0, back || handOpen[0]);
      return true;
    }
    if (key === "Enter") {
      if (!(inHand || onLed || document.activeElement === document.body || !document.activeElement.matches("button, a"))) return false;
      play();
      return true;
    }
    if (/^[1-9]$/.test(key) && hand[Number(key) - 1]) {
      hand[Number(key) - 1].focus();
      onHandCard(hand[Number(key) - 1].dataset.card);
      return true;
    }
    if ((key === "t" || key === "T") && l && l.kind === "beat") {
      play();
      return true;
    }
    if ((key === "m" || key === "M") && l && l.declare.length) {
      declare(l.declare[0]);
      return true;
    }
    return false;
  }

  return {
    keys: KEYS,
    help: HELP,
    scoresTitle: "Match",
    logTitle: "Deal log",
    extraTitle: "Memory",
    clear: () => choice.clear(),
    newState: () => {
      // A double click is two clicks on one decision: a click from the last turn must not lead this turn's card.
      choice.clear();
      lastClick = { card: null, at: -Infinity };
    },
    describeEvent: (ev, meta) => describeEvent(ev, meta, app.seat),
    describeAction: (action) => {
      // A suggested defence names what it picks up too: the led cards it leaves unbeaten (M13).
      const l = legal();
      const taken = action.beat && l && l.kind === "beat" ? l.led.filter((c) => !(c in action.beat)) : [];
      return describeAction(action, "You", { taken }).text.replace(/^You /, "");
    },
    turnText() {
      const s = app.state;
      const l = legal();
      return l.kind === "lead" ? `Your turn to lead. You hold ${s.hand.map(spoken).join(", ")}`
        : `Your turn to defend against ${l.led.map(spoken).join(", ")}`;
    },
    lengthText() {
      const m = app.meta.match;
      const current = Math.max(1, m.played + (app.state && app.state.phase !== "over" ? 1 : 0));
      return m.max_losses ? `deal ${current}, to ${losses(m.max_losses)}` : `deal ${Math.min(current, m.deals)} of ${m.deals}`;
    },
    statusText,
    result,
    matchOverText,
    badges,
    renderSeats,
    renderBoard,
    renderInfo,
    renderExtraMe() {},
    renderHand,
    renderActions,
    tip,
    renderScores,
    renderExtra,
    motionPlan,
    cue,
    useHint(action) {
      // "Use it" makes the hinted move, whole: choosing its cards first left a hint to pick up (no cards to
      // choose) looking as if the button did nothing. A table that moved on meanwhile refuses it as stale.
      choice.clear();
      send(action);
    },
    onKey,
  };
}

// --- replays -------------------------------------------------------------------------------------------

/** Return the public facts of frame i's action: the cards picked up, the trump turned. */
function frameFacts(frames, i) {
  const f = frames[i];
  const before = frames[i - 1];
  const out = {};
  if (f.action && f.action.beat && before) out.taken = before.table.map((t) => t.led).filter((c) => !(c in f.action.beat));
  if (f.action && f.action.lead && before && !before.trump_card && f.trump_card) out.turned = f.trump_card;
  return out;
}

function replayPile(count, label, faceUp = null) {
  const box = el("div", `pile${count ? "" : " empty"}`);
  const stack = el("div", "stack");
  if (faceUp) {
    stack.classList.add("with-trump");
    stack.append(cardEl(faceUp, { classes: ["trump-card"] }));
  }
  if (count > (faceUp ? 1 : 0)) stack.append(backEl());
  box.append(stack, el("span", "count", String(count)), el("span", "", label));
  return box;
}

/** The replay viewer's part of the layout (js/replay.js): words for a frame, the table, and each seat. */
export const replay = {
  actionText(frames, i, who) {
    const f = frames[i];
    const action = { ...f.action };
    delete action.seat;
    return describeAction(action, who[f.action.seat], frameFacts(frames, i)).text;
  },
  endText(f, who) {
    return f.stopped ? "The deal was stopped unfinished." : `${who[f.loser]} is left holding Maija.`;
  },
  renderTable(box, frames, i, who) {
    const f = frames[i];
    const bottom = f.trump_card && f.talon.length && f.talon[f.talon.length - 1] === f.trump_card ? f.trump_card : null;
    const trump = el("div", "trump-badge");
    if (f.trump_suit) {
      trump.append(el("span", "", "Trumps"), el("span", `chip suit-${f.trump_suit}`, SUIT_SIGNS[f.trump_suit]));
      if (f.declarer != null) trump.append(el("span", "muted", `marriage of ${who[f.declarer]}`));
      else if (f.trump_card) trump.append(el("span", "muted", `${symbol(f.trump_card)} turned`));
    } else trump.append(el("span", "muted", "No trumps yet"));
    const battle = el("div", "battle");
    const before = frames[i - 1];
    let fights = f.table.map((t) => [t.led, t.beater]);
    let taken = new Set();
    // Right after a defence the table is cleared: show what beat what from the action itself.
    if (f.action && f.action.beat && before) {
      fights = before.table.map((t) => [t.led, f.action.beat[t.led] || null]);
      taken = new Set(fights.filter(([, b]) => !b).map(([l]) => l));
    }
    for (const [led, beater] of fights) {
      const fightBox = el("div", "fight");
      fightBox.append(cardEl(led, { classes: ["led"] }));
      if (beater) fightBox.append(cardEl(beater, { classes: ["beater"], label: `${spoken(beater)} beats ${spoken(led)}` }));
      if (taken.has(led)) fightBox.append(el("span", "tag", "picked up"));
      battle.append(fightBox);
    }
    if (!fights.length) {
      battle.classList.add("empty-table");
      battle.dataset.empty = "No cards on the table";
    }
    box.append(replayPile(f.talon.length, "talon", bottom), trump, battle, replayPile(f.discard.length, "discarded"));
  },
  seatInfo(f, seat) {
    const badges = [];
    if (f.phase !== "over" && f.attacker === seat) badges.push(el("span", "badge attack", "attacks"));
    if (f.phase !== "over" && f.defender === seat) badges.push(el("span", "badge defend", "defends"));
    if (f.out.includes(seat)) badges.push(el("span", "badge out", "out"));
    if (f.loser === seat) badges.push(el("span", "badge loser", "holds Maija"));
    const n = f.hands[seat].length;
    return { text: `${n} card${n === 1 ? "" : "s"}`, badges, trump: f.trump_suit };
  },
};
