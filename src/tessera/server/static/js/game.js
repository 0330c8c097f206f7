// The game page: state from the server, tiles the player is placing, input, and for a game
// between people on their own devices its clocks, challenges, abort, rematch and the view of
// someone watching (no rack, no actions).
import { initSounds, moveSound, sounds } from "./sounds.js";
import {
  api, ApiError, connectLive, forgetLastGame, lastGame, rememberGame, takeStarted,
} from "./api.js";
import {
  describeEvent, renderBoard, renderPlayers, renderRack, renderSheet, renderUnseen, scoreChart,
  tileLabel, updateClocks,
} from "./board.js";
import { $, el, goTo, showPage } from "./dom.js";
import { describeClock, endText, signed } from "./format.js";
import { listText, t, tn } from "./i18n.js";
import { openNewGame, rematchHere } from "./newgame.js";
import { offer } from "./notices.js";
import { describeError, describeRefusal } from "./session.js";
import { challengeRuleText } from "./rulestext.js";
import { challengeNews } from "./verdict.js";
import { gameTitle } from "./title.js";
import { renderWatchers } from "./watchers.js";

const app = {
  gameId: null,
  state: null,
  rack: [],             // the rack in the player's own order (labels)
  pending: new Map(),   // "r,c" -> {index, label, rackLabel}
  cursor: null,         // {r, c, across}
  typed: null,          // the letters typed for the last tile: {text, key, index, after}
  revealed: null,       // hot-seat: the seat whose tiles were last shown
  live: null,
  receivedAt: 0,
  summaryShownFor: null,
  connected: true,      // the live socket (false: the reconnect banner shows)
  dismissedVerdict: null, // "game:index" of the challenge banner closed on this page
};
window.tessera = app;  // for debugging and tests: the page's state, nothing secret

// ---------------------------------------------------------------- state from the server

function finished(s = app.state) {
  return s.state === "over" || s.state === "aborted";
}

function watching(s = app.state) {
  return s.seat < 0;
}

// Whether a game is on the page at all (none after an unknown or private game's address).
function gameShown() {
  return app.state !== null;
}

function myTurn() {
  const s = app.state;
  return s && !finished(s) && !watching(s) && s.to_move === s.seat && s.kinds[s.seat] === "human";
}

