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
import { fixed, signed, versus } from "./format.js";
import { currentLanguage, t, tn } from "./i18n.js";
import { describeError } from "./session.js";

const MAX_FILE_BYTES = 64 * 1024; // the server's limit: a larger file is refused here at once

const BUSY_RETRY_MS = 2000; // the server is simulating or reviewing for others: ask again
const BUSY_RETRIES = 30;

// source: how to ask the server for a turn's simulation (an uploaded text, or a game id);
// sims: turn number → the server's simulation of it; run: the "every turn" loop's token.
const view = { data: null, index: 0, source: null, sims: new Map(), run: null };
let bound = false;

// A turn lost to a challenge (the analysis's "challenge") is named as such: the play
// challenged off as a phony withdrawn, the pass an unsuccessful challenge cost as the turn
// lost to it; either scored nothing for the turn, and no equity is charged for it.
function movedText(turn) {
  if (turn.challenge === "lost_turn") return t("lost to a challenge");
  if (turn.challenge === "withdrawn") return t("{move} (phony withdrawn)", { move: turn.shown });
  return turn.shown;
}

function turnScore(turn) {
  return turn.challenge ? 0 : turn.score;
}

function playedText(turn) {
  return turn.challenge ? movedText(turn) : `${turn.shown} ${signed(turn.score)}`;
}

function lostText(turn) {
  return turn.equity_lost === null ? "—" : fixed(turn.equity_lost);
}

function winLostText(turn) {
  const sim = view.sims.get(turn.number);
  if (!sim) return t("not simulated");
  return sim.win_lost === null ? "—" : fixed(sim.win_lost);
}

// The analysis's note on a turn it could not rank (tessera analyze writes it in English): the
// page's words for the notes it knows.
function noteText(note) {
  return ({
    "rack not recorded: no alternatives": t("rack not recorded: no alternatives"),
    "the game was already over here": t("the game was already over here"),
    "the move played is not a valid move here (a phony, or exchange of unknown tiles)":
      t("the move played is not a valid move here (a phony, or exchange of unknown tiles)"),
    "phony withdrawn: the play was challenged off and the turn lost (R5.3)":
      t("phony withdrawn: the play was challenged off and the turn lost (R5.3)"),
    "turn lost to an unsuccessful challenge (R5.4a): no move was chosen":
      t("turn lost to an unsuccessful challenge (R5.4a): no move was chosen"),
  })[note] || note;
}

function announce(turn, count, names) {
  const parts = [turn.best.length ? t("best {move}", { move: turn.best[0].move }) : t("no alternatives")];
  if (turn.equity_lost !== null) parts.push(t("equity lost {lost}", { lost: fixed(turn.equity_lost) }));
  const sim = view.sims.get(turn.number);
  if (sim && sim.win_lost !== null) parts.push(t("win % lost {lost}", { lost: fixed(sim.win_lost) }));
  if (turn.challenge === "lost_turn") {
    return t("Turn {number} of {count}: {name} lost the turn to an unsuccessful challenge.", {
      number: turn.number, count, name: names[turn.seat],
    });
  }
  return t("Turn {number} of {count}: {name} played {move} for {score}; {analysis}.", {
    number: turn.number, count, name: names[turn.seat], move: movedText(turn), score: turnScore(turn),
    // i18n: between the parts of a list
    analysis: parts.join(t(", ")),
  });
}

