// The tab's title on the game page: the players, led by "Your turn" when it is the page's
// player's move, so a game waiting in a background tab says so.
import { versus } from "./format.js";
import { t } from "./i18n.js";

export function gameTitle(names, myTurn) {
  const game = `${versus(names)} — Tessera`;
  if (!myTurn) return game;
  const turn = t("Your turn");
  return `${turn} · ${game}`;
}