function sameTiles(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

// People sharing this screen: the page holds more than one person's seat (a game between
// computers has no rack to hide).
function hotSeat() {
  const s = app.state;
  return s && s.my_seats.filter((i) => s.kinds[i] === "human").length > 1;
}

function applyState(state, { opening = false } = {}) {
  if (app.state && app.state.game_id === state.game_id && state.seq < app.state.seq) return;
  const prev = app.state;
  const seatChanged = !prev || prev.seat !== state.seat;
  app.state = state;
  app.receivedAt = performance.now();
  if (seatChanged || !sameTiles(app.rack, state.rack)) {
    app.rack = [...state.rack];
    app.pending.clear();
  } else {
    for (const key of [...app.pending.keys()]) {
      const [r, c] = key.split(",").map(Number);
      if (state.board[r][c]) app.pending.delete(key);
    }
  }
  if (!myTurn()) app.cursor = null;
  // reopened: no pop-up (but a game just started here that ended before the page showed it)
  const started = opening && takeStarted(state.game_id);
  if (opening && finished(state) && !started) app.summaryShownFor = state.game_id;
  render();
  announce(prev && prev.game_id === state.game_id ? prev : null, state);
  if (state.state === "over" && app.summaryShownFor !== state.game_id) {
    app.summaryShownFor = state.game_id;
    showSummary();
  }
}

// ---------------------------------------------------------------- the live region

// One turn in words, as a screen reader says it: "Bob played QUIZ at 8D for 35".
function eventText(s, e) {
  const who = s.names[e.player];
  if (e.kind === "play") {
    return t("{name} played {word} at {square} for {score}.",
      { name: who, word: e.words[0] || e.move, square: e.position, score: e.score });
  }
  if (e.kind === "pass") return t("{name} passed.", { name: who });
  if (e.kind === "exchange") {
    const n = e.count || e.move.replace(/^-/, "").length;
    return tn("{name} exchanged {n} tile.", "{name} exchanged {n} tiles.", n, { name: who });
  }
  if (e.kind === "withdrawn") return t("{name}'s play was challenged off.", { name: who });
  return t("{name}: {event}.", { name: who, event: describeEvent(e) });
}

function whoseTurnText(s) {
  if (s.state === "aborted") return t("The game was called off.");
  if (s.state === "over") {
    return s.result ? t("The game is over: {outcome}.", { outcome: winnerTitle(s) }) : t("The game is over.");
  }
  if (myTurn()) return s.state === "awaiting_final" ? t("Your turn: accept or challenge.") : t("Your turn.");
  return t("{name} to move.", { name: s.names[s.to_move] });
}

// The polite live region: the moves made since the last state by anyone but this page's own
// player (every move, when players share the screen), then whose turn it is.
function announce(prev, s) {
  const fresh = prev ? s.history.slice(prev.history.length) : [];
  const single = s.my_seats.length === 1;
  const moves = fresh.filter((e) => !(single && e.player === s.my_seats[0])).map((e) => eventText(s, e));
  const turnChanged = !prev || prev.to_move !== s.to_move || prev.state !== s.state;
  if (moves.length && prev) moveSound();
  if (!moves.length && !turnChanged) return;
  const text = [...moves, whoseTurnText(s)].join(" ");
  if (text !== $("announce").textContent) $("announce").textContent = text;
}

function clockNow(i) {
  const s = app.state;
  let ms = s.clocks_ms[i];
  if (!finished(s) && s.to_move === i) {
    ms -= s.turn_elapsed_ms + (performance.now() - app.receivedAt);
  }
  return ms;
}

// ---------------------------------------------------------------- drawing

function usedIndices() {
  return new Set([...app.pending.values()].map((p) => p.index));
}

function render() {
  const s = app.state;
  if (!s) return;
  $("game").hidden = false;
  $("no-seat").hidden = true;
  $("game").classList.toggle("spectator", watching(s));
  $("game").classList.toggle("over", finished(s));  // the move buttons give way to Rematch
  $("watching").hidden = !watching(s);
  const covered = hotSeat() && !finished(s) && app.revealed !== s.seat;
  $("cover").hidden = !covered;
  if (covered) {
    $("cover-text").textContent = t("Pass the device to {name}", { name: s.names[s.seat] });
    $("cover-btn").textContent = t("I'm {name}: show my tiles", { name: s.names[s.seat] });
  }
  const info = [t("{rules} rules", { rules: s.rules.name }), s.lexicon];
  if (s.rules.finish_target != null) {
    info.push(t("first to {n} points", { n: s.rules.finish_target }));
  }
  if (s.rules.challenges) info.push(challengeRuleText(s.rules.challenge_rule));
  if (s.clock) info.push(describeClock(s.clock));
  if (s.online) info.push(s.rated ? t("rated") : t("casual"));
  $("game-info").textContent = info.join(" · ");
  document.title = gameTitle(s.names, myTurn());
  renderBoard($("board"), s, app.pending, app.cursor);
  renderRack($("rack"), covered || watching(s) ? [] : app.rack, s.values, usedIndices());
  renderPlayers($("players"), s, clockNow);
  renderUnseen($("unseen"), $("unseen-count"), $("bag-count"), s);
  renderSheet($("sheet").tBodies[0], s);
  const mine = myTurn();
  const awaiting = s.state === "awaiting_final";
  const player = !watching(s) && s.kinds[s.seat] === "human";
  $("play-btn").disabled = !mine || awaiting || app.pending.size === 0;
  $("recall-btn").disabled = app.pending.size === 0;
  $("exchange-btn").disabled = !mine || awaiting;
  $("pass-btn").disabled = !mine;
  $("pass-btn").textContent = awaiting && mine ? t("Accept") : t("Pass");
  $("hint-btn").hidden = s.online;  // no help in a game against people
  $("hint-btn").disabled = !mine || awaiting;
  $("resign-btn").disabled = finished(s) || !player;
  $("challenge-btn").hidden = !s.rules.challenges;
  $("challenge-btn").disabled = !s.can_challenge;
  $("abort-btn").hidden = !s.can_abort;
  $("rematch-btn").hidden = !(finished(s) && !watching(s));
  renderVerdict(s);
  if (!$("message").dataset.sticky) setMessage(turnText(s, mine, awaiting), "info");
  updatePreview();
}

// The banner of the last challenge's verdict, until it is dismissed or stale.
function renderVerdict(s) {
  const news = challengeNews(s);
  const shown = news !== null && app.dismissedVerdict !== `${s.game_id}:${news.index}`;
  $("verdict").hidden = !shown;
  $("verdict-text").textContent = shown ? news.text : "";
  $("verdict").dataset.index = shown ? news.index : "";
}

function turnText(s, mine, awaiting) {
  if (s.state === "aborted") return t("The game was called off.");
  if (s.state === "over") {  // why, in words: "The game is over: Bob lost on time."
    return s.result ? t("The game is over: {reason}.", { reason: endText(s.result, s.names) }) : t("The game is over.");
  }
  if (awaiting && mine) return t("{name} went out: accept or challenge.", { name: s.names[lastPlayer()] });
  if (watching(s)) return t("{name} to move.", { name: s.names[s.to_move] });
  if (awaiting && s.online) {
    return t("Waiting for {name} to accept or challenge.", { name: s.names[s.to_move] });
  }
  if (!mine) return t("{name} is thinking…", { name: s.names[s.to_move] });
  return "";
}

function lastPlayer() {
  const plays = app.state.history.filter((e) => e.kind === "play");
  return plays.length ? plays[plays.length - 1].player : 0;
}

function setMessage(text, kind = "error") {
  const el = $("message");
  el.textContent = text;
  el.style.color = kind === "error" ? "" : "var(--info-text)";
  if (kind === "error" && text) el.dataset.sticky = "1";
  else delete el.dataset.sticky;
}

function clearError() { delete $("message").dataset.sticky; }

// The reason a refused move was refused, once: in the message line, not also in the preview.
function showRefusal(answer) {
  setMessage(describeRefusal(answer));
  $("preview").textContent = "";
}

// ---------------------------------------------------------------- tentative play

let previewSeq = 0;
async function updatePreview() {
  const el = $("preview");
  if (!myTurn() || app.pending.size === 0) { el.textContent = ""; return; }
  const seq = ++previewSeq;
  try {
    const res = await api.check(app.gameId, { seat: app.state.seat, placements: placements() });
    if (seq !== previewSeq) return;
    const reason = res.ok ? "" : describeRefusal(res);
    const alreadySaid = reason && $("message").dataset.sticky && $("message").textContent === reason;
    el.textContent = res.ok ? tn("{move} · {n} point", "{move} · {n} points", res.score, { move: res.move })
      : alreadySaid ? "" : reason;
    el.classList.toggle("invalid", !res.ok);
    el.dataset.ok = res.ok ? "1" : "0";
    el.dataset.score = res.ok ? res.score : "";
  } catch (err) {
    if (seq === previewSeq) el.textContent = "";
    if (seq === previewSeq && err.reason === "network") connectionLost();
  }
}

function placements() {
  return [...app.pending.entries()].map(([key, p]) => {
    const [r, c] = key.split(",").map(Number);
    return [r, c, p.label];
  });
}

function place(r, c, index, designated) {
  const rackLabel = app.rack[index];
  const label = rackLabel === "?" ? designated.toLowerCase() : rackLabel;
  for (const [key, p] of app.pending) if (p.index === index) app.pending.delete(key);
  app.pending.set(`${r},${c}`, { index, label, rackLabel });
  clearError();
  render();
}

function squareFree(r, c) {
  const s = app.state;
  return r >= 0 && c >= 0 && r < s.layout.rows && c < s.layout.cols && !s.board[r][c]
    && !app.pending.has(`${r},${c}`);
}

function recall() {
  app.pending.clear();
  clearError();
  render();
}

function askBlank() {
  return new Promise((resolve) => {
    const dialog = $("blank-dialog");
    const grid = $("blank-letters");
    grid.replaceChildren();
    for (const letter of app.state.letters) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = letter;
      b.addEventListener("click", () => { dialog.close(); resolve(letter); });
      grid.appendChild(b);
    }
    $("blank-cancel").onclick = () => { dialog.close(); resolve(null); };
    dialog.addEventListener("cancel", () => resolve(null), { once: true });
    dialog.showModal();
  });
}

