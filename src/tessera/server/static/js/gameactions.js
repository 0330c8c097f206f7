// The moves a player makes on the game page: a move sent (on the game's socket when it is
// open, over HTTP otherwise) and its refusal or error shown, a play of the placed tiles, and
// the exchange dialog.
import { api, ApiError } from "./api.js";
import { tileLabel } from "./board.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { describeError, describeRefusal } from "./session.js";
import { hideHints } from "./gamehints.js";
import { clearError, setMessage, showRefusal } from "./gamemessage.js";
import { app, gameShown, myTurn, placements } from "./gamestate.js";
import { applyState, connectionLost, refresh, render } from "./gameview.js";

// ---------------------------------------------------------------- actions

// A move, on the game's socket when it is open (the new state comes on it before the answer),
// over HTTP otherwise. Returns the answer: {ok: false, message} when the rules refuse the move.
async function move(body) {
  const full = { seat: app.state.seat, seq: app.state.seq, ...body };
  if (app.live && app.live.ready() && navigator.onLine) {
    const answer = await app.live.move(full);
    if (answer.ok && answer.seq > app.state.seq) await refresh();  // the state went astray
    return answer;
  }
  const state = await api.move(app.gameId, full);
  if (state.ok !== false) applyState(state);
  return state;
}

export async function send(body) {
  if (!gameShown()) return false;
  clearError();
  try {
    const answer = await move(body);
    if (answer.ok === false) {
      showRefusal(answer);
      render();
      return false;
    }
    app.pending.clear();
    app.cursor = null;
    hideHints();
    render();
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.reason === "stale") await refresh();
    if (err.reason === "network") connectionLost();
    else setMessage(describeError(err));
    render();
    return false;
  }
}

export async function submitPlay() {
  if (!gameShown() || !myTurn() || app.pending.size === 0) return;
  await send({ action: "play", placements: placements() });
}

export function openExchange() {
  if (!gameShown() || !myTurn()) return;
  const dialog = $("exchange-dialog");
  const box = $("exchange-tiles");
  box.replaceChildren();
  $("exchange-error").textContent = "";
  app.rack.forEach((label, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile";
    b.textContent = label;
    b.dataset.letter = label;
    b.dataset.index = i;
    b.setAttribute("aria-label", tileLabel(label, app.state.values[label] || 0));
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", () => choose(b, !b.classList.contains("chosen")));
    box.appendChild(b);
  });
  dialog.showModal();
}

export function choose(tileButton, chosen) {
  tileButton.classList.toggle("chosen", chosen);
  tileButton.setAttribute("aria-pressed", String(chosen));
}

export async function confirmExchange() {
  const chosen = [...$("exchange-tiles").querySelectorAll(".chosen")].map((b) => b.dataset.letter);
  if (!chosen.length) { $("exchange-error").textContent = t("Choose at least one tile."); return; }
  try {
    const answer = await move({ action: "exchange", tiles: chosen.join("") });
    if (answer.ok === false) {
      $("exchange-error").textContent = describeRefusal(answer);
      return;
    }
    $("exchange-dialog").close();
    app.pending.clear();
    render();
  } catch (err) {
    $("exchange-error").textContent = err.message;
  }
}
