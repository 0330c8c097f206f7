// The game page's shared state: the game as the server last sent it, the rack in the player's
// own order, the tiles being placed and the typing cursor — one object, `app`, that every
// module of the page reads and changes — and the questions about it that every part asks: is
// the game over, is this page watching, is it this player's turn, which tiles are placed.

export const app = {
  gameId: null,
  state: null,
  rack: [],             // the rack in the player's own order (labels)
  pending: new Map(),   // "r,c" -> {index, label, rackLabel}
  cursor: null,         // {r, c, across}
  typed: null,          // the letters typed for the last tile: {text, key, index, after}
  revealed: null,       // hot-seat: the seat whose tiles were last shown
  live: null,
  receivedAt: 0,
  summaryShownFor: null,
  connected: true,      // the live socket (false: the reconnect banner shows)
  dismissedVerdict: null, // "game:index" of the challenge banner closed on this page
};
window.tessera = app;  // for debugging and tests: the page's state, nothing secret

export function finished(s = app.state) {
  return s.state === "over" || s.state === "aborted";
}

export function watching(s = app.state) {
  return s.seat < 0;
}

// Whether a game is on the page at all (none after an unknown or private game's address).
export function gameShown() {
  return app.state !== null;
}

export function myTurn() {
  const s = app.state;
  return s && !finished(s) && !watching(s) && s.to_move === s.seat && s.kinds[s.seat] === "human";
}

// People sharing this screen: the page holds more than one person's seat (a game between
// computers has no rack to hide).
export function hotSeat() {
  const s = app.state;
  return s && s.my_seats.filter((i) => s.kinds[i] === "human").length > 1;
}

export function usedIndices() {
  return new Set([...app.pending.values()].map((p) => p.index));
}

export function placements() {
  return [...app.pending.entries()].map(([key, p]) => {
    const [r, c] = key.split(",").map(Number);
    return [r, c, p.label];
  });
}
