// What reaches a player on any page: challenges and rematch offers (with Accept and Decline),
// a declined challenge, and the start of a game they are in (the page goes there). They come
// over the lobby's WebSocket; a game page also hands on the rematch offers its own socket gets.
import { api, openSocket } from "./api.js";
import { $, button, el, goTo } from "./dom.js";
import { describeClock } from "./format.js";
import { t } from "./i18n.js";
import { currentUser, describeError, onUserChange } from "./session.js";

const listeners = new Set();  // called on every lobby message (the lobby page re-reads its lists)
const offered = new Set();   // seek ids already shown
let socket = null;

export function onLobbyMessage(listener) {
  listeners.add(listener);
}

export function startNotices() {
  connect();
  onUserChange(() => {  // the server tells a user's sockets apart at their handshake
    if (socket) socket.close();
    connect();
  });
}

function connect() {
  socket = openSocket("/api/lobby/ws", {
    onMessage(msg) {
      // the lobby lists challenges (rematch offers too) itself
      const listed = document.body.dataset.page === "lobby";
      if (msg.type === "game_started") goTo(`/g/${msg.game_id}`);
      else if (msg.type === "challenge" && !listed) offer(msg.seek, msg.from, "challenge");
      else if (msg.type === "rematch" && !listed) offer(msg.seek, msg.from, "rematch");
      else if (msg.type === "declined") toast(t("{name} declined your challenge.", { name: msg.by }));
      for (const listener of listeners) listener(msg);
    },
  });
}

export function describeSeek(seek) {
  return [seek.rules, seek.lexicon, describeClock(seek.clock), seek.rated ? t("rated") : t("casual")]
    .join(" · ");
}

function notice(kind, children, { id } = {}) {
  const box = $("notices");
  const item = el("div", { className: `notice ${kind}`, role: "status", dataset: id ? { seek: id } : {} },
    ...children);
  box.append(item);
  return item;
}

export function toast(text, ms = 6000) {
  const item = notice("toast", [el("span", { text })]);
  setTimeout(() => item.remove(), ms);
}

// Take away the offers that are no longer open (answered here or on another device).
export function dismissOffers(openIds) {
  for (const item of document.querySelectorAll("#notices .notice.offer")) {
    if (!openIds.has(item.dataset.seek)) item.remove();
  }
}

// An offer to play (kind "challenge": a direct challenge, or "rematch"): Accept starts the
// game, Decline refuses.
export function offer(seek, from, kind) {
  if (!seek || offered.has(seek.id)) return;
  const me = currentUser();
  if (me && from === me.name) return;  // my own offer, echoed to my pages
  offered.add(seek.id);
  const error = el("span", { className: "message" });
  const item = notice("offer", [
    el("span", { text: kind === "rematch"
      ? t("{name} offers a rematch: {game}", { name: from, game: describeSeek(seek) })
      : t("{name} challenges you: {game}", { name: from, game: describeSeek(seek) }) }),
    button(t("Accept"), async () => {
      try {
        const { game_id: gameId } = await api.acceptSeek(seek.id);
        item.remove();
        goTo(`/g/${gameId}`);
      } catch (err) {
        error.textContent = describeError(err);
      }
    }, { className: "primary accept" }),
    button(t("Decline"), async () => {
      try { await api.cancelSeek(seek.id); } catch { /* already gone: nothing to decline */ }
      item.remove();
    }, { className: "decline" }),
    error,
  ], { id: seek.id });
  return item;
}
