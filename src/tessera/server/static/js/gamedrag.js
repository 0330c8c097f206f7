// Dragging tiles with the pointer (mouse, pen or finger): a rack tile onto the board or along
// the rack, a placed tile to another square or back to the rack; a click on a rack tile puts
// it at the typing cursor.
import { askBlank, place, placeFromRack, reorderRack, squareFree } from "./gameplacing.js";
import { app, myTurn } from "./gamestate.js";
import { advanceCursor } from "./gametyping.js";
import { render } from "./gameview.js";

// ---------------------------------------------------------------- drag and drop (pointer events)

let drag = null;

export function startDrag(event, source) {
  if (event.button !== undefined && event.button !== 0) return;
  const tile = event.target.closest(".tile");
  if (!tile) return;
  if (event.pointerType !== "touch") event.preventDefault();  // no text selection by mouse
  const ghost = tile.cloneNode(true);
  ghost.classList.add("dragging");
  ghost.style.left = `${event.clientX}px`;
  ghost.style.top = `${event.clientY}px`;
  document.body.appendChild(ghost);
  drag = { ghost, source, tile, startX: event.clientX, startY: event.clientY, moved: false };
  tile.style.opacity = "0.35";
}

export function moveDrag(event) {
  if (!drag) return;
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
  if (Math.abs(event.clientX - drag.startX) + Math.abs(event.clientY - drag.startY) > 4) drag.moved = true;
  document.querySelectorAll(".drop-target").forEach((el) => el.classList.remove("drop-target"));
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const sq = under && under.closest(".sq");
  if (sq && squareFree(+sq.dataset.row, +sq.dataset.col)) sq.classList.add("drop-target");
}

export async function endDrag(event) {
  if (!drag) return;
  const d = drag;
  drag = null;
  d.ghost.remove();
  d.tile.style.opacity = "";
  document.querySelectorAll(".drop-target").forEach((el) => el.classList.remove("drop-target"));
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const sq = under && under.closest(".sq");
  const onRack = under && under.closest("#rack");
  if (d.source.kind === "rack") {
    if (!d.moved) {  // a click on a rack tile puts it at the typing cursor, if there is one
      if (app.cursor && myTurn()) {
        const { r, c } = app.cursor;
        const blank = app.rack[d.source.index] === "?";
        const letter = blank ? await askBlank() : null;
        if (blank && !letter) return;
        advanceCursor();
        place(r, c, d.source.index, letter);
      }
      return;
    }
    if (sq) {
      await placeFromRack(+sq.dataset.row, +sq.dataset.col, d.source.index);
    } else if (onRack) {
      reorderRack(d.source.index, under.closest(".tile"));
    }
  } else if (d.source.kind === "board") {
    const p = app.pending.get(d.source.key);
    if (!p) return;
    if (sq && squareFree(+sq.dataset.row, +sq.dataset.col)) {
      app.pending.delete(d.source.key);
      app.pending.set(`${sq.dataset.row},${sq.dataset.col}`, p);
      render();
    } else if (!d.moved || onRack || !sq) {
      app.pending.delete(d.source.key);
      render();
    }
  }
}
