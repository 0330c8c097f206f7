// A game against the computer (or people sharing this screen, or two computers to watch): the
// new-game dialog, which remembers the last choices made in this browser, and the lobby's
// one-click "Play the computer" and the rematch with the same settings.
import { api, markStarted, rememberGame } from "./api.js";
import { $, el, goTo } from "./dom.js";
import { fixed } from "./format.js";
import { t } from "./i18n.js";
import {
  challengeRuleDescription, challengeRuleName, describePreset, levelDescription,
} from "./rulestext.js";
import { asSentence, currentUser, describeError, setUser } from "./session.js";

const SETTINGS = "tessera:computer";
const MAX_OVERTIME_MIN = 10; // the server's bounds (game_requests.parse_own_clock)
const MAX_INCREMENT_S = 60;
const MODES = ["computer", "people", "computers"];
let meta = null;

export async function getMeta() {
  if (!meta) meta = await api.meta();
  return meta;
}

function readSaved() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS));
    return saved && typeof saved === "object" ? saved : {};
  } catch {
    return {}; // unreadable: the defaults
  }
}

// The settings last used in this browser, where the server still offers them, else defaults.
function settings(m) {
  const saved = readSaved();
  const offered = (value, list) => (list.includes(value) ? value : null);
  const clock = saved.clock && typeof saved.clock === "object" ? saved.clock : {};
  const whole = (v, low, high, dflt) => (Number.isInteger(v) && v >= low && v <= high ? v : dflt);
  const level = offered(saved.level, m.levels) || (m.levels.includes("level3") ? "level3" : m.levels[0]);
  const levels = Array.isArray(saved.levels) ? saved.levels : [];
  return {
    mode: MODES.includes(saved.mode) ? saved.mode : "computer",
    name: typeof saved.name === "string" ? saved.name : "",
    count: whole(saved.count, 2, 4, 2),
    names: Array.isArray(saved.names) ? saved.names.filter((n) => typeof n === "string") : [],
    rules: offered(saved.rules, m.presets.map((p) => p.name)) || m.default_rules,
    lexicon: offered(saved.lexicon, m.lexicons) || m.default_lexicon,
    level,
    levels: [0, 1].map((i) => offered(levels[i], m.levels) || level), // computer against computer
    challenge: offered(saved.challenge, m.challenge_rules.map((c) => c.value)) || "",
    clock: {
      own: clock.own === true,
      minutes: whole(clock.minutes, 1, 90, 10),
      kind: clock.kind === "overtime" ? "overtime" : "increment",
      extra: whole(clock.extra, 0, clock.kind === "overtime" ? MAX_OVERTIME_MIN : MAX_INCREMENT_S, 0),
    },
  };
}

// What the server is asked for: the game's own challenge rule and clock only when chosen.
function gameOptions(s) {
  const options = {};
  if (s.challenge) options.challenge_rule = s.challenge;
  if (s.clock.own) {
    options.clock = {
      initial_min: s.clock.minutes,
      increment_s: s.clock.kind === "increment" ? s.clock.extra : 0,
      max_overtime_min: s.clock.kind === "overtime" ? s.clock.extra : 0,
    };
  }
  return options;
}

function fill(select, items, value) {
  select.replaceChildren(...items.map((it) => el("option", { value: it.value, text: it.text })));
  if (items.some((it) => it.value === value)) select.value = value;
}

function preset(name) {
  return meta.presets.find((p) => p.name === name);
}

