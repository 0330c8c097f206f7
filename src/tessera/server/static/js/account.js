// The account page: log in, register (a guest who registers keeps their games), change the
// password, log out — each refusal said plainly next to the form that caused it.
import { api } from "./api.js";
import { $, el, goTo, showPage } from "./dom.js";
import { t } from "./i18n.js";
import { currentUser, describeError, logOut, setUser } from "./session.js";

function renderStatus() {
  const me = currentUser();
  const status = $("account-status");
  status.replaceChildren();
  if (me && !me.guest) {
    // the sentence around the link to the profile: "Logged in as {name}."
    const [before, after] = t("Logged in as {name}.").split("{name}");
    status.append(before, el("a", { href: `/u/${encodeURIComponent(me.name)}`, text: me.name }), after ?? "");
  } else if (me) {
    status.append(t("You play as the guest “{name}”. Register to keep your games under a name "
      + "of your own and to play rated games, or log in to your account.", { name: me.name }));
  } else {
    status.append(t("Log in, or register to play rated games and keep a profile."));
  }
  const registered = !!me && !me.guest;
  $("login-form").hidden = registered;
  $("register-form").hidden = registered;
  $("register-guest-note").hidden = !(me && me.guest);
  $("password-form").hidden = !registered;
  $("logout-panel").hidden = !registered;
}

// Where to go once logged in: back where the player came from (?next=/path, on this site
// only: "//host" and "/\\host" lead elsewhere), else the lobby.
function next() {
  const asked = new URLSearchParams(location.search).get("next") || "/";
  let target;
  try {
    target = new URL(asked, location.origin);
  } catch {
    return "/";
  }
  return target.origin === location.origin ? target.pathname + target.search : "/";
}

async function submit(event, errorBox, action) {
  event.preventDefault();
  errorBox.textContent = "";
  const buttonEl = event.target.querySelector('button[type="submit"]');
  buttonEl.disabled = true;
  try {
    await action();
  } catch (err) {
    errorBox.textContent = err.reason ? describeError(err) : err.message;
  } finally {
    buttonEl.disabled = false;
  }
}

async function login() {
  const res = await api.login($("login-user").value.trim(), $("login-pass").value);
  setUser(res.user);
  goTo(next());
}

async function register() {
  const password = $("reg-pass").value;
  if (password !== $("reg-pass2").value) throw new Error(t("The two passwords differ."));
  const res = await api.register($("reg-user").value.trim(), password);
  setUser(res.user);
  goTo(next());
}

async function changePassword() {
  $("pw-ok").textContent = "";
  const fresh = $("pw-new").value;
  if (fresh !== $("pw-new2").value) throw new Error(t("The two new passwords differ."));
  await api.changePassword($("pw-old").value, fresh);
  $("password-form").reset();
  $("pw-ok").textContent = t("Password changed. Your other devices have been logged out.");
}

export function showAccountPage() {
  showPage("account", t("Account"));
  renderStatus();
  $("login-form").addEventListener("submit", (e) => submit(e, $("login-error"), login));
  $("register-form").addEventListener("submit", (e) => submit(e, $("reg-error"), register));
  $("password-form").addEventListener("submit", (e) => submit(e, $("pw-error"), changePassword));
  $("account-logout").addEventListener("click", () => logOut());
  if (location.hash === "#register" && !$("register-form").hidden) $("reg-user").focus();
  else if (!$("login-form").hidden) $("login-user").focus();
}
