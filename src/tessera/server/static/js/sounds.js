// Optional move sounds: off until the player turns them on with the game page's switch, which
// this browser then remembers. A short two-note chime, made by the Web Audio API (no sound
// files), says that someone else has moved. `sounds.played` counts the chimes (for tests).
import { t } from "./i18n.js";

const KEY = "tessera:sounds";

export const sounds = { on: localStorage.getItem(KEY) === "on", played: 0 };
let context = null;

function showSwitch() {
  const button = document.getElementById("sound-btn");
  if (!button) return;
  button.setAttribute("aria-pressed", String(sounds.on));
  button.textContent = sounds.on ? t("Sounds on") : t("Sounds off");
}

// Browsers start audio only after a gesture: the switch's click makes (or wakes) the context.
function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume();
  return context;
}

export function initSounds() {
  showSwitch();
  document.getElementById("sound-btn").addEventListener("click", () => {
    sounds.on = !sounds.on;
    localStorage.setItem(KEY, sounds.on ? "on" : "off");
    if (sounds.on) audio();
    showSwitch();
  });
}

export function moveSound() {
  if (!sounds.on) return;
  sounds.played += 1;
  const ctx = audio();
  if (!ctx) return;
  const start = ctx.currentTime;
  [660, 880].forEach((frequency, i) => {
    const tone = ctx.createOscillator();
    const gain = ctx.createGain();
    tone.frequency.value = frequency;
    const at = start + i * 0.09;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.15, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
    tone.connect(gain).connect(ctx.destination);
    tone.start(at);
    tone.stop(at + 0.13);
  });
}
