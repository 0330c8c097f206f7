// Drawing the board, the rack, the players, the unseen tiles and the score sheet.
import { lineChart } from "./charts.js";
import { flaggedSeat, formatClock, signed } from "./format.js";
import { t, tn } from "./i18n.js";

export const COLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export function squareName(r, c) { return `${COLS[c]}${r + 1}`; }

export function tileElement(label, value, { pending = false, blank = false } = {}) {
  const el = document.createElement("div");
  el.className = "tile" + (pending ? " pending" : "") + (blank ? " blank" : "");
  el.textContent = blank ? label.toUpperCase() : label;
  if (!blank && value) {
    const v = document.createElement("span");
    v.className = "v";
    v.textContent = value;
    el.append(" ", v);  // "Q 10": the letter and its value read as two words (a square's name has both)
  }
  return el;
}

const isBlankLabel = (label) => label === "?" || label !== label.toUpperCase();

// A coordinate at the board's edge: a column's letter along the top, a row's number down the
// left, as moves are written (8D, D8).
function coordLabel(text, className) {
  const label = document.createElement("div");
  label.className = `coord ${className}`;
  label.textContent = text;
  label.setAttribute("aria-hidden", "true");
  return label;
}

const premiumName = (premium) => ({
  "2L": t("double letter"), "3L": t("triple letter"), "4L": t("quadruple letter"),
  "2W": t("double word"), "3W": t("triple word"), "4W": t("quadruple word"),
})[premium];

// What a screen reader says for a square: "H8, double word", "H8, Q, 10 points", "H8, blank as
// E, placed". A tile's name holds what the square shows, its letter then its value (WCAG 2.5.3).
export function squareLabel(r, c, premium, isStart, label, placed = false, value = 0) {
  const parts = [squareName(r, c)];
  if (label) {
    if (isBlankLabel(label)) parts.push(t("blank as {letter}", { letter: label.toUpperCase() }));
    else parts.push(label, ...(value ? [tn("{n} point", "{n} points", value)] : []));
    if (placed) parts.push(t("placed"));
  } else {
    if (isStart) parts.push(t("start"));
    if (premiumName(premium)) parts.push(premiumName(premium));
  }
  return parts.join(", ");
}

// A row of the grid: its cells stay the board's grid items (display: contents), so a screen
// reader gets rows of cells while the CSS grid lays out the squares.
function gridRow(hidden = false) {
  const row = document.createElement("div");
  row.className = "board-row";
  row.setAttribute("role", "row");
  if (hidden) row.setAttribute("aria-hidden", "true");
  return row;
}

// Draws the board into `root` (a role="grid"); the square at `cursor` becomes the grid's
// active descendant, so a focused board reads the square the keys act on.
export function renderBoard(root, state, pending, cursor) {
  const { rows, cols, premium, start } = state.layout;
  root.style.gridTemplateColumns = `minmax(0, .6fr) repeat(${cols}, minmax(0, 1fr))`;
  root.style.gridTemplateRows = `minmax(0, .6fr) repeat(${rows}, minmax(0, 1fr))`;
  const last = new Set(state.last_squares.map(([r, c]) => `${r},${c}`));
  root.replaceChildren();
  const header = gridRow(true);
  header.appendChild(coordLabel("", "corner"));
  for (let c = 0; c < cols; c++) header.appendChild(coordLabel(COLS[c], "col-label"));
  root.appendChild(header);
  let active = null;
  for (let r = 0; r < rows; r++) {
    const row = gridRow();
    row.appendChild(coordLabel(String(r + 1), "row-label"));
    for (let c = 0; c < cols; c++) {
      const sq = document.createElement("div");
      const p = premium[r][c];
      const isStart = r === start[0] && c === start[1];
      sq.className = "sq" + (p !== "." ? ` p${p}` : "");
      if (isStart) sq.classList.add("start");
      sq.dataset.row = r;
      sq.dataset.col = c;
      sq.dataset.square = squareName(r, c);
      sq.setAttribute("role", "gridcell");
      if (root.id) sq.id = `${root.id}-${squareName(r, c)}`;
      const label = state.board[r][c];
      const key = `${r},${c}`;
      if (label) {
        sq.classList.add("has-tile");
        if (last.has(key)) sq.classList.add("last");
        const blank = isBlankLabel(label);
        const value = blank ? 0 : state.values[label];
        sq.appendChild(tileElement(label, value, { blank }));
        sq.setAttribute("aria-label", squareLabel(r, c, p, isStart, label, false, value));
      } else if (pending.has(key)) {
        const pt = pending.get(key);
        sq.classList.add("has-tile");
        const blank = pt.rackLabel === "?";
        const value = blank ? 0 : state.values[pt.label];
        const tile = tileElement(pt.label, value, { pending: true, blank });
        tile.dataset.pending = key;
        sq.appendChild(tile);
        sq.setAttribute("aria-label",
          squareLabel(r, c, p, isStart, blank ? pt.label.toLowerCase() : pt.label, true, value));
      } else {
        sq.setAttribute("aria-label", squareLabel(r, c, p, isStart, null));
      }
      if (cursor && cursor.r === r && cursor.c === c) {
        active = sq;
        sq.classList.add("at");
        if (!label && !pending.has(key)) sq.classList.add("cursor", cursor.across ? "across" : "down");
      }
      row.appendChild(sq);
    }
    root.appendChild(row);
  }
  if (active && active.id) root.setAttribute("aria-activedescendant", active.id);
  else root.removeAttribute("aria-activedescendant");
}

// What a screen reader says for a rack tile: "Q, 10 points", "blank".
export function tileLabel(label, value) {
  if (label === "?") return t("blank");
  return tn("{letter}, {n} point", "{letter}, {n} points", value, { letter: label });
}

