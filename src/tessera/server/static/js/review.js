// Game review: an uploaded GCG file (/review) or a finished game (/review/{id}) turn by turn —
// the board after each turn, the move played, the words it formed, the best moves and the
// equity lost as `tessera analyze` finds them (the server analyses; this page shows), a chart
// of the scores and of the equity lost. ← → step (Home, End jump); a turn in the list shows
// its board. On request the server simulates a turn (or every turn, one request each, with
// a progress bar): the best moves by win % and the win % the move played lost, as
// `tessera analyze --sim` finds them.
import { ApiError, api } from "./api.js";
import { renderBoard } from "./board.js";
import { lineChart } from "./charts.js";
import { $, button, el, showPage } from "./dom.js";
import { fixed, signed } from "./format.js";
import { describeError } from "./session.js";

const MAX_FILE_BYTES = 64 * 1024; // the server's limit: a larger file is refused here at once

const BUSY_RETRY_MS = 2000; // the server is simulating or reviewing for others: ask again
const BUSY_RETRIES = 30;

// source: how to ask the server for a turn's simulation (an uploaded text, or a game id);
// sims: turn number → the server's simulation of it; run: the "every turn" loop's token.
const view = { data: null, index: 0, source: null, sims: new Map(), run: null };
let bound = false;

function playedText(t) {
  return `${t.shown} ${signed(t.score)}`;
}

function lostText(t) {
  return t.equity_lost === null ? "—" : fixed(t.equity_lost);
}

function winLostText(t) {
  const sim = view.sims.get(t.number);
  if (!sim) return "not simulated";
  return sim.win_lost === null ? "—" : fixed(sim.win_lost);
}

function announce(t, count, names) {
  const best = t.best.length ? `best ${t.best[0].move}` : "no alternatives";
  const lost = t.equity_lost === null ? "" : `, equity lost ${fixed(t.equity_lost)}`;
  const sim = view.sims.get(t.number);
  const win = sim && sim.win_lost !== null ? `, win % lost ${fixed(sim.win_lost)}` : "";
  return `Turn ${t.number} of ${count}: ${names[t.seat]} played ${t.shown} for ${t.score}; `
    + `${best}${lost}${win}.`;
}

function renderTurn() {
  const { data, index } = view;
  const t = data.turns[index];
  renderBoard($("rv-board"), {
    layout: data.layout, values: data.values, board: t.board, last_squares: t.squares,
  }, new Map(), null);
  $("rv-players").replaceChildren(...data.names.map((name, i) => el("div",
    { className: "player" + (t.seat === i ? " to-move" : ""), dataset: { player: i } },
    el("span", { className: "name", text: name }),
    el("span", { className: "clock" }),
    el("span", { className: "score", text: t.scores[i] }))));
  $("rv-turn").textContent = `Turn ${t.number} / ${data.turns.length}`;
  $("rv-played").textContent = `${data.names[t.seat]}: ${playedText(t)}`;
  $("rv-rack").textContent = t.rack || "not recorded";
  $("rv-words").textContent = t.words.join(", ") || "—";
  $("rv-lost").textContent = lostText(t);
  $("rv-note").textContent = t.note;
  $("rv-best").tBodies[0].replaceChildren(...t.best.map((m, i) => el("tr",
    { className: m.move === t.shown ? "selected" : "" },
    el("td", { text: i + 1 }),
    el("td", { className: "move", text: m.move }),
    el("td", { className: "num", text: m.score }),
    el("td", { className: "num", text: fixed(m.equity) }))));
  renderSimulation(t);
  $("rv-first").disabled = $("rv-prev").disabled = index === 0;
  $("rv-last").disabled = $("rv-next").disabled = index === data.turns.length - 1;
  for (const row of $("rv-turns").tBodies[0].rows) {
    const current = +row.dataset.index === index;
    row.classList.toggle("current", current);
    if (current) row.setAttribute("aria-current", "true");
    else row.removeAttribute("aria-current");
    if (current) row.scrollIntoView({ block: "nearest" });
  }
  $("rv-announce").textContent = announce(t, data.turns.length, data.names);
  $("review").dataset.turn = t.number;
}

function renderSimulation(t) {
  const sim = view.sims.get(t.number);
  $("rv-win-lost").textContent = winLostText(t);
  $("rv-sim").disabled = Boolean(sim) || view.run !== null;
  $("rv-sim-best").hidden = !sim || !sim.sim_moves.length;
  if (!sim) return;
  $("rv-sim-what").textContent = `${sim.iterations} deals, ${sim.plies} plies`;
  $("rv-sim-best").tBodies[0].replaceChildren(...sim.sim_moves.map((m, i) => el("tr",
    { className: m.move === t.shown ? "selected" : "" },
    el("td", { text: i + 1 }),
    el("td", { className: "move", text: m.move }),
    el("td", { className: "num", text: m.score }),
    el("td", { className: "num", text: fixed(m.win_pct) }),
    el("td", { className: "num", text: fixed(m.equity) }))));
}

