// @ts-check
// Games in this browser: a game against the engine played by the
// WebAssembly build (localrules.js) with no server, or a game at one
// screen (a PGN loaded with the network cut, the analysis board). Each is
// kept in the browser's storage (localStorage, key `springboard.local.<id>`)
// move by move, so it survives a reload and the network cut, and its id
// starts with `local-` (its page is `/g/local-...`).
//
// The game page talks to such a game as to the server: api.js hands the
// requests of `/api/games/local-...` to `localCall` here (registered
// below), which answers
// them with the same JSON as the server's game API (the game view, the
// PGN, a take-back, a resignation, a rematch). Every move, SAN, board and
// ending comes from the rules core; the engine plays in a Web Worker
// (engineworker.js) at the level's limits, as the server's engine does
// (`springboard_engine::Level`: its strength and think time). No clock:
// a game in the browser is untimed.

import { setLocalBackend } from "./api.js";
import { loadRules, rulesBuild } from "./localrules.js";

const PREFIX = "local-";
const KEY = "springboard.local.";

/**
 * A game kept in the browser.
 * @typedef {{ uci: string, san: string, number: number, color: string }} Played
 * @typedef {{
 *   id: string, variant: string, title: string, mode: "engine" | "local",
 *   engine_color: string | null, level: number | null, engine_name: string | null,
 *   start_fen: string, moves: Played[], status: "playing" | "ended",
 *   result: string | null, reason: string | null, rematch: string | null,
 *   tags: Record<string, string>, version: number, created_at: number, updated_at: number,
 * }} LocalRecord
 */

/** Whether `id` names a game kept in this browser. */
export function isLocalId(id) {
  return typeof id === "string" && id.startsWith(PREFIX);
}

/** @returns {LocalRecord | null} */
function load(id) {
  try {
    const text = localStorage.getItem(KEY + id);
    return text ? JSON.parse(text) : null;
  } catch (_) {
    return null;
  }
}

/** @param {LocalRecord} rec */
function save(rec) {
  rec.version += 1;
  rec.updated_at = Date.now();
  localStorage.setItem(KEY + rec.id, JSON.stringify(rec));
}

/** The games kept in this browser, the latest first. */
export function localGames() {
  /** @type {LocalRecord[]} */
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (!k || !k.startsWith(KEY)) continue;
    const rec = load(k.slice(KEY.length));
    if (rec) out.push(rec);
  }
  return out.sort((a, b) => b.updated_at - a.updated_at);
}

/** Drops a kept game. */
export function forgetLocal(id) {
  localStorage.removeItem(KEY + id);
}

// An error as the API's: its reason and an HTTP-like status (not an
// outage: nothing went over the network).
function refused(reason, status = 400) {
  return Object.assign(new Error(reason), { status, data: null });
}

/** @type {any} */
let core = null;

async function rulesCore() {
  const mod = await loadRules();
  if (!mod) throw refused("This page has no engine for the browser: the server was built without its WebAssembly build.", 503);
  core = mod;
  return mod;
}

/**
 * The game's PGN as a `data:` URL, for the page's download link (which
 * asks for it as it draws the game: the rules core is loaded by then).
 * @param {string} id
 */
export function localPgnHref(id) {
  const rec = load(id);
  if (!core || !rec) return "#";
  return "data:application/x-chess-pgn;charset=utf-8," + encodeURIComponent(pgnOf(core, rec));
}

const other = (c) => (c === "white" ? "black" : "white");

// The rules core's game of `rec` after its first `ply` moves (all by
// default). The caller frees it.
function gameOf(R, rec, ply = rec.moves.length) {
  const g = new R.Game(rec.variant, rec.start_fen);
  try {
    for (const m of rec.moves.slice(0, ply)) g.play(m.uci);
  } catch (err) {
    g.free();
    throw err;
  }
  return g;
}

