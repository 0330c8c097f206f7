// The start page: play the computer in one click, post a seek (or challenge a player, or make
// an invitation link), the open seeks to accept, challenges to answer, one's own seeks and
// games in progress, and the live games to watch. The lists follow the lobby's WebSocket.
import { api, lastGame } from "./api.js";
import { guestMark } from "./board.js";
import { $, button, el, goTo, showPage } from "./dom.js";
import { startDuplicate } from "./duplicate.js";
import { describeClock, versus, versusParts } from "./format.js";
import { t } from "./i18n.js";
import { openNewGame, quickComputerGame } from "./newgame.js";
import { describeSeek, dismissOffers, onLobbyMessage } from "./notices.js";
import { guestName, initSeekForm, lobbyUser, updateRated } from "./seekform.js";
import { currentUser, describeError, ensureUser, onUserChange } from "./session.js";

// Why accepting a seek was refused (seek id -> words): shown by its row, and in the alert
// line, until the player does something else; the lobby's live updates leave them standing.
const refusals = new Map();

function clearRefusals(errorBox) {
  refusals.clear();
  delete errorBox.dataset.sticky;
  errorBox.classList.remove("sr-only");
  errorBox.textContent = "";
}

async function accept(seek, errorBox) {
  clearRefusals(errorBox);
  try {
    await lobbyUser();
    const { game_id: gameId } = await api.acceptSeek(seek.id);
    goTo(`/g/${gameId}`);
  } catch (err) {
    const text = describeError(err);
    refusals.set(seek.id, text);
    errorBox.textContent = text;  // said by the alert line; seen by the seek's row, if it has one
    errorBox.dataset.sticky = "1";
    errorBox.dataset.seek = seek.id;
    await refresh();
  }
}

async function withdraw(seek, errorBox) {
  clearRefusals(errorBox);
  try {
    await api.cancelSeek(seek.id);
    await refresh();
  } catch (err) {
    errorBox.textContent = describeError(err);
  }
}

function ratingRange(seek) {
  if (seek.rating_min === null && seek.rating_max === null) return "";
  return ` · ${t("for {low}–{high}", { low: seek.rating_min ?? 0, high: seek.rating_max ?? "∞" })}`;
}

// The seeks this page has listed (null before the first list) and when each new one came.
let listed = null;
const arrived = new Map();
const NEW_FOR_MS = 60000;

function seekRow(seek, error) {
  const me = currentUser();
  const registered = !!me && !me.guest;
  const fresh = arrived.has(seek.id);
  const game = el("td", { text: `${seek.rules} · ${seek.lexicon} · ${seek.rated ? t("rated") : t("casual")}${ratingRange(seek)}` });
  if (seek.rated && !registered && !seek.mine) {
    game.append(" ", el("span", { className: "account-only", text: t("registered players only") }));
  }
  const action = el("td", {}, seek.mine
    ? button(t("Withdraw"), () => withdraw(seek, error), { className: "withdraw" })
    : button(t("Accept"), () => accept(seek, error), { className: "primary accept" }));
  if (refusals.has(seek.id)) {
    action.append(el("p", { className: "message seek-refusal" }, refusals.get(seek.id),
      registered ? null : [" ", el("a", { href: "/account", text: t("Log in or register") })]));
  }
  return el("tr", { className: fresh ? "new-seek" : "", dataset: { seek: seek.id, user: seek.user } },
    el("td", {}, seek.user, seek.guest ? [" ", guestMark()] : null,
      fresh ? [" ", el("span", { className: "new-tag", text: t("new") })] : null),
    el("td", { className: "num", text: seek.user_rating }),
    game,
    el("td", { text: describeClock(seek.clock) }),
    action);
}

// A seek that was not in the last list (and is not the player's own) is announced in the live
// region (which stays in view) and marked "new" in its row, for a minute or while it is open.
function announceNew(seeks) {
  const fresh = listed === null ? [] : seeks.filter((seek) => !listed.has(seek.id) && !seek.mine);
  listed = new Set(seeks.map((seek) => seek.id));
  const now = Date.now();
  for (const seek of fresh) arrived.set(seek.id, now);
  for (const [id, at] of arrived) if (!listed.has(id) || now - at >= NEW_FOR_MS) arrived.delete(id);
  if (fresh.length) {
    $("seeks-news").textContent = fresh.map((seek) =>
      t("New seek from {name}: {game}", { name: seek.user, game: describeSeek(seek) })).join(" ");
    setTimeout(refreshSoon, NEW_FOR_MS + 100);  // then the marks go
  } else if (!arrived.size) {
    $("seeks-news").textContent = "";
  }
}

function renderSeeks(seeks) {
  const body = $("seeks").tBodies[0];
  const error = $("lobby-error");
  for (const id of refusals.keys()) if (!seeks.some((seek) => seek.id === id)) refusals.delete(id);
  error.classList.toggle("sr-only", !!error.dataset.sticky && refusals.has(error.dataset.seek));
  announceNew(seeks);
  body.replaceChildren(...seeks.map((seek) => seekRow(seek, error)));
  $("seeks-empty").hidden = seeks.length > 0;
}