// One turn simulated by the server (kept: a turn's simulation does not change). A server
// busy with other reviews answers 503 at once; the page waits and asks again.
async function simulate(number) {
  if (view.sims.has(number)) return view.sims.get(number);
  const source = view.source;
  for (let attempt = 0; ; attempt++) {
    try {
      const sim = source.gameId
        ? await api.reviewSimulation(source.gameId, number)
        : await api.simulateUpload(source.text, number);
      if (view.source !== source) return null; // another game was loaded meanwhile
      view.sims.set(number, sim);
      simulated(number);
      return sim;
    } catch (err) {
      const busy = err instanceof ApiError && err.status === 503;
      if (!busy || attempt >= BUSY_RETRIES) throw err;
      $("rv-sim-status").textContent = "The server is busy with other reviews; waiting…";
      await new Promise((done) => setTimeout(done, BUSY_RETRY_MS));
    }
  }
}

// A turn's simulation arrived: its row, the chart, and the turn shown if it is this one.
function simulated(number) {
  const row = $("rv-turns").tBodies[0].querySelector(`tr[data-turn="${number}"]`);
  const t = view.data.turns.find((u) => u.number === number);
  if (row) row.lastElementChild.textContent = winLostText(t);
  renderWinChart(view.data);
  if (view.data.turns[view.index].number === number) renderSimulation(t);
}

async function simulateShown() {
  const t = view.data.turns[view.index];
  $("rv-sim").disabled = true;
  $("rv-sim-status").textContent = `Simulating turn ${t.number}…`;
  try {
    await simulate(t.number);
    $("rv-sim-status").textContent = `Turn ${t.number} simulated.`;
  } catch (err) {
    $("rv-sim-status").textContent = "";
    $("rv-error").textContent = describeError(err);
    renderSimulation(t);
  }
}

// Every turn not yet simulated, one request after another (each a second of the server's
// time); the button stops the run.
async function simulateAll() {
  if (view.run) {
    view.run.stopped = true;
    return;
  }
  const run = { stopped: false };
  view.run = run;
  const todo = view.data.turns.filter((t) => !view.sims.has(t.number));
  const bar = $("rv-sim-progress");
  bar.max = Math.max(1, todo.length);
  bar.value = 0;
  bar.hidden = false;
  $("rv-sim-all").textContent = "Stop simulating";
  $("rv-sim").disabled = true;
  try {
    for (const [i, t] of todo.entries()) {
      if (run.stopped || view.run !== run) break;
      $("rv-sim-status").textContent = `Simulating turn ${t.number} (${i + 1} of ${todo.length})…`;
      await simulate(t.number);
      bar.value = i + 1;
    }
    $("rv-sim-status").textContent = run.stopped
      ? `Stopped: ${view.sims.size} of ${view.data.turns.length} turns simulated.`
      : `Every turn simulated (${view.data.turns.length}).`;
  } catch (err) {
    $("rv-sim-status").textContent = "";
    $("rv-error").textContent = describeError(err);
  } finally {
    if (view.run === run) view.run = null;
    bar.hidden = true;
    $("rv-sim-all").textContent = "Simulate every turn";
    if (view.data) renderSimulation(view.data.turns[view.index]);
  }
}

function go(index) {
  if (!view.data) return;
  view.index = Math.max(0, Math.min(view.data.turns.length - 1, index));
  renderTurn();
}

function renderTurnList(data) {
  $("rv-turns").tBodies[0].replaceChildren(...data.turns.map((t, i) => el("tr",
    { dataset: { index: i, turn: t.number } },
    el("td", {}, button(String(t.number), () => go(i), { "aria-label": `Show turn ${t.number}` })),
    el("td", { text: data.names[t.seat] }),
    el("td", { className: "move", text: t.rack || "?" }),
    el("td", { className: "move", text: t.shown }),
    el("td", { text: t.words.join(", ") }),
    el("td", { className: "num", text: t.score }),
    el("td", { className: "num", text: t.equity_lost === null ? "" : fixed(t.equity_lost) }),
    el("td", { className: "num" }))));
}