// Plays `text` (long notation or SAN) on `g`: the move as the history keeps it.
function playOn(g, text) {
  const p = JSON.parse(g.view());
  const m = JSON.parse(g.play(text));
  return { uci: m.uci, san: m.san, number: p.fullmove, color: p.turn };
}

/**
 * A new game kept in this browser: against the engine (`color` the
 * player's side, "random" allowed; `level` 1 to the server's highest) or
 * at one screen (`mode` "local"), from the start or from a PGN text.
 * Returns its view.
 */
export async function createLocal({ variant, mode, color, level, title, engineName, pgn }) {
  const R = await rulesCore();
  /** @type {Played[]} */
  let moves = [];
  let start;
  /** @type {Record<string, string>} */
  const tags = {};
  if (pgn) {
    let read;
    try {
      read = R.Game.fromPgn(pgn, undefined);
    } catch (err) {
      throw refused(err.message);
    }
    try {
      variant = read.variant();
      const played = JSON.parse(read.moves());
      // The text's start: every move of the game read taken back.
      while (read.undo() !== undefined);
      start = read.fen();
      const g = new R.Game(variant, start);
      try {
        moves = played.map((m) => playOn(g, m.uci));
      } finally {
        g.free();
      }
    } finally {
      read.free();
    }
  } else {
    const g = new R.Game(variant, null);
    start = g.fen();
    g.free();
  }
  const you = color === "random" ? (Math.random() < 0.5 ? "white" : "black") : color || "white";
  const id = PREFIX + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
  const engine = mode === "engine";
  /** @type {LocalRecord} */
  const rec = {
    id,
    variant,
    title: title || variant,
    mode: engine ? "engine" : "local",
    engine_color: engine ? other(you) : null,
    level: engine ? Math.max(1, Math.min(Number(level) || 1, 255)) : null,
    engine_name: engine ? engineName || "Springboard" : null,
    start_fen: start,
    moves,
    status: "playing",
    result: null,
    reason: null,
    rematch: null,
    tags,
    version: 0,
    created_at: Date.now(),
    updated_at: Date.now(),
  };
  const g = gameOf(R, rec);
  if (JSON.parse(g.view()).outcome) rec.status = "ended";
  g.free();
  save(rec);
  startEngine(R, rec);
  return viewOf(R, rec);
}

// The game's view, in the shape of the server's (GET /api/games/{id}),
// at `ply` (the current position by default).
function viewOf(R, rec, ply = rec.moves.length) {
  const g = gameOf(R, rec, ply);
  try {
    const p = JSON.parse(g.view());
    const current = ply === rec.moves.length;
    const over = rec.status === "ended";
    const seat = (c) =>
      rec.engine_color === c
        ? { kind: "engine", taken: true, name: `${rec.engine_name}, level ${rec.level}`, rating: null }
        : { kind: "human", taken: true, name: "You", rating: null };
    return {
      ...p,
      id: rec.id,
      version: rec.version,
      mode: rec.mode,
      origin: "played",
      invite: null,
      tags: rec.tags,
      rated: false,
      you: rec.mode === "engine" ? other(rec.engine_color) : "both",
      seats: { white: seat("white"), black: seat("black") },
      engine: rec.mode === "engine" ? { color: rec.engine_color, level: rec.level } : null,
      clock: null,
      status: rec.status,
      result: rec.result,
      reason: rec.reason,
      offers: { draw: null, takeback: null, rematch: null },
      rematch: rec.rematch,
      engine_thinking: thinking.has(rec.id),
      created_at: rec.created_at,
      updated_at: rec.updated_at,
      variant: rec.variant,
      title: rec.title,
      start_fen: rec.start_fen,
      plies: rec.moves.length,
      ply,
      history: rec.moves.map((m, i) => ({ ply: i + 1, number: m.number, color: m.color, uci: m.uci, san: m.san })),
      outcome: current ? p.outcome : null,
      legal: current && !over ? p.legal : [],
      steps: current && !over ? p.steps : [],
      local: true,
    };
  } finally {
    g.free();
  }
}

