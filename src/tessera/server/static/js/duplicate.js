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
import { listText, t, tn } from "./i18n.js";
import { currentUser, describeError, ensureUser } from "./session.js";

let gameId = null;
let view = null;
let sending = false;

// Start a game (a guest named `name` first when nobody is logged in), with the computers
// named in `opponents` beside the player, and go to its page.
export async function startDuplicate(name, opponents = []) {
  await ensureUser(name || t("Guest"));
  const res = await api.duplicateStart(opponents);
  goTo(`/duplicate/${res.id}`);
}

const computersOf = (v) => v.players.filter((p) => p.computer).map((p) => p.name);

const verdicts = () => ({
  valid: "",
  invalid_words: t("not in the word list"),
  illegal: t("not a legal play of the rack"),
  misreported: t("wrong declared score"),
  notation: t("unreadable notation"),
  not_a_play: t("duplicate has no passes or exchanges"),
  late: t("submitted after the round's time"),
  missing: t("nothing submitted"),
});

// Why a play scored nothing: the page's words for the verdict (the server's message, in
// English, only for a verdict the page does not know).
function verdictNote(mine) {
  if (mine.verdict === "valid") return "";
  return verdicts()[mine.verdict] || mine.message || mine.verdict.replace("_", " ");
}

// "Round 3: your 8D QUITE scored 28; the master move 8D QUITE scored 28."
function outcomeText(outcome) {
  const note = verdictNote(outcome);
  const vars = { round: outcome.round, play: outcome.play, score: outcome.score, note,
    top: outcome.top, top_score: outcome.top_score };
  return note
    ? t("Round {round}: your {play} scored {score} ({note}); the master move {top} scored {top_score}.", vars)
    : t("Round {round}: your {play} scored {score}; the master move {top} scored {top_score}.", vars);
}

function resultText(result) {
  const text = t("You scored {score} of the master moves' {top_total}: {percent}%, a negative of {negative}.", {
    score: result.score, top_total: result.top_total, percent: fixed(result.percent, 2),
    negative: result.negative,
  });
  if (result.ranking.length < 2) return text;
  const others = view.players.filter((p) => p.computer)
    .map((p) => `${p.name} ${p.score} (${fixed(p.percent, 2)}%)`);
  return [text, t("{others}. Ranking: {ranking}.", { others: listText(others), ranking: listText(result.ranking) })]
    .join(" ");
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
  const computers = view.players.filter((p) => p.computer).map((p) => `${p.name}: ${p.score}`);
  const vars = {
    round: view.round, score: view.score, top_total: view.top_total, percent: fixed(view.percent, 2),
    // i18n: between the parts of a list
    bag: view.bag_count, computers: computers.join(t(", ")),
  };
  $("dup-status").textContent = over
    ? tn("Game over after {n} round.", "Game over after {n} rounds.", view.rounds.length)
    : computers.length
      ? t("Round {round}. You: {score}, {computers}, master moves: {top_total} ({percent}%). "
        + "Tiles in the bag: {bag}.", vars)
      : t("Round {round}. You: {score}, master moves: {top_total} ({percent}%). Tiles in the bag: {bag}.", vars);
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
  showPage("duplicate", t("Duplicate"));
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
