// Talking to the server: JSON over HTTP and a WebSocket for live state. Who is asking travels
// in the session cookie (HttpOnly: this script never sees it), so a reload, or another
// device of the same player, finds its seats again.

export function rememberGame(gameId) {
  localStorage.setItem("tessera:last", gameId);
}

export function forgetLastGame() {
  localStorage.removeItem("tessera:last");
}

export function lastGame() {
  return localStorage.getItem("tessera:last");
}

export class ApiError extends Error {
  constructor(status, reason, message) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

async function request(method, url, { body } = {}) {
  const headers = { "Content-Type": "application/json" };
  const response = await fetch(url, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const err = typeof data === "object" ? data : { error: String(data), reason: "http" };
    throw new ApiError(response.status, err.reason, err.error);
  }
  return data;
}

export const api = {
  meta: () => request("GET", "/api/meta"),
  me: () => request("GET", "/api/me"),
  create: (spec) => request("POST", "/api/games", { body: spec }),
  state: (id) => request("GET", `/api/games/${id}/state`),
  move: (id, body) => request("POST", `/api/games/${id}/move`, { body }),
  check: (id, body) => request("POST", `/api/games/${id}/check`, { body }),
  hints: (id, body) => request("POST", `/api/games/${id}/hints`, { body }),
  gcg: (id) => request("GET", `/api/games/${id}/gcg`),
};

// A WebSocket that says hello, hands every state to onState, and reconnects.
export function connectLive(gameId, onState, onError) {
  let socket = null;
  let closed = false;
  let delay = 500;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/ws`);
    socket.addEventListener("open", () => {
      delay = 500;
      socket.send(JSON.stringify({}));
    });
    socket.addEventListener("message", (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "state") onState(msg.state);
      else if (msg.type === "error") { closed = true; onError(msg); }
    });
    socket.addEventListener("close", () => {
      if (closed) return;
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    });
  };
  open();
  return { close() { closed = true; if (socket) socket.close(); } };
}
