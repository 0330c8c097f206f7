// The start page: play the computer in one click, post a seek (or challenge a player, or make
// an invitation link), the open seeks to accept, challenges to answer, one's own seeks and
// games in progress, and the live games to watch. The lists follow the lobby's WebSocket.
import { api, lastGame } from "./api.js";
import { $, button, el, goTo, showPage } from "./dom.js";
import { startDuplicate } from "./duplicate.js";
import { describeClock, versus } from "./format.js";
import { t } from "./i18n.js";
import { openNewGame, quickComputerGame } from "./newgame.js";
import { describeSeek, dismissOffers, onLobbyMessage } from "./notices.js";
import { guestName, initSeekForm, lobbyUser, updateRated } from "./seekform.js";
import { currentUser, describeError, ensureUser, onUserChange } from "./session.js";

async function accept(seek, errorBox) {
  try {
    await lobbyUser();
    const { game_id: gameId } = await api.acceptSeek(seek.id);
    goTo(`/g/${gameId}`);
  } catch (err) {
    errorBox.textContent = describeError(err);
  }
}

async function withdraw(seek, errorBox) {
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

function renderSeeks(seeks) {
  const body = $("seeks").tBodies[0];
  const error = $("lobby-error");
  body.replaceChildren(...seeks.map((seek) => el("tr", { dataset: { seek: seek.id, user: seek.user } },
    el("td", { text: seek.user }),
    el("td", { className: "num", text: seek.user_rating }),
    el("td", { text: `${seek.rules} · ${seek.lexicon} · ${seek.rated ? t("rated") : t("casual")}${ratingRange(seek)}` }),
    el("td", { text: describeClock(seek.clock) }),
    el("td", {}, seek.mine
      ? button(t("Withdraw"), () => withdraw(seek, error), { className: "withdraw" })
      : button(t("Accept"), () => accept(seek, error), { className: "primary accept" })),
  )));
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

function renderLive(live) {
  $("live-games").replaceChildren(...live.map((game) => el("li", { dataset: { game: game.id } },
    el("span", { text: `${versus(game.names)} · ${game.rules} · ${describeClock(game.clock)}`
      + ` · ${game.rated ? t("rated") : t("casual")}` }),
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
    $("lobby-error").textContent = "";
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
  });
  onLobbyMessage((msg) => {
    if (["lobby", "challenge", "declined"].includes(msg.type)) refreshSoon();
  });
  await initSeekForm(refresh);
  await refresh();
}
