// The page's language: its words come from the server's gettext catalogue (/api/i18n/{lang}),
// loaded before anything is drawn. English is the source: a message missing from the
// catalogue (and every message in English) shows its msgid. t("…", {name}) translates, then
// fills the {name} placeholders; tn(singular, plural, n, vars) picks the plural form for n
// (and fills {n} too). The choice is the player's (the top bar's switch, remembered in this
// browser), else the browser's languages as the server negotiates them.
const KEY = "tessera:lang";
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];  // CLDR's order

const state = { lang: "en", nplurals: 2, messages: {}, languages: { en: "English" }, rules: null };

function fill(text, vars) {
  if (!vars) return text;
  return text.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (whole, name) =>
    (Object.hasOwn(vars, name) ? String(vars[name]) : whole));
}

export function t(msgid, vars) {
  const found = state.messages[msgid];
  return fill(typeof found === "string" && found ? found : msgid, vars);
}

// gettext's forms in the order of the language's CLDR categories (one, other for English and
// Hungarian; Japanese has the one form).
function pluralIndex(n) {
  if (state.nplurals <= 1) return 0;
  const categories = state.rules.resolvedOptions().pluralCategories;
  const ordered = CATEGORIES.filter((c) => categories.includes(c));
  return Math.min(Math.max(ordered.indexOf(state.rules.select(n)), 0), state.nplurals - 1);
}

export function tn(singular, plural, n, vars = {}) {
  const found = state.messages[singular];
  const index = pluralIndex(n);
  const text = Array.isArray(found) && found[index] ? found[index] : index === 0 ? singular : plural;
  return fill(text, { n, ...vars });
}

export function currentLanguage() {
  return state.lang;
}

export function languages() {
  return state.languages;
}

// A list in the language's words ("A, B and C"; British English has no comma before "and");
// Intl knows each language's conjunction.
export function listText(items) {
  const locale = state.lang === "en" ? "en-GB" : state.lang;
  return new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(items);
}

function normalised(text) {
  return text.replace(/\s+/g, " ").trim();
}

// The page's static words: an element with data-i18n shows its message (its own text, or the
// attribute's value when given; an element with markup inside is translated with its markup),
// data-i18n-attr="title aria-label placeholder" translates those attributes.
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const explicit = node.getAttribute("data-i18n");
    if (node.children.length) {
      const msgid = explicit || normalised(node.innerHTML);
      const text = t(msgid);
      if (text !== msgid) node.innerHTML = text;  // the shipped catalogue's own markup
    } else {
      node.textContent = t(explicit || normalised(node.textContent));
    }
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of node.getAttribute("data-i18n-attr").split(/\s+/).filter(Boolean)) {
      const value = node.getAttribute(name);
      if (value) node.setAttribute(name, t(value));
    }
  }
}

function saved() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

async function fetchJson(url) {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

// Which language, and its catalogue: called (and awaited) before the app draws anything. A
// server that cannot answer leaves the page in English.
export async function loadLanguage() {
  let index = { languages: state.languages, preferred: "en", version: "" };
  try { index = await fetchJson("/api/i18n"); } catch { /* English */ }
  state.languages = index.languages;
  const mine = saved();
  const lang = mine && Object.hasOwn(index.languages, mine) ? mine : index.preferred;
  try {
    const catalogue = await fetchJson(`/api/i18n/${encodeURIComponent(lang)}?v=${index.version}`);
    Object.assign(state, { lang, nplurals: catalogue.nplurals, messages: catalogue.messages });
  } catch {
    Object.assign(state, { lang: "en", nplurals: 2, messages: {} });
  }
  state.rules = new Intl.PluralRules(state.lang);
  document.documentElement.lang = state.lang;
  translatePage();
  initSwitch();
}

// The top bar's switch: each language by its own name; a choice is remembered and the page
// reloads in it.
function initSwitch() {
  const select = document.getElementById("lang-select");
  if (!select) return;
  select.replaceChildren(...Object.entries(state.languages).map(([code, name]) => {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    return option;
  }));
  select.value = state.lang;
  select.addEventListener("change", () => {
    try { localStorage.setItem(KEY, select.value); } catch { /* this page only */ }
    location.reload();
  });
}
