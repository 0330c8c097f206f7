// The game page's parts for a game between people on their own devices: a rematch offered
// (against the computer or at one screen, the same game again at once), the other player's
// offer of one, the game called off, and the live socket's connection shown in its banner.
import { api } from "./api.js";
import { $, goTo } from "./dom.js";
import { listText, t } from "./i18n.js";
import { rematchHere } from "./newgame.js";
import { offer } from "./notices.js";
import { describeError } from "./session.js";
import { send } from "./gameactions.js";
import { clearError, setMessage } from "./gamemessage.js";
import { app, gameShown } from "./gamestate.js";

// ---------------------------------------------------------------- games between people

// Online: an offer to the other player. Against the computer or at one screen: the same
// game again at once.
export async function offerRematch() {
  try {
    if (!app.state.online) {
      await rematchHere(app.gameId);
      return;
    }
    const { seek } = await api.rematch(app.gameId);
    if (seek.game_id) {  // the other player had offered one too: this press took it
      goTo(`/g/${seek.game_id}`);
      return;
    }
    const other = listText(app.state.names.filter((_, i) => !app.state.my_seats.includes(i)));
    $("rematch-btn").disabled = true;
    $("summary-rematch").disabled = true;
    setMessage(t("Rematch offered to {name}: the game starts when they accept.", { name: other }), "info");
  } catch (err) {
    setMessage(describeError(err));
  }
}

export function onRematch(msg) {
  if (app.state && app.state.my_seats.length) offer(msg.seek, msg.from, "rematch");
}

export async function abortGame() {
  if (gameShown() && confirm(t("Call this game off? It will not count."))) await send({ action: "abort" });
}

export function onConnection(status) {
  app.connected = status === "open";
  $("conn-banner").hidden = app.connected;
  if (app.connected) clearError();
}
