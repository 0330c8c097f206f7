// A player's profile: ratings per rules family and speed with a chart of each over time,
// recent games (finished ones replayable move by move and downloadable as GCG).
import { api, gcgUrl } from "./api.js";
import { lineChart } from "./charts.js";
import { $, button, el, showPage } from "./dom.js";
import { describeClock, describeRatingKey, describeResult, formatDate, versus } from "./format.js";
import { t } from "./i18n.js";
import { openReplay } from "./replay.js";
import { describeError } from "./session.js";

const START_RATING = 1500;  // every player's first rating in a key (Glicko-2's usual start)

function renderRatings(ratings, history) {
  $("profile-ratings").tBodies[0].replaceChildren(...ratings.map((r) => el("tr", { dataset: { key: r.key } },
    el("td", { text: describeRatingKey(r.key) }),
    el("td", { className: "num rating", text: r.rating }),
    el("td", { className: "num muted", text: `± ${r.deviation}` }),
    el("td", { className: "num", text: r.games }),
  )));
  $("profile-unrated").hidden = ratings.length > 0;
  $("rating-charts").replaceChildren(...ratings.map((r) => ratingChart(r, history)));
}

// The rating after each rated game of one key (from the start rating, when the history holds
// every game of that key).
function ratingChart(rating, history) {
  const points = history.filter((h) => h.key === rating.key);
  const values = points.map((h) => h.rating);
  const titles = points.map((h) => `${formatDate(h.at)}: ${Math.round(h.rating)}`);
  if (points.length === rating.games) {
    values.unshift(START_RATING);
    titles.unshift(t("start: {rating}", { rating: START_RATING }));
  }
  const low = Math.min(...values), high = Math.max(...values);
  const pad = Math.max(20, (high - low) * 0.1);
  const chart = lineChart({
    series: [{ label: String(rating.rating), values, titles }],
    range: [Math.floor((low - pad) / 10) * 10, Math.ceil((high + pad) / 10) * 10],
    xLabel: t("rated games"), dots: true, height: 180,
  });
  return el("figure", { className: "rating-chart", dataset: { key: rating.key } },
    el("figcaption", { text: describeRatingKey(rating.key) }), chart);
}

function resultText(game) {
  if (game.status === "live") return t("in progress");
  if (game.status === "aborted") return t("aborted");
  return describeResult(game.result, game.names);
}

function renderGames(games) {
  $("profile-games").tBodies[0].replaceChildren(...games.map((game) => {
    const actions = el("td", { className: "actions-cell" });
    if (game.status === "over") {
      actions.append(
        button(t("Replay"), () => openReplay(game.id), { className: "replay-btn" }),
        el("a", { href: gcgUrl(game.id), download: `tessera-${game.id}.gcg`, text: "GCG", className: "gcg-link" }),
      );
    } else {
      actions.append(el("a", { href: `/g/${game.id}`, text: game.status === "live" ? t("Open") : t("View") }));
    }
    const kind = game.online ? `${describeClock(game.clock)} · ${game.rated ? t("rated") : t("casual")}`
      : t("at one screen");
    return el("tr", { dataset: { game: game.id } },
      el("td", { text: formatDate(game.created_ms) }),
      el("td", { text: versus(game.names) }),
      el("td", { text: `${game.rules} · ${kind}` }),
      el("td", { text: resultText(game) }),
      actions,
    );
  }));
  $("profile-no-games").hidden = games.length > 0;
}

export async function showProfilePage(name) {
  showPage("profile", name);
  $("profile-name").textContent = name;
  let data;
  try {
    data = await api.profile(name);
  } catch (err) {
    $("profile-error").textContent = err.status === 404
      ? t("There is no player named “{name}”.", { name }) : describeError(err);
    return;
  }
  $("profile-name").textContent = data.user.name;
  renderRatings(data.ratings, data.history);
  renderGames(data.games);
  const asked = new URLSearchParams(location.search).get("replay");
  if (asked) await openReplay(asked);
}