async function placeFromRack(r, c, index) {
  if (!myTurn() || !squareFree(r, c)) return;
  let letter = null;
  if (app.rack[index] === "?") {
    letter = await askBlank();
    if (!letter) return;
  }
  place(r, c, index, letter);
}

// ---------------------------------------------------------------- drag and drop (pointer events)

let drag = null;

function startDrag(event, source) {
  if (event.button !== undefined && event.button !== 0) return;
  const tile = event.target.closest(".tile");
  if (!tile) return;
  if (event.pointerType !== "touch") event.preventDefault();  // no text selection by mouse
  const ghost = tile.cloneNode(true);
  ghost.classList.add("dragging");
  ghost.style.left = `${event.clientX}px`;
  ghost.style.top = `${event.clientY}px`;
  document.body.appendChild(ghost);
  drag = { ghost, source, tile, startX: event.clientX, startY: event.clientY, moved: false };
  tile.style.opacity = "0.35";
}

function moveDrag(event) {
  if (!drag) return;
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
  if (Math.abs(event.clientX - drag.startX) + Math.abs(event.clientY - drag.startY) > 4) drag.moved = true;
  document.querySelectorAll(".drop-target").forEach((el) => el.classList.remove("drop-target"));
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const sq = under && under.closest(".sq");
  if (sq && squareFree(+sq.dataset.row, +sq.dataset.col)) sq.classList.add("drop-target");
}

