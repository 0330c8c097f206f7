// How numbers, times and results read on the pages.
import { currentLanguage, t } from "./i18n.js";

// A player's clock: "4:05", and time into overtime "-0:35". `overtimeMs`, when known, is the
// most overtime the game allows (a clock between the server's flag and the page's next state
// does not run past it); the player who `flagged` (lost on time) reads 0:00. A clock less
// than a second into overtime reads 0:00, never "-0:00".
export function formatClock(ms, { overtimeMs = null, flagged = false } = {}) {
  let left = flagged ? 0 : ms;
  if (overtimeMs !== null) left = Math.max(left, -overtimeMs);
  const total = Math.floor(Math.abs(left) / 1000);
  const m = Math.floor(total / 60);
  const s = String(total % 60).padStart(2, "0");
  return `${left < 0 && total > 0 ? "-" : ""}${m}:${s}`;
}

// The seat that lost on time in a finished game's result, or null: the result's loser, else
// (a result without one) the one player who did not win.
export function flaggedSeat(result, players) {
  if (!result || result.reason !== "timeout_forfeit") return null;
  if (result.loser !== undefined && result.loser !== null) return result.loser;
  const losers = [...Array(players).keys()].filter((i) => !(result.winners || []).includes(i));
  return losers.length === 1 ? losers[0] : null;
}

// A time control as players write it: "5 min + 2 s" (increment) or "5 min, 1 min overtime".
export function describeClock(clock) {
  if (!clock) return t("untimed");
  const vars = {
    minutes: Math.round(clock.initial_ms / 60000),
    seconds: Math.round(clock.increment_ms / 1000),
    overtime: clock.max_overtime_min,
  };
  if (clock.increment_ms && clock.max_overtime_min) {
    return t("{minutes} min + {seconds} s, {overtime} min overtime", vars);
  }
  if (clock.increment_ms) return t("{minutes} min + {seconds} s", vars);
  if (clock.max_overtime_min) return t("{minutes} min, {overtime} min overtime", vars);
  return t("{minutes} min", vars);
}

// "standard.blitz" → "standard · blitz": a rating's rules family (a preset's own name, or the
// standard family) and speed, in the page's words.
export function describeRatingKey(key) {
  const [family, speed] = key.split(".");
  const speeds = { blitz: t("blitz"), rapid: t("rapid"), classic: t("classic") };
  return [family === "standard" ? t("standard") : family, speeds[speed] || speed]
    .filter(Boolean).join(" · ");
}

export function formatDate(ms) {
  if (!ms) return "";
  return new Date(ms).toLocaleString(currentLanguage(), {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
  });
}

// n with `places` decimals, rounded as Python's format(n, ".Nf") rounds (and so as the command
// line prints it): to nearest, an exact tie to the even digit. toFixed breaks ties away from
// zero, so a loss of exactly 11.25 would read 11.3 here and 11.2 in `tessera analyze`.
export function fixed(n, places = 1) {
  if (n === null || n === undefined) return "";
  const plain = n.toFixed(places);
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21) return plain;
  const exact = Math.abs(n).toFixed(100); // every digit of the binary value
  const cut = exact.indexOf(".") + 1 + places;
  if (!/^50*$/.test(exact.slice(cut))) return plain; // not a tie: one nearest value
  const kept = exact.slice(0, places ? cut : cut - 1);
  if (Number(kept.at(-1)) % 2 === 0) return (n < 0 ? "-" : "") + kept;
  return plain;
}

// "Ann vs Bob": a game's players; versusParts puts the words between players given as lists
// of parts (a name and its marks, say).
export function versus(names) {
  return versusParts(names.map((name) => [name])).join("");
}

export function versusParts(players) {
  // i18n: between the names of a game's players, spaces included
  const between = t(" vs ");
  return players.flatMap((parts, i) => (i ? [between, ...parts] : parts));
}

export function signed(n) {
  return n > 0 ? `+${n}` : `${n}`;
}

// Why a game ended (the server's EndReason), in words: "played out", "resigned".
export function endReason(code) {
  const reasons = {
    played_out: t("played out"),
    scoreless_turns: t("scoreless turns"),
    passes: t("passes"),
    finish_line: t("finish line"),
    max_overtime: t("time ran out: the scores stand"),
    timeout_forfeit: t("lost on time"),
    triple_challenge: t("triple challenge"),
    resigned: t("resigned"),
    ended_by_request: t("ended by request"),
    aborted: t("aborted"),
  };
  return reasons[code] || code.replaceAll("_", " ");
}

// Why a finished game ended, naming the player it concerns where the words need one: "Bob lost
// on time".
export function endText(result, names) {
  const flagged = flaggedSeat(result, names.length);
  if (flagged !== null) return t("{name} lost on time", { name: names[flagged] });
  return endReason(result.reason);
}

// A finished game's outcome in words, from its result ({reason, winners, scores}) and names.
export function describeResult(result, names) {
  if (!result) return "";
  if (result.reason === "aborted") return t("aborted");
  const reason = endText(result, names);
  if (!result.winners || !result.winners.length) return reason;
  if (result.winners.length > 1) return t("draw · {reason}", { reason });
  return t("{name} won · {reason}", { name: names[result.winners[0]], reason });
}
