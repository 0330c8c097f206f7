// Setting up a position on the analysis board: a cursor moved by clicks and arrow keys, letters
// typed at it (capitals are tiles, lower case a blank, as CGP writes them), and tiles dragged
// from a tray onto the board, between squares and off it. The editor changes `view.board` and
// `view.cursor`; the page is told through `edited` (the position changed) and `draw`.
import { tileElement, tileLabel } from "./board.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";

let view = null;
let hooks = { edited() {}, draw() {}, enter() {} };

function emptyBoard(layout) {
  return Array.from({ length: layout.rows }, () => Array(layout.cols).fill(null));
}

function moveCursor(dr, dc) {
  const { rows, cols } = view.layout;
  const cur = view.cursor || { r: view.layout.start[0], c: view.layout.start[1], across: true };
  view.cursor = {
    r: Math.max(0, Math.min(rows - 1, cur.r + dr)),
    c: Math.max(0, Math.min(cols - 1, cur.c + dc)),
    across: cur.across,
  };
}

function step(forward) {
  const d = forward ? 1 : -1;
  if (view.cursor.across) moveCursor(0, d);
  else moveCursor(d, 0);
}

function placeAtCursor(label) {
  const { r, c } = view.cursor;
  view.board[r][c] = label;
  hooks.edited();
}

// The tray: one tile of each letter, dragged onto the board or clicked to place at the cursor.
export function renderTray(state) {
  view = state;
  const letters = [...view.letters];
  $("an-tray").replaceChildren(...letters.map((label) => {
    const tile = tileElement(label, view.values[label]);
    tile.dataset.letter = label;
    tile.setAttribute("role", "button");
    tile.tabIndex = 0;
    // the name holds what the tile shows, its letter then its value (as a rack tile's)
    const value = view.values[label];
    tile.setAttribute("aria-label", value ? tileLabel(label, value) : t("tile {letter}", { letter: label }));
    return tile;
  }));
}

function trayLabel(label) {
  return $("an-as-blank").checked ? label.toLowerCase() : label;
}

// Dragging a tile from the tray or the board: dropped on a square it lies there (and leaves
// the square it came from); a board tile dropped off the board is taken away.
let drag = null;
let dropped = false; // a drag just ended: the click the browser sends after it is no click

function onPointerDown(event) {
  const tile = event.target.closest(".tile");
  if (!tile || event.button !== 0 || tile.classList.contains("pending")) return;
  const sq = tile.closest("#an-board .sq");
  const fromTray = tile.closest("#an-tray");
  if (!sq && !fromTray) return;
  drag = {
    label: sq ? view.board[+sq.dataset.row][+sq.dataset.col] : trayLabel(tile.dataset.letter),
    from: sq ? { r: +sq.dataset.row, c: +sq.dataset.col } : null,
    x: event.clientX, y: event.clientY, ghost: null,
  };
  if (!drag.label) drag = null;
}

function onPointerMove(event) {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 5) return;
    const blank = drag.label !== drag.label.toUpperCase();
    drag.ghost = tileElement(drag.label, blank ? 0 : view.values[drag.label], { blank });
    drag.ghost.classList.add("dragging");
    document.body.appendChild(drag.ghost);
  }
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
}

function onPointerUp(event) {
  const ended = drag;
  drag = null;
  if (!ended || !ended.ghost) return;
  ended.ghost.remove();
  dropped = true;
  setTimeout(() => { dropped = false; }, 0);
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const sq = under && under.closest("#an-board .sq");
  if (ended.from) view.board[ended.from.r][ended.from.c] = null;
  if (sq) view.board[+sq.dataset.row][+sq.dataset.col] = ended.label;
  hooks.edited();
  hooks.draw();
}

function onTrayClick(event) {
  const tile = event.target.closest(".tile");
  if (!tile || dropped) return;
  if (!view.cursor) moveCursor(0, 0);
  placeAtCursor(trayLabel(tile.dataset.letter));
  step(true);
  hooks.draw();
}

// The square a letter was last typed on, while the cursor stays just after it: a next letter
// that makes a tile with the letters there (C, then S: the CS of a Hungarian board) joins them.
let typed = null;

function cursorAt() {
  return view.cursor ? `${view.cursor.r},${view.cursor.c}` : null;
}

function joinTyped(key) {
  if (!typed || typed.after !== cursorAt()) return false;
  const label = view.board[typed.r][typed.c];
  if (!label) return false;
  const lower = label !== label.toUpperCase();
  const joined = (label + key).toUpperCase();
  if (!view.letters.has(joined) || (key !== key.toUpperCase()) !== lower) return false;
  view.board[typed.r][typed.c] = lower ? joined.toLowerCase() : joined;
  hooks.edited();
  return true;
}

function onBoardKey(event) {
  if (!view.layout || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (key in arrows) {
    moveCursor(...arrows[key]);
  } else if (key === " ") {
    if (!view.cursor) moveCursor(0, 0);
    view.cursor.across = !view.cursor.across;
  } else if (key === "Escape") {
    view.cursor = null;
  } else if (key === "Enter") {
    event.preventDefault();
    hooks.enter();
    return;
  } else if (key === "Backspace") {
    if (!view.cursor) return;
    if (!view.board[view.cursor.r][view.cursor.c]) step(false);
    placeAtCursor(null);
  } else if (key === "Delete") {
    if (!view.cursor) return;
    placeAtCursor(null);
  } else if (key === ".") {
    typed = null; // the next letter is a tile of its own (C . S: a C and an S)
  } else if (key.length === 1 && /\p{L}/u.test(key) && joinTyped(key)) {
    // the letters typed one after the other spell one tile (C then S: the Hungarian CS)
  } else if (key.length === 1 && /\p{L}/u.test(key) && view.letters.has(key.toUpperCase())) {
    if (!view.cursor) moveCursor(0, 0);
    const { r, c } = view.cursor;
    placeAtCursor(key); // lower case: a blank standing for the letter, as CGP writes it
    step(true);
    typed = { r, c, after: cursorAt() };
  } else {
    return;
  }
  event.preventDefault();
  hooks.draw();
}

function onBoardClick(event) {
  const sq = event.target.closest(".sq");
  if (!sq || dropped) return;
  const r = +sq.dataset.row;
  const c = +sq.dataset.col;
  if (view.cursor && view.cursor.r === r && view.cursor.c === c) view.cursor.across = !view.cursor.across;
  else view.cursor = { r, c, across: view.cursor ? view.cursor.across : true };
  $("an-board").focus();
  hooks.draw();
}


export function bindEditor(state, given) {
  view = state;
  hooks = given;
  const board = $("an-board");
  board.addEventListener("click", onBoardClick);
  board.addEventListener("keydown", onBoardKey);
  for (const root of [board, $("an-tray")]) root.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  $("an-tray").addEventListener("click", onTrayClick);
  $("an-tray").addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    onTrayClick(event);
  });
  $("an-as-blank").addEventListener("change", () => {
    $("an-tray").classList.toggle("blanks", $("an-as-blank").checked);
  });
  $("an-direction").addEventListener("click", () => {
    if (!view.cursor) moveCursor(0, 0);
    view.cursor.across = !view.cursor.across;
    hooks.draw();
  });
  $("an-clear").addEventListener("click", () => {
    view.board = emptyBoard(view.layout);
    hooks.edited();
    hooks.draw();
  });
}
