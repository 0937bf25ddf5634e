// The table's chat: the players' channel for seats, the spectators' own for spectators (docs/web.md, "Chat").
//
// Lines come from the server already tidied and limited; this module shows them, sends lines and quick emotes,
// and mutes: everyone, or one speaker, kept in localStorage so a mute survives a reload.

import { $, el } from "./dom.js";

export const EMOTES = {
  hi: "Hello!", gg: "Good game!", wp: "Well played!", oops: "Oops!", thanks: "Thanks!", hurry: "Your turn…",
};
const MAX_LENGTH = 200;
const MUTE_KEY = "mustamaija:chat-mute";

function loadMutes() {
  try {
    const value = JSON.parse(localStorage.getItem(MUTE_KEY) || "{}");
    return { all: Boolean(value.all), names: Array.isArray(value.names) ? value.names.filter((n) => typeof n === "string") : [] };
  } catch {
    return { all: false, names: [] };
  }
}

function saveMutes(mutes) {
  try {
    localStorage.setItem(MUTE_KEY, JSON.stringify(mutes));
  } catch {
    /* Private browsing may refuse storage: the mute lasts for this page only. */
  }
}

/** Return the chat of a table page: call `lines(list)` on sync, `line(msg)` on a chat message. */
export function createChat({ send, isSpectator, onError }) {
  const lines = [];
  const mutes = loadMutes();
  const list = $("chat-lines");
  const form = $("chat-form");
  const input = $("chat-input");
  const muteAll = $("chat-mute");

  function shown(line) {
    return !mutes.all && !mutes.names.includes(line.name);
  }

  function draw() {
    $("chat-title").textContent = isSpectator() ? "Spectators' chat" : "Table chat";
    muteAll.textContent = mutes.all ? "Unmute" : "Mute";
    muteAll.setAttribute("aria-pressed", mutes.all ? "true" : "false");
    list.replaceChildren();
    const visible = lines.filter(shown);
    if (!visible.length) {
      list.append(el("li", "muted", mutes.all ? "Chat is muted." : "No one has said anything yet."));
    }
    for (const line of visible.slice(-50)) {
      const li = el("li", line.emote ? "emote" : "");
      const who = el("button", "who", line.name);
      who.type = "button";
      who.title = `Mute ${line.name}`;
      who.addEventListener("click", () => {
        if (!mutes.names.includes(line.name)) mutes.names.push(line.name);
        saveMutes(mutes);
        draw();
      });
      // textContent only: a chat line is never markup.
      li.append(who, el("span", "said", line.emote ? EMOTES[line.emote] || line.emote : line.text));
      list.append(li);
    }
    if (mutes.names.length) {
      const again = el("li", "muted");
      const b = el("button", "small ghost", `Unmute ${mutes.names.join(", ")}`);
      b.type = "button";
      b.addEventListener("click", () => { mutes.names = []; saveMutes(mutes); draw(); });
      again.append(b);
      list.append(again);
    }
    list.scrollTop = list.scrollHeight;
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim().slice(0, MAX_LENGTH);
    if (!text) return;
    if (send({ type: "chat", text, id: "chat" })) input.value = "";
    else onError("Not connected: the line was not sent.");
  });
  for (const [key, words] of Object.entries(EMOTES)) {
    const b = el("button", "small ghost emote-button", words);
    b.type = "button";
    b.dataset.emote = key;
    b.addEventListener("click", () => { if (!send({ type: "chat", emote: key, id: "chat" })) onError("Not connected."); });
    $("chat-emotes").append(b);
  }
  muteAll.addEventListener("click", () => { mutes.all = !mutes.all; saveMutes(mutes); draw(); });
  input.maxLength = MAX_LENGTH;
  draw();

  return {
    /** Replace the lines (a sync). */
    lines(all) {
      lines.splice(0, lines.length, ...(all || []));
      draw();
    },
    /** Add one line said in this page's channel. */
    line(msg) {
      lines.push(msg);
      if (lines.length > 200) lines.splice(0, lines.length - 200);
      draw();
    },
    draw,
  };
}
