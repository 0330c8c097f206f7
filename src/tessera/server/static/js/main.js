// The app's entry: who is here (the top bar), the notices every page gets, and the page for
// this address — the server answers every page address with this one document — in the
// player's language (i18n.js).
import { initTheme } from "./theme.js";  // first: the colours are set before anything draws
import { loadLanguage } from "./i18n.js";
import { showAccountPage } from "./account.js";
import { showAnalysisPage } from "./analysis.js";
import { showDuplicatePage } from "./duplicate.js";
import { showInvitePage } from "./invite.js";
import { openGamePage } from "./game.js";
import { showLobbyPage } from "./lobby.js";
import { initNewGame } from "./newgame.js";
import { startNotices } from "./notices.js";
import { showProfilePage } from "./profile.js";
import { showReviewPage } from "./review.js";
import { showStudyPage } from "./study.js";
import { loadMe } from "./session.js";

const ROUTES = [
  [/^\/(lobby)?$/, () => showLobbyPage()],
  [/^\/g\/([\w-]+)$/, (m) => openGamePage(m[1])],
  [/^\/u\/([^/]+)$/, (m) => showProfilePage(decodeURIComponent(m[1]))],
  [/^\/invite\/([\w-]+)$/, (m) => showInvitePage(m[1])],
  [/^\/account$/, () => showAccountPage()],
  [/^\/study$/, () => showStudyPage()],
  [/^\/analysis$/, () => showAnalysisPage()],
  [/^\/review$/, () => showReviewPage()],
  [/^\/review\/([\w-]+)$/, (m) => showReviewPage(m[1])],
  [/^\/duplicate$/, () => showDuplicatePage(null)],
  [/^\/duplicate\/([\w-]+)$/, (m) => showDuplicatePage(m[1])],
];

async function start() {
  await loadLanguage();  // the page's words, before anything is drawn
  initTheme();
  initNewGame();
  await loadMe();
  startNotices();
  for (const [pattern, show] of ROUTES) {
    const m = location.pathname.match(pattern);
    if (m) { await show(m); return; }
  }
  showLobbyPage();
}

start();
