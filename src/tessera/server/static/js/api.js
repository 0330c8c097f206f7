// Talking to the server: JSON over HTTP and WebSockets for live changes. Who is asking travels
// in the session cookie (HttpOnly: this script never sees it), so a reload, or another
// device of the same player, finds its seats again.

export function rememberGame(gameId) {
  localStorage.setItem("tessera:last", gameId);
}

export function forgetLastGame() {
  localStorage.removeItem("tessera:last");
}

// A game this browser has just started (a new game, a rematch): its page shows it from the
// start, so one that ended before the page loaded (computers playing each other quickly)
// still ends with its summary.
export function markStarted(gameId) {
  sessionStorage.setItem("tessera:started", gameId);
}

// Whether the page opening ``gameId`` is the one its start led to (asked once per opening).
export function takeStarted(gameId) {
  const started = sessionStorage.getItem("tessera:started") === gameId;
  if (started) sessionStorage.removeItem("tessera:started");
  return started;
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

// Every state-changing request is JSON (the server refuses anything else), even without a body.
async function request(method, url, { body } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (method !== "GET" && body === undefined) body = {};
  let response;
  try {
    response = await fetch(url, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "network", "the server cannot be reached; check your connection");
  }
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const err = typeof data === "object" ? data : { error: String(data), reason: "http" };
    throw new ApiError(response.status, err.reason, err.error);
  }
  return data;
}

const enc = encodeURIComponent;

export const api = {
  meta: () => request("GET", "/api/meta"),
  // identity
  me: () => request("GET", "/api/me"),
  guest: (name) => request("POST", "/api/guest", { body: { name } }),
  register: (username, password) =>
    request("POST", "/api/register", { body: { username, password } }),
  login: (username, password) => request("POST", "/api/login", { body: { username, password } }),
  logout: () => request("POST", "/api/logout"),
  changePassword: (old, next) => request("POST", "/api/password", { body: { old, new: next } }),
  profile: (name) => request("GET", `/api/users/${enc(name)}`),
  // games
  create: (spec) => request("POST", "/api/games", { body: spec }),
  state: (id) => request("GET", `/api/games/${id}/state`),
  move: (id, body) => request("POST", `/api/games/${id}/move`, { body }),
  check: (id, body) => request("POST", `/api/games/${id}/check`, { body }),
  hints: (id, body) => request("POST", `/api/games/${id}/hints`, { body }),
  gcg: (id) => request("GET", `/api/games/${id}/gcg`),
  replay: (id) => request("GET", `/api/games/${id}/replay`),
  review: (id) => request("GET", `/api/games/${id}/review`),
  reviewUpload: (gcg) => request("POST", "/api/review", { body: { gcg } }),
  reviewSimulation: (id, turn) => request("GET", `/api/games/${id}/review/turns/${turn}/simulation`),
  simulateUpload: (gcg, turn) => request("POST", "/api/review/simulate", { body: { gcg, turn } }),
  rematch: (id) => request("POST", `/api/games/${id}/rematch`),
  // duplicate games (people: the names at the screen; left out, the player alone)
  duplicateStart: (opponents = [], people = null) => request("POST", "/api/duplicate", {
    body: people === null ? { opponents } : { opponents, people } }),
  duplicate: (id) => request("GET", `/api/duplicate/${enc(id)}`),
  duplicatePlay: (id, body) => request("POST", `/api/duplicate/${enc(id)}/play`, { body }),
  duplicateNext: (id, round) => request("POST", `/api/duplicate/${enc(id)}/next`, {
    body: { round } }),
  // the analysis board
  analyzeMoves: (body) => request("POST", "/api/analysis/moves", { body }),
  analysisPosition: (body) => request("POST", "/api/analysis/position", { body }),
  // the lobby
  lobby: () => request("GET", "/api/lobby"),
  postSeek: (spec) => request("POST", "/api/seeks", { body: spec }),
  seek: (id) => request("GET", `/api/seeks/${enc(id)}`),
  acceptSeek: (id) => request("POST", `/api/seeks/${enc(id)}/accept`),
  cancelSeek: (id) => request("POST", `/api/seeks/${enc(id)}/cancel`),
  // word study
  lookup: (word, lexicon) => request("GET", `/api/study/lookup?${query({ word, lexicon })}`),
  anagram: (rack, build, lexicon) =>
    request("GET", `/api/study/anagram?${query({ rack, build: build ? "1" : "0", lexicon })}`),
  pattern: (pattern, lexicon) => request("GET", `/api/study/pattern?${query({ pattern, lexicon })}`),
  quiz: (length, lexicon) => request("GET", `/api/study/quiz?${query({ length, lexicon })}`),
  answer: (body) => request("POST", "/api/study/quiz", { body }),
};