function renderChallenges(challenges) {
  const error = $("lobby-error");
  $("challenges").replaceChildren(...challenges.map((seek) => el("li", { dataset: { seek: seek.id } },
    el("span", { text: `${seek.user}: ${describeSeek(seek)}` }),
    button(t("Accept"), () => accept(seek, error), { className: "primary accept" }),
    button(t("Decline"), () => withdraw(seek, error), { className: "decline" }),
  )));
  $("challenges-panel").hidden = challenges.length === 0;
  dismissOffers(new Set(challenges.map((seek) => seek.id)));
}

function renderMine(mine) {
  const error = $("lobby-error");
  $("my-seeks").replaceChildren(...mine.map((seek) => {
    const game = describeSeek(seek);
    const text = seek.invite ? t("invitation: {game}", { game })
      : seek.direct ? t("challenge: {game}", { game }) : t("open seek: {game}", { game });
    const item = el("li", { dataset: { seek: seek.id } }, el("span", { text }));
    if (seek.invite) item.append(el("a", { href: `/invite/${seek.id}`, className: "invite-link", text: t("link") }));
    item.append(button(t("Withdraw"), () => withdraw(seek, error), { className: "withdraw" }));
    return item;
  }));
  $("mine-panel").hidden = mine.length === 0;
}

// "Ann vs Bob (guest)": a game's players, each guest marked (when the list says who is one).
function playersWithMarks(game) {
  const guests = Array.isArray(game.guests) ? game.guests : [];
  return versusParts(game.names.map((name, i) => (guests[i] ? [name, " ", guestMark()] : [name])));
}

function renderLive(live) {
  $("live-games").replaceChildren(...live.map((game) => el("li", { dataset: { game: game.id } },
    el("span", {}, playersWithMarks(game), ` · ${game.rules} · ${describeClock(game.clock)}`
      + ` · ${game.rated ? t("rated") : t("casual")}`),
    el("a", { href: `/g/${game.id}`, className: "watch", text: t("Watch") }),
  )));
  $("live-empty").hidden = live.length > 0;
}

// A registered player's games still being played (from their profile), to go back to.
async function renderMyGames() {
  const me = currentUser();
  if (!me || me.guest) { $("my-games-panel").hidden = true; return; }
  let games = [];
  try {
    games = (await api.profile(me.name)).games.filter((g) => g.status === "live");
  } catch { /* the lists below still work */ }
  $("my-games").replaceChildren(...games.map((game) => el("li", { dataset: { game: game.id } },
    el("span", { text: `${versus(game.names)} · ${game.rules}`
      + (game.online ? ` · ${describeClock(game.clock)}` : "") }),
    el("a", { href: `/g/${game.id}`, className: "continue", text: t("Continue") }),
  )));
  $("my-games-panel").hidden = games.length === 0;
}

async function refresh() {
  try {
    const data = await api.lobby();
    renderSeeks(data.seeks);
    renderChallenges(data.challenges);
    renderMine(data.mine);
    renderLive(data.live);
    if (!$("lobby-error").dataset.sticky) $("lobby-error").textContent = "";
  } catch (err) {
    $("lobby-error").textContent = describeError(err);
  }
  await renderMyGames();
}

let pending = null;
function refreshSoon() {
  if (!pending) pending = setTimeout(() => { pending = null; refresh(); }, 100);
}

export async function showLobbyPage() {
  showPage("lobby", t("Lobby"));
  const me = currentUser();
  $("guest-panel").hidden = !!me;
  const last = lastGame();
  $("continue-row").hidden = !last;
  if (last) $("continue-link").href = `/g/${last}`;
  $("quick-computer").addEventListener("click", async () => {
    try {
      await quickComputerGame(guestName());
    } catch (err) {
      $("quick-error").textContent = describeError(err);
    }
  });
  $("computer-options").addEventListener("click", openNewGame);
  $("duplicate-options").addEventListener("click", async (event) => {
    event.preventDefault();  // the name typed here names the guest who plays there
    try {
      await ensureUser(guestName());
      goTo("/duplicate");
    } catch (err) {
      $("quick-error").textContent = describeError(err);
    }
  });
  $("quick-duplicate").addEventListener("click", async () => {
    try {
      await startDuplicate(guestName());
    } catch (err) {
      $("quick-error").textContent = describeError(err);
    }
  });
  onUserChange((user) => {  // a guest made by an action here
    $("guest-panel").hidden = !!user;
    updateRated();
    refreshSoon();
  });
  onLobbyMessage((msg) => {
    if (["lobby", "challenge", "declined"].includes(msg.type)) refreshSoon();
  });
  await initSeekForm(refresh);
  await refresh();
}
