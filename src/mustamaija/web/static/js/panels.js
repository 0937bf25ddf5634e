// The side panels of the table: the match score, the memory panel and the deal log.
//
// Each takes the box to draw in and a context: {meta, state, seat, log, name(seat), others, tableId},
// where `others` lists the seats whose known cards to show.

import { SUIT_SIGNS, chip, fullDeck, sortHand, spoken } from "./cards.js";
import { describeEvent } from "./describe.js";
import { el } from "./dom.js";

/** Draw the match: losses per player, the match length, and links to the replays of finished deals. */
export function renderScores(box, ctx) {
  const { meta, seat: mySeat, name, tableId } = ctx;
  const m = meta.match;
  box.replaceChildren();
  const tableEl = el("table");
  const head = el("tr");
  head.append(el("th", "", "Player"), el("th", "num", "Losses"));
  tableEl.append(head);
  const order = [...meta.seats].sort((a, b) => m.losses[a.seat] - m.losses[b.seat] || a.seat - b.seat);
  for (const seat of order) {
    const tr = el("tr");
    const who = el("td", "", seat.seat === mySeat ? seat.name || "You" : name(seat.seat));
    if (seat.seat === mySeat) who.append(" ", el("span", "badge you", "you"));
    tr.append(who, el("td", "num", String(m.losses[seat.seat])));
    tableEl.append(tr);
  }
  box.append(tableEl);
  const info = el("p", "muted");
  info.style.margin = "6px 0 0";
  const length = m.max_losses ? `first to ${m.max_losses} losses ends it` : `${m.played} of ${m.deals} deals played`;
  info.textContent = `Match ${m.number}: ${length}${m.over ? " · over" : ""}`;
  box.append(info);
  if (m.results.length) {
    const list = el("p", "muted");
    list.style.margin = "4px 0 0";
    list.append("Replays: ");
    for (const r of m.results) {
      const a = el("a", "", `#${r.deal}`);
      a.href = `/replay/${tableId}/${r.deal}`;
      a.title = r.stopped ? `deal ${r.deal}: stopped` : `deal ${r.deal}: ${name(r.loser)} lost`;
      list.append(a, " ");
    }
    box.append(list);
  }
}

/** Draw the memory panel: where each of the 52 cards is, as far as this seat knows, and what each hand is known to hold. */
export function renderMemory(box, ctx) {
  const { state: s, seat: mySeat, name, others } = ctx;
  box.replaceChildren();
  if (!s) {
    box.append(el("p", "muted", "The memory panel fills up as the deal goes on."));
    return;
  }
  const where = {};
  for (const c of s.discard) where[c] = ["gone", "out of play"];
  for (const t of s.table) where[t.led] = ["table", "on the table"];
  for (const k of s.talon_known) where[k.card] = ["talon", `in the talon, ${k.depth === s.talon - 1 ? "at the bottom" : `${k.depth} from the top`}`];
  s.known.forEach((cards, seat) => cards.forEach((c) => { if (seat !== mySeat) where[c] = ["known", `held by ${name(seat)}`]; }));
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
  box.append(grid);
  const legend = el("div", "legend");
  legend.append(el("span", "l-mine", "yours"), el("span", "l-known", "known in a hand"), el("span", "l-table", "on the table"),
    el("span", "l-talon", "in the talon"), el("span", "l-gone", "out of play (struck)"));
  box.append(legend);
  const list = el("ul", "memory-list");
  for (const seat of others) {
    const li = el("li");
    li.append(el("span", "who", name(seat)));
    const cards = s.known[seat] || [];
    if (cards.length) sortHand(cards, s.trump_suit).forEach((c) => li.append(chip(c)));
    else li.append(el("span", "muted", "nothing known"));
    list.append(li);
  }
  box.append(list);
}

/** Draw the deal log, keeping it scrolled to the end when it was there. */
export function renderLog(list, ctx) {
  const { meta, seat: mySeat, log } = ctx;
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  list.replaceChildren();
  for (const ev of log) {
    const { text } = describeEvent(ev, meta, mySeat);
    const li = el("li", ev.kind === "deal_start" ? "new-deal" : ev.seat === mySeat && ev.kind === "action" ? "mine" : "", text);
    list.append(li);
  }
  if (atEnd) list.scrollTop = list.scrollHeight;
}
