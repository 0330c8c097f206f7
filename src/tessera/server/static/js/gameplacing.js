// Placing tiles on the board: a rack tile put on a free square (a blank asks for its letter),
// the placed tiles taken back, and the rack put in another order (a tile dragged along it, or
// the whole rack shuffled).
import { $ } from "./dom.js";
import { clearError } from "./gamemessage.js";
import { app, myTurn } from "./gamestate.js";
import { render } from "./gameview.js";

export function place(r, c, index, designated) {
  const rackLabel = app.rack[index];
  const label = rackLabel === "?" ? designated.toLowerCase() : rackLabel;
  for (const [key, p] of app.pending) if (p.index === index) app.pending.delete(key);
  app.pending.set(`${r},${c}`, { index, label, rackLabel });
  clearError();
  render();
}

export function squareFree(r, c) {
  const s = app.state;
  return r >= 0 && c >= 0 && r < s.layout.rows && c < s.layout.cols && !s.board[r][c]
    && !app.pending.has(`${r},${c}`);
}

export function recall() {
  app.pending.clear();
  clearError();
  render();
}

export function askBlank() {
  return new Promise((resolve) => {
    const dialog = $("blank-dialog");
    const grid = $("blank-letters");
    grid.replaceChildren();
    for (const letter of app.state.letters) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = letter;
      b.addEventListener("click", () => { dialog.close(); resolve(letter); });
      grid.appendChild(b);
    }
    $("blank-cancel").onclick = () => { dialog.close(); resolve(null); };
    dialog.addEventListener("cancel", () => resolve(null), { once: true });
    dialog.showModal();
  });
}

export async function placeFromRack(r, c, index) {
  if (!myTurn() || !squareFree(r, c)) return;
  let letter = null;
  if (app.rack[index] === "?") {
    letter = await askBlank();
    if (!letter) return;
  }
  place(r, c, index, letter);
}

export function reorderRack(from, targetTile) {
  if (!targetTile || targetTile.dataset.index === undefined) return;
  const to = +targetTile.dataset.index;
  if (to === from) return;
  const order = app.rack.map((label, i) => ({ label, i }));
  const [moved] = order.splice(from, 1);
  order.splice(order.findIndex((o) => o.i === to) + (from < to ? 1 : 0), 0, moved);
  remapRack(order);
}

function remapRack(order) {
  const newIndex = new Map(order.map((o, j) => [o.i, j]));
  app.rack = order.map((o) => o.label);
  for (const p of app.pending.values()) p.index = newIndex.get(p.index);
  render();
}

export function shuffle() {
  const order = app.rack.map((label, i) => ({ label, i }));
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  remapRack(order);
}
