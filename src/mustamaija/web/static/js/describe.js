// Words for what happens at the table: event lines for the deal log and for screen readers.

import { SUIT_SIGNS, SUIT_WORDS, spoken, symbols } from "./cards.js";

/** Return the display name of a seat from the table metadata ("Ann", "medium bot 2", "seat 3"). */
export function seatName(meta, seat, mySeat = null) {
  if (seat === null || seat === undefined) return "nobody";
  if (seat === mySeat) return "You";
  const s = meta && meta.seats[seat];
  if (!s) return `Seat ${seat + 1}`;
  if (s.kind === "person" && !s.taken) return `Seat ${seat + 1}`;
  const base = s.name || `Seat ${seat + 1}`;
  // Bots share names ("medium bot"): number them by seat so the log stays clear.
  const twins = meta.seats.filter((o) => (o.name || "") === (s.name || "")).length;
  return twins > 1 ? `${base} ${seat + 1}` : base;
}

function verb(who, you, other) {
  return who === "You" ? you : other;
}

/**
 * Return {text, spoken} for one event: `text` uses suit signs, `spoken` whole words for screen readers.
 */
export function describeEvent(ev, meta, mySeat) {
  const who = seatName(meta, ev.seat, mySeat);
  switch (ev.kind) {
    case "join":
      return line(`${ev.name || who} sits down in seat ${ev.seat + 1}`);
    case "deal_start":
      return line(`Deal ${ev.deal}: ${seatName(meta, ev.dealer, mySeat)} ${ev.dealer === mySeat ? "deal" : "deals"}`);
    case "action":
      return describeAction(ev.action, who, ev);
    case "deal_over": {
      if (ev.stopped) return line(`Deal ${ev.deal} stopped unfinished after ${ev.turns} turns`);
      const loser = seatName(meta, ev.loser, mySeat);
      return line(`${loser} ${verb(loser, "are", "is")} left holding Maija: deal ${ev.deal} lost`);
    }
    case "match_over": {
      const order = (ev.standings || []).map(([seat, losses]) => `${seatName(meta, seat, mySeat)} ${losses}`).join(", ");
      return line(`Match over. Losses: ${order}`);
    }
    case "rematch":
      return line(`Rematch: match ${ev.match} begins`);
    default:
      return line(ev.text || ev.kind);
  }
}

function line(text, words = text) {
  return { text, spoken: words };
}

/** Return {text, spoken} for a record action (without seat) made by `who`. */
export function describeAction(action, who, facts = {}) {
  if (action.lead) {
    let text = `${who} ${verb(who, "lead", "leads")} ${symbols(action.lead)}`;
    let words = `${who} ${verb(who, "lead", "leads")} ${action.lead.map(spoken).join(", ")}`;
    if (facts.turned) {
      text += ` · trump turned: ${symbols([facts.turned])}`;
      words += `. The trump card turned is the ${spoken(facts.turned)}`;
    }
    return { text, spoken: words };
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
    return { text: `${who} ${parts.join(" and ")}`, spoken: `${who} ${words.join(" and ")}` };
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

/** Return the human summary of a rule set. */
export function describeRules(r) {
  if (!r) return "";
  const parts = [`${r.hand_size} cards`];
  if (r.trump === "turned") parts.push("trump turned");
  else if (r.trump === "fixed") parts.push(`${SUIT_SIGNS[r.trump_suit]} trumps`);
  else if (r.trump === "marriage") parts.push("marriage trumps");
  else parts.push("no trumps");
  if (r.attack_limit === "always") parts.push("lead limit always");
  if (r.max_lead) parts.push(`max ${r.max_lead} a lead`);
  return parts.join(" · ");
}
