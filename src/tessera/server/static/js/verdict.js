// What a challenge decided, in words, for the banner every page of the game shows (players
// and spectators alike): whose play was challenged off and which words were phonies, or who
// challenged a valid play, which words stood and what the challenger lost.

const VERDICTS = new Set(["withdrawn", "lost_turn", "challenge_penalty", "challenge_bonus"]);
const TURNS = new Set(["play", "pass", "exchange", "lost_turn"]);

function wordList(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function points(n) {
  return `${n} point${n === 1 ? "" : "s"}`;
}

// The challenged play: the last tile play before the verdict at ``index``.
function challengedPlay(history, index) {
  for (let i = index - 1; i >= 0; i--) if (history[i].kind === "play") return history[i];
  return null;
}

function challengedOff(s, e) {
  const mover = s.names[e.player];
  const by = e.challenger === undefined ? "" : ` by ${s.names[e.challenger]}`;
  const phonies = e.verdict_words || [];
  const why = phonies.length
    ? `${wordList(phonies)} ${phonies.length === 1 ? "is" : "are"} not in the word list (${s.lexicon})`
    : "it did not cover the start square";
  const cost = s.rules.challenge_rule === "triple"
    ? `${mover} loses the game (triple challenge).`
    : `The tiles go back to ${mover}'s rack: no score this turn.`;
  return `${mover}'s play ${e.move} was challenged off${by}: ${why}. ${cost}`;
}

function challengeFailed(s, e, play) {
  const challenger = e.kind === "challenge_bonus" ? e.challenger : e.player;
  const owner = play ? play.player : e.player;
  const words = e.verdict_words && e.verdict_words.length ? e.verdict_words : play ? play.words : [];
  const who = s.names[challenger] || "A player";
  const stood = `${wordList(words)} ${words.length === 1 ? "stands" : "stand"}`;
  let cost;
  if (e.kind === "lost_turn") cost = `${who} loses a turn (double challenge).`;
  else if (e.kind === "challenge_penalty") cost = `${who} loses ${points(-e.score)} (penalty challenge).`;
  else if (e.score > 0) cost = `${s.names[owner]} gets ${points(e.score)} (penalty challenge).`;
  else cost = `${who} loses nothing (single challenge).`;
  return `${who} challenged ${s.names[owner]}'s play${play ? ` ${play.move}` : ""}: ${stood}. ${cost}`;
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
