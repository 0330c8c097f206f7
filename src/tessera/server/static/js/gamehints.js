// Hints, in a game against the computer: the best-scoring plays at once, then the list ranked
// by the computer's look-ahead, each play a button that puts its tiles on the board.
import { api } from "./api.js";
import { $, el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { describeError } from "./session.js";
import { setMessage } from "./gamemessage.js";
import { app, gameShown, myTurn } from "./gamestate.js";
import { connectionLost, render } from "./gameview.js";

let hintRequest = 0;  // a newer request (or a move) makes an older answer moot

export function hideHints() {
  hintRequest += 1;
  $("hints").hidden = true;
  $("hint-status").hidden = true;
}

// "8D PLOTS · 20 points · equity 19.9 · 54.2% to win" (the parts the hint has)
function hintLabel(h) {
  const parts = [h.placements ? tn("{move} · {n} point", "{move} · {n} points", h.score, { move: h.move })
    : h.action === "exchange" ? t("Exchange {tiles}", { tiles: h.tiles }) : t("Pass")];
  if (h.equity != null) parts.push(t("equity {equity}", { equity: h.equity }));
  if (h.win_pct != null) parts.push(t("{pct}% to win", { pct: h.win_pct }));
  if (h.chosen) parts.push(t("the computer's choice"));  // the list is by chance of winning
  return parts.join(" · ");
}

// The list is drawn twice (the quick plays, then the look-ahead's): a play in both keeps its
// button, so a click under way while the second list arrives still lands on it.
function renderHints(hints) {
  const list = $("hints");
  const kept = new Map([...list.querySelectorAll("li[data-move]")].map((li) => [li.dataset.move, li]));
  const items = hints.map((h) => {
    if (!h.placements) return el("li", { className: "other", text: hintLabel(h) });  // own button
    const li = kept.get(h.move) || el("li", { dataset: { move: h.move } }, el("button", { type: "button" }));
    const b = li.firstElementChild;
    b.textContent = hintLabel(h);
    b.onclick = () => useHint(h);
    return li;
  });
  if (!hints.length) list.replaceChildren(t("No plays found: try an exchange."));
  else list.replaceChildren(...items);
}

export async function showHints() {
  if (!gameShown() || !myTurn()) return;
  const ask = ++hintRequest;
  const seq = app.state.seq;
  const list = $("hints");
  const status = $("hint-status");
  list.replaceChildren();
  list.hidden = false;
  try {
    // the best-scoring plays at once, then the computer's look-ahead when it has thought
    const quick = await api.hints(app.gameId, { seat: app.state.seat });
    if (ask !== hintRequest) return;
    renderHints(quick.hints);
    status.textContent = t("Thinking…");
    status.hidden = false;
    const thought = await api.hints(app.gameId, { seat: app.state.seat, think: true });
    if (ask !== hintRequest || app.state.seq !== seq) return;
    renderHints(thought.hints);
    status.textContent = thought.hints.some((h) => h.win_pct != null)
      ? t("Ranked by the computer's look-ahead: the chance of winning after each move.")
      : t("The computer's choice.");
  } catch (err) {
    if (ask !== hintRequest) return;
    status.hidden = true;
    if (err.reason === "network") connectionLost();
    else setMessage(describeError(err));
  }
}

function useHint(hint) {
  app.pending.clear();
  const used = new Set();
  for (const [r, c, label] of hint.placements) {
    const blank = label !== label.toUpperCase();
    const want = blank ? "?" : label;
    const index = app.rack.findIndex((l, i) => l === want && !used.has(i));
    if (index < 0) return;
    used.add(index);
    app.pending.set(`${r},${c}`, { index, label, rackLabel: want });
  }
  hideHints();
  render();
  $("board").focus();  // Enter plays it
}
