// @ts-check
// The JSON API and the game's live socket. Every failure becomes an Error
// carrying the server's reason (and the HTTP status). A game kept in the
// browser (`/api/games/local-...`) is answered by localgame.js instead,
// which registers itself here (this module imports nothing: the e2e
// protocol test loads it alone).

/**
 * @typedef {{ call: (method: string, url: string, body: any) => Promise<any>, pgnHref: (id: string) => string }} LocalBackend
 * @type {LocalBackend | null}
 */
let localBackend = null;

/** @param {LocalBackend} backend */
export function setLocalBackend(backend) {
  localBackend = backend;
}

const isLocal = (id) => String(id).startsWith("local-");

// A request the server refused or could not answer: its reason, the HTTP
// status and the answer's JSON (or null).
export class ApiError extends Error {
  /**
   * @param {string} reason
   * @param {number} status
   * @param {any} data
   */
  constructor(reason, status, data) {
    super(reason);
    this.status = status;
    this.data = data;
  }
}

/**
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 */
async function call(method, url, body) {
  if (localBackend && url.startsWith("/api/games/local-")) return localBackend.call(method, url, body);
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const resp = await fetch(url, init);
  let data = null;
  try {
    data = await resp.json();
  } catch (_) {
    data = null;
  }
  if (!resp.ok) {
    const reason = data && data.error ? data.error : `request failed (${resp.status})`;
    throw new ApiError(reason, resp.status, data);
  }
  return data;
}

const g = (id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  account: () => call("GET", "/api/account"),
  signUp: (name, password) => call("POST", "/api/account/signup", { name, password }),
  signIn: (name, password) => call("POST", "/api/account/signin", { name, password }),
  signOut: () => call("POST", "/api/account/signout"),
  tokens: () => call("GET", "/api/account/tokens"),
  createToken: (description) => call("POST", "/api/account/tokens", { description }),
  revokeToken: (id) => call("DELETE", `/api/account/tokens/${encodeURIComponent(id)}`),
  passkeys: () => call("GET", "/api/account/passkeys"),
  removePasskey: (id) => call("DELETE", `/api/account/passkeys/${encodeURIComponent(id)}`),
  passkeyRegisterStart: (name) => call("POST", "/api/account/passkey/register/start", { name }),
  passkeyRegisterFinish: (ceremony, credential) =>
    call("POST", "/api/account/passkey/register/finish", { ceremony, credential }),
  passkeySignInStart: () => call("POST", "/api/account/passkey/signin/start", {}),
  passkeySignInFinish: (ceremony, credential) =>
    call("POST", "/api/account/passkey/signin/finish", { ceremony, credential }),
  info: () => call("GET", "/api/info"),
  rules: (variant) => call("GET", `/api/rules/${encodeURIComponent(variant)}`),
  create: (req) => call("POST", "/api/games", req),
  detect: (text) => call("POST", "/api/detect", { text }),
  game: (id, ply) => call("GET", g(id) + (ply === undefined ? "" : `?ply=${ply}`)),
  join: (id, invite) => call("POST", g(id) + "/join" + (invite ? `?invite=${encodeURIComponent(invite)}` : "")),
  play: (id, move, ply) => call("POST", g(id) + "/move", { move, ply }),
  undo: (id, plies) => call("POST", g(id) + `/undo?plies=${plies || 1}`),
  resign: (id) => call("POST", g(id) + "/resign"),
  abort: (id) => call("POST", g(id) + "/abort"),
  draw: (id, action) => call("POST", g(id) + "/draw", { action }),
  takeback: (id, action) => call("POST", g(id) + "/takeback", { action }),
  rematch: (id, action) => call("POST", g(id) + "/rematch", { action }),
  fen: (id) => call("GET", g(id) + "/fen"),
  pgn: (id) => call("GET", g(id) + "/pgn"),
  pgnDownload: (id) => (localBackend && isLocal(id) ? localBackend.pgnHref(String(id)) : g(id) + "/pgn?download=1"),
  user: (name) => call("GET", `/api/user/${encodeURIComponent(name)}`),
  counts: (name) => call("GET", `/api/user/${encodeURIComponent(name)}/counts`),
  ratingHistory: (name) => call("GET", `/api/user/${encodeURIComponent(name)}/rating-history`),
  playerGames: (name, game, status, page, nb) =>
    call(
      "GET",
      `/api/user/${encodeURIComponent(name)}/games?` +
        new URLSearchParams({ game: game || "", status: status || "all", page: String(page || 1), nb: String(nb || 20) }),
    ),
  leaders: () => call("GET", "/api/player"),
  list: (list, limit) => call("GET", `/api/games?list=${list}&limit=${limit || 50}`),
  line: (id, ply, moves) => call("POST", g(id) + "/line", { ply, moves }),
  read: (id, text, ply, moves) => call("POST", g(id) + "/read", { text, ply, moves }),
  notifications: () => call("GET", "/api/notify"),
  notifyRead: (id) => call("POST", `/api/notify/${encodeURIComponent(id)}/read`),
  notifyReadAll: () => call("POST", "/api/notify/read-all"),
  notifyEmail: () => call("GET", "/api/notify/email"),
  notifySetEmail: (address) => call("POST", "/api/notify/email", { address }),
  notifySetKinds: (kinds) => call("POST", "/api/notify/email/kinds", { kinds }),
  notifyRemoveEmail: () => call("DELETE", "/api/notify/email"),
  emailLink: (what, token) => call("GET", `/api/notify/email/${what}/${encodeURIComponent(token)}`),
  challenges: () => call("GET", "/api/lobby/challenges"),
  postChallenge: (req) => call("POST", "/api/lobby/challenges", req),
  cancelChallenge: (id) => call("POST", `/api/lobby/challenges/${encodeURIComponent(id)}/cancel`),
  acceptChallenge: (id) => call("POST", `/api/lobby/challenges/${encodeURIComponent(id)}/accept`),
  declineChallenge: (id) => call("POST", `/api/lobby/challenges/${encodeURIComponent(id)}/decline`),
  analysis: (id, ply, limit) => call("POST", g(id) + "/analysis", { ply, ...limit }),
  yourTurn: () => call("GET", "/api/games/your-turn"),
  conditional: (id) => call("GET", g(id) + "/conditional"),
  setConditional: (id, lines) => call("POST", g(id) + "/conditional", { lines }),
  clearConditional: (id) => call("DELETE", g(id) + "/conditional"),
  lab: () => call("GET", "/api/lab"),
  labQuestion: (question) => call("GET", `/api/lab/${encodeURIComponent(question)}`),
};

