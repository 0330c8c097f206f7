// A duplicate game (/duplicate/{id}): one person against the master move, round by round,
// with a computer beside them if they chose one (it hands in its play when they do; its
// plays are shown once each round is over). The board and the rack are drawn as on the game page (board.js); the play is
// written in notation ("8D QUITE"), so the keyboard is all it takes. Each round's outcome is
// announced in a live region and added to the rounds table; the master move of the open
// round is never sent to the page before the play is in.
import { api } from "./api.js";
import { renderBoard, renderRack } from "./board.js";
import { $, el, goTo, showPage } from "./dom.js";
import { fixed } from "./format.js";
import { currentUser, describeError, ensureUser } from "./session.js";

let gameId = null;
let view = null;
let sending = false;

// Start a game (a guest named `name` first when nobody is logged in), with the computers
// named in `opponents` beside the player, and go to its page.
export async function startDuplicate(name, opponents = []) {
  await ensureUser(name || "Guest");
  const res = await api.duplicateStart(opponents);
  goTo(`/duplicate/${res.id}`);
}

const computersOf = (v) => v.players.filter((p) => p.computer).map((p) => p.name);

const VERDICTS = {
  valid: "",
  invalid_words: "not in the word list",
  illegal: "not a legal play of the rack",
  misreported: "wrong declared score",
};

function verdictNote(mine) {
  if (mine.verdict === "valid") return "";
  return mine.message || VERDICTS[mine.verdict] || mine.verdict.replace("_", " ");
}

// "Round 3: your 8D QUITE scored 28; the master move 8D QUITE scored 28."
function outcomeText(outcome) {
  const note = verdictNote(outcome);
  const yours = `your ${outcome.play} scored ${outcome.score}${note ? ` (${note})` : ""}`;
  return `Round ${outcome.round}: ${yours}; the master move ${outcome.top} scored ${outcome.top_score}.`;
}

function resultText(result) {
  const text = `You scored ${result.score} of the master moves' ${result.top_total}: `
    + `${fixed(result.percent, 2)}%, a negative of ${result.negative}.`;
  if (result.ranking.length < 2) return text;
  const others = view.players.filter((p) => p.computer)
    .map((p) => `${p.name} ${p.score} (${fixed(p.percent, 2)}%)`).join(", ");
  return `${text} ${others}. Ranking: ${result.ranking.join(", ")}.`;
}

// "level3 H8 POLDERS 72" for each computer's play in a closed round
const othersText = (rd) => rd.others.map((o) => `${o.name} ${o.play} ${o.points}`).join("; ");

function render() {
  renderBoard($("dup-board"), view, new Map(), null);
  renderRack($("dup-rack"), view.rack, view.values, new Set());
  const over = view.result !== null;
  $("dup-rack").parentElement.hidden = over;
  $("dup-form").hidden = over;
  $("dup-help").hidden = over;
  $("dup-status").textContent = over
    ? `Game over after ${view.rounds.length} rounds.`
    : `Round ${view.round}. You: ${view.score}, `
      + view.players.filter((p) => p.computer).map((p) => `${p.name}: ${p.score}, `).join("")
      + `master moves: ${view.top_total} `
      + `(${fixed(view.percent, 2)}%). Tiles in the bag: ${view.bag_count}.`;
  $("dup-rounds").tBodies[0].replaceChildren(...view.rounds.map((rd) => {
    const note = verdictNote(rd.mine);
    return el("tr", { dataset: { round: rd.round } },
      el("td", { className: "num", text: rd.round }),
      el("td", { text: rd.rack }),
      el("td", { text: rd.mine.play + (note ? ` (${note})` : "") }),
      el("td", { className: "num", text: rd.points }),
      el("td", { text: rd.top }),
      el("td", { className: "num", text: rd.top_score }),
      el("td", { className: "num", text: rd.total }),
      el("td", { className: "num", text: rd.top_total }),
      el("td", { className: "num", text: fixed(rd.percent, 2) }),
      el("td", { text: othersText(rd) }));
  }));
  $("dup-result").hidden = !over;
  if (over) {
    $("dup-result-text").textContent = resultText(view.result);
    $("dup-gcg").href = `/api/duplicate/${gameId}/gcg`;
  }
  window.tessera = { duplicate: view, gameId };  // for the browser tests, as the game page
}

async function play(event) {
  event.preventDefault();
  const text = $("dup-move").value.trim();
  if (!text || sending) return;
  sending = true;
  $("dup-play").disabled = true;
  $("dup-error").textContent = "";
  try {
    const res = await api.duplicatePlay(gameId, { move: text, round: view.round });
    view = res.view;
    $("dup-move").value = "";
    render();
    const announce = outcomeText(res.outcome);
    $("dup-announce").textContent = view.result ? `${announce} ${resultText(view.result)}` : announce;
    (view.result ? $("dup-result-title") : $("dup-move")).focus();
  } catch (err) {
    $("dup-error").textContent = describeError(err);
  } finally {
    sending = false;
    $("dup-play").disabled = false;
  }
}

export async function showDuplicatePage(id) {
  showPage("duplicate", "Duplicate");
  $("dup-form").addEventListener("submit", play);
  $("dup-again").addEventListener(
    "click", () => startDuplicate(currentUser()?.name, view ? computersOf(view) : []));
  $("dup-start-btn").addEventListener("click", async () => {
    const chosen = $("dup-opponent").value;
    try {
      await startDuplicate(currentUser()?.name, chosen ? [chosen] : []);
    } catch (err) {
      $("dup-start-text").textContent = describeError(err);
    }
  });
  if (!id) {
    $("dup-start").hidden = false;
    return;
  }
  try {
    view = await api.duplicate(id);
  } catch (err) {
    $("dup-start").hidden = false;
    $("dup-start-text").textContent = describeError(err);
    return;
  }
  gameId = id;
  $("dup-game").hidden = false;
  render();
}
