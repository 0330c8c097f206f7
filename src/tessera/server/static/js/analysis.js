// The analysis board: set up a position by typing tiles onto the board (or paste a CGP), enter
// a rack, and list every move ranked by equity as `tessera moves --cgp` ranks it — the server
// finds and ranks the moves; this page asks, filters and shows them (boardeditor.js edits
// the board).
import { api } from "./api.js";
import { renderBoard } from "./board.js";
import { bindEditor, renderTray } from "./boardeditor.js";
import { $, el, showPage } from "./dom.js";
import { fixed } from "./format.js";
import { t, tn } from "./i18n.js";
import { describeError } from "./session.js";

const LIMIT = 200; // moves listed at once (the count says how many there are in all)
const FILTER_DELAY_MS = 350;

const view = {
  layout: null, values: {}, letters: new Set(), board: [], cursor: null,
  cgp: null, // the pasted CGP while the position is as it was loaded (racks, scores, rules)
  moves: [], selected: null, listed: false, filterTimer: null, busy: 0,
  asked: 0, // requests for moves so far: only the answer to the last one is shown
};
let bound = false;

function boardIsEmpty() {
  return view.board.every((row) => row.every((label) => !label));
}

function draw() {
  const pending = new Map();
  const move = view.moves.find((m) => m.rank === view.selected);
  if (move && move.placements) {
    for (const [r, c, label] of move.placements) {
      const blank = label !== label.toUpperCase();
      pending.set(`${r},${c}`, { label: blank ? label.toUpperCase() : label, rackLabel: blank ? "?" : label });
    }
  }
  renderBoard($("an-board"), {
    layout: view.layout, values: view.values, board: view.board, last_squares: [],
  }, pending, view.cursor);
  $("an-shown").textContent = move ? t("Showing {move}", { move: move.notation }) : "";
  const dir = !view.cursor || view.cursor.across;
  $("an-direction").textContent = dir ? t("Typing across →") : t("Typing down ↓");
  $("an-direction").setAttribute("aria-pressed", String(!dir));
}

// The position the page has drawn, from the server's reading of it.
function takePosition(position) {
  view.layout = position.layout;
  view.values = position.values;
  view.letters = new Set(position.letters.map((l) => l.toUpperCase()));
  view.board = position.board.map((row) => row.slice());
  $("an-rack").maxLength = 2 * position.rack_size + 2;
  if (position.rules && [...$("an-rules").options].some((o) => o.value === position.rules)) {
    $("an-rules").value = position.rules;
  }
  if (position.lexicon) $("an-lexicon").value = position.lexicon;
  renderTray(view);
  if (view.cursor && (view.cursor.r >= view.layout.rows || view.cursor.c >= view.layout.cols)) {
    view.cursor = null;
  }
}

// What the server is asked about: the pasted CGP while it stands, else the board and rack.
function positionBody() {
  if (view.cgp) return { cgp: view.cgp };
  const sameSize = view.layout && view.board.length === view.layout.rows;
  return {
    board: sameSize && !boardIsEmpty() ? view.board : null,
    rack: $("an-rack").value.trim().toUpperCase(), // a rack has no lower case: blanks are ?
    rules: $("an-rules").value,
    lexicon: $("an-lexicon").value,
  };
}

// The address names the position listed or exported last: a reload or a shared link opens it.
function remember(cgp) {
  history.replaceState(null, "", `/analysis?cgp=${encodeURIComponent(cgp)}`);
}

function filters() {
  const body = {};
  const word = $("an-word").value.trim();
  const square = $("an-square").value.trim();
  const length = $("an-length").value.trim();
  if (word) body.word = word;
  if (square) body.square = square;
  if (length) body.length = Number(length);
  return body;
}

function showError(err) {
  $("an-error").textContent = err ? describeError(err) : "";
}

// Something about the position changed: the pasted CGP no longer describes it, the list is old.
function edited() {
  view.asked += 1; // an answer on its way is about the position before this change
  view.cgp = null;
  view.selected = null;
  if (view.listed) {
    view.moves = [];
    view.listed = false;
    renderMoves(null);
    $("an-count").textContent = t("The position changed: list the moves again.");
  }
}

function setBusy(delta) {
  view.busy += delta;
  $("analysis").setAttribute("aria-busy", String(view.busy > 0));
  $("an-analyze").disabled = view.busy > 0;
}

async function listMoves() {
  const asked = ++view.asked;
  setBusy(1);
  try {
    const data = await api.analyzeMoves({ ...positionBody(), ...filters(), limit: LIMIT });
    if (asked !== view.asked) return;
    showError(null);
    takePosition(data.position);
    remember(data.position.cgp);
    if (view.cgp) $("an-rack").value = data.position.rack.join("");
    view.moves = data.moves;
    view.listed = true;
    if (!view.moves.some((m) => m.rank === view.selected)) view.selected = null;
    renderMoves(data);
    draw();
  } catch (err) {
    if (asked === view.asked) showError(err);
  } finally {
    setBusy(-1);
  }
}