function renderWinChart(data) {
  const done = data.turns.filter((t) => view.sims.has(t.number));
  $("rv-win-figure").hidden = done.length === 0;
  if (!done.length) return;
  const lost = data.names.map((label, i) => {
    const mine = data.turns.filter((t) => t.seat === i && view.sims.has(t.number));
    return {
      label,
      values: mine.map((t) => view.sims.get(t.number).win_lost || 0),
      titles: mine.map((t) => `turn ${t.number}: ${winLostText(t)}`),
    };
  });
  const most = Math.max(1, ...lost.flatMap((s) => s.values));
  const chart = lineChart({ series: lost, range: [0, most], xLabel: "own simulated turn", dots: true });
  chart.setAttribute("aria-label", "Win percentage points each player lost on each simulated turn");
  $("rv-win-chart").replaceChildren(chart);
}

function renderCharts(data) {
  const scores = data.names.map((label, i) => ({
    label, values: [0, ...data.turns.map((t) => t.scores[i])],
    titles: ["start", ...data.turns.map((t) => `turn ${t.number}: ${t.scores[i]}`)],
  }));
  const all = scores.flatMap((s) => s.values);
  const scoreChart = lineChart({
    series: scores, range: [Math.min(0, ...all), Math.max(10, ...all)], xLabel: "turn",
  });
  scoreChart.setAttribute("aria-label", "Each player's score after each turn");
  const lost = data.names.map((label, i) => {
    const mine = data.turns.filter((t) => t.seat === i);
    return {
      label,
      values: mine.map((t) => t.equity_lost || 0),
      titles: mine.map((t) => `turn ${t.number}: ${lostText(t)}`),
    };
  });
  const most = Math.max(1, ...lost.flatMap((s) => s.values));
  const lostChart = lineChart({ series: lost, range: [0, most], xLabel: "own turn", dots: true });
  lostChart.setAttribute("aria-label", "Equity each player lost on each of their turns");
  $("rv-score-chart").replaceChildren(scoreChart);
  $("rv-lost-chart").replaceChildren(lostChart);
}

function show(data, source) {
  view.data = data;
  view.index = 0;
  view.source = source;
  view.sims = new Map();
  if (view.run) view.run.stopped = true;
  view.run = null;
  $("rv-sim-status").textContent = "";
  $("rv-title").textContent = data.names.join(" vs ") + ` · ${data.lexicon}`;
  $("rv-engine").textContent = data.engine;
  renderTurnList(data);
  renderCharts(data);
  renderWinChart(data);
  $("rv-body").hidden = false;
  renderTurn();
  $("rv-board").focus({ preventScroll: true }); // ← → work at once (not in the file input)
}

async function load(request, what, source) {
  $("rv-error").textContent = "";
  $("rv-status").textContent = `Analysing ${what}…`;
  $("review").setAttribute("aria-busy", "true");
  try {
    const data = await request();
    $("rv-status").textContent = `${what}: ${data.turns.length} turns.`;
    show(data, source);
  } catch (err) {
    $("rv-status").textContent = "";
    $("rv-error").textContent = describeError(err);
  } finally {
    $("review").setAttribute("aria-busy", "false");
  }
}

async function upload() {
  const file = $("rv-file").files[0];
  if (!file) return;
  if (file.size > MAX_FILE_BYTES) {
    $("rv-error").textContent = `That file has ${file.size.toLocaleString()} bytes; a game record `
      + `to review may have at most ${MAX_FILE_BYTES.toLocaleString()}.`;
    return;
  }
  const text = await file.text();
  history.replaceState(null, "", "/review");
  await load(() => api.reviewUpload(text), file.name, { text });
}

function onKey(event) {
  if ($("review").hidden || !view.data || document.querySelector("dialog[open]")) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  const last = view.data.turns.length - 1;
  const moves = { ArrowLeft: view.index - 1, ArrowRight: view.index + 1, Home: 0, End: last };
  if (event.key in moves) {
    event.preventDefault();
    go(moves[event.key]);
  }
}

function bind() {
  bound = true;
  $("rv-file").addEventListener("change", upload);
  $("rv-first").addEventListener("click", () => go(0));
  $("rv-prev").addEventListener("click", () => go(view.index - 1));
  $("rv-next").addEventListener("click", () => go(view.index + 1));
  $("rv-last").addEventListener("click", () => go(view.data.turns.length - 1));
  $("rv-sim").addEventListener("click", simulateShown);
  $("rv-sim-all").addEventListener("click", simulateAll);
  document.addEventListener("keydown", onKey);
}

export async function showReviewPage(gameId = null) {
  showPage("review", "Game review");
  if (!bound) bind();
  if (gameId) await load(() => api.review(gameId), "The game", { gameId });
}
