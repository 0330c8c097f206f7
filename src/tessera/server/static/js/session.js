// Who is using this page (a registered user, a guest, or nobody yet), the top bar that says
// so, and the words for the server's refusals.
import { api } from "./api.js";
import { $, button, el } from "./dom.js";

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
        title: "Your profile" }),
      el("a", { href: "/account", text: "Account" }),
      button("Log out", () => logOut(), { id: "logout-btn", className: "quiet-light" }),
    );
  } else if (me) {
    box.append(
      el("span", { id: "me-link", text: me.name }),
      el("span", { className: "tag", text: "guest" }),
      el("a", { id: "login-link", href: "/account", text: "Log in or register" }),
    );
  } else {
    box.append(
      el("a", { id: "login-link", href: "/account", text: "Log in" }),
      el("a", { href: "/account#register", text: "Register" }),
    );
  }
}

// Clearer words for some refusals; otherwise the server's own message, as a sentence.
const REASONS = {
  bad_credentials: "Wrong user name or password.",
  name_taken: "That user name is taken: choose another.",
  rate_limited: "Too many attempts in a short time: wait a minute, then try again.",
  no_session: "Log in, or choose a name to play as a guest.",
  guest: "Guests play casual games: register to play rated games.",
  seek_gone: "That game has been taken or withdrawn.",
};

export function describeError(err) {
  const known = REASONS[err && err.reason];
  if (known && !(err.reason === "bad_credentials" && /current password/.test(err.message))) {
    return known;
  }
  return asSentence((err && err.message) || "something went wrong");
}

// "not a word: QX" → "Not a word: QX."
export function asSentence(text) {
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