function query(params) {
  return new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null));
}

export const gcgUrl = (id) => `/api/games/${id}/gcg`;

// A WebSocket that says hello, hands every message to onMessage, tells onStatus whether it is
// connected ("open") or trying again ("lost"), and reconnects with a growing delay. A message
// of type "error" is the server refusing: the socket stays closed. While it is open,
// request(message) sends a message with an id and resolves with the server's answer to it.
const ANSWER_TIMEOUT_MS = 15000;

export function openSocket(path, { hello = {}, onMessage, onStatus = () => {} }) {
  const handle = { socket: null, closed: false, open: false };
  const waiting = new Map();  // id -> the request's {resolve, reject}
  let nextId = 1;
  let delay = 500;
  let timer = null;
  const dropWaiting = () => {
    for (const { reject } of waiting.values()) {
      reject(new ApiError(0, "network", "the connection to the server was lost"));
    }
    waiting.clear();
  };
  const open = () => {
    timer = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${path}`);
    handle.socket = socket;
    socket.addEventListener("open", () => {
      delay = 500;
      socket.send(JSON.stringify(hello));
      handle.open = true;
      onStatus("open");
    });
    socket.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "answer") {
        const request = waiting.get(msg.id);
        waiting.delete(msg.id);
        if (request) request.resolve(msg);
        return;
      }
      if (msg.type === "error") handle.closed = true;
      onMessage(msg);
    });
    socket.addEventListener("close", () => {
      if (socket !== handle.socket) return;
      handle.open = false;
      dropWaiting();
      if (handle.closed) return;
      onStatus("lost");
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    });
  };
  // back online: try at once rather than at the end of a long back-off
  const retryNow = () => {
    if (handle.closed || !timer) return;
    clearTimeout(timer);
    delay = 500;
    open();
  };
  window.addEventListener("online", retryNow);
  handle.ready = () => handle.open && handle.socket.readyState === WebSocket.OPEN;
  // an answer that does not come in time: the connection is as good as lost, so start again
  handle.request = (message) => new Promise((resolve, reject) => {
    const id = nextId++;
    const socket = handle.socket;
    const timeout = setTimeout(() => {
      if (!waiting.delete(id)) return;
      reject(new ApiError(0, "network", "the server did not answer in time"));
      if (socket === handle.socket) socket.close();
    }, ANSWER_TIMEOUT_MS);
    const settle = (f) => (value) => { clearTimeout(timeout); f(value); };
    waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
    socket.send(JSON.stringify({ ...message, id }));
  });
  handle.close = () => {
    handle.closed = true;
    handle.open = false;
    window.removeEventListener("online", retryNow);
    if (timer) clearTimeout(timer);
    if (handle.socket) handle.socket.close();
    dropWaiting();
  };
  open();
  return handle;
}

// A game's live state: every state to onState, a rematch offer to onRematch, who is watching to
// onWatchers, a refusal to onError.
// move(body) makes a move on the socket (as api.move would over HTTP): the new state comes to
// onState first, then the answer, {ok: true, seq} or {ok: false, reason, message} for a move the
// rules refuse; a refused request throws an ApiError as over HTTP.
export function connectLive(gameId, { onState, onRematch, onWatchers = () => {}, onError, onStatus }) {
  const handle = openSocket(`/api/games/${gameId}/ws`, {
    onStatus,
    onMessage(msg) {
      if (msg.type === "state") onState(msg.state);
      else if (msg.type === "rematch") onRematch(msg);
      else if (msg.type === "watchers") onWatchers(msg);
      else if (msg.type === "error") onError(msg);
    },
  });
  handle.move = async (body) => {
    const answer = await handle.request({ type: "move", move: body });
    if (answer.status) throw new ApiError(answer.status, answer.reason, answer.error);
    return answer;
  };
  return handle;
}