// The live socket of one game (the contract in docs/play-server.md): the
// server says `{"t":"move",...}` when a move was played (the page plays it
// itself) and `{"t":"state","v":V}` when the game changed otherwise (the
// page re-reads the game). The page's own moves go over it too (`move`),
// each with a request id answered by an ack or an error. Pings every 5 s;
// 10 s without any message means the connection is dead: it reconnects
// with `?v=` of the version shown, after a growing pause (0.5 s doubling
// up to 8 s). `onStatus` hears "connecting", "live" or "offline".
export class LiveSocket {
  constructor(id, handlers) {
    this.id = id;
    this.h = handlers; // { version(), onState(v), onMove(msg), onCrowd(d), onStatus(s) }
    this.ws = null;
    // The moves sent and not yet answered: request id -> {resolve, reject}.
    this.asked = new Map();
    this.lastAsk = 0;
    this.closed = false;
    this.backoff = 500;
    this.lastHeard = 0;
    this.timer = null;
    this.retry = null;
    this.connect();
    this.timer = setInterval(() => this.tick(), 1000);
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const v = this.h.version();
    const q = v === null || v === undefined ? "" : `?v=${v}`;
    return `${proto}//${location.host}${g(this.id)}/ws${q}`;
  }

  connect() {
    if (this.closed) return;
    this.h.onStatus(this.everOpen ? "offline" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (_) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.lastHeard = Date.now();
    this.lastPing = Date.now();
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.everOpen = true;
      this.backoff = 500;
      this.lastHeard = Date.now();
      this.h.onStatus("live");
      // Catch up even if the server said nothing: what changed while away.
      this.h.onOpen && this.h.onOpen();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (_) {
        return;
      }
      if (msg.t === "state" && typeof msg.v === "number") this.h.onState(msg.v);
      else if (msg.t === "move" && typeof msg.v === "number" && msg.d) {
        if (this.h.onMove) this.h.onMove(msg);
        else this.h.onState(msg.v);
      } else if (msg.t === "crowd" && msg.d) this.h.onCrowd(msg.d);
      else if (msg.t === "ack" && typeof msg.v === "number") {
        this.answer(msg.a, (p) => p.resolve(msg.v));
        this.h.onState(msg.v);
      } else if (msg.t === "error" && msg.d) {
        this.answer(msg.a, (p) => {
          const err = new Error(String(msg.d.error));
          /** @type {any} */ (err).socket = true;
          p.reject(err);
        });
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.dropAsked();
      if (!this.closed) {
        this.h.onStatus("offline");
        this.scheduleRetry();
      }
    };
    ws.onerror = () => {};
  }

  // Sends a move of the game (long notation, at `ply` moves) and resolves
  // to the game's version after it when the server acks it; rejects with
  // the server's reason (`err.socket`), or when the socket closes before
  // the answer (`err.closed`: the move may or may not have been played).
  // Null when the socket is not open: the caller posts the move instead.
  move(uci, ply) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return null;
    this.lastAsk += 1;
    const a = this.lastAsk;
    return new Promise((resolve, reject) => {
      this.asked.set(a, { resolve, reject });
      ws.send(JSON.stringify({ t: "move", d: { u: uci, ply }, a }));
    });
  }

  // The answer `a` to a move sent: handed to the waiting promise.
  answer(a, settle) {
    const p = this.asked.get(a);
    if (!p) return;
    this.asked.delete(a);
    settle(p);
  }

  // The socket is gone: the moves not yet answered never will be.
  dropAsked() {
    for (const p of this.asked.values()) {
      const err = new Error("the connection was lost before the server answered the move");
      /** @type {any} */ (err).closed = true;
      p.reject(err);
    }
    this.asked.clear();
  }

  // Try again now (the tab came back to the front, the network is back),
  // unless a connection is open or being opened.
  wake() {
    if (this.closed || this.ws) return;
    clearTimeout(this.retry);
    this.backoff = 500;
    this.connect();
  }

  scheduleRetry() {
    clearTimeout(this.retry);
    const wait = this.backoff;
    this.backoff = Math.min(this.backoff * 2, 8000);
    this.retry = setTimeout(() => this.connect(), wait);
  }

  tick() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (now - this.lastHeard > 10000) {
      // Silent for too long: a dead connection. Drop it and start again.
      this.ws = null;
      this.dropAsked();
      try {
        ws.close();
      } catch (_) {
        // closing a dead socket may throw; it is gone either way
      }
      this.h.onStatus("offline");
      this.scheduleRetry();
      return;
    }
    if (now - this.lastPing >= 5000) {
      this.lastPing = now;
      ws.send(JSON.stringify({ t: "ping" }));
    }
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.retry);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
    this.dropAsked();
  }
}