// The engine's searches under way, by game: its worker.
/** @type {Map<string, Worker>} */
const thinking = new Map();

// Who hears of a change made here (the engine's move): the open game page.
/** @type {Map<string, () => void>} */
const listeners = new Map();

/** Calls `fn` when the kept game `id` changes by itself (the engine moved). */
export function watchLocal(id, fn) {
  listeners.clear();
  listeners.set(id, fn);
}

function engineToMove(R, rec) {
  if (rec.mode !== "engine" || rec.status !== "playing") return false;
  const g = gameOf(R, rec);
  const p = JSON.parse(g.view());
  g.free();
  return p.turn === rec.engine_color && !p.outcome;
}

// Starts the engine's search when it is to move (and none runs): its move
// is played when it comes, if the game is still where it was.
function startEngine(R, rec) {
  if (thinking.has(rec.id) || !engineToMove(R, rec)) return;
  const build = rulesBuild();
  if (!build) return;
  const worker = new Worker(new URL("./engineworker.js", import.meta.url), { type: "module" });
  thinking.set(rec.id, worker);
  const at = rec.moves.length;
  const done = () => {
    worker.terminate();
    if (thinking.get(rec.id) === worker) thinking.delete(rec.id);
  };
  worker.onmessage = (ev) => {
    const msg = ev.data;
    if (msg.type === "ready") {
      worker.postMessage({ variant: rec.variant, start_fen: rec.start_fen, moves: rec.moves.map((m) => m.uci), level: rec.level });
      return;
    }
    done();
    const now = load(rec.id);
    if (msg.type !== "move" || !now || now.status !== "playing" || now.moves.length !== at) return;
    const g = gameOf(R, now);
    try {
      now.moves.push(playOn(g, msg.uci));
      endIfOver(g, now);
    } finally {
      g.free();
    }
    save(now);
    const fn = listeners.get(now.id);
    if (fn) fn();
  };
  worker.onerror = () => done();
  worker.postMessage(build);
}

function stopEngine(id) {
  const w = thinking.get(id);
  if (w) w.terminate();
  thinking.delete(id);
}

// The game ends where the rules say it does.
function endIfOver(g, rec) {
  const o = JSON.parse(g.view()).outcome;
  if (o) {
    rec.status = "ended";
    rec.result = o.result;
    rec.reason = o.reason;
  }
}

/**
 * The server's game API, answered for a game kept here: `url` is
 * `/api/games/local-.../<action>`. Throws as api.js does: an Error with
 * the reason and a status.
 * @param {string} method
 * @param {string} url
 * @param {any} body
 */
