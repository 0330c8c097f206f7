// Drawing the board, the rack, the players, the unseen tiles and the score sheet.

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
    el.appendChild(v);
  }
  return el;
}

const isBlankLabel = (label) => label === "?" || label !== label.toUpperCase();

export function renderBoard(root, state, pending, cursor) {
  const { rows, cols, premium, start } = state.layout;
  root.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  root.style.gridTemplateRows = `repeat(${rows}, 1fr)`;
  const last = new Set(state.last_squares.map(([r, c]) => `${r},${c}`));
  root.replaceChildren();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const sq = document.createElement("div");
      const p = premium[r][c];
      sq.className = "sq" + (p !== "." ? ` p${p}` : "");
      if (r === start[0] && c === start[1]) sq.classList.add("start");
      sq.dataset.row = r;
      sq.dataset.col = c;
      sq.dataset.square = squareName(r, c);
      sq.setAttribute("role", "gridcell");
      const label = state.board[r][c];
      const key = `${r},${c}`;
      if (label) {
        sq.classList.add("has-tile");
        if (last.has(key)) sq.classList.add("last");
        const blank = isBlankLabel(label);
        sq.appendChild(tileElement(label, state.values[label.toUpperCase()], { blank }));
        sq.setAttribute("aria-label", `${squareName(r, c)} ${label}`);
      } else if (pending.has(key)) {
        const p = pending.get(key);
        sq.classList.add("has-tile");
        const blank = p.rackLabel === "?";
        const tile = tileElement(p.label, blank ? 0 : state.values[p.label], { pending: true, blank });
        tile.dataset.pending = key;
        sq.appendChild(tile);
      }
      if (cursor && cursor.r === r && cursor.c === c && !label && !pending.has(key)) {
        sq.classList.add("cursor", cursor.across ? "across" : "down");
      }
      root.appendChild(sq);
    }
  }
}

export function renderRack(root, rack, values, used) {
  root.replaceChildren();
  rack.forEach((label, i) => {
    if (used.has(i)) return;
    const el = tileElement(label === "?" ? "?" : label, label === "?" ? 0 : values[label]);
    el.dataset.index = i;
    el.dataset.letter = label;
    root.appendChild(el);
  });
}

function formatClock(ms) {
  const neg = ms < 0;
  const total = Math.floor(Math.abs(ms) / 1000);
  const m = Math.floor(total / 60);
  const s = String(total % 60).padStart(2, "0");
  return `${neg ? "-" : ""}${m}:${s}`;
}

export function renderPlayers(root, state, clockNow) {
  root.replaceChildren();
  state.names.forEach((name, i) => {
    const row = document.createElement("div");
    row.className = "player" + (state.to_move === i && state.state !== "over" ? " to-move" : "");
    row.dataset.player = i;
    const n = document.createElement("span");
    n.className = "name";
    const who = state.kinds[i] === "computer" ? ` · ${state.levels[i]}` : "";
    n.textContent = name + who;
    const clock = document.createElement("span");
    clock.className = "clock";
    if (state.clocks_ms) {
      const ms = clockNow(i);
      clock.textContent = formatClock(ms);
      if (ms < 60000) clock.classList.add("low");
    }
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = state.scores[i];
    row.append(n, clock, score);
    root.appendChild(row);
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
  bagEl.textContent = `${state.bag_count} tile${state.bag_count === 1 ? "" : "s"} in the bag`;
}

const KIND_TEXT = {
  pass: "pass", exchange: "exchange", withdrawn: "play withdrawn", accept: "accepts",
  challenge_bonus: "challenge bonus", challenge_penalty: "challenge penalty",
  lost_turn: "loses turn", end_rack_points: "rack points", end_rack_penalty: "rack left",
  time_penalty: "time penalty",
};

export function renderSheet(tbody, state) {
  tbody.replaceChildren();
  state.history.forEach((e) => {
    const tr = document.createElement("tr");
    tr.className = e.kind;
    let text = e.move;
    if (e.kind === "play") text = `${e.position} ${e.words[0] || ""}`;
    else if (e.kind === "exchange") text = e.move.startsWith("-") && /\d/.test(e.move)
      ? `exchange ${e.count}` : `exchange ${e.move.slice(1)}`;
    else if (e.kind === "end_rack_points") text = `+ (${e.other_racks})`;
    else if (e.kind === "end_rack_penalty") text = `− (${e.other_racks})`;
    else text = KIND_TEXT[e.kind] || e.kind;
    const cells = [state.names[e.player], text, e.score, e.total];
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
  const series = state.names.map(() => [0]);
  for (const e of state.history) series[e.player].push(e.total);
  const maxLen = Math.max(...series.map((s) => s.length));
  const maxScore = Math.max(10, ...series.flat());
  const minScore = Math.min(0, ...series.flat());
  const W = 460, H = 220, L = 40, B = 24, T = 10, R = 10;
  const x = (i) => L + (i * (W - L - R)) / Math.max(1, maxLen - 1);
  const y = (v) => T + ((maxScore - v) * (H - T - B)) / (maxScore - minScore || 1);
  const colours = ["#1d5c4b", "#d9473f", "#2f86c2", "#c89b3c"];
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    svg.appendChild(el);
    return el;
  };
  add("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), stroke: "#999" });
  add("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#999" });
  add("text", { x: L - 4, y: y(maxScore) + 4, "text-anchor": "end", "font-size": 10 }, maxScore);
  add("text", { x: L - 4, y: y(0) + 4, "text-anchor": "end", "font-size": 10 }, 0);
  add("text", { x: (W + L) / 2, y: H - 6, "text-anchor": "middle", "font-size": 10 }, "turn");
  series.forEach((s, p) => {
    const pts = s.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    add("polyline", { points: pts, fill: "none", stroke: colours[p % 4], "stroke-width": 2.5 });
    add("text", { x: x(s.length - 1) - 4, y: y(s[s.length - 1]) - 6, "text-anchor": "end",
      "font-size": 11, fill: colours[p % 4] }, state.names[p]);
  });
  return svg;
}