async function endDrag(event) {
  if (!drag) return;
  const d = drag;
  drag = null;
  d.ghost.remove();
  d.tile.style.opacity = "";
  document.querySelectorAll(".drop-target").forEach((el) => el.classList.remove("drop-target"));
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const sq = under && under.closest(".sq");
  const onRack = under && under.closest("#rack");
  if (d.source.kind === "rack") {
    if (!d.moved) {  // a click on a rack tile puts it at the typing cursor, if there is one
      if (app.cursor && myTurn()) {
        const { r, c } = app.cursor;
        const blank = app.rack[d.source.index] === "?";
        const letter = blank ? await askBlank() : null;
        if (blank && !letter) return;
        advanceCursor();
        place(r, c, d.source.index, letter);
      }
      return;
    }
    if (sq) {
      await placeFromRack(+sq.dataset.row, +sq.dataset.col, d.source.index);
    } else if (onRack) {
      reorderRack(d.source.index, under.closest(".tile"));
    }
  } else if (d.source.kind === "board") {
    const p = app.pending.get(d.source.key);
    if (!p) return;
    if (sq && squareFree(+sq.dataset.row, +sq.dataset.col)) {
      app.pending.delete(d.source.key);
      app.pending.set(`${sq.dataset.row},${sq.dataset.col}`, p);
      render();
    } else if (!d.moved || onRack || !sq) {
      app.pending.delete(d.source.key);
      render();
    }
  }
}

function reorderRack(from, targetTile) {
  if (!targetTile || targetTile.dataset.index === undefined) return;
  const to = +targetTile.dataset.index;
  if (to === from) return;
  const order = app.rack.map((label, i) => ({ label, i }));
  const [moved] = order.splice(from, 1);
  order.splice(order.findIndex((o) => o.i === to) + (from < to ? 1 : 0), 0, moved);
  remapRack(order);
}

function remapRack(order) {
  const newIndex = new Map(order.map((o, j) => [o.i, j]));
  app.rack = order.map((o) => o.label);
  for (const p of app.pending.values()) p.index = newIndex.get(p.index);
  render();
}

function shuffle() {
  const order = app.rack.map((label, i) => ({ label, i }));
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  remapRack(order);
}

// ---------------------------------------------------------------- click a square and type

function onBoardClick(event) {
  const sq = event.target.closest(".sq");
  if (!sq || !myTurn()) return;
  const r = +sq.dataset.row, c = +sq.dataset.col;
  if (app.pending.has(`${r},${c}`)) return;
  if (app.state.board[r][c]) return;
  if (app.cursor && app.cursor.r === r && app.cursor.c === c) app.cursor.across = !app.cursor.across;
  else app.cursor = { r, c, across: true };
  render();
  if (coarsePointer.matches) $("board-input").focus({ preventScroll: true });
}

// Phones have no keys to type with until a text field has the focus: a tap on the board
// focuses a hidden one (the on-screen keyboard opens) whose letters go onto the board as
// typed letters do; Backspace takes the last tile back and Enter plays.
const coarsePointer = window.matchMedia("(pointer: coarse)");

function onBoardInput(event) {
  const field = event.target;
  for (const ch of field.value) if (/\p{L}/u.test(ch) || ch === TILE_BREAK) typeLetter(ch);
  field.value = "";
}

function onBoardInputKey(event) {
  if (event.key === "Enter") { event.preventDefault(); submitPlay(); }
  else if (event.key === "Backspace" && !event.target.value) { event.preventDefault(); backspace(); }
}

function advanceCursor() {
  const cur = app.cursor;
  const dr = cur.across ? 0 : 1, dc = cur.across ? 1 : 0;
  let r = cur.r + dr, c = cur.c + dc;
  const s = app.state;
  while (r < s.layout.rows && c < s.layout.cols && (s.board[r][c] || app.pending.has(`${r},${c}`))) {
    r += dr; c += dc;
  }
  if (r >= s.layout.rows || c >= s.layout.cols) app.cursor = null;
  else app.cursor = { r, c, across: cur.across };
}

// Typing a tile of several letters (Hungarian CS, Spanish CH, LL, RR): its letters typed one
// after the other make the one tile, as the tile set's labels (app.state.letters) spell it.
// A letter that completes, with the letters typed just before it, a tile the rack holds
// takes that tile instead: C then S puts the CS tile where the C went (the C goes back to
// the rack), and a blank typed as C becomes the blank CS when the rack has no CS tile. A
// letter with no tile of its own that begins a tile on the rack (C with only CS there)
// waits for the rest. A "." between two letters keeps them apart: C . S places C and S.
const TILE_BREAK = ".";

function cursorKey() {
  return app.cursor ? `${app.cursor.r},${app.cursor.c}` : null;
}

// The letters typed for the last tile while they still stand: the tile is still where they
// put it (or they wait for more) and the cursor has not moved since.
function typedRun() {
  const run = app.typed;
  if (!run || run.after !== cursorKey()) return null;
  if (run.key === null) return run;
  const p = app.pending.get(run.key);
  return p && p.index === run.index ? run : null;
}

