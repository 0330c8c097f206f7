// The rules in the player's words: the challenge rules, a preset's summary and the computer's
// levels. /api/meta sends their codes and numbers; the words are the page's own (i18n.js), so
// they follow the page's language.
import { t, tn } from "./i18n.js";

// "single", "double": a challenge rule's name, as the new-game dialog lists it.
export function challengeRuleName(rule) {
  return ({
    void: t("void"), single: t("single"), double: t("double"), penalty: t("penalty"),
    triple: t("triple"),
  })[rule] || rule;
}

// "single challenge": the rule as the game's top line names it.
export function challengeRuleText(rule) {
  return ({
    void: t("no challenges"), single: t("single challenge"), double: t("double challenge"),
    penalty: t("penalty challenge"), triple: t("triple challenge"),
  })[rule] || rule;
}

// What a challenge rule means (RULES.md R5.4), the server's words when the page has none.
export function challengeRuleDescription(rule, fallback = "") {
  return ({
    void: t("No challenges: a word not in the word list is refused at once."),
    single: t("Single: a phony is challenged off; a wrong challenge costs nothing."),
    double: t("Double: a phony is challenged off; a wrong challenge loses a turn."),
    penalty: t("Penalty: a phony is challenged off; a wrong challenge gives the player 5 points a word."),
    triple: t("Triple: whoever is wrong about a challenge loses the game."),
  })[rule] || fallback;
}

// How a preset treats a word not in the word list: "double challenge", "invalid words refused".
export function presetChallenge(p) {
  return p.challenge_rule === "void" ? t("invalid words refused") : challengeRuleText(p.challenge_rule);
}

// A preset in a line: "double challenge, 25 min clock, 2 players".
export function describePreset(p) {
  const parts = [presetChallenge(p)];
  if (p.board && p.board !== "standard15") parts.push(p.board);
  if (p.clock) parts.push(t("{minutes} min clock", { minutes: p.clock.initial_min }));
  parts.push(p.min_players === p.max_players
    ? tn("{n} player", "{n} players", p.min_players)
    : t("{low}–{high} players", { low: p.min_players, high: p.max_players }));
  // i18n: between the parts of a list
  return parts.join(t(", "));
}

// How a computer level plays, in a phrase.
export function levelDescription(level) {
  return ({
    level1: t("beginner: short common words, often low-scoring"),
    level2: t("casual: common words, sometimes a good play"),
    level3: t("club: decent plays, mostly common words"),
    level4: t("strong: good plays, prefers familiar words"),
    level5: t("expert: often the best play, by a short simulation"),
    best: t("strongest: simulation, then the exact endgame"),
  })[level.name] || level.description;
}
