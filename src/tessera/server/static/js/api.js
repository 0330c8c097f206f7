// Talking to the server: JSON over HTTP (the seat token in a header) and a WebSocket for
// live state. Tokens live in localStorage per game, so a reload finds its seat again.

const TOKEN_HEADER = "X-Tessera-Token";

export function tokenFor(gameId) {
  return localStorage.getItem(`tessera:token:${gameId}`) || "";
}

export function rememberGame(gameId, token) {
  localStorage.setItem(`tessera:token:${gameId}`, token);
  localStorage.setItem("tessera:last", gameId);
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

async function request(method, url, { token, body } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers[TOKEN_HEADER] = token;
  const response = await fetch(url, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
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
  create: (spec) => request("POST", "/api/games", { body: spec }),
  state: (id, token) => request("GET", `/api/games/${id}/state`, { token }),
  move: (id, token, body) => request("POST", `/api/games/${id}/move`, { token, body }),
  check: (id, token, body) => request("POST", `/api/games/${id}/check`, { token, body }),
  hints: (id, token, body) => request("POST", `/api/games/${id}/hints`, { token, body }),
  gcg: (id, token) => request("GET", `/api/games/${id}/gcg`, { token }),
};

// A WebSocket that says hello with the token, hands every state to onState, and reconnects.
export function connectLive(gameId, token, onState, onError) {
  let socket = null;
  let closed = false;
  let delay = 500;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/ws`);
    socket.addEventListener("open", () => {
      delay = 500;
      socket.send(JSON.stringify({ token }));
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
