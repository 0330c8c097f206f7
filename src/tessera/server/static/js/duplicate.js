// A duplicate game (/duplicate/{id}), round by round against the master move. One person
// plays alone, or with computers beside them (they hand in when the person does). Several
// people share the screen: each in turn enters their play, and the page shows only who has
// handed in until the round closes. Computers alone are watched: "Next round" (or the page
// on its own) closes each round. The board and the rack are drawn as on the game page
// (board.js); a play is written in notation ("8D QUITE"), so the keyboard is all it takes.
// Each round's outcome is announced in a live region and added to the rounds table; the
// master move of the open round and anyone's play for it never reach the page before the
// round closes.
import { api } from "./api.js";
import { renderBoard, renderRack } from "./board.js";
import { $, el, goTo, showPage } from "./dom.js";
import { fixed } from "./format.js";
import { listText, t, tn } from "./i18n.js";
import { currentUser, describeError, ensureUser } from "./session.js";

const AUTO_DELAY_MS = 700;  // between rounds of computers alone, when they play on their own
const SEATS = 4;

let gameId = null;
let view = null;
let sending = false;
let autoTimer = null;

// Start a game (a guest named `name` first when nobody is logged in) and go to its page:
// `people` are the names at the screen (null: the player alone), then the computers named
// in `opponents`.
export async function startDuplicate(name, opponents = [], people = null) {
  await ensureUser(name || t("Guest"));
  const res = await api.duplicateStart(opponents, people);
  goTo(`/duplicate/${res.id}`);
}

const computersOf = (v) => v.players.filter((p) => p.computer).map((p) => p.name);
const peopleOf = (v) => v.players.filter((p) => !p.computer).map((p) => p.name);
// one person (with or without computers): the page as it was before people could share it
const isSolo = (v) => peopleOf(v).length === 1;

