// What a challenge decided, in words, for the banner every page of the game shows (players
// and spectators alike): whose play was challenged off and which words were phonies, or who
// challenged a valid play, which words stood and what the challenger lost.

import { listText, t, tn } from "./i18n.js";

const VERDICTS = new Set(["withdrawn", "lost_turn", "challenge_penalty", "challenge_bonus"]);
const TURNS = new Set(["play", "pass", "exchange", "lost_turn"]);

// The challenged play: the last tile play before the verdict at ``index``.
function challengedPlay(history, index) {
  for (let i = index - 1; i >= 0; i--) if (history[i].kind === "play") return history[i];
  return null;
}

function challengedOff(s, e) {
  const mover = s.names[e.player];
  const phonies = e.verdict_words || [];
  const vars = { mover, move: e.move, challenger: s.names[e.challenger], lexicon: s.lexicon,
    words: listText(phonies) };
  const what = e.challenger === undefined
    ? t("{mover}'s play {move} was challenged off.", vars)
    : t("{mover}'s play {move} was challenged off by {challenger}.", vars);
  const why = phonies.length
    ? tn("{words} is not in the word list ({lexicon}).", "{words} are not in the word list ({lexicon}).",
      phonies.length, vars)
    : t("It did not cover the start square.");
  const cost = s.rules.challenge_rule === "triple"
    ? t("{mover} loses the game (triple challenge).", vars)
    : t("The tiles go back to {mover}'s rack: no score this turn.", vars);
  return [what, why, cost].join(" ");
}

function challengeFailed(s, e, play) {
  const challenger = e.kind === "challenge_bonus" ? e.challenger : e.player;
  const owner = play ? play.player : e.player;
  const words = e.verdict_words && e.verdict_words.length ? e.verdict_words : play ? play.words : [];
  const vars = {
    who: s.names[challenger] || t("A player"), owner: s.names[owner], move: play ? play.move : "",
    words: listText(words),
  };
  const what = play
    ? t("{who} challenged {owner}'s play {move}.", vars)
    : t("{who} challenged {owner}'s play.", vars);
  const stood = tn("{words} stands.", "{words} stand.", words.length, vars);
  let cost;
  if (e.kind === "lost_turn") cost = t("{who} loses a turn (double challenge).", vars);
  else if (e.kind === "challenge_penalty") {
    cost = tn("{who} loses {n} point (penalty challenge).", "{who} loses {n} points (penalty challenge).",
      -e.score, vars);
  } else if (e.score > 0) {
    cost = tn("{owner} gets {n} point (penalty challenge).", "{owner} gets {n} points (penalty challenge).",
      e.score, vars);
  } else cost = t("{who} loses nothing (single challenge).", vars);
  return [what, stood, cost].join(" ");
}

// The latest challenge's verdict while it is news — until every player has taken a turn
// after it — as {index, text}; null when there is none.
export function challengeNews(s) {
  let index = -1;
  for (let i = s.history.length - 1; i >= 0; i--) {
    if (VERDICTS.has(s.history[i].kind)) { index = i; break; }
  }
  if (index < 0) return null;
  const later = new Set(s.history.slice(index + 1).filter((e) => TURNS.has(e.kind)).map((e) => e.player));
  if (s.names.every((_, i) => later.has(i))) return null;
  const e = s.history[index];
  const text = e.kind === "withdrawn" ? challengedOff(s, e) : challengeFailed(s, e, challengedPlay(s.history, index));
  return { index, text };
}
