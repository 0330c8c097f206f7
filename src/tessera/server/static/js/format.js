// How numbers, times and results read on the pages.

export function formatClock(ms) {
  const neg = ms < 0;
  const total = Math.floor(Math.abs(ms) / 1000);
  const m = Math.floor(total / 60);
  const s = String(total % 60).padStart(2, "0");
  return `${neg ? "-" : ""}${m}:${s}`;
}

// A time control as players write it: "5 min + 2 s" (increment) or "5 min, 1 min overtime".
export function describeClock(clock) {
  if (!clock) return "untimed";
  const minutes = Math.round(clock.initial_ms / 60000);
  const parts = [`${minutes} min`];
  if (clock.increment_ms) parts.push(`+ ${Math.round(clock.increment_ms / 1000)} s`);
  let text = parts.join(" ");
  if (clock.max_overtime_min) text += `, ${clock.max_overtime_min} min overtime`;
  return text;
}

// "standard.blitz" → "standard · blitz"
export function describeRatingKey(key) {
  return key.split(".").join(" · ");
}

export function formatDate(ms) {
  if (!ms) return "";
  return new Date(ms).toLocaleString(undefined, {
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

export function signed(n) {
  return n > 0 ? `+${n}` : `${n}`;
}

// A finished game's outcome in words, from its result ({reason, winners, scores}) and names.
export function describeResult(result, names) {
  if (!result) return "";
  if (result.reason === "aborted") return "aborted";
  const reason = result.reason.replaceAll("_", " ");
  if (!result.winners || !result.winners.length) return reason;
  if (result.winners.length > 1) return `draw · ${reason}`;
  return `${names[result.winners[0]]} won · ${reason}`;
}