export async function openNewGame() {
  const m = await getMeta();
  const saved = settings(m);
  document.querySelector(`input[name="mode"][value="${saved.mode}"]`).checked = true;
  fill($("ng-rules"), m.presets.map((p) => ({ value: p.name, text: p.name })), saved.rules);
  fill($("ng-lexicon"), m.lexicons.map((l) => ({ value: l, text: l })), saved.lexicon);
  const levelItems = m.levels.map((l) => ({ value: l, text: l }));
  fill($("ng-level"), levelItems, saved.level);
  fill($("ng-level-1"), levelItems, saved.levels[0]);
  fill($("ng-level-2"), levelItems, saved.levels[1]);
  renderStrength(m.level_info);
  const me = currentUser();
  $("ng-name").value = (me && me.name) || saved.name || t("You");
  $("ng-count").value = String(saved.count);
  updateNames(saved.names);
  $("ng-challenge").replaceChildren(); // filled for the chosen rules, the saved rule chosen
  $("ng-challenge").dataset.saved = saved.challenge;
  document.querySelector(`input[name="ng-clock"][value="${saved.clock.own ? "own" : "preset"}"]`)
    .checked = true;
  $("ng-minutes").value = saved.clock.minutes;
  $("ng-extra-kind").value = saved.clock.kind;
  $("ng-extra").value = saved.clock.extra;
  $("ng-error").textContent = "";
  modeChanged();
  rulesChanged();
  levelChanged();
  clockChanged();
  $("new-game-dialog").showModal();
}

// The README's strength table (served by /api/meta from its one copy on the server).
function renderStrength(info) {
  $("ng-levels").tBodies[0].replaceChildren(...info.map((l) => el("tr", { dataset: { level: l.name } },
    el("td", { text: l.name }),
    el("td", { className: "num", text: fixed(l.mean_score, 1) }),
    el("td", { className: "num", text: fixed(l.opponent_score, 1) }),
    el("td", { className: "num", text: l.win_pct }),
    el("td", { className: "num", text: fixed(l.bingos, 2) }))));
}

function levelChanged() {
  const level = $("ng-level").value;
  const info = meta.level_info.find((l) => l.name === level);
  $("ng-level-text").textContent = info
    ? t("{level}, {description}: scores {score} a game on average, wins {pct}% against the static player.", {
      level: info.name, description: levelDescription(info), score: fixed(info.mean_score, 0),
      pct: info.win_pct.split(" ")[0],
    })
    : "";
  for (const row of $("ng-levels").tBodies[0].rows) {
    row.classList.toggle("chosen", row.dataset.level === level);
  }
}

// The preset's description, its challenge rule offered as the default, its clock, and what a
// finish-line target is when that preset is chosen.
function rulesChanged() {
  const p = preset($("ng-rules").value);
  $("ng-rules-text").textContent = describePreset(p);
  const note = $("ng-finish-note");
  note.hidden = !p.finish_targets;
  if (p.finish_targets) {
    const counts = Object.entries(p.finish_targets)
      .map(([n, target]) => t("{target} with {n} players", { target, n }));
    note.textContent = t("Finish line: the game ends as soon as a player's score reaches the "
      + "target ({level}: {targets}), and that player wins, with no adjustment for the tiles "
      + "left on the racks. If the tiles run out first, the game ends as usual.",
    // i18n: between the parts of a list
    { level: p.finish_level, targets: counts.join(t(", ")) });
  }
  const select = $("ng-challenge");
  const wanted = select.options.length ? select.value : select.dataset.saved;
  fill(select, [{ value: "", text: t("As the rules ({rule})", { rule: challengeRuleName(p.challenge_rule) }) },
    ...meta.challenge_rules.map((c) => ({ value: c.value, text: challengeRuleName(c.value) }))], wanted || "");
  challengeChanged();
  $("ng-clock-preset").textContent = p.clock
    ? t("As the rules: {minutes} min each", { minutes: p.clock.initial_min }) : t("As the rules: no clock");
}

// What the chosen challenge rule means (the preset's when none is chosen).
function challengeChanged() {
  const rule = $("ng-challenge").value || preset($("ng-rules").value).challenge_rule;
  const info = meta.challenge_rules.find((c) => c.value === rule);
  $("ng-challenge-text").textContent = info
    ? challengeRuleDescription(rule, asSentence(info.description)) : "";
}

