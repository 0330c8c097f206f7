// Who is using this page (a registered user, a guest, or nobody yet), the top bar that says
// so, and the words for the server's refusals.
import { api } from "./api.js";
import { $, button, el } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";

let me = null;  // {name, guest} or null
const changeListeners = new Set();

// Called whenever the identity changes on this page (a guest made, a login): sockets that
// learn who is here at their handshake reconnect.
export function onUserChange(listener) {
  changeListeners.add(listener);
}

export function currentUser() {
  return me;
}

export async function loadMe() {
  try {
    me = (await api.me()).user;
  } catch {
    me = null;
  }
  renderWho();
  return me;
}

export function setUser(user) {
  const changed = JSON.stringify(me) !== JSON.stringify(user);
  me = user;
  renderWho();
  if (changed) for (const listener of changeListeners) listener(me);
}

// The caller's identity, made a guest named ``name`` first if the browser has none.
export async function ensureUser(name) {
  if (me) return me;
  const res = await api.guest(name);
  setUser(res.user);
  return me;
}

export async function logOut() {
  await api.logout();
  setUser(null);
  location.assign("/");  // a fresh lobby, even from the lobby itself
}

export function renderWho() {
  const box = $("whoami");
  if (!box) return;
  box.replaceChildren();
  if (me && !me.guest) {
    box.append(
      el("a", { id: "me-link", href: `/u/${encodeURIComponent(me.name)}`, text: me.name,
        title: t("Your profile") }),
      el("a", { href: "/account", text: t("Account") }),
      button(t("Log out"), () => logOut(), { id: "logout-btn", className: "quiet-light" }),
    );
  } else if (me) {
    box.append(
      el("span", { id: "me-link", text: me.name }),
      el("span", { className: "tag", text: t("guest") }),
      el("a", { id: "login-link", href: "/account", text: t("Log in or register") }),
    );
  } else {
    box.append(
      el("a", { id: "login-link", href: "/account", text: t("Log in") }),
      el("a", { href: "/account#register", text: t("Register") }),
    );
  }
}

// Clearer words for some refusals (in the page's language); otherwise the server's own
// message (in English), as a sentence.
const reasons = () => ({
  bad_credentials: t("Wrong user name or password."),
  name_taken: t("That user name is taken: choose another."),
  rate_limited: t("Too many attempts in a short time: wait a minute, then try again."),
  backed_off: t("Too many attempts in a short time: wait a minute, then try again."),
  no_session: t("Log in, or choose a name to play as a guest."),
  guest: t("Guests play casual games: register to play rated games."),
  rated_needs_account: t("Rated games are for registered players: log in or register to play one."),
  seek_gone: t("That game has been taken or withdrawn."),
  seeker_in_game: t("That player is playing another game: the seek has been withdrawn."),
  in_game: t("A game between people is under way or starting for one of you: finish it first, or try again in a moment."),
  rated_game_in_progress: t("No engine help during your own rated game (fair play): the analysis board, reviews, simulations, hints and word lookup open again when the game is over."),
  busy: t("The server is busy with that request: try again."),
  network: t("The server cannot be reached; check your connection."),
  storage: t("The game store is not answering; try again."),
});

export function describeError(err) {
  const known = reasons()[err && err.reason];
  if (known && !(err.reason === "bad_credentials" && /current password/.test(err.message))) {
    return known;
  }
  if (err && err.reason && refusals()[err.reason]) return describeRefusal(err);
  return asSentence((err && err.message) || t("something went wrong"));
}

// Why the rules refused a move (the game's Reason codes), in the page's language.
const refusals = () => ({
  no_tiles: t("A play places at least one tile."),
  off_board: t("The word runs off the board."),
  not_in_line: t("The tiles must all be in one row or one column."),
  gap: t("The squares between the tiles must all be filled."),
  occupied: t("A square of the play already holds a tile."),
  not_on_rack: t("Those tiles are not on your rack."),
  too_many_tiles: t("Too many tiles placed."),
  first_play_too_few_tiles: t("The first play needs more tiles."),
  first_play_misses_start: t("The first play must cover the start square."),
  not_connected: t("The play must touch a tile already on the board."),
  no_word: t("The play forms no word of two or more letters."),
  word_too_short: t("A word of the play is too short."),
  invalid_words: t("A word of the play is not in the word list."),
  game_over: t("The game is over."),
  not_your_turn: t("It is not your turn."),
  exchange_not_allowed: t("These rules allow no exchange now."),
  bag_too_small: t("Too few tiles in the bag to exchange."),
  exchange_limit: t("No more exchanges are allowed."),
  nothing_to_challenge: t("There is nothing to challenge."),
  challenges_not_allowed: t("These rules allow no challenges."),
  only_pass_or_challenge: t("The last play ends the game unless challenged: pass (accept) or challenge."),
  out_of_time: t("Your time ran out before the move arrived: the game is lost on time."),
});

// A refused move ({reason, message}): in English the server's own words, which name the
// squares and the words; in another language the page's sentence for the reason (the words
// not in the word list named), the server's English only for a reason the page does not know.
export function describeRefusal({ reason, message }) {
  const known = refusals()[reason];
  if (currentLanguage() === "en" || !known) return asSentence(message || t("something went wrong"));
  const words = reason === "invalid_words" && /:\s*(.+)$/.exec(message || "");
  return words ? t("Not in the word list: {words}.", { words: words[1] }) : known;
}

// "not a word: QX" → "Not a word: QX."
export function asSentence(text) {
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
