// The leaderboard (/ratings): each game's Glicko-2 ratings of signed-in names and bot levels (GET /api/ratings),
// with a game switch (kept in the address as ?game=), a people/bots filter, and the signed-in name's own place.

import { api } from "./api.js";
import { $, el } from "./dom.js";
import { signedIn } from "./player.js";
import "./settings.js"; // The player's colours hold here too.

const PAGE = 100;
const board = { game: null, kind: "", rows: [], total: 0, loading: false };

function gameFromAddress() {
  return new URLSearchParams(location.search).get("game");
}

function row(r, me) {
  const tr = el("tr", r.provisional ? "provisional" : "");
  tr.dataset.name = r.name;
  tr.dataset.kind = r.kind;
  if (me && r.kind === "human" && r.name === me.name) tr.classList.add("mine");
  tr.append(el("td", "num", String(r.rank)));
  const who = el("span", "who");
  who.append(el("span", "name", r.name));
  who.append(el("span", `pill ${r.kind === "bot" ? "bot" : ""}`, r.kind === "bot" ? r.label || "bot" : "person"));
  const cell = el("td");
  cell.append(who);
  tr.append(cell);
  const rating = el("td", "num rating", `${Math.round(r.rating)}${r.provisional ? "?" : ""}`);
  if (r.provisional) rating.title = "Provisional: the rating is still uncertain";
  tr.append(rating);
  tr.append(el("td", "num muted", String(Math.round(r.rd))));
  tr.append(el("td", "num", String(r.games)));
  tr.append(el("td", "num", `${r.wins} / ${r.losses} / ${r.draws}`));
  return tr;
}

function draw() {
  const me = signedIn();
  const body = $("ratings-rows");
  body.replaceChildren(...board.rows.map((r) => row(r, me)));
  $("ratings-empty").hidden = board.rows.length > 0;
  $("ratings-more").hidden = board.rows.length >= board.total;
  const title = $("ratings-game").selectedOptions[0]?.textContent || "";
  $("ratings-caption").textContent = `${title} leaderboard`;
  document.title = `Card tables · ${title} ratings`;
  document.body.dataset.rows = String(board.rows.length);
}

/** Show where the signed-in name stands in the chosen game. */
async function drawMe() {
  const me = signedIn();
  const line = $("ratings-me");
  line.hidden = true;
  line.replaceChildren(); // Not the other game's standing while this one's is asked for.
  if (!me) return;
  try {
    const answer = await api(`/api/players/${encodeURIComponent(me.name)}`);
    const mine = answer.ratings.find((r) => r.game === board.game);
    line.replaceChildren();
    if (mine) {
      line.append("You, ", el("strong", "", me.name), `: ${Math.round(mine.rating)}${mine.provisional ? "?" : ""}, `
        + `#${mine.rank} after ${mine.games} deal${mine.games === 1 ? "" : "s"}.`);
    } else {
      line.append("You, ", el("strong", "", me.name), ": no rated deal in this game yet.");
    }
    line.hidden = false;
  } catch {
    /* The name is unknown here (another server's key?): nothing to show. */
  }
}

async function load(more = false) {
  if (board.loading) return;
  board.loading = true;
  $("ratings-error").textContent = "";
  const offset = more ? board.rows.length : 0;
  const query = new URLSearchParams({ game: board.game, limit: String(PAGE), offset: String(offset) });
  if (board.kind) query.set("kind", board.kind);
  try {
    const answer = await api(`/api/ratings?${query}`);
    board.rows = more ? board.rows.concat(answer.ratings) : answer.ratings;
    board.total = answer.total;
    $("provisional-rd").textContent = String(Math.round(answer.provisional_rd));
    draw();
  } catch (e) {
    $("ratings-error").textContent = e.message;
  } finally {
    board.loading = false;
  }
}

function onGame() {
  board.game = $("ratings-game").value;
  const url = new URL(location.href);
  url.searchParams.set("game", board.game);
  history.replaceState(null, "", url);
  load();
  drawMe();
}

async function init() {
  try {
    const answer = await api("/api/games");
    for (const g of answer.games) $("ratings-game").add(new Option(g.title, g.name));
    const wanted = gameFromAddress();
    $("ratings-game").value = answer.games.some((g) => g.name === wanted) ? wanted : answer.default;
  } catch (e) {
    $("ratings-error").textContent = `The games cannot be listed: ${e.message}`;
    return;
  }
  $("ratings-game").addEventListener("change", onGame);
  $("ratings-kind").addEventListener("change", () => {
    board.kind = $("ratings-kind").value;
    load();
  });
  $("ratings-more").addEventListener("click", () => load(true));
  board.game = $("ratings-game").value;
  await Promise.all([load(), drawMe()]);
  document.body.dataset.ready = "1";
}

init();
