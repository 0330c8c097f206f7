// Who is watching a game: "Watching: Cleo, Dan (guest), 2 others" ("Watching: 2 people" when
// none gave a name) by the players, from the game socket's "watchers" message ({watchers:
// [{name, guest}], anonymous: n}), sent when spectators come and go. Hidden while nobody
// watches.
import { guestMark } from "./board.js";
import { el } from "./dom.js";
import { t, tn } from "./i18n.js";

const SHOWN = 12;  // names listed; the rest are counted

export function renderWatchers(root, msg) {
  const named = msg && Array.isArray(msg.watchers) ? msg.watchers : [];
  const extra = Math.max(0, named.length - SHOWN) + (msg && Number.isInteger(msg.anonymous) ? msg.anonymous : 0);
  root.hidden = named.length === 0 && extra === 0;
  if (root.hidden) { root.replaceChildren(); return; }
  const items = named.slice(0, SHOWN).map((w) =>
    el("li", { className: "watcher" }, String(w.name), w.guest ? [" ", guestMark()] : null));
  if (extra) {
    const count = named.length ? tn("{n} other", "{n} others", extra) : tn("{n} person", "{n} people", extra);
    items.push(el("li", { className: "watcher-count", text: count }));
  }
  root.replaceChildren(el("span", { className: "watchers-title", text: t("Watching:") }), " ",
    el("ul", { className: "watcher-list" }, items));
}
