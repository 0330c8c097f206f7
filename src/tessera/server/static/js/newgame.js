// A game against the computer (or people sharing this screen): the new-game dialog, and the
// lobby's one-click "Play the computer" with the settings last chosen here.
import { api, rememberGame } from "./api.js";
import { $, el, goTo } from "./dom.js";
import { currentUser, describeError, setUser } from "./session.js";

const SETTINGS = "tessera:computer";
let meta = null;

export async function getMeta() {
  if (!meta) meta = await api.meta();
  return meta;
}

// The settings last used in this browser, where the server still offers them, else defaults.
function settings(m) {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS)) || {};
  } catch { /* unreadable: the defaults */ }
  const offered = (value, list) => (list.includes(value) ? value : null);
  return {
    rules: offered(saved.rules, m.presets.map((p) => p.name)) || m.default_rules,
    lexicon: offered(saved.lexicon, m.lexicons) || m.default_lexicon,
    level: offered(saved.level, m.levels) || (m.levels.includes("level3") ? "level3" : m.levels[0]),
  };
}

function fill(select, items, value) {
  select.replaceChildren(...items.map((it) => el("option", { value: it.value, text: it.text })));
  if (items.some((it) => it.value === value)) select.value = value;
}

export async function openNewGame() {
  const m = await getMeta();
  const saved = settings(m);
  fill($("ng-rules"), m.presets.map((p) => ({ value: p.name, text: `${p.name} — ${p.description}` })),
    saved.rules);
  fill($("ng-lexicon"), m.lexicons.map((l) => ({ value: l, text: l })), saved.lexicon);
  fill($("ng-level"), m.levels.map((l) => ({ value: l, text: l })), saved.level);
  const me = currentUser();
  if (me) $("ng-name").value = me.name;
  updateNames();
  $("ng-error").textContent = "";
  $("new-game-dialog").showModal();
}

function updateNames() {
  const box = $("ng-names");
  const n = +$("ng-count").value;
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const input = el("input", { maxLength: 24, value: old[i] || `Player ${i + 1}`, dataset: { player: i } });
    box.appendChild(el("label", { text: `Player ${i + 1} ` }, input));
  }
}

function modeChanged() {
  const people = document.querySelector('input[name="mode"]:checked').value === "people";
  $("people-opts").hidden = !people;
  $("computer-opts").hidden = people;
}

async function create(spec) {
  const res = await api.create(spec);
  if (res.user) setUser(res.user);
  rememberGame(res.id);
  goTo(`/g/${res.id}`);
}

async function startGame(event) {
  event.preventDefault();
  const people = document.querySelector('input[name="mode"]:checked').value === "people";
  let players;
  if (people) {
    players = [...$("ng-names").querySelectorAll("input")].map((i) => ({ name: i.value.trim(), kind: "human" }));
  } else {
    players = [
      { name: $("ng-name").value.trim() || "You", kind: "human" },
      { name: "Computer", kind: "computer", level: $("ng-level").value },
    ];
  }
  const rules = $("ng-rules").value;
  const lexicon = $("ng-lexicon").value;
  try {
    await create({ players, rules, lexicon });
    localStorage.setItem(SETTINGS, JSON.stringify({ rules, lexicon, level: $("ng-level").value }));
    $("new-game-dialog").close();
  } catch (err) {
    $("ng-error").textContent = describeError(err);
  }
}

// One click: a game against the computer with this browser's last settings (or the defaults).
export async function quickComputerGame(name) {
  const m = await getMeta();
  const saved = settings(m);
  const me = currentUser();
  await create({
    players: [
      { name: (me && me.name) || name || "You", kind: "human" },
      { name: "Computer", kind: "computer", level: saved.level },
    ],
    rules: saved.rules,
    lexicon: saved.lexicon,
  });
}

export function initNewGame() {
  $("new-game-btn").addEventListener("click", openNewGame);
  $("new-game-form").addEventListener("submit", startGame);
  $("ng-cancel").addEventListener("click", () => $("new-game-dialog").close());
  $("ng-count").addEventListener("change", updateNames);
  document.querySelectorAll('input[name="mode"]').forEach((r) => r.addEventListener("change", modeChanged));
}
