// The game page: a game opened (or why it cannot be shown) with its live socket, and the
// page's buttons, keys and pointer wired to the modules that hold the rest — gamestate.js
// (the shared state), gameview.js (drawing it), gameplacing.js, gamedrag.js and gametyping.js
// (placing tiles), gameactions.js and gamehints.js (moves and hints), gameonline.js (rematch,
// abort, the connection), gameclocks.js, gamesummary.js (the end of a game) and
// gameannounce.js (the screen reader's live region). A game between people on their own
// devices has clocks, challenges, abort and rematch; someone watching sees no rack and no
// actions; people sharing one screen hand the device over behind a cover.
import { connectLive, forgetLastGame, lastGame, rememberGame } from "./api.js";
import { $, goTo, showPage } from "./dom.js";
import { t } from "./i18n.js";
import { openNewGame } from "./newgame.js";
import { describeError } from "./session.js";
import { initSounds, sounds } from "./sounds.js";
import { renderWatchers } from "./watchers.js";
import { choose, confirmExchange, openExchange, send, submitPlay } from "./gameactions.js";
import { startClockTicks } from "./gameclocks.js";
import { endDrag, moveDrag, startDrag } from "./gamedrag.js";
import { showHints } from "./gamehints.js";
import { abortGame, offerRematch, onConnection, onRematch } from "./gameonline.js";
import { recall, shuffle } from "./gameplacing.js";
import { app, finished, gameShown, hotSeat } from "./gamestate.js";
import { downloadGcg } from "./gamesummary.js";
import {
  onBoardClick, onBoardFocus, onBoardInput, onBoardInputKey, onBoardKey, onPageKey,
} from "./gametyping.js";
import { applyState, refresh, render } from "./gameview.js";

// ---------------------------------------------------------------- opening a game

async function openGame(gameId) {
  if (app.live) app.live.close();
  app.gameId = gameId;
  app.state = null;
  app.pending.clear();
  app.revealed = null;
  app.summaryShownFor = null;
  renderWatchers($("watchers"), null);
  try {
    await refresh({ opening: true });
  } catch (err) {
    if (err.status === 404 && lastGame() === gameId) forgetLastGame();  // no "continue" to it
    showNoSeat(err);
    return;
  }
  if (!app.state.online) rememberGame(gameId);
  if (!hotSeat()) app.revealed = app.state.seat;
  render();
  app.live = connectLive(gameId, {
    onState: applyState,
    onRematch,
    onWatchers: (msg) => renderWatchers($("watchers"), msg),
    onError: (msg) => showNoSeat(msg),
    onStatus: onConnection,
  });
}

function showNoSeat(err) {
  app.state = null;
  app.pending.clear();
  $("game").hidden = true;
  $("cover").hidden = true;
  $("no-seat").hidden = false;
  const status = err && err.status;
  const reason = err && err.reason;
  $("no-seat-text").textContent = status === 404 || reason === "no_game"
    ? t("No such game: there is no game at this address.")
    : status === 403 || reason === "forbidden"
      ? t("This game is private: only its players can see it.")
      : t("This game cannot be shown: {reason}", { reason: describeError(err) });
}

let ready = false;

function init() {
  ready = true;
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("pointerdown", (e) => {
    const tile = e.target.closest(".tile.pending");
    if (tile) startDrag(e, { kind: "board", key: tile.dataset.pending });
  });
  $("rack").addEventListener("pointerdown", (e) => {
    const tile = e.target.closest(".tile");
    if (tile && !($("cover").hidden === false)) startDrag(e, { kind: "rack", index: +tile.dataset.index });
  });
  window.addEventListener("pointermove", moveDrag);
  window.addEventListener("pointerup", endDrag);
  window.addEventListener("pointercancel", endDrag);
  document.addEventListener("keydown", onPageKey);
  $("board-input").addEventListener("input", onBoardInput);
  $("board-input").addEventListener("keydown", onBoardInputKey);
  initSounds();
  app.sounds = sounds;
  $("skip-board").addEventListener("click", (event) => { event.preventDefault(); $("board").focus(); });
  $("board").addEventListener("keydown", onBoardKey);
  $("board").addEventListener("focus", onBoardFocus);
  $("play-btn").addEventListener("click", submitPlay);
  $("recall-btn").addEventListener("click", recall);
  $("shuffle-btn").addEventListener("click", shuffle);
  $("pass-btn").addEventListener("click", () => send({ action: "pass" }));
  $("challenge-btn").addEventListener("click", () => send({ action: "challenge" }));
  $("resign-btn").addEventListener("click", () => {
    if (gameShown() && !finished() && confirm(t("Resign this game?"))) send({ action: "resign" });
  });
  $("abort-btn").addEventListener("click", abortGame);
  $("rematch-btn").addEventListener("click", offerRematch);
  $("verdict-close").addEventListener("click", () => {
    app.dismissedVerdict = `${app.state.game_id}:${$("verdict").dataset.index}`;
    render();
  });
  $("hint-btn").addEventListener("click", showHints);
  $("exchange-btn").addEventListener("click", openExchange);
  $("exchange-cancel").addEventListener("click", () => $("exchange-dialog").close());
  $("exchange-all").addEventListener("click", () =>
    $("exchange-tiles").querySelectorAll(".tile").forEach((b) => choose(b, true)));
  $("exchange-ok").addEventListener("click", confirmExchange);
  $("cover-btn").addEventListener("click", () => {
    if (gameShown()) { app.revealed = app.state.seat; render(); }
  });
  $("no-seat-new").addEventListener("click", () => goTo("/"));
  $("summary-new").addEventListener("click", () => {
    $("summary-dialog").close();
    if (app.state && app.state.online) goTo("/");
    else openNewGame();
  });
  $("summary-rematch").addEventListener("click", offerRematch);
  $("summary-close").addEventListener("click", () => $("summary-dialog").close());
  $("gcg-btn").addEventListener("click", downloadGcg);
  $("summary-review").addEventListener("click", () => goTo(`/review/${app.gameId}`));
  startClockTicks();
}

export function openGamePage(gameId) {
  showPage("game-page");
  if (!ready) init();
  return openGame(gameId);
}
