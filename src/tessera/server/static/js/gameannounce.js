// The game page's live region for screen readers: the moves made since the last state, in
// words, then whose turn it is (with the move sound when someone else moved).
import { describeEvent } from "./board.js";
import { $ } from "./dom.js";
import { t, tn } from "./i18n.js";
import { moveSound } from "./sounds.js";
import { myTurn } from "./gamestate.js";
import { winnerTitle } from "./gamesummary.js";

// ---------------------------------------------------------------- the live region

// One turn in words, as a screen reader says it: "Bob played QUIZ at 8D for 35".
function eventText(s, e) {
  const who = s.names[e.player];
  if (e.kind === "play") {
    return t("{name} played {word} at {square} for {score}.",
      { name: who, word: e.words[0] || e.move, square: e.position, score: e.score });
  }
  if (e.kind === "pass") return t("{name} passed.", { name: who });
  if (e.kind === "exchange") {
    const n = e.count || e.move.replace(/^-/, "").length;
    return tn("{name} exchanged {n} tile.", "{name} exchanged {n} tiles.", n, { name: who });
  }
  if (e.kind === "withdrawn") return t("{name}'s play was challenged off.", { name: who });
  return t("{name}: {event}.", { name: who, event: describeEvent(e) });
}

function whoseTurnText(s) {
  if (s.state === "aborted") return t("The game was called off.");
  if (s.state === "over") {
    return s.result ? t("The game is over: {outcome}.", { outcome: winnerTitle(s) }) : t("The game is over.");
  }
  if (myTurn()) return s.state === "awaiting_final" ? t("Your turn: accept or challenge.") : t("Your turn.");
  return t("{name} to move.", { name: s.names[s.to_move] });
}

// The polite live region: the moves made since the last state by anyone but this page's own
// player (every move, when players share the screen), then whose turn it is.
export function announce(prev, s) {
  const fresh = prev ? s.history.slice(prev.history.length) : [];
  const single = s.my_seats.length === 1;
  const moves = fresh.filter((e) => !(single && e.player === s.my_seats[0])).map((e) => eventText(s, e));
  const turnChanged = !prev || prev.to_move !== s.to_move || prev.state !== s.state;
  if (moves.length && prev) moveSound();
  if (!moves.length && !turnChanged) return;
  const text = [...moves, whoseTurnText(s)].join(" ");
  if (text !== $("announce").textContent) $("announce").textContent = text;
}
