// Short sounds made on the spot with the Web Audio API (no audio files): your turn, a card played, a pick-up, a
// trick taken, the deal dealt and over. Silent until the player switches sound on in the settings.

import { settings } from "./settings.js";

// What the page asked for and what was heard, for the browser test and for curious players.
export const stats = { cues: 0, played: 0, last: "", state: "none" };

let audio = null;
let master = null;
let noiseBuffer = null;

/**
 * Make or wake the audio context. Browsers let audio start only from a click or a key, so this is called from one
 * (the settings dialog, or the player's first input once sound is on) and never at page load.
 */
export function unlock() {
  if (!settings().sound) return null;
  if (!audio) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    audio = new Context();
    master = audio.createGain();
    master.gain.value = 0.5;
    master.connect(audio.destination);
    audio.onstatechange = () => { stats.state = audio.state; };
  }
  if (audio.state === "suspended") audio.resume().catch(() => { /* Tried again at the next input. */ });
  stats.state = audio.state;
  return audio;
}

function tone(t, freq, dur, { type = "sine", gain = 0.25, to = null } = {}) {
  const osc = audio.createOscillator();
  const amp = audio.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t + dur);
  amp.gain.setValueAtTime(0.0001, t);
  amp.gain.exponentialRampToValueAtTime(gain, t + 0.012);
  amp.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  osc.connect(amp).connect(master);
  osc.start(t);
  osc.stop(t + dur + 0.02);
}

function noise(t, dur, { freq = 2400, q = 1.2, gain = 0.5, to = null } = {}) {
  if (!noiseBuffer) {
    noiseBuffer = audio.createBuffer(1, Math.ceil(audio.sampleRate * 0.5), audio.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  const src = audio.createBufferSource();
  src.buffer = noiseBuffer;
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = q;
  filter.frequency.setValueAtTime(freq, t);
  if (to) filter.frequency.exponentialRampToValueAtTime(to, t + dur);
  const amp = audio.createGain();
  amp.gain.setValueAtTime(gain, t);
  amp.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  src.connect(filter).connect(amp).connect(master);
  src.start(t);
  src.stop(t + dur + 0.02);
}

// Each cue is a few notes or a burst of filtered noise: a card's snap on the cloth, a sweep for cards gathered.
const VOICES = {
  turn(t) {
    tone(t, 660, 0.16, { gain: 0.18 });
    tone(t + 0.11, 990, 0.22, { gain: 0.16 });
  },
  card(t) {
    noise(t, 0.07, { freq: 2600, q: 0.9, gain: 0.7 });
    tone(t, 180, 0.06, { type: "triangle", gain: 0.12 });
  },
  pickup(t) {
    noise(t, 0.28, { freq: 3000, to: 500, q: 0.8, gain: 0.55 });
    tone(t + 0.05, 300, 0.22, { type: "triangle", to: 150, gain: 0.12 });
  },
  trick(t) {
    noise(t, 0.18, { freq: 1800, to: 900, q: 1, gain: 0.45 });
  },
  deal(t) {
    for (let i = 0; i < 6; i++) noise(t + i * 0.055, 0.045, { freq: 2800 + 200 * (i % 3), gain: 0.45 });
  },
  win(t) {
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => tone(t + i * 0.1, f, 0.32, { type: "triangle", gain: 0.16 }));
  },
  lose(t) {
    [392, 311.13, 261.63].forEach((f, i) => tone(t + i * 0.16, f, 0.4, { type: "sawtooth", gain: 0.06 }));
  },
  over(t) {
    tone(t, 587.33, 0.3, { type: "triangle", gain: 0.14 });
    tone(t + 0.14, 880, 0.36, { type: "triangle", gain: 0.12 });
  },
};

export const CUES = Object.keys(VOICES);

/** Play cues one after another (the cards of one update are heard in turn, not at once). */
export function play(...cues) {
  if (!settings().sound) return;
  const list = cues.flat(Infinity).filter((c) => c in VOICES).slice(0, 4);
  if (!list.length) return;
  stats.cues += list.length;
  stats.last = list[list.length - 1];
  // Before the first click or key the browser would refuse the context: stay quiet rather than warn.
  if (!audio || audio.state === "closed") return;
  if (audio.state === "suspended") audio.resume().catch(() => {});
  const start = audio.currentTime + 0.02;
  list.forEach((cue, i) => VOICES[cue](start + i * 0.12));
  stats.played += list.length;
}

// The first input after sound is switched on (or after a reload with sound on) may start the audio.
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => { if (settings().sound && (!audio || audio.state !== "running")) unlock(); },
    { capture: true, passive: true });
}