function renderTurn() {
  const { data, index } = view;
  const turn = data.turns[index];
  renderBoard($("rv-board"), {
    layout: data.layout, values: data.values, board: turn.board, last_squares: turn.squares,
  }, new Map(), null);
  $("rv-players").replaceChildren(...data.names.map((name, i) => el("div",
    { className: "player" + (turn.seat === i ? " to-move" : ""), dataset: { player: i } },
    el("span", { className: "name", text: name }),
    el("span", { className: "clock" }),
    el("span", { className: "score", text: turn.scores[i] }))));
  $("rv-turn").textContent = t("Turn {number} / {count}", { number: turn.number, count: data.turns.length });
  $("rv-played").textContent = `${data.names[turn.seat]}: ${playedText(turn)}`;
  $("rv-rack").textContent = turn.rack || t("not recorded");
  $("rv-words").textContent = turn.words.join(", ") || "—";
  $("rv-lost").textContent = lostText(turn);
  $("rv-note").textContent = noteText(turn.note);
  $("rv-best").tBodies[0].replaceChildren(...turn.best.map((m, i) => el("tr",
    { className: m.move === turn.shown ? "selected" : "" },
    el("td", { text: i + 1 }),
    el("td", { className: "move", text: m.move }),
    el("td", { className: "num", text: m.score }),
    el("td", { className: "num", text: fixed(m.equity) }))));
  renderSimulation(turn);
  $("rv-first").disabled = $("rv-prev").disabled = index === 0;
  $("rv-last").disabled = $("rv-next").disabled = index === data.turns.length - 1;
  for (const row of $("rv-turns").tBodies[0].rows) {
    const current = +row.dataset.index === index;
    row.classList.toggle("current", current);
    if (current) row.setAttribute("aria-current", "true");
    else row.removeAttribute("aria-current");
    if (current) row.scrollIntoView({ block: "nearest" });
  }
  $("rv-announce").textContent = announce(turn, data.turns.length, data.names);
  $("review").dataset.turn = turn.number;
}

