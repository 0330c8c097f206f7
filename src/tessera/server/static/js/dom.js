// Small DOM helpers shared by every page's module.

export const $ = (id) => document.getElementById(id);

// el("a", {href: "/", className: "x", text: "Home", dataset: {id: 1}, on: {click: f}}, child…)
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "on") {
      for (const [type, handler] of Object.entries(value)) node.addEventListener(type, handler);
    } else if (key in node && typeof value !== "string") node[key] = value;
    else if (key === "className") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function button(text, onClick, props = {}) {
  return el("button", { type: "button", text, on: { click: onClick }, ...props });
}

// Show one of the pages (<main class="page">) and hide the others.
export function showPage(id, title) {
  for (const page of document.querySelectorAll("main.page")) page.hidden = page.id !== id;
  document.body.dataset.page = id;
  if (title) document.title = `${title} — Tessera`;
}

// Go to another of the app's pages (a full load: each page sets itself up from its address).
// Asked twice for one place (an accepted seek, then the server's "game started"), it goes once.
let leavingFor = null;
export function goTo(path) {
  if (location.pathname + location.search === path || leavingFor === path) return;
  leavingFor = path;
  location.assign(path);
}
