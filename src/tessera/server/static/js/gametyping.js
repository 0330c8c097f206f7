// Typing a play: a click (or a tap, which opens the phone's keyboard) on a square sets the
// typing cursor, letters typed put rack tiles along it (a tile of several letters from its
// letters typed in turn), and the board's keys move the cursor, turn its direction, take the
// last tile back and play.
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { submitPlay } from "./gameactions.js";
import { setMessage } from "./gamemessage.js";
import { place, recall, squareFree } from "./gameplacing.js";
import { app, myTurn, usedIndices } from "./gamestate.js";
import { render } from "./gameview.js";

// ---------------------------------------------------------------- click a square and type

export function onBoardClick(event) {
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

export function onBoardInput(event) {
  const field = event.target;
  for (const ch of field.value) if (/\p{L}/u.test(ch) || ch === TILE_BREAK) typeLetter(ch);
  field.value = "";
}

export function onBoardInputKey(event) {
  if (event.key === "Enter") { event.preventDefault(); submitPlay(); }
  else if (event.key === "Backspace" && !event.target.value) { event.preventDefault(); backspace(); }
}

export function advanceCursor() {
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
export function onPageKey(event) {
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
export function onBoardKey(event) {
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
export function onBoardFocus() {
  if (!app.cursor && myTurn() && $("board").matches(":focus-visible")) {
    app.cursor = defaultCursor();
    render();
  }
}
