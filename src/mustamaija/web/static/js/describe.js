// Words every table shares: seat names, and the events that are the same in every game (joins, deals, rematches).
// A layout words the events of its game's actions and results (layouts/*.js).

/** Return the display name of a seat from the table metadata ("Ann", "bot 2 · hard", "Seat 3"). */
export function seatName(meta, seat, mySeat = null) {
  if (seat === null || seat === undefined) return "nobody";
  if (seat === mySeat) return "You";
  const s = meta && meta.seats[seat];
  if (!s) return `Seat ${seat}`;
  if (s.kind === "person" && !s.taken) return `Seat ${seat}`;
  const base = s.name || `Seat ${seat}`;
  // People may share a name: number them by seat so the log stays clear.
  const twins = meta.seats.filter((o) => (o.name || "") === (s.name || "")).length;
  return twins > 1 ? `${base} (seat ${seat})` : base;
}

/** Return a count with its noun: "1 hand", "4 hands". */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Return names as words: "Ann", "Ann and Ben", "Ann, Ben and You". */
export function listWords(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** Return `you` or `other` for a subject: "You lead" but "Ann leads". */
export function verb(who, you, other) {
  return who === "You" ? you : other;
}

/** Return {text, spoken}: `text` may use suit signs, `spoken` uses whole words for screen readers. */
export function line(text, words = text) {
  return { text, spoken: words };
}

/** Return {text, spoken} for an event every game has, or null for the layout to word. */
export function describeCommon(ev, meta, mySeat) {
  const who = seatName(meta, ev.seat, mySeat);
  switch (ev.kind) {
    case "join":
      return line(`${ev.name || who} sits down in seat ${ev.seat}`);
    case "deal_start":
      return line(`Deal ${ev.in_match ?? ev.deal}: ${seatName(meta, ev.dealer, mySeat)} ${ev.dealer === mySeat ? "deal" : "deals"}`);
    case "rematch":
      return line(`Rematch: match ${ev.match} begins`);
    default:
      return null;
  }
}
