// The end of a game: the summary dialog (who won and why, the scores, the final racks, the
// rating changes and the score chart), the winner in words, and the game's record as a GCG
// file.
import { api } from "./api.js";
import { scoreChart } from "./board.js";
import { $ } from "./dom.js";
import { endText, signed } from "./format.js";
import { t } from "./i18n.js";
import { describeError } from "./session.js";
import { app, watching } from "./gamestate.js";
import { setMessage } from "./gamemessage.js";

// ---------------------------------------------------------------- end of game

export function showSummary() {
  const s = app.state;
  const r = s.result;
  const names = s.names;
  $("summary-title").textContent = winnerTitle(s);
  $("summary-reason").textContent = endText(r, names);
  const table = $("summary-scores");
  table.replaceChildren();
  names.forEach((name, i) => {
    const tr = document.createElement("tr");
    if (r.winners.includes(i)) tr.className = "winner";
    const change = s.ratings && s.ratings[i];
    const rating = change
      ? `${change.before} → ${change.after} (${signed(change.after - change.before)})` : "";
    for (const v of [name, r.scores[i], s.final_racks ? s.final_racks[i] : "", rating]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  });
  $("chart").replaceChildren(scoreChart(s));
  const player = !watching(s);
  $("summary-rematch").hidden = !player;
  $("summary-new").textContent = s.online ? t("Lobby") : t("New game");
  $("summary-dialog").showModal();
}

// "Ann wins", "You win" (the page's own player against the computer), "A draw".
export function winnerTitle(s) {
  const winners = s.result.winners;
  if (winners.length > 1) return t("A draw");
  const winner = winners[0];
  const mine = s.my_seats.length === 1 && s.my_seats[0] === winner;
  const you = [t("You"), "You"].includes(s.names[winner]);
  return mine || you ? t("You win") : t("{name} wins", { name: s.names[winner] });
}

export async function downloadGcg() {
  try {
    const text = await api.gcg(app.gameId);
    const blob = new Blob([text], { type: "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `tessera-${app.gameId}.gcg`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } catch (err) {
    setMessage(describeError(err));
  }
}