function renderMoves(data) {
  const body = $("an-moves").tBodies[0];
  body.replaceChildren(...view.moves.map((m) => {
    const row = el("tr", {
      tabindex: "0",
      className: m.rank === view.selected ? "selected" : "",
      "aria-current": m.rank === view.selected ? "true" : null,
      dataset: { rank: m.rank, move: m.move, kind: m.kind },
    },
    el("td", { className: "num", text: m.rank }),
    el("td", { className: "move", text: m.notation }),
    el("td", { className: "num score", text: m.score }),
    el("td", { className: "leave", text: m.leave }),
    el("td", { className: "num equity", text: fixed(m.equity, 2) }));
    return row;
  }));
  if (!data) return;
  const filtered = data.matched !== data.total;
  const shown = data.moves.length;
  const what = filtered
    ? tn("{matched} of {n} move matches", "{matched} of {n} moves match", data.total, { matched: data.matched })
    : tn("{n} move", "{n} moves", data.total);
  $("an-count").textContent = shown < data.matched
    ? tn("{what}; the best {n} is listed", "{what}; the best {n} are listed", shown, { what }) : what;
}

function select(rank) {
  view.selected = view.selected === rank ? null : rank;
  for (const row of $("an-moves").tBodies[0].rows) {
    const on = +row.dataset.rank === view.selected;
    row.classList.toggle("selected", on);
    if (on) row.setAttribute("aria-current", "true");
    else row.removeAttribute("aria-current");
  }
  draw();
}

async function loadCgp() {
  const text = $("an-cgp").value.trim();
  if (!text) {
    $("an-error").textContent = t("Paste a CGP line first.");
    return;
  }
  view.cgp = text;
  view.selected = null;
  await listMoves();
  if ($("an-error").textContent) view.cgp = null;
}

async function exportCgp() {
  setBusy(1);
  try {
    const position = await api.analysisPosition(positionBody());
    showError(null);
    $("an-cgp").value = position.cgp;
    $("an-cgp").select();
    remember(position.cgp);
  } catch (err) {
    showError(err);
  } finally {
    setBusy(-1);
  }
}

// A new empty board for the chosen rules (or the same board, when the layout fits).
async function resetTo(body) {
  try {
    takePosition(await api.analysisPosition(body));
    showError(null);
    draw();
  } catch (err) {
    showError(err);
  }
}

function refilter() {
  clearTimeout(view.filterTimer);
  if (!view.listed && !view.moves.length) return;
  view.filterTimer = setTimeout(listMoves, FILTER_DELAY_MS);
}

function bind() {
  bound = true;
  bindEditor(view, { edited, draw, enter: listMoves });
  $("an-rack").addEventListener("input", edited);
  $("an-rack").addEventListener("keydown", (event) => {
    if (event.key === "Enter") listMoves();
  });
  $("an-rules").addEventListener("change", async () => {
    edited();
    const body = positionBody();
    try { // the same tiles under other rules, when they fit its board
      takePosition(await api.analysisPosition(body));
      showError(null);
      draw();
    } catch {
      await resetTo({ ...body, board: null });
    }
  });
  $("an-lexicon").addEventListener("change", edited);
  $("an-analyze").addEventListener("click", listMoves);
  $("an-load").addEventListener("click", loadCgp);
  $("an-export").addEventListener("click", exportCgp);
  for (const id of ["an-word", "an-square", "an-length"]) $(id).addEventListener("input", refilter);
  const moves = $("an-moves").tBodies[0];
  moves.addEventListener("click", (event) => {
    const row = event.target.closest("tr");
    if (row) select(+row.dataset.rank);
  });
  moves.addEventListener("keydown", (event) => {
    const row = event.target.closest("tr");
    if (!row) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      select(+row.dataset.rank);
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = event.key === "ArrowDown" ? row.nextElementSibling : row.previousElementSibling;
      if (next) next.focus();
    }
  });
}

function fillSelect(select, values, chosen) {
  select.replaceChildren(...values.map((v) => el("option", { value: v, text: v })));
  if (chosen) select.value = chosen;
}

export async function showAnalysisPage() {
  showPage("analysis", t("Analysis board"));
  if (!bound) bind();
  try {
    const meta = await api.meta();
    fillSelect($("an-rules"), meta.presets.map((p) => p.name), meta.default_rules);
    fillSelect($("an-lexicon"), meta.lexicons, meta.default_lexicon);
  } catch (err) {
    showError(err);
    return;
  }
  const pasted = new URLSearchParams(location.search).get("cgp");
  if (pasted) {
    $("an-cgp").value = pasted;
    await loadCgp();
    if (view.layout) return;
  }
  await resetTo({ rules: $("an-rules").value, lexicon: $("an-lexicon").value, board: null, rack: "" });
}
