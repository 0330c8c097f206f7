// Who is using this page (a registered user, a guest, or nobody yet), the top bar that says
// so, and the words for the server's refusals.
import { api } from "./api.js";
import { $, button, el } from "./dom.js";
import { t } from "./i18n.js";

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
  no_session: t("Log in, or choose a name to play as a guest."),
  guest: t("Guests play casual games: register to play rated games."),
  seek_gone: t("That game has been taken or withdrawn."),
  network: t("The server cannot be reached; check your connection."),
  storage: t("The game store is not answering; try again."),
});

export function describeError(err) {
  const known = reasons()[err && err.reason];
  if (known && !(err.reason === "bad_credentials" && /current password/.test(err.message))) {
    return known;
  }
  return asSentence((err && err.message) || t("something went wrong"));
}

// "not a word: QX" → "Not a word: QX."
export function asSentence(text) {
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
