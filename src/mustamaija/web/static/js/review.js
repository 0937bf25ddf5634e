// The deal review in the replay viewer: every decision's mark in the action list, each seat's accuracy, and a
// chart of each seat's loss chance (or expected points) over the deal. The server makes the review
// (GET /api/tables/{id}/deals/{n}/review, docs/web.md), judging each decision from its seat's own view.

import { $, el } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const MARK_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const COLOURS = ["#f2c14e", "#7fb2ff", "#ff8a80", "#9be89b", "#d7a6ff", "#ffd0a0", "#7fe0e0", "#e0e0e0"];

function chart(review) {
  const width = 300;
  const height = 110;
  const last = Math.max(1, review.actions);
  const top = review.result_kind === "loss" ? 1
    : Math.max(1, ...review.seats.flatMap((s) => s.series.map(([, v]) => v)));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "review-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Each seat's ${review.measure} over the deal`);
  review.seats.forEach((s, k) => {
    if (!s.series.length) return;
    const path = document.createElementNS(SVG, "polyline");
    path.setAttribute("points", s.series.map(([i, v]) => `${(i / last) * width},${height - (v / top) * (height - 6) - 3}`).join(" "));
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", COLOURS[k % COLOURS.length]);
    path.setAttribute("stroke-width", "2");
    svg.append(path);
  });
  return svg;
}

/** Show a review: marks beside the actions (frame i is after action i - 1), accuracy, and the chart. */
export function showReview(review) {
  const box = $("review");
  box.replaceChildren();
  const names = review.names || review.seats.map((s) => `seat ${s.seat}`);
  const summary = el("ul", "review-seats");
  review.seats.forEach((s, k) => {
    const li = el("li");
    const swatch = el("span", "swatch");
    swatch.style.background = COLOURS[k % COLOURS.length];
    const counts = ["inaccuracy", "mistake", "blunder"].map((m) => `${s.marks[m] || 0} ${m === "inaccuracy" ? "inacc." : m}`);
    li.append(swatch, el("strong", "", names[s.seat]),
      ` accuracy ${s.accuracy == null ? "–" : s.accuracy.toFixed(0)} · ${counts.join(", ")}`);
    summary.append(li);
  });
  box.append(summary, chart(review),
    el("p", "muted", `${review.measure}, lower is better; each decision judged from its seat's own view`));
  for (const d of review.decisions) {
    const li = document.querySelector(`#action-list li[data-index="${d.index + 1}"]`);
    if (!li) continue;
    li.querySelector(".mark")?.remove();
    if (d.mark === "best" || d.mark === "forced") continue;
    const mark = el("span", `mark mark-${d.mark}`, MARK_SIGNS[d.mark]);
    mark.title = `${d.mark}: better ${d.best_words} (${d.exact ? "proven" : `drop ${d.drop.toFixed(2)}`})`;
    li.append(" ", mark);
  }
  box.hidden = false;
}

/** How often the page asks how far a review being made is. */
const POLL_MS = 1000;

/**
 * Add the "Review" button for a table's deal. The server judges every decision with the strongest bot's budget,
 * which takes a while (seconds to half a minute): the page asks without waiting and shows how far it is.
 */
export function offerReview(api, tableId, deal) {
  const button = $("btn-review");
  button.hidden = false;
  const path = `/api/tables/${encodeURIComponent(tableId)}/deals/${deal}/review?wait=false`;
  button.addEventListener("click", async () => {
    button.disabled = true;
    button.textContent = "Reviewing…";
    try {
      for (;;) {
        const answer = await api(path);
        if (answer.review) {
          showReview(answer.review);
          break;
        }
        const { done, total } = answer.progress;
        if (total) button.textContent = `Reviewing… ${done} of ${total} decisions`;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      button.textContent = "Reviewed";
    } catch (e) {
      button.disabled = false;
      button.textContent = "Review this deal";
      $("review").hidden = false;
      $("review").replaceChildren(el("p", "error", `No review: ${e.message}`));
    }
  });
}
