// The game page's message line under the board: a refusal or an error (it stays until the
// next action clears it), or a word on whose turn it is.
import { $ } from "./dom.js";
import { describeRefusal } from "./session.js";

export function setMessage(text, kind = "error") {
  const el = $("message");
  el.textContent = text;
  el.style.color = kind === "error" ? "" : "var(--info-text)";
  if (kind === "error" && text) el.dataset.sticky = "1";
  else delete el.dataset.sticky;
}

export function clearError() { delete $("message").dataset.sticky; }

// The reason a refused move was refused, once: in the message line, not also in the preview.
export function showRefusal(answer) {
  setMessage(describeRefusal(answer));
  $("preview").textContent = "";
}