export function renderRack(root, rack, values, used) {
  root.replaceChildren();
  rack.forEach((label, i) => {
    if (used.has(i)) return;
    const el = tileElement(label === "?" ? "?" : label, label === "?" ? 0 : values[label]);
    el.setAttribute("role", "listitem");
    el.setAttribute("aria-label", tileLabel(label, values[label] || 0));
    el.dataset.index = i;
    el.dataset.letter = label;
    root.appendChild(el);
  });
}

// The mark by a guest's name (in words, not a colour alone): a guest is not an account, and
// may not be who the name suggests.
export function guestMark() {
  return Object.assign(document.createElement("span"), { className: "guest-mark", textContent: t("guest") });
}

export function renderPlayers(root, state, clockNow) {
  root.replaceChildren();
  const finished = state.state === "over" || state.state === "aborted";
  state.names.forEach((name, i) => {
    const row = document.createElement("div");
    row.className = "player" + (state.to_move === i && !finished ? " to-move" : "");
    if (state.online && state.my_seats.includes(i)) row.classList.add("mine");
    row.dataset.player = i;
    const n = document.createElement("span");
    n.className = "name";
    const who = state.kinds[i] === "computer" ? ` · ${state.levels[i]}` : "";
    n.textContent = name + who;
    if (state.guests && state.guests[i]) n.append(" ", guestMark());
    if (state.online && state.my_seats.includes(i)) {
      n.append(" ", Object.assign(document.createElement("span"), { className: "you", textContent: t("(you)") }));
    }
    const clock = document.createElement("span");
    clock.className = "clock";
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = state.scores[i];
    row.append(n, clock, score);
    const target = state.rules.finish_target;
    if (target != null) {  // a finish-line game (R8.3): how far each player is from the line
      const toGo = document.createElement("span");
      toGo.className = "to-go";
      const left = target - state.scores[i];
      toGo.textContent = left > 0 ? t("{n} to go", { n: left }) : t("over the line");
      row.appendChild(toGo);
    }
    const change = state.ratings && state.ratings[i];
    if (change) {
      const r = document.createElement("span");
      r.className = "rating-change";
      r.textContent = t("rating {before} → {after} ({change})",
        { before: change.before, after: change.after, change: signed(change.after - change.before) });
      row.appendChild(r);
    }
    root.appendChild(row);
  });
  updateClocks(root, state, clockNow);
}

// The clocks alone (the page ticks them between states from the server).
export function updateClocks(root, state, clockNow) {
  if (!state.clocks_ms) return;
  const flagged = flaggedSeat(state.result, state.names.length);
  const overtimeMs = state.clock ? (state.clock.max_overtime_min || 0) * 60000 : null;
  root.querySelectorAll(".player").forEach((row) => {
    const i = +row.dataset.player;
    const ms = clockNow(i);
    const clock = row.querySelector(".clock");
    clock.textContent = formatClock(ms, { overtimeMs, flagged: flagged === i });
    clock.classList.toggle("low", ms < 60000);
    clock.classList.toggle("running", row.classList.contains("to-move"));
  });
}

export function renderUnseen(root, countEl, bagEl, state) {
  const parts = [];
  let total = 0;
  for (const [label, n] of Object.entries(state.unseen)) {
    parts.push(label.repeat(n));
    total += n;
  }
  root.textContent = parts.join(" ");
  countEl.textContent = `(${total})`;
  bagEl.textContent = tn("{n} tile in the bag", "{n} tiles in the bag", state.bag_count);
}

const kindText = (kind) => ({
  pass: t("pass"), exchange: t("exchange"), withdrawn: t("play withdrawn"), accept: t("accepts"),
  challenge_bonus: t("challenge bonus"), challenge_penalty: t("challenge penalty"),
  lost_turn: t("loses turn"), end_rack_points: t("rack points"), end_rack_penalty: t("rack left"),
  time_penalty: t("time penalty"),
})[kind];

// One turn of the history as the score sheet writes it.
export function describeEvent(e) {
  if (e.kind === "play") return `${e.position} ${e.words[0] || ""}`;
  if (e.kind === "exchange") {
    const tiles = e.move.startsWith("-") && /\d/.test(e.move) ? e.count : e.move.slice(1);
    return t("exchange {tiles}", { tiles });
  }
  if (e.kind === "end_rack_points") return `+ (${e.other_racks})`;
  if (e.kind === "end_rack_penalty") return `− (${e.other_racks})`;
  return kindText(e.kind) || e.kind;
}

export function renderSheet(tbody, state) {
  tbody.replaceChildren();
  state.history.forEach((e, i) => {
    const tr = document.createElement("tr");
    tr.className = e.kind;
    tr.dataset.turn = i + 1;
    const cells = [state.names[e.player], describeEvent(e), e.score, e.total];
    cells.forEach((v, j) => {
      const td = document.createElement("td");
      td.textContent = v;
      if (j >= 2) td.className = "num";
      tr.appendChild(td);
    });
    tbody.appendChild(tr);
  });
  const wrap = tbody.closest(".sheet-wrap");
  if (wrap) wrap.scrollTop = wrap.scrollHeight;
}

// The end-of-game chart: each player's running total after each of their turns.
export function scoreChart(state) {
  const series = state.names.map((label) => ({ label, values: [0] }));
  for (const e of state.history) series[e.player].values.push(e.total);
  const all = series.flatMap((s) => s.values);
  const chart = lineChart({
    series, range: [Math.min(0, ...all), Math.max(10, ...all)], xLabel: t("turn"),
  });
  chart.setAttribute("aria-label", t("Score progression: each player's score after each turn"));
  return chart;
}
