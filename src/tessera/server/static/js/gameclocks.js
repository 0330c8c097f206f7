// The game page's clocks: each player's time left, counted down from the server's last state
// by the time since it came, and the ticks that redraw the clocks four times a second while a
// game goes on.
import { updateClocks } from "./board.js";
import { $ } from "./dom.js";
import { app, finished } from "./gamestate.js";

export function clockNow(i) {
  const s = app.state;
  let ms = s.clocks_ms[i];
  if (!finished(s) && s.to_move === i) {
    ms -= s.turn_elapsed_ms + (performance.now() - app.receivedAt);
  }
  return ms;
}

// The clocks' ticks, started once with the page (game.js).
export function startClockTicks() {
  setInterval(() => {
    if (app.state && app.state.clocks_ms && !finished(app.state)) {
      updateClocks($("players"), app.state, clockNow);
    }
  }, 250);
}