function freeIndex(label, used = usedIndices()) {
  return app.rack.findIndex((l, i) => l === label && !used.has(i));
}

// The rack tile for a tile's letters: its own tile, else a blank if they spell a letter.
function tileFor(text, used = usedIndices()) {
  const index = freeIndex(text, used);
  if (index >= 0) return { index, designated: null };
  const blank = app.state.letters.includes(text) ? freeIndex("?", used) : -1;
  return blank >= 0 ? { index: blank, designated: text } : null;
}

// A longer tile on the rack that the letters begin (C before CS).
function begunTile(text, used = usedIndices()) {
  return app.rack.some((l, i) => !used.has(i) && l.length > text.length && l.startsWith(text));
}

// The letters typed so far and this one, as one tile: true when that took the tile.
function joinTyped(run, up) {
  const text = run.text + up;
  if (run.key === null) {
    const tile = tileFor(text);
    if (tile) { setMessage(""); placeTyped(text, tile); return true; }
    if (!begunTile(text)) return false;
    app.typed = { ...run, text };
    return true;
  }
  const used = usedIndices();
  used.delete(run.index);
  const index = freeIndex(text, used);
  const blank = app.rack[run.index] === "?" && app.state.letters.includes(text);
  if (index < 0 && !blank) return false;
  const [r, c] = run.key.split(",").map(Number);
  app.pending.delete(run.key);
  place(r, c, index >= 0 ? index : run.index, index >= 0 ? null : text);
  app.typed = { ...run, text, index: index >= 0 ? index : run.index };
  return true;
}

// Puts the tile at the cursor (the next free square when the cursor is on a tile).
function placeTyped(text, { index, designated }) {
  if (!squareFree(app.cursor.r, app.cursor.c)) advanceCursor();
  if (!app.cursor) return;
  const { r, c } = app.cursor;
  advanceCursor();
  place(r, c, index, designated);
  app.typed = { text, key: `${r},${c}`, index, after: cursorKey() };
}

function typeLetter(letter) {
  if (!myTurn()) return;
  if (letter === TILE_BREAK) { app.typed = null; return; }
  const up = letter.toUpperCase();
  const run = typedRun();  // may stand at the board's edge, where the cursor has gone
  if (run && joinTyped(run, up)) return;
  app.typed = null;
  if (!app.cursor) return;
  const tile = tileFor(up);
  if (tile) { placeTyped(up, tile); return; }
  if (begunTile(up)) {
    app.typed = { text: up, key: null, index: -1, after: cursorKey() };
    setMessage(t("{letters}…: type the rest of the tile", { letters: up }), "info");
    return;
  }
  setMessage(t("No {letter} on your rack", { letter: up }));
}

function backspace() {
  if (app.pending.size === 0) return;
  const keys = [...app.pending.keys()];
  const key = keys[keys.length - 1];
  const [r, c] = key.split(",").map(Number);
  app.pending.delete(key);
  app.cursor = { r, c, across: app.cursor ? app.cursor.across : true };
  render();
}

// Escape anywhere on the page (outside a dialog or a field) takes the placed tiles back.
function onPageKey(event) {
  if (event.key !== "Escape" || document.querySelector("dialog[open]") || !app.state) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  if (app.pending.size) recall();
}

// The cursor a keyboard user starts from: the start square, typing across.
function defaultCursor() {
  const [r, c] = app.state.layout.start;
  return { r, c, across: true };
}

// The keys of the focused board: arrows choose a square, letters place tiles (a letter not on
// the rack uses the blank), Space turns the direction, Backspace takes the last tile back,
// Enter plays. Buttons keep their own Enter and Space.
function onBoardKey(event) {
  if (!app.state || event.altKey || event.ctrlKey || event.metaKey) return;
  const key = event.key;
  if (key === "Enter") { event.preventDefault(); submitPlay(); return; }
  if (key === "Backspace") { event.preventDefault(); backspace(); return; }
  if (!myTurn()) return;
  const arrows = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };
  const letter = key.length === 1 && (/\p{L}/u.test(key) || key === TILE_BREAK);
  const typing = key === " " || key in arrows || letter;
  if (typing && !app.cursor && !(letter && typedRun())) {  // a tile's letters end at the edge
    event.preventDefault();
    app.cursor = defaultCursor();
    if (key in arrows || key === " ") { render(); return; }
  }
  if (key in arrows && app.cursor) {  // move the typing cursor; right/down also set the direction
    event.preventDefault();
    const [dr, dc] = arrows[key];
    const s = app.state;
    const r = Math.min(Math.max(app.cursor.r + dr, 0), s.layout.rows - 1);
    const c = Math.min(Math.max(app.cursor.c + dc, 0), s.layout.cols - 1);
    const across = key === "ArrowRight" ? true : key === "ArrowDown" ? false : app.cursor.across;
    app.cursor = { r, c, across };
    render();
    return;
  }
  if (key === " " && app.cursor) { event.preventDefault(); app.cursor.across = !app.cursor.across; render(); return; }
  if (letter) {
    event.preventDefault();
    typeLetter(key);
  }
}

