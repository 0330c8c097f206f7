// The game page drawn from its state: a state from the server applied (the rack's order and
// the placed tiles kept while they still stand), the board, rack, players, buttons and banners
// drawn (the cover that hides a rack when people share the screen among them), the preview of
// the tiles being placed, and the state fetched again — every few seconds while the server
// cannot be reached.
import { api, takeStarted } from "./api.js";
import { renderBoard, renderPlayers, renderRack, renderSheet, renderUnseen } from "./board.js";
import { $ } from "./dom.js";
import { describeClock, endText } from "./format.js";
import { t, tn } from "./i18n.js";
import { describeRefusal } from "./session.js";
import { challengeRuleText } from "./rulestext.js";
import { challengeNews } from "./verdict.js";
import { gameTitle } from "./title.js";
import { announce } from "./gameannounce.js";
import { clockNow } from "./gameclocks.js";
import { clearError, setMessage } from "./gamemessage.js";
import {
  app, finished, hotSeat, myTurn, placements, usedIndices, watching,
} from "./gamestate.js";
import { showSummary } from "./gamesummary.js";

// ---------------------------------------------------------------- state from the server

function sameTiles(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

export function applyState(state, { opening = false } = {}) {
  if (app.state && app.state.game_id === state.game_id && state.seq < app.state.seq) return;
  const prev = app.state;
  const seatChanged = !prev || prev.seat !== state.seat;
  app.state = state;
  app.receivedAt = performance.now();
  if (seatChanged || !sameTiles(app.rack, state.rack)) {
    app.rack = [...state.rack];
    app.pending.clear();
  } else {
    for (const key of [...app.pending.keys()]) {
      const [r, c] = key.split(",").map(Number);
      if (state.board[r][c]) app.pending.delete(key);
    }
  }
  if (!myTurn()) app.cursor = null;
  // reopened: no pop-up (but a game just started here that ended before the page showed it)
  const started = opening && takeStarted(state.game_id);
  if (opening && finished(state) && !started) app.summaryShownFor = state.game_id;
  render();
  announce(prev && prev.game_id === state.game_id ? prev : null, state);
  if (state.state === "over" && app.summaryShownFor !== state.game_id) {
    app.summaryShownFor = state.game_id;
    showSummary();
  }
}

// ---------------------------------------------------------------- drawing

export function render() {
  const s = app.state;
  if (!s) return;
  $("game").hidden = false;
  $("no-seat").hidden = true;
  $("game").classList.toggle("spectator", watching(s));
  $("game").classList.toggle("over", finished(s));  // the move buttons give way to Rematch
  $("watching").hidden = !watching(s);
  const covered = hotSeat() && !finished(s) && app.revealed !== s.seat;
  $("cover").hidden = !covered;
  if (covered) {
    $("cover-text").textContent = t("Pass the device to {name}", { name: s.names[s.seat] });
    $("cover-btn").textContent = t("I'm {name}: show my tiles", { name: s.names[s.seat] });
  }
  const info = [t("{rules} rules", { rules: s.rules.name }), s.lexicon];
  if (s.rules.finish_target != null) {
    info.push(t("first to {n} points", { n: s.rules.finish_target }));
  }
  if (s.rules.challenges) info.push(challengeRuleText(s.rules.challenge_rule));
  if (s.clock) info.push(describeClock(s.clock));
  if (s.online) info.push(s.rated ? t("rated") : t("casual"));
  $("game-info").textContent = info.join(" · ");
  document.title = gameTitle(s.names, myTurn());
  renderBoard($("board"), s, app.pending, app.cursor);
  renderRack($("rack"), covered || watching(s) ? [] : app.rack, s.values, usedIndices());
  renderPlayers($("players"), s, clockNow);
  renderUnseen($("unseen"), $("unseen-count"), $("bag-count"), s);
  renderSheet($("sheet").tBodies[0], s);
  const mine = myTurn();
  const awaiting = s.state === "awaiting_final";
  const player = !watching(s) && s.kinds[s.seat] === "human";
  $("play-btn").disabled = !mine || awaiting || app.pending.size === 0;
  $("recall-btn").disabled = app.pending.size === 0;
  $("exchange-btn").disabled = !mine || awaiting;
  $("pass-btn").disabled = !mine;
  $("pass-btn").textContent = awaiting && mine ? t("Accept") : t("Pass");
  $("hint-btn").hidden = s.online;  // no help in a game against people
  $("hint-btn").disabled = !mine || awaiting;
  $("resign-btn").disabled = finished(s) || !player;
  $("challenge-btn").hidden = !s.rules.challenges;
  $("challenge-btn").disabled = !s.can_challenge;
  $("abort-btn").hidden = !s.can_abort;
  $("rematch-btn").hidden = !(finished(s) && !watching(s));
  renderVerdict(s);
  if (!$("message").dataset.sticky) setMessage(turnText(s, mine, awaiting), "info");
  updatePreview();
}

// The banner of the last challenge's verdict, until it is dismissed or stale.
function renderVerdict(s) {
  const news = challengeNews(s);
  const shown = news !== null && app.dismissedVerdict !== `${s.game_id}:${news.index}`;
  $("verdict").hidden = !shown;
  $("verdict-text").textContent = shown ? news.text : "";
  $("verdict").dataset.index = shown ? news.index : "";
}

function turnText(s, mine, awaiting) {
  if (s.state === "aborted") return t("The game was called off.");
  if (s.state === "over") {  // why, in words: "The game is over: Bob lost on time."
    return s.result ? t("The game is over: {reason}.", { reason: endText(s.result, s.names) }) : t("The game is over.");
  }
  if (awaiting && mine) return t("{name} went out: accept or challenge.", { name: s.names[lastPlayer()] });
  if (watching(s)) return t("{name} to move.", { name: s.names[s.to_move] });
  if (awaiting && s.online) {
    return t("Waiting for {name} to accept or challenge.", { name: s.names[s.to_move] });
  }
  if (!mine) return t("{name} is thinking…", { name: s.names[s.to_move] });
  return "";
}

function lastPlayer() {
  const plays = app.state.history.filter((e) => e.kind === "play");
  return plays.length ? plays[plays.length - 1].player : 0;
}

// ---------------------------------------------------------------- tentative play

let previewSeq = 0;
async function updatePreview() {
  const el = $("preview");
  if (!myTurn() || app.pending.size === 0) { el.textContent = ""; return; }
  const seq = ++previewSeq;
  try {
    const res = await api.check(app.gameId, { seat: app.state.seat, placements: placements() });
    if (seq !== previewSeq) return;
    const reason = res.ok ? "" : describeRefusal(res);
    const alreadySaid = reason && $("message").dataset.sticky && $("message").textContent === reason;
    el.textContent = res.ok ? tn("{move} · {n} point", "{move} · {n} points", res.score, { move: res.move })
      : alreadySaid ? "" : reason;
    el.classList.toggle("invalid", !res.ok);
    el.dataset.ok = res.ok ? "1" : "0";
    el.dataset.score = res.ok ? res.score : "";
  } catch (err) {
    if (seq === previewSeq) el.textContent = "";
    if (seq === previewSeq && err.reason === "network") connectionLost();
  }
}

// A request that could not reach the server: say so with the reconnecting banner (not the
// browser's "Failed to fetch") and ask again every few seconds until the server answers.
let reconnectTimer = null;
export function connectionLost() {
  $("conn-banner").hidden = false;
  if (reconnectTimer) return;
  const retry = async () => {
    try {
      await refresh();
      reconnectTimer = null;
      $("conn-banner").hidden = app.connected;
      if (app.connected) clearError();
    } catch {
      reconnectTimer = setTimeout(retry, 2000);
    }
  };
  reconnectTimer = setTimeout(retry, 2000);
}

export async function refresh({ opening = false } = {}) {
  const state = await api.state(app.gameId);
  applyState(state, { opening });
}
