// An invitation link's page: what the game is, and Accept (as a guest if need be). The one who
// made it sees the link to send instead, and goes to the game when it starts (notices.js).
import { api } from "./api.js";
import { $, el, goTo, showPage } from "./dom.js";
import { t } from "./i18n.js";
import { describeSeek } from "./notices.js";
import { inviteUrl } from "./seekform.js";
import { currentUser, describeError, ensureUser } from "./session.js";

export async function showInvitePage(seekId) {
  showPage("invite", t("Invitation"));
  let seek;
  try {
    seek = (await api.seek(seekId)).seek;
  } catch (err) {
    $("invite-text").textContent = err.status === 404
      ? t("There is no invitation at this address: it may have been mistyped.")
      : describeError(err);
    return;
  }
  const me = currentUser();
  if (seek.status !== "open") {
    $("invite-text").textContent = seek.status === "taken"
      ? t("{name}'s invitation has been accepted.", { name: seek.user })
      : t("{name} withdrew this invitation.", { name: seek.user });
    if (seek.game_id) {
      $("invite-text").append(" ", el("a", { href: `/g/${seek.game_id}`, text: t("Go to the game") }));
    }
    return;
  }
  $("invite-text").textContent = t("{name} invites you to play: {game}.",
    { name: seek.user, game: describeSeek(seek) });
  if (me && me.name === seek.user) {
    $("invite-own").hidden = false;
    $("invite-own-link").value = inviteUrl(seek.id);
    $("invite-own-copy").addEventListener("click", async () => {
      $("invite-own-link").select();
      try { await navigator.clipboard.writeText($("invite-own-link").value); } catch { document.execCommand("copy"); }
    });
    return;
  }
  $("invite-accept-box").hidden = false;
  $("invite-guest-row").hidden = !!me;
  if ($("invite-guest-name").value === "Guest") $("invite-guest-name").value = t("Guest");
  $("invite-login").href = `/account?next=${encodeURIComponent(location.pathname)}`;
  $("invite-accept").addEventListener("click", async () => {
    $("invite-error").textContent = "";
    try {
      await ensureUser($("invite-guest-name").value.trim() || t("Guest"));
      const { game_id: gameId } = await api.acceptSeek(seek.id);
      goTo(`/g/${gameId}`);
    } catch (err) {
      $("invite-error").textContent = describeError(err);
    }
  });
}