function renderSimulation(turn) {
  const sim = view.sims.get(turn.number);
  $("rv-win-lost").textContent = winLostText(turn);
  $("rv-sim").disabled = Boolean(sim) || view.run !== null;
  $("rv-sim-best").hidden = !sim || !sim.sim_moves.length;
  if (!sim) return;
  $("rv-sim-what").textContent = t("{deals} deals, {plies} plies", { deals: sim.iterations, plies: sim.plies });
  $("rv-sim-best").tBodies[0].replaceChildren(...sim.sim_moves.map((m, i) => el("tr",
    { className: m.move === turn.shown ? "selected" : "" },
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
      $("rv-sim-status").textContent = t("The server is busy with other reviews; waiting…");
      await new Promise((done) => setTimeout(done, BUSY_RETRY_MS));
    }
  }
}

// A turn's simulation arrived: its row, the chart, and the turn shown if it is this one.
function simulated(number) {
  const row = $("rv-turns").tBodies[0].querySelector(`tr[data-turn="${number}"]`);
  const turn = view.data.turns.find((u) => u.number === number);
  if (row) row.lastElementChild.textContent = winLostText(turn);
  renderWinChart(view.data);
  if (view.data.turns[view.index].number === number) renderSimulation(turn);
}

async function simulateShown() {
  const turn = view.data.turns[view.index];
  $("rv-sim").disabled = true;
  $("rv-sim-status").textContent = t("Simulating turn {number}…", { number: turn.number });
  try {
    await simulate(turn.number);
    $("rv-sim-status").textContent = t("Turn {number} simulated.", { number: turn.number });
  } catch (err) {
    $("rv-sim-status").textContent = "";
    $("rv-error").textContent = describeError(err);
    renderSimulation(turn);
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
  const todo = view.data.turns.filter((turn) => !view.sims.has(turn.number));
  const bar = $("rv-sim-progress");
  bar.max = Math.max(1, todo.length);
  bar.value = 0;
  bar.hidden = false;
  $("rv-sim-all").textContent = t("Stop simulating");
  $("rv-sim").disabled = true;
  try {
    for (const [i, turn] of todo.entries()) {
      if (run.stopped || view.run !== run) break;
      $("rv-sim-status").textContent = t("Simulating turn {number} ({done} of {count})…",
        { number: turn.number, done: i + 1, count: todo.length });
      await simulate(turn.number);
      bar.value = i + 1;
    }
    $("rv-sim-status").textContent = run.stopped
      ? t("Stopped: {done} of {count} turns simulated.", { done: view.sims.size, count: view.data.turns.length })
      : t("Every turn simulated ({count}).", { count: view.data.turns.length });
  } catch (err) {
    $("rv-sim-status").textContent = "";
    $("rv-error").textContent = describeError(err);
  } finally {
    if (view.run === run) view.run = null;
    bar.hidden = true;
    $("rv-sim-all").textContent = t("Simulate every turn");
    if (view.data) renderSimulation(view.data.turns[view.index]);
  }
}

function go(index) {
  if (!view.data) return;
  view.index = Math.max(0, Math.min(view.data.turns.length - 1, index));
  renderTurn();
}

function renderTurnList(data) {
  $("rv-turns").tBodies[0].replaceChildren(...data.turns.map((turn, i) => el("tr",
    { dataset: { index: i, turn: turn.number } },
    el("td", {}, button(String(turn.number), () => go(i), { "aria-label": t("Show turn {number}", { number: turn.number }) })),
    el("td", { text: data.names[turn.seat] }),
    el("td", { className: "move", text: turn.rack || "?" }),
    el("td", { className: "move", text: movedText(turn) }),
    el("td", { text: turn.words.join(", ") }),
    el("td", { className: "num", text: turnScore(turn) }),
    el("td", { className: "num", text: turn.equity_lost === null ? "" : fixed(turn.equity_lost) }),
    el("td", { className: "num" }))));
}

function renderWinChart(data) {
  const done = data.turns.filter((turn) => view.sims.has(turn.number));
  $("rv-win-figure").hidden = done.length === 0;
  if (!done.length) return;
  const lost = data.names.map((label, i) => {
    const mine = data.turns.filter((turn) => turn.seat === i && view.sims.has(turn.number));
    return {
      label,
      values: mine.map((turn) => view.sims.get(turn.number).win_lost || 0),
      titles: mine.map((u) => t("turn {number}: {value}", { number: u.number, value: winLostText(u) })),
    };
  });
  const most = Math.max(1, ...lost.flatMap((s) => s.values));
  const chart = lineChart({ series: lost, range: [0, most], xLabel: t("own simulated turn"), dots: true });
  chart.setAttribute("aria-label", t("Win percentage points each player lost on each simulated turn"));
  $("rv-win-chart").replaceChildren(chart);
}

function renderCharts(data) {
  const scores = data.names.map((label, i) => ({
    label, values: [0, ...data.turns.map((turn) => turn.scores[i])],
    titles: [t("start"), ...data.turns.map((u) => t("turn {number}: {value}", { number: u.number, value: u.scores[i] }))],
  }));
  const all = scores.flatMap((s) => s.values);
  const scoreChart = lineChart({
    series: scores, range: [Math.min(0, ...all), Math.max(10, ...all)], xLabel: t("turn"),
  });
  scoreChart.setAttribute("aria-label", t("Each player's score after each turn"));
  const lost = data.names.map((label, i) => {
    const mine = data.turns.filter((turn) => turn.seat === i);
    return {
      label,
      values: mine.map((turn) => turn.equity_lost || 0),
      titles: mine.map((u) => t("turn {number}: {value}", { number: u.number, value: lostText(u) })),
    };
  });
  const most = Math.max(1, ...lost.flatMap((s) => s.values));
  const lostChart = lineChart({ series: lost, range: [0, most], xLabel: t("own turn"), dots: true });
  lostChart.setAttribute("aria-label", t("Equity each player lost on each of their turns"));
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
  $("rv-title").textContent = `${versus(data.names)} · ${data.lexicon}`;
  $("rv-engine").textContent = data.engine;
  renderTurnList(data);
  renderCharts(data);
  renderWinChart(data);
  $("rv-body").hidden = false;
  renderTurn();
  $("rv-board").focus({ preventScroll: true }); // ← → work at once (not in the file input)
}

// `file`: the uploaded file's name (null: a game of this server)
async function load(request, file, source) {
  $("rv-error").textContent = "";
  $("rv-status").textContent = file === null ? t("Analysing the game…") : t("Analysing {file}…", { file });
  $("review").setAttribute("aria-busy", "true");
  try {
    const data = await request();
    $("rv-status").textContent = file === null
      ? tn("The game: {n} turn.", "The game: {n} turns.", data.turns.length)
      : tn("{file}: {n} turn.", "{file}: {n} turns.", data.turns.length, { file });
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
    const lang = currentLanguage();
    $("rv-error").textContent = t("That file has {size} bytes; a game record to review may have at most {limit}.",
      { size: file.size.toLocaleString(lang), limit: MAX_FILE_BYTES.toLocaleString(lang) });
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
  showPage("review", t("Game review"));
  if (!bound) bind();
  if (gameId) await load(() => api.review(gameId), null, { gameId });
}
