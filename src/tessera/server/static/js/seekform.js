// The lobby's form for a game against a person: rules, word list, time control (minutes, then
// an increment or overtime), rated or casual, the opponent's rating range, and for whom —
// anyone in the lobby, one named player, or whoever gets the invitation link.
import { api } from "./api.js";
import { $, el } from "./dom.js";
import { getMeta } from "./newgame.js";
import { t } from "./i18n.js";
import { presetChallenge } from "./rulestext.js";
import { toast } from "./notices.js";
import { currentUser, describeError, ensureUser } from "./session.js";

const TWO_PLAYER_DEFAULT = "woogles";

// The player's identity for a lobby action, made a guest (with the name typed in the lobby)
// when the browser has none.
export function lobbyUser() {
  return ensureUser(guestName());
}

// The name typed in the lobby for a guest ("Guest", in the page's language, when none is).
export function guestName() {
  return $("guest-name").value.trim() || t("Guest");
}

export function inviteUrl(seekId) {
  return `${location.origin}/invite/${seekId}`;
}

// `problem` says what is wrong, with the {low} and {high} bounds.
function wholeNumber(id, problem, low, high, { optional = false } = {}) {
  const text = $(id).value.trim();
  if (optional && text === "") return undefined;
  const n = Number(text);
  if (text === "" || !Number.isInteger(n) || n < low || n > high) {
    throw new Error(problem({ low, high }));
  }
  return n;
}

function who() {
  return document.querySelector('input[name="seek-to"]:checked').value;
}

function readSpec() {
  const increment = $("seek-extra-kind").value === "increment";
  const spec = {
    rules: $("seek-rules").value,
    lexicon: $("seek-lexicon").value,
    initial_min: wholeNumber("seek-minutes",
      (v) => t("Minutes must be a whole number from {low} to {high}.", v), 1, 90),
    increment_s: increment ? wholeNumber("seek-extra",
      (v) => t("Seconds per move must be a whole number from {low} to {high}.", v), 0, 60) : 0,
    max_overtime_min: increment ? 0 : wholeNumber("seek-extra",
      (v) => t("Overtime must be a whole number from {low} to {high}.", v), 0, 10),
    rated: $("seek-rated").checked,
  };
  const low = wholeNumber("seek-rating-min",
    (v) => t("The lowest rating must be a whole number from {low} to {high}.", v), 0, 4000,
    { optional: true });
  const high = wholeNumber("seek-rating-max",
    (v) => t("The highest rating must be a whole number from {low} to {high}.", v), 0, 4000,
    { optional: true });
  if (low !== undefined) spec.rating_min = low;
  if (high !== undefined) spec.rating_max = high;
  if (who() === "user") {
    const name = $("seek-user").value.trim();
    if (!name) throw new Error(t("Name the player to challenge."));
    spec.to = name;
  } else if (who() === "invite") {
    spec.invite = true;
  }
  return spec;
}

function updateLabels() {
  const increment = $("seek-extra-kind").value === "increment";
  $("seek-extra").max = increment ? 60 : 10;
  const labels = { open: t("Post seek"), user: t("Send challenge"), invite: t("Make invitation link") };
  $("seek-post").textContent = labels[who()];
}

export function updateRated() {
  const me = currentUser();
  const registered = !!me && !me.guest;
  $("seek-rated").disabled = !registered;
  if (!registered) $("seek-rated").checked = false;
  $("seek-rated-note").hidden = registered;
}

async function post(event, onPosted) {
  event.preventDefault();
  const error = $("seek-error");
  error.textContent = "";
  $("invite-box").hidden = true;
  let spec;
  try {
    spec = readSpec();
  } catch (err) {
    error.textContent = err.message;
    return;
  }
  try {
    await lobbyUser();
    const res = await api.postSeek(spec);
    if (spec.invite) {
      $("invite-link").value = inviteUrl(res.seek.id);
      $("invite-box").hidden = false;
    } else {
      toast(spec.to ? t("Challenge sent to {name}.", { name: spec.to })
        : t("Seek posted: the game starts when someone accepts."));
    }
    await onPosted();
  } catch (err) {
    error.textContent = describeError(err);
  }
}

export async function initSeekForm(onPosted) {
  const m = await getMeta();
  const presets = m.presets.filter((p) => p.min_players <= 2 && p.max_players >= 2);
  $("seek-rules").replaceChildren(...presets.map((p) =>
    el("option", { value: p.name, text: `${p.name} — ${presetChallenge(p)}` })));
  if (presets.some((p) => p.name === TWO_PLAYER_DEFAULT)) $("seek-rules").value = TWO_PLAYER_DEFAULT;
  $("seek-lexicon").replaceChildren(...m.lexicons.map((l) => el("option", { value: l, text: l })));
  $("seek-lexicon").value = m.default_lexicon;
  if ($("guest-name").value === "Guest") $("guest-name").value = t("Guest");
  updateRated();
  updateLabels();
  $("seek-extra-kind").addEventListener("change", updateLabels);
  document.querySelectorAll('input[name="seek-to"]').forEach((r) => r.addEventListener("change", updateLabels));
  $("seek-user").addEventListener("focus", () => {
    document.querySelector('input[name="seek-to"][value="user"]').checked = true;
    updateLabels();
  });
  $("seek-form").addEventListener("submit", (event) => post(event, onPosted));
  $("invite-copy").addEventListener("click", async () => {
    $("invite-link").select();
    try {
      await navigator.clipboard.writeText($("invite-link").value);
      toast(t("Link copied."));
    } catch {
      document.execCommand("copy");
    }
  });
}