const verdicts = () => ({
  valid: "",
  invalid_words: t("not in the word list"),
  illegal: t("not a legal play of the rack"),
  misreported: t("wrong declared score"),
  missing: t("nothing handed in"),
  notation: t("unreadable notation"),
  not_a_play: t("duplicate has no passes or exchanges"),
  late: t("submitted after the round's time"),
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

const roundOverText = (outcome) => t("Round {round} is over: the master move {top} scored {top_score}.",
  { round: outcome.round, top: outcome.top, top_score: outcome.top_score });

function resultText(result) {
  if (!isSolo(view)) {
    return tn("The game is over after {n} round: the master moves scored {top_total}.",
      "The game is over after {n} rounds: the master moves scored {top_total}.", view.rounds.length,
      { top_total: result.top_total });
  }
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

// "H8 POLDERS 72", "8D ZZZ 0 (not in the word list)": one player's cell in a round's row
function playCell(p) {
  const note = verdictNote(p);
  return `${p.play || "—"} ${p.points}${note ? ` (${note})` : ""}`;
}

function renderSoloRounds() {
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
}

function renderGroupRounds() {
  const th = (text, num) => el("th", { scope: "col", className: num ? "num" : null, text });
  $("dup-rounds").tHead.replaceChildren(el("tr", {},
    th(t("Round"), true), th(t("Rack")), th(t("Master move")), th(t("Top"), true),
    view.players.map((p) => th(p.name)), th(t("Tops"), true)));
  $("dup-rounds").tBodies[0].replaceChildren(...view.rounds.map((rd) =>
    el("tr", { dataset: { round: rd.round } },
      el("td", { className: "num", text: rd.round }),
      el("td", { text: rd.rack }),
      el("td", { text: rd.top }),
      el("td", { className: "num", text: rd.top_score }),
      rd.players.map((p) => el("td", { text: playCell(p) })),
      el("td", { className: "num", text: rd.top_total }))));
}

function renderStandings(over) {
  $("dup-standings").tBodies[0].replaceChildren(...view.players.map((p) => {
    let state = "";
    if (!over && !p.computer) state = p.handed_in ? t("Handed in") : t("Not yet");
    return el("tr", {},
      el("td", { text: p.name }),
      el("td", { className: "num", text: p.score }),
      el("td", { className: "num", text: fixed(p.percent, 2) }),
      el("td", { text: state }));
  }));
}

function renderFinal(result) {
  const byName = new Map(view.players.map((p) => [p.name, p]));
  $("dup-final").tBodies[0].replaceChildren(...result.ranking.map((name) => {
    const p = byName.get(name);
    return el("tr", {},
      el("td", { text: p.name }),
      el("td", { className: "num", text: p.score }),
      el("td", { className: "num", text: fixed(p.percent, 2) }),
      el("td", { className: "num", text: p.score - result.top_total }));
  }));
}

const entryName = () => (view.entry === null ? null : view.players[view.entry].name);

function render() {
  renderBoard($("dup-board"), view, new Map(), null);
  renderRack($("dup-rack"), view.rack, view.values, new Set());
  const over = view.result !== null;
  const solo = isSolo(view);
  const entry = entryName();
  $("dup-rack").parentElement.hidden = over;
  $("dup-form").hidden = over || entry === null;
  $("dup-help").hidden = over || entry === null;
  $("dup-watch").hidden = over || !view.watch;
  $("dup-entry").hidden = solo || over || entry === null;
  if (!solo && entry !== null) {
    $("dup-entry").textContent = t("{name}, it is your entry for round {round}.", { name: entry, round: view.round });
    $("dup-move-label").textContent = t("Play for {name}", { name: entry });
  }
  $("dup-standings-wrap").hidden = solo;
  const computers = view.players.filter((p) => p.computer).map((p) => `${p.name}: ${p.score}`);
  const vars = {
    round: view.round, score: view.score, top_total: view.top_total, percent: fixed(view.percent, 2),
    // i18n: between the parts of a list
    bag: view.bag_count, computers: computers.join(t(", ")),
  };
  const gameOver = tn("Game over after {n} round.", "Game over after {n} rounds.", view.rounds.length);
  if (solo) {
    $("dup-status").textContent = over ? gameOver
      : computers.length
        ? t("Round {round}. You: {score}, {computers}, master moves: {top_total} ({percent}%). "
          + "Tiles in the bag: {bag}.", vars)
        : t("Round {round}. You: {score}, master moves: {top_total} ({percent}%). Tiles in the bag: {bag}.", vars);
    renderSoloRounds();
  } else {
    $("dup-status").textContent = over ? gameOver
      : t("Round {round}. Master moves: {top_total}. Tiles in the bag: {bag}.", vars);
    renderStandings(over);
    renderGroupRounds();
  }
  $("dup-result").hidden = !over;
  $("dup-final").hidden = !over || solo;
  if (over) {
    $("dup-result-text").textContent = resultText(view.result);
    if (!solo) renderFinal(view.result);
    $("dup-gcg").href = `/api/duplicate/${gameId}/gcg`;
  }
  window.tessera = { duplicate: view, gameId };  // for the browser tests, as the game page
}

// After a request that changed the game: draw it, say what happened, put the focus where
// the next thing is done.
function update(res, handedIn) {
  view = res.view;
  render();
  let announce;
  if (res.outcome === null) {
    announce = t("{name} has handed in. {next}, it is your entry for round {round}.",
      { name: handedIn, next: entryName(), round: view.round });
  } else {
    announce = isSolo(view) ? outcomeText(res.outcome) : roundOverText(res.outcome);
  }
  $("dup-announce").textContent = view.result ? `${announce} ${resultText(view.result)}` : announce;
  if (view.result) $("dup-result-title").focus();
  else if (view.entry !== null) $("dup-move").focus();
}

// A request refused because the game moved on (another tab, a double click): show the
// game as it is now, beside the reason.
async function refreshAfter(err) {
  $("dup-error").textContent = describeError(err);
  if (err.status !== 409) return;
  try {
    view = await api.duplicate(gameId);
    render();
  } catch {
    // the reason shown is enough
  }
}

async function play(event) {
  event.preventDefault();
  const text = $("dup-move").value.trim();
  if (!text || sending || view.entry === null) return;
  sending = true;
  $("dup-play").disabled = true;
  $("dup-error").textContent = "";
  const name = entryName();
  try {
    const body = { move: text, round: view.round };
    if (!isSolo(view)) body.seat = view.entry;
    const res = await api.duplicatePlay(gameId, body);
    $("dup-move").value = "";  // the next person never sees it
    update(res, name);
  } catch (err) {
    await refreshAfter(err);
  } finally {
    sending = false;
    $("dup-play").disabled = false;
  }
}

// Computers alone: close the open round (the button, or the page on its own).
async function nextRound() {
  clearTimeout(autoTimer);
  if (sending || !view || view.result) return;
  sending = true;
  $("dup-next").disabled = true;
  $("dup-error").textContent = "";
  try {
    update(await api.duplicateNext(gameId, view.round), null);
  } catch (err) {
    $("dup-auto").checked = false;
    await refreshAfter(err);
  } finally {
    sending = false;
    $("dup-next").disabled = false;
    scheduleNext();
  }
}

function scheduleNext() {
  clearTimeout(autoTimer);
  if ($("dup-auto").checked && view && view.watch && !view.result && !sending) {
    autoTimer = setTimeout(nextRound, AUTO_DELAY_MS);
  }
}

// The options page: the names at the screen and the computers, as chosen.
function chosenSeats() {
  const people = [];
  for (let i = 1; i <= SEATS; i++) {
    const name = $(`dup-person-${i}`).value.trim();
    if (name) people.push(name);
  }
  const opponents = [...document.querySelectorAll(".dup-computer")]
    .map((select) => select.value).filter(Boolean);
  return { people, opponents };
}

function setUpOptions() {
  const first = $("dup-opponent");
  for (let i = 2; i <= SEATS; i++) {
    $(`dup-opponent-${i}`).replaceChildren(...[...first.options].map((o) => o.cloneNode(true)));
  }
  $("dup-person-1").value = currentUser()?.name || "";
  $("dup-start-btn").addEventListener("click", async () => {
    const { people, opponents } = chosenSeats();
    const me = currentUser()?.name;
    // the player alone at the screen: the game as they always had it
    const alone = people.length === 1 && people[0] === me;
    try {
      await startDuplicate(people[0] || me, opponents, alone ? null : people);
    } catch (err) {
      $("dup-start-text").textContent = describeError(err);
    }
  });
}

export async function showDuplicatePage(id) {
  showPage("duplicate", t("Duplicate"));
  $("dup-form").addEventListener("submit", play);
  $("dup-next").addEventListener("click", nextRound);
  $("dup-auto").addEventListener("change", scheduleNext);
  $("dup-again").addEventListener("click", () => startDuplicate(
    currentUser()?.name, view ? computersOf(view) : [],
    view && !isSolo(view) ? peopleOf(view) : null));
  setUpOptions();
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
