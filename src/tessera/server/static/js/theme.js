// Light or dark: the system's choice (prefers-color-scheme) until the player picks one with
// the top bar's switch, which this browser then remembers. The choice is `data-theme` on <html>.
const KEY = "tessera:theme";
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

function chosen() {
  const theme = localStorage.getItem(KEY);
  return theme === "dark" || theme === "light" ? theme : null;
}

function apply() {
  const theme = chosen() || (systemDark.matches ? "dark" : "light");
  document.documentElement.dataset.theme = theme;
  const toggle = document.getElementById("theme-btn");
  if (toggle) toggle.setAttribute("aria-pressed", String(theme === "dark"));
}

apply();  // on import, before the pages draw

export function initTheme() {
  systemDark.addEventListener("change", apply);
  document.getElementById("theme-btn").addEventListener("click", () => {
    const dark = document.documentElement.dataset.theme === "dark";
    localStorage.setItem(KEY, dark ? "light" : "dark");
    apply();
  });
}