// A board focused from the keyboard shows (and reads) its cursor at once.
function onBoardFocus() {
  if (!app.cursor && myTurn() && $("board").matches(":focus-visible")) {
    app.cursor = defaultCursor();
    render();
  }
}

// ---------------------------------------------------------------- actions

// A move, on the game's socket when it is open (the new state comes on it before the answer),
// over HTTP otherwise. Returns the answer: {ok: false, message} when the rules refuse the move.
async function move(body) {
  const full = { seat: app.state.seat, seq: app.state.seq, ...body };
  if (app.live && app.live.ready() && navigator.onLine) {
    const answer = await app.live.move(full);
    if (answer.ok && answer.seq > app.state.seq) await refresh();  // the state went astray
    return answer;
  }
  const state = await api.move(app.gameId, full);
  if (state.ok !== false) applyState(state);
  return state;
}

async function send(body) {
  if (!gameShown()) return false;
  clearError();
  try {
    const answer = await move(body);
    if (answer.ok === false) {
      showRefusal(answer);
      render();
      return false;
    }
    app.pending.clear();
    app.cursor = null;
    hideHints();
    render();
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.reason === "stale") await refresh();
    if (err.reason === "network") connectionLost();
    else setMessage(describeError(err));
    render();
    return false;
  }
}

async function submitPlay() {
  if (!gameShown() || !myTurn() || app.pending.size === 0) return;
  await send({ action: "play", placements: placements() });
}

function openExchange() {
  if (!gameShown() || !myTurn()) return;
  const dialog = $("exchange-dialog");
  const box = $("exchange-tiles");
  box.replaceChildren();
  $("exchange-error").textContent = "";
  app.rack.forEach((label, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile";
    b.textContent = label;
    b.dataset.letter = label;
    b.dataset.index = i;
    b.setAttribute("aria-label", tileLabel(label, app.state.values[label] || 0));
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", () => choose(b, !b.classList.contains("chosen")));
    box.appendChild(b);
  });
  dialog.showModal();
}

function choose(tileButton, chosen) {
  tileButton.classList.toggle("chosen", chosen);
  tileButton.setAttribute("aria-pressed", String(chosen));
}

async function confirmExchange() {
  const chosen = [...$("exchange-tiles").querySelectorAll(".chosen")].map((b) => b.dataset.letter);
  if (!chosen.length) { $("exchange-error").textContent = t("Choose at least one tile."); return; }
  try {
    const answer = await move({ action: "exchange", tiles: chosen.join("") });
    if (answer.ok === false) {
      $("exchange-error").textContent = describeRefusal(answer);
      return;
    }
    $("exchange-dialog").close();
    app.pending.clear();
    render();
  } catch (err) {
    $("exchange-error").textContent = err.message;
  }
}

let hintRequest = 0;  // a newer request (or a move) makes an older answer moot

function hideHints() {
  hintRequest += 1;
  $("hints").hidden = true;
  $("hint-status").hidden = true;
}

// "8D PLOTS · 20 points · equity 19.9 · 54.2% to win" (the parts the hint has)
function hintLabel(h) {
  const parts = [h.placements ? tn("{move} · {n} point", "{move} · {n} points", h.score, { move: h.move })
    : h.action === "exchange" ? t("Exchange {tiles}", { tiles: h.tiles }) : t("Pass")];
  if (h.equity != null) parts.push(t("equity {equity}", { equity: h.equity }));
  if (h.win_pct != null) parts.push(t("{pct}% to win", { pct: h.win_pct }));
  if (h.chosen) parts.push(t("the computer's choice"));  // the list is by chance of winning
  return parts.join(" · ");
}

// The list is drawn twice (the quick plays, then the look-ahead's): a play in both keeps its
// button, so a click under way while the second list arrives still lands on it.
function renderHints(hints) {
  const list = $("hints");
  const kept = new Map([...list.querySelectorAll("li[data-move]")].map((li) => [li.dataset.move, li]));
  const items = hints.map((h) => {
    if (!h.placements) return el("li", { className: "other", text: hintLabel(h) });  // own button
    const li = kept.get(h.move) || el("li", { dataset: { move: h.move } }, el("button", { type: "button" }));
    const b = li.firstElementChild;
    b.textContent = hintLabel(h);
    b.onclick = () => useHint(h);
    return li;
  });
  if (!hints.length) list.replaceChildren(t("No plays found: try an exchange."));
  else list.replaceChildren(...items);
}

