// A finished game, turn by turn: the board, the scores and the move after each turn, stepped
// with the buttons or the arrow keys (Home and End jump to the start and the end).
import { api, gcgUrl } from "./api.js";
import { describeEvent, renderBoard, renderSheet } from "./board.js";
import { $, el } from "./dom.js";
import { signed, versus } from "./format.js";
import { t } from "./i18n.js";
import { describeError } from "./session.js";

const view = { gameId: null, layout: null, values: null, names: [], turns: [], index: 0 };
let keysBound = false;

function emptyBoard(layout) {
  return Array.from({ length: layout.rows }, () => Array(layout.cols).fill(null));
}

function render() {
  const { turns, index, names } = view;
  const turn = index > 0 ? turns[index - 1] : null;
  renderBoard($("replay-board"), {
    layout: view.layout,
    values: view.values,
    board: turn ? turn.board : emptyBoard(view.layout),
    last_squares: turn && turn.kind === "play" && turn.squares ? turn.squares : [],
  }, new Map(), null);
  const scores = turn ? turn.scores : names.map(() => 0);
  $("replay-players").replaceChildren(...names.map((name, i) => el("div",
    { className: "player" + (turn && turn.player === i ? " to-move" : ""), dataset: { player: i } },
    el("span", { className: "name", text: name }),
    el("span", { className: "clock" }),
    el("span", { className: "score", text: scores[i] }))));
  $("replay-turn").textContent = `${index} / ${turns.length}`;
  const vars = turn && { name: names[turn.player], event: describeEvent(turn), score: signed(turn.score),
    total: turn.total, rack: turn.rack };
  $("replay-move").textContent = !turn ? t("The start: an empty board.")
    : turn.rack ? t("{name}: {event} {score} (total {total}) · rack {rack}", vars)
      : t("{name}: {event} {score} (total {total})", vars);
  $("replay-first").disabled = $("replay-prev").disabled = index === 0;
  $("replay-last").disabled = $("replay-next").disabled = index === turns.length;
  const sheet = $("replay-sheet").tBodies[0];
  for (const row of sheet.rows) row.classList.toggle("current", +row.dataset.turn === index);
  const current = sheet.querySelector("tr.current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function go(index) {
  view.index = Math.max(0, Math.min(view.turns.length, index));
  render();
}

function onKey(event) {
  if ($("replay").hidden || document.querySelector("dialog[open]")) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  const moves = { ArrowLeft: view.index - 1, ArrowRight: view.index + 1, Home: 0, End: view.turns.length };
  if (event.key in moves) {
    event.preventDefault();
    go(moves[event.key]);
  }
}

function bind() {
  keysBound = true;
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev").addEventListener("click", () => go(view.index - 1));
  $("replay-next").addEventListener("click", () => go(view.index + 1));
  $("replay-last").addEventListener("click", () => go(view.turns.length));
  $("replay-sheet").addEventListener("click", (event) => {
    const row = event.target.closest("tr");
    if (row) go(+row.dataset.turn);
  });
  document.addEventListener("keydown", onKey);
}

export async function openReplay(gameId) {
  if (!keysBound) bind();
  const box = $("replay");
  box.hidden = false;
  let state, data;
  try {
    [state, data] = await Promise.all([api.state(gameId), api.replay(gameId)]);
  } catch (err) {
    $("replay-title").textContent = describeError(err);
    return;
  }
  Object.assign(view, {
    gameId, layout: state.layout, values: state.values, names: data.names, turns: data.turns, index: 0,
  });
  $("replay-title").textContent = `${versus(data.names)} · ${data.rules} · ${data.lexicon}`
    + (data.rated ? ` · ${t("rated")}` : "");
  renderSheet($("replay-sheet").tBodies[0], { names: data.names, history: data.turns });
  $("replay-gcg").href = gcgUrl(gameId);
  $("replay-gcg").setAttribute("download", `tessera-${gameId}.gcg`);
  $("replay-open").href = `/g/${gameId}`;
  box.dataset.game = gameId;
  history.replaceState(null, "", `${location.pathname}?replay=${encodeURIComponent(gameId)}`);
  render();
  box.scrollIntoView({ block: "start" });
}