export async function localCall(method, url, body) {
  const R = await rulesCore();
  const u = new URL(url, location.href);
  const [, , , id, action = ""] = u.pathname.split("/");
  const rec = load(decodeURIComponent(id));
  if (!rec) throw refused(`There is no game ${id} in this browser.`, 404);
  const ply = u.searchParams.get("ply");
  if (method === "GET" && action === "") {
    startEngine(R, rec);
    const at = ply === null ? rec.moves.length : Number(ply);
    if (!Number.isInteger(at) || at < 0 || at > rec.moves.length) throw refused(`no position ${ply} in this game`);
    return viewOf(R, rec, at);
  }
  if (method === "GET" && action === "pgn") return { text: pgnOf(R, rec) };
  if (method === "GET" && action === "fen") {
    const g = gameOf(R, rec);
    const text = g.fen();
    g.free();
    return { text };
  }
  if (method !== "POST") throw refused("not available in a game kept in the browser", 404);
  const seat = rec.mode === "engine" ? other(rec.engine_color) : null;
  switch (action) {
    case "move": {
      if (rec.status !== "playing") throw refused("the game is over", 409);
      if (typeof body.ply === "number" && body.ply !== rec.moves.length) throw Object.assign(refused("the game has moved on", 409), { data: { version: rec.version } });
      const g = gameOf(R, rec);
      try {
        if (seat && JSON.parse(g.view()).turn !== seat) throw refused("it is not your turn", 409);
        try {
          rec.moves.push(playOn(g, body.move));
        } catch (err) {
          throw refused(err.message);
        }
        endIfOver(g, rec);
      } finally {
        g.free();
      }
      save(rec);
      startEngine(R, rec);
      return viewOf(R, rec);
    }
    case "undo":
    case "takeback": {
      // At one screen: the last `plies` moves. Against the engine: back to
      // before the player's last move (the engine's reply with it).
      if (rec.status !== "playing") throw refused("the game is over", 409);
      if (action === "takeback" && body && body.action !== "offer") throw refused("no take-back was asked", 409);
      stopEngine(rec.id);
      if (seat) {
        while (rec.moves.length && rec.moves[rec.moves.length - 1].color !== seat) rec.moves.pop();
        rec.moves.pop();
      } else {
        const n = Math.max(1, Number(u.searchParams.get("plies")) || 1);
        rec.moves.splice(Math.max(0, rec.moves.length - n));
      }
      save(rec);
      startEngine(R, rec);
      return viewOf(R, rec);
    }
    case "read": {
      // A typed move, read by the rules core where it is typed (after
      // `ply` moves, then the side line `moves`); nothing is kept.
      const at = typeof body.ply === "number" ? body.ply : rec.moves.length;
      if (!Number.isInteger(at) || at < 0 || at > rec.moves.length) throw refused(`no position ${body.ply} in this game`);
      const g = gameOf(R, rec, at);
      try {
        for (const uci of body.moves || []) g.play(uci);
        const m = JSON.parse(g.play(String(body.text)));
        return { uci: m.uci, san: m.san };
      } catch (err) {
        throw refused(err.message);
      } finally {
        g.free();
      }
    }
    case "resign":
    case "abort": {
      if (rec.status !== "playing") throw refused("the game is over", 409);
      stopEngine(rec.id);
      const g = gameOf(R, rec);
      const turn = JSON.parse(g.view()).turn;
      g.free();
      rec.status = "ended";
      if (action === "abort") {
        rec.reason = "aborted";
      } else {
        // In a game at one screen the side to move resigns.
        const loser = seat || turn;
        rec.result = loser === "white" ? "0-1" : "1-0";
        rec.reason = "resignation";
      }
      save(rec);
      return viewOf(R, rec);
    }
    case "rematch": {
      if (rec.status !== "ended" || rec.mode !== "engine") throw refused("no rematch here", 409);
      const next = await createLocal({
        variant: rec.variant,
        mode: "engine",
        color: rec.engine_color,
        level: rec.level,
        title: rec.title,
        engineName: rec.engine_name,
        pgn: null,
      });
      rec.rematch = next.id;
      save(rec);
      return viewOf(R, rec);
    }
    default:
      throw refused("not available in a game kept in the browser", 404);
  }
}

// The game's PGN: the rules core writes it, with who played and how the
// players ended it (a resignation).
function pgnOf(R, rec) {
  const g = gameOf(R, rec);
  try {
    const d = new Date(rec.created_at);
    const date = `${d.getUTCFullYear()}.${String(d.getUTCMonth() + 1).padStart(2, "0")}.${String(d.getUTCDate()).padStart(2, "0")}`;
    const tags = [
      ["Event", rec.mode === "engine" ? "Springboard game against the engine in the browser" : "Springboard game at one screen in the browser"],
      ["Site", "Springboard (this browser)"],
      ["Date", date],
    ];
    if (rec.result) tags.push(["Result", rec.result]);
    if (rec.reason === "resignation") tags.push(["Termination", "normal"]);
    const player = (c) =>
      rec.engine_color === c ? { engine: { name: rec.engine_name, level: rec.level } } : rec.mode === "engine" ? { human: "You" } : undefined;
    return g.pgnTagged(JSON.stringify({ tags, white: player("white"), black: player("black") }));
  } finally {
    g.free();
  }
}

setLocalBackend({ call: localCall, pgnHref: localPgnHref });
