// The start page: play the computer in one click, post a seek (or challenge a player, or make
// an invitation link), the open seeks to accept, challenges to answer, one's own seeks and
// games in progress, and the live games to watch. The lists follow the lobby's WebSocket.
import { api, lastGame } from "./api.js";
import { $, button, el, goTo, showPage } from "./dom.js";
import { startDuplicate } from "./duplicate.js";
import { describeClock } from "./format.js";
import { openNewGame, quickComputerGame } from "./newgame.js";
import { describeSeek, dismissOffers, onLobbyMessage } from "./notices.js";
import { initSeekForm, lobbyUser, updateRated } from "./seekform.js";
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
  return ` · for ${seek.rating_min ?? 0}–${seek.rating_max ?? "∞"}`;
}

function renderSeeks(seeks) {
  const body = $("seeks").tBodies[0];
  const error = $("lobby-error");
  body.replaceChildren(...seeks.map((seek) => el("tr", { dataset: { seek: seek.id, user: seek.user } },
    el("td", { text: seek.user }),
    el("td", { className: "num", text: seek.user_rating }),
    el("td", { text: `${seek.rules} · ${seek.lexicon} · ${seek.rated ? "rated" : "casual"}${ratingRange(seek)}` }),
    el("td", { text: describeClock(seek.clock) }),
    el("td", {}, seek.mine
      ? button("Withdraw", () => withdraw(seek, error), { className: "withdraw" })
      : button("Accept", () => accept(seek, error), { className: "primary accept" })),
  )));
  $("seeks-empty").hidden = seeks.length > 0;
}

function renderChallenges(challenges) {
  const error = $("lobby-error");
  $("challenges").replaceChildren(...challenges.map((seek) => el("li", { dataset: { seek: seek.id } },
    el("span", { text: `${seek.user}: ${describeSeek(seek)}` }),
    button("Accept", () => accept(seek, error), { className: "primary accept" }),
    button("Decline", () => withdraw(seek, error), { className: "decline" }),
  )));
  $("challenges-panel").hidden = challenges.length === 0;
  dismissOffers(new Set(challenges.map((seek) => seek.id)));
}

function renderMine(mine) {
  const error = $("lobby-error");
  $("my-seeks").replaceChildren(...mine.map((seek) => {
    const kind = seek.invite ? "invitation" : seek.direct ? "challenge" : "open seek";
    const item = el("li", { dataset: { seek: seek.id } },
      el("span", { text: `${kind}: ${describeSeek(seek)}` }));
    if (seek.invite) item.append(el("a", { href: `/invite/${seek.id}`, className: "invite-link", text: "link" }));
    item.append(button("Withdraw", () => withdraw(seek, error), { className: "withdraw" }));
    return item;
  }));
  $("mine-panel").hidden = mine.length === 0;
}

function renderLive(live) {
  $("live-games").replaceChildren(...live.map((game) => el("li", { dataset: { game: game.id } },
    el("span", { text: `${game.names.join(" vs ")} · ${game.rules} · ${describeClock(game.clock)}`
      + ` · ${game.rated ? "rated" : "casual"}` }),
    el("a", { href: `/g/${game.id}`, className: "watch", text: "Watch" }),
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
    el("span", { text: `${game.names.join(" vs ")} · ${game.rules}`
      + (game.online ? ` · ${describeClock(game.clock)}` : "") }),
    el("a", { href: `/g/${game.id}`, className: "continue", text: "Continue" }),
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
  showPage("lobby", "Lobby");
  const me = currentUser();
  $("guest-panel").hidden = !!me;
  const last = lastGame();
  $("continue-row").hidden = !last;
  if (last) $("continue-link").href = `/g/${last}`;
  $("quick-computer").addEventListener("click", async () => {
    try {
      await quickComputerGame($("guest-name").value.trim() || "Guest");
    } catch (err) {
      $("quick-error").textContent = describeError(err);
    }
  });
  $("computer-options").addEventListener("click", openNewGame);
  $("duplicate-options").addEventListener("click", async (event) => {
    event.preventDefault();  // the name typed here names the guest who plays there
    try {
      await ensureUser($("guest-name").value.trim() || "Guest");
      goTo("/duplicate");
    } catch (err) {
      $("quick-error").textContent = describeError(err);
    }
  });
  $("quick-duplicate").addEventListener("click", async () => {
    try {
      await startDuplicate($("guest-name").value.trim() || "Guest");
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
