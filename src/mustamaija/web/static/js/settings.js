// The player's settings: card size, animation speed, suit colours and sound. They live in localStorage, so every
// page (the table and the replay viewer) and every tab shows the cards the same way, and apply at once.

import { $, el } from "./dom.js";

const KEY = "mustamaija:settings";

export const CARD_SIZES = { small: 0.82, medium: 1, large: 1.2 };
// "auto" follows the system: normal motion, or none when the system asks for reduced motion.
export const SPEEDS = { auto: null, off: 0, fast: 0.55, normal: 1, slow: 1.9 };
// Four colours by default: the cards were designed with them, and shapes and letters mark the suit anyway.
const DEFAULTS = { cardSize: "medium", speed: "auto", fourColour: true, sound: false };

const listeners = new Set();
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
let current = read();

function read() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    stored = {}; // A broken entry is forgotten rather than breaking the page.
  }
  const out = { ...DEFAULTS };
  if (stored.cardSize in CARD_SIZES) out.cardSize = stored.cardSize;
  if (stored.speed in SPEEDS) out.speed = stored.speed;
  if (typeof stored.fourColour === "boolean") out.fourColour = stored.fourColour;
  if (typeof stored.sound === "boolean") out.sound = stored.sound;
  return out;
}

/** Return a copy of the settings. */
export function settings() {
  return { ...current };
}

/** Return the speed in force: the chosen one, or for "auto" what the system's reduced-motion wish gives. */
export function effectiveSpeed() {
  if (current.speed !== "auto") return current.speed;
  return reduced && reduced.matches ? "off" : "normal";
}

/** Return the factor for animation durations, 0 when there must be no motion. */
export function motionScale() {
  return SPEEDS[effectiveSpeed()];
}

/** Change some settings, keep them and apply them. */
export function update(patch) {
  current = { ...current, ...patch };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    /* A private window may refuse storage: the settings still hold for this page. */
  }
  apply();
}

/** Call `fn(settings)` after every change, from this page or another tab. */
export function onChange(fn) {
  listeners.add(fn);
}

function apply() {
  const root = document.documentElement;
  root.style.setProperty("--card-scale", String(CARD_SIZES[current.cardSize]));
  root.dataset.cardSize = current.cardSize;
  root.dataset.motion = effectiveSpeed();
  root.dataset.sound = current.sound ? "on" : "off";
  root.classList.toggle("four-colour", current.fourColour);
  root.classList.toggle("two-colour", !current.fourColour);
  syncForm();
  for (const fn of listeners) fn(settings());
}

// --- the dialog ---------------------------------------------------------------------------------

function choiceField(id, label, options, value) {
  const field = el("label", "field");
  field.htmlFor = id;
  field.append(el("span", "", label));
  const select = el("select");
  select.id = id;
  for (const [v, text] of options) {
    const o = el("option", "", text);
    o.value = v;
    select.append(o);
  }
  select.value = value;
  field.append(select);
  return field;
}

function checkField(id, label, checked) {
  const field = el("label", "check");
  const box = el("input");
  box.type = "checkbox";
  box.id = id;
  box.checked = checked;
  field.append(box, el("span", "", label));
  return field;
}

function syncForm() {
  const form = $("settings-form");
  if (!form) return;
  $("set-card-size").value = current.cardSize;
  $("set-speed").value = current.speed;
  $("set-four-colour").checked = current.fourColour;
  $("set-sound").checked = current.sound;
  $("set-sound-test").disabled = !current.sound;
}

/**
 * Put the settings dialog into the page and open it from `button`. `testSound` plays a sample, so that
 * switching sound on is heard at once (and, being a click, lets the browser start its audio).
 */
export function mountSettings(button, { testSound = null } = {}) {
  const dialog = el("dialog");
  dialog.id = "settings-dialog";
  dialog.setAttribute("aria-labelledby", "settings-title");
  const form = el("form", "settings-form");
  form.id = "settings-form";
  form.method = "dialog";
  const title = el("h2", "", "Settings");
  title.id = "settings-title";
  const speedNote = el("p", "muted settings-note");
  speedNote.id = "set-speed-note";
  const soundRow = el("div", "row settings-sound");
  const test = el("button", "small", "Play a sound");
  test.type = "button";
  test.id = "set-sound-test";
  soundRow.append(checkField("set-sound", "Sound (off until you switch it on)", current.sound), test);
  form.append(
    title,
    choiceField("set-card-size", "Card size", [["small", "Small"], ["medium", "Medium"], ["large", "Large"]], current.cardSize),
    choiceField("set-speed", "Animation speed", [["auto", "Automatic"],
      ["off", "Off"], ["fast", "Fast"], ["normal", "Normal"], ["slow", "Slow"]], current.speed),
    speedNote,
    checkField("set-four-colour", "Four-colour suits (♠ black, ♥ red, ♦ blue, ♣ green); off: classic red and black",
      current.fourColour),
    soundRow,
  );
  const actions = el("div", "dialog-actions");
  const close = el("button", "primary", "Close");
  close.type = "submit";
  close.id = "settings-close";
  actions.append(close);
  form.append(actions);
  dialog.append(form);
  document.body.append(dialog);

  const note = () => {
    speedNote.textContent = reduced && reduced.matches
      ? "Automatic: your system asks for reduced motion, so cards move only if you choose a speed here."
      : "Automatic: normal, or off when your system asks for reduced motion.";
  };
  note();
  $("set-card-size").addEventListener("change", (e) => update({ cardSize: e.target.value }));
  $("set-speed").addEventListener("change", (e) => update({ speed: e.target.value }));
  $("set-four-colour").addEventListener("change", (e) => update({ fourColour: e.target.checked }));
  $("set-sound").addEventListener("change", (e) => {
    update({ sound: e.target.checked });
    if (e.target.checked && testSound) testSound();
  });
  test.addEventListener("click", () => testSound && testSound());
  button.setAttribute("aria-haspopup", "dialog");
  button.setAttribute("aria-controls", "settings-dialog");
  button.addEventListener("click", () => {
    note();
    dialog.showModal();
    $("set-card-size").focus();
  });
  syncForm();
}

// Another tab changed the settings, or the system's wish for reduced motion changed: follow.
window.addEventListener("storage", (e) => {
  if (e.key === KEY) {
    current = read();
    apply();
  }
});
if (reduced && reduced.addEventListener) reduced.addEventListener("change", apply);

apply();