async function showHints() {
  if (!gameShown() || !myTurn()) return;
  const ask = ++hintRequest;
  const seq = app.state.seq;
  const list = $("hints");
  const status = $("hint-status");
  list.replaceChildren();
  list.hidden = false;
  try {
    // the best-scoring plays at once, then the computer's look-ahead when it has thought
    const quick = await api.hints(app.gameId, { seat: app.state.seat });
    if (ask !== hintRequest) return;
    renderHints(quick.hints);
    status.textContent = t("Thinking…");
    status.hidden = false;
    const thought = await api.hints(app.gameId, { seat: app.state.seat, think: true });
    if (ask !== hintRequest || app.state.seq !== seq) return;
    renderHints(thought.hints);
    status.textContent = thought.hints.some((h) => h.win_pct != null)
      ? t("Ranked by the computer's look-ahead: the chance of winning after each move.")
      : t("The computer's choice.");
  } catch (err) {
    if (ask !== hintRequest) return;
    status.hidden = true;
    if (err.reason === "network") connectionLost();
    else setMessage(describeError(err));
  }
}

function useHint(hint) {
  app.pending.clear();
  const used = new Set();
  for (const [r, c, label] of hint.placements) {
    const blank = label !== label.toUpperCase();
    const want = blank ? "?" : label;
    const index = app.rack.findIndex((l, i) => l === want && !used.has(i));
    if (index < 0) return;
    used.add(index);
    app.pending.set(`${r},${c}`, { index, label, rackLabel: want });
  }
  hideHints();
  render();
  $("board").focus();  // Enter plays it
}

// ---------------------------------------------------------------- end of game