function clockChanged() {
  const own = document.querySelector('input[name="ng-clock"]:checked').value === "own";
  $("ng-own-clock").hidden = !own;
  const overtime = $("ng-extra-kind").value === "overtime";
  $("ng-overtime-note").hidden = !overtime;
  const extra = $("ng-extra");
  extra.max = overtime ? MAX_OVERTIME_MIN : MAX_INCREMENT_S;
  if (+extra.value > +extra.max) extra.value = extra.max;
}

function updateNames(saved = []) {
  const box = $("ng-names");
  const n = +$("ng-count").value;
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const label = t("Player {n}", { n: i + 1 });
    const value = old[i] || saved[i] || label;
    const input = el("input", { maxLength: 24, value, dataset: { player: i } });
    box.appendChild(el("label", { text: `${label} ` }, input));
  }
}

function modeChanged() {
  const mode = document.querySelector('input[name="mode"]:checked').value;
  $("people-opts").hidden = mode !== "people";
  $("computer-opts").hidden = mode !== "computer";
  $("computers-opts").hidden = mode !== "computers";
}

// The dialog's choices, as they are remembered.
function chosen() {
  const clockKind = $("ng-extra-kind").value;
  return {
    mode: document.querySelector('input[name="mode"]:checked').value,
    name: $("ng-name").value.trim(),
    count: +$("ng-count").value,
    names: [...$("ng-names").querySelectorAll("input")].map((i) => i.value.trim()),
    rules: $("ng-rules").value,
    lexicon: $("ng-lexicon").value,
    level: $("ng-level").value,
    levels: [$("ng-level-1").value, $("ng-level-2").value],
    challenge: $("ng-challenge").value,
    clock: {
      own: document.querySelector('input[name="ng-clock"]:checked').value === "own",
      minutes: Math.round(+$("ng-minutes").value),
      kind: clockKind,
      extra: Math.round(+$("ng-extra").value),
    },
  };
}

async function create(spec) {
  const res = await api.create(spec);
  if (res.user) setUser(res.user);
  rememberGame(res.id);
  markStarted(res.id);
  goTo(`/g/${res.id}`);
}

// The seats the dialog's choices make: one person and the computer, the people at this
// screen, or two computers (the person starting the game watches them).
function seats(c) {
  if (c.mode === "people") return c.names.map((name) => ({ name, kind: "human" }));
  if (c.mode === "computers") {
    return c.levels.map((level, i) => ({ name: t("Computer {n}", { n: i + 1 }), kind: "computer", level }));
  }
  return [
    { name: c.name || t("You"), kind: "human" },
    { name: t("Computer"), kind: "computer", level: c.level },
  ];
}

async function startGame(event) {
  event.preventDefault();
  const c = chosen();
  try {
    await create({ players: seats(c), rules: c.rules, lexicon: c.lexicon, ...gameOptions(c) });
    localStorage.setItem(SETTINGS, JSON.stringify(c));
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
      { name: (me && me.name) || name || t("You"), kind: "human" },
      { name: t("Computer"), kind: "computer", level: saved.level },
    ],
    rules: saved.rules,
    lexicon: saved.lexicon,
    ...gameOptions(saved),
  });
}

// The same game again (players, levels, rules, clock): the server starts it and answers its id.
export async function rematchHere(gameId) {
  const res = await api.rematch(gameId);
  rememberGame(res.id);
  markStarted(res.id);
  goTo(`/g/${res.id}`);
}

export function initNewGame() {
  $("new-game-btn").addEventListener("click", openNewGame);
  $("new-game-form").addEventListener("submit", startGame);
  $("ng-cancel").addEventListener("click", () => $("new-game-dialog").close());
  $("ng-count").addEventListener("change", () => updateNames());
  $("ng-rules").addEventListener("change", rulesChanged);
  $("ng-level").addEventListener("change", levelChanged);
  $("ng-challenge").addEventListener("change", challengeChanged);
  $("ng-extra-kind").addEventListener("change", clockChanged);
  document.querySelectorAll('input[name="mode"]').forEach((r) => r.addEventListener("change", modeChanged));
  document.querySelectorAll('input[name="ng-clock"]').forEach((r) => r.addEventListener("change", clockChanged));
}