function showSummary() {
  const s = app.state;
  const r = s.result;
  const names = s.names;
  $("summary-title").textContent = winnerTitle(s);
  $("summary-reason").textContent = endText(r, names);
  const table = $("summary-scores");
  table.replaceChildren();
  names.forEach((name, i) => {
    const tr = document.createElement("tr");
    if (r.winners.includes(i)) tr.className = "winner";
    const change = s.ratings && s.ratings[i];
    const rating = change
      ? `${change.before} → ${change.after} (${signed(change.after - change.before)})` : "";
    for (const v of [name, r.scores[i], s.final_racks ? s.final_racks[i] : "", rating]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  });
  $("chart").replaceChildren(scoreChart(s));
  const player = !watching(s);
  $("summary-rematch").hidden = !player;
  $("summary-new").textContent = s.online ? t("Lobby") : t("New game");
  $("summary-dialog").showModal();
}

// "Ann wins", "You win" (the page's own player against the computer), "A draw".
function winnerTitle(s) {
  const winners = s.result.winners;
  if (winners.length > 1) return t("A draw");
  const winner = winners[0];
  const mine = s.my_seats.length === 1 && s.my_seats[0] === winner;
  const you = [t("You"), "You"].includes(s.names[winner]);
  return mine || you ? t("You win") : t("{name} wins", { name: s.names[winner] });
}

async function downloadGcg() {
  try {
    const text = await api.gcg(app.gameId);
    const blob = new Blob([text], { type: "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `tessera-${app.gameId}.gcg`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } catch (err) {
    setMessage(describeError(err));
  }
}

// ---------------------------------------------------------------- games between people

// Online: an offer to the other player. Against the computer or at one screen: the same
// game again at once.
async function offerRematch() {
  try {
    if (!app.state.online) {
      await rematchHere(app.gameId);
      return;
    }
    const { seek } = await api.rematch(app.gameId);
    if (seek.game_id) {  // the other player had offered one too: this press took it
      goTo(`/g/${seek.game_id}`);
      return;
    }
    const other = listText(app.state.names.filter((_, i) => !app.state.my_seats.includes(i)));
    $("rematch-btn").disabled = true;
    $("summary-rematch").disabled = true;
    setMessage(t("Rematch offered to {name}: the game starts when they accept.", { name: other }), "info");
  } catch (err) {
    setMessage(describeError(err));
  }
}

function onRematch(msg) {
  if (app.state && app.state.my_seats.length) offer(msg.seek, msg.from, "rematch");
}

async function abortGame() {
  if (gameShown() && confirm(t("Call this game off? It will not count."))) await send({ action: "abort" });
}

function onConnection(status) {
  app.connected = status === "open";
  $("conn-banner").hidden = app.connected;
  if (app.connected) clearError();
}

// A request that could not reach the server: say so with the reconnecting banner (not the
// browser's "Failed to fetch") and ask again every few seconds until the server answers.
let reconnectTimer = null;
function connectionLost() {
  $("conn-banner").hidden = false;
  if (reconnectTimer) return;
  const retry = async () => {
    try {
      await refresh();
      reconnectTimer = null;
      $("conn-banner").hidden = app.connected;
      if (app.connected) clearError();
    } catch {
      reconnectTimer = setTimeout(retry, 2000);
    }
  };
  reconnectTimer = setTimeout(retry, 2000);
}

// ---------------------------------------------------------------- opening a game

async function refresh({ opening = false } = {}) {
  const state = await api.state(app.gameId);
  applyState(state, { opening });
}

async function openGame(gameId) {
  if (app.live) app.live.close();
  app.gameId = gameId;
  app.state = null;
  app.pending.clear();
  app.revealed = null;
  app.summaryShownFor = null;
  renderWatchers($("watchers"), null);
  try {
    await refresh({ opening: true });
  } catch (err) {
    if (err.status === 404 && lastGame() === gameId) forgetLastGame();  // no "continue" to it
    showNoSeat(err);
    return;
  }
  if (!app.state.online) rememberGame(gameId);
  if (!hotSeat()) app.revealed = app.state.seat;
  render();
  app.live = connectLive(gameId, {
    onState: applyState,
    onRematch,
    onWatchers: (msg) => renderWatchers($("watchers"), msg),
    onError: (msg) => showNoSeat(msg),
    onStatus: onConnection,
  });
}

function showNoSeat(err) {
  app.state = null;
  app.pending.clear();
  $("game").hidden = true;
  $("cover").hidden = true;
  $("no-seat").hidden = false;
  const status = err && err.status;
  const reason = err && err.reason;
  $("no-seat-text").textContent = status === 404 || reason === "no_game"
    ? t("No such game: there is no game at this address.")
    : status === 403 || reason === "forbidden"
      ? t("This game is private: only its players can see it.")
      : t("This game cannot be shown: {reason}", { reason: describeError(err) });
}

let ready = false;

function init() {
  ready = true;
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("pointerdown", (e) => {
    const tile = e.target.closest(".tile.pending");
    if (tile) startDrag(e, { kind: "board", key: tile.dataset.pending });
  });
  $("rack").addEventListener("pointerdown", (e) => {
    const tile = e.target.closest(".tile");
    if (tile && !($("cover").hidden === false)) startDrag(e, { kind: "rack", index: +tile.dataset.index });
  });
  window.addEventListener("pointermove", moveDrag);
  window.addEventListener("pointerup", endDrag);
  window.addEventListener("pointercancel", endDrag);
  document.addEventListener("keydown", onPageKey);
  $("board-input").addEventListener("input", onBoardInput);
  $("board-input").addEventListener("keydown", onBoardInputKey);
  initSounds();
  app.sounds = sounds;
  $("skip-board").addEventListener("click", (event) => { event.preventDefault(); $("board").focus(); });
  $("board").addEventListener("keydown", onBoardKey);
  $("board").addEventListener("focus", onBoardFocus);
  $("play-btn").addEventListener("click", submitPlay);
  $("recall-btn").addEventListener("click", recall);
  $("shuffle-btn").addEventListener("click", shuffle);
  $("pass-btn").addEventListener("click", () => send({ action: "pass" }));
  $("challenge-btn").addEventListener("click", () => send({ action: "challenge" }));
  $("resign-btn").addEventListener("click", () => {
    if (gameShown() && !finished() && confirm(t("Resign this game?"))) send({ action: "resign" });
  });
  $("abort-btn").addEventListener("click", abortGame);
  $("rematch-btn").addEventListener("click", offerRematch);
  $("verdict-close").addEventListener("click", () => {
    app.dismissedVerdict = `${app.state.game_id}:${$("verdict").dataset.index}`;
    render();
  });
  $("hint-btn").addEventListener("click", showHints);
  $("exchange-btn").addEventListener("click", openExchange);
  $("exchange-cancel").addEventListener("click", () => $("exchange-dialog").close());
  $("exchange-all").addEventListener("click", () =>
    $("exchange-tiles").querySelectorAll(".tile").forEach((b) => choose(b, true)));
  $("exchange-ok").addEventListener("click", confirmExchange);
  $("cover-btn").addEventListener("click", () => {
    if (gameShown()) { app.revealed = app.state.seat; render(); }
  });
  $("no-seat-new").addEventListener("click", () => goTo("/"));
  $("summary-new").addEventListener("click", () => {
    $("summary-dialog").close();
    if (app.state && app.state.online) goTo("/");
    else openNewGame();
  });
  $("summary-rematch").addEventListener("click", offerRematch);
  $("summary-close").addEventListener("click", () => $("summary-dialog").close());
  $("gcg-btn").addEventListener("click", downloadGcg);
  $("summary-review").addEventListener("click", () => goTo(`/review/${app.gameId}`));
  setInterval(() => {
    if (app.state && app.state.clocks_ms && !finished(app.state)) {
      updateClocks($("players"), app.state, clockNow);
    }
  }, 250);
}

export function openGamePage(gameId) {
  showPage("game-page");
  if (!ready) init();
  return openGame(gameId);
}
