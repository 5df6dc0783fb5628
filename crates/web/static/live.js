// @ts-check
// The live game: a new view of the game (from a move, the socket or a
// reload) replaces the shown one; a move the socket tells of is played on
// the page with the rules core (localrules.js), and the game is read again
// only when a version was missed, the rules core is missing or disagrees,
// or the socket says it changed otherwise; it is polled while the socket
// is down, and the connection's state is shown.

import { scheduleAnalysis } from "./analysis.js";
import { api } from "./api.js";
import { closeChooser } from "./chooser.js";
import { MoveInput } from "./input.js";
import { viewAfterMove, withLocalLists } from "./localrules.js";
import { showError } from "./notices.js";
import { showPicked } from "./picker.js";
import { $, app, canMove, ended, hooks } from "./state.js";

export function renderConnection() {
  const el = $("conn");
  el.hidden = app.screen !== "game";
  el.dataset.state = app.connection;
  el.textContent = { live: "Live", connecting: "Connecting...", offline: "Reconnecting...", none: "" }[app.connection] || "";
  el.title = app.connection === "live" ? "Connected: moves arrive as they are played" : "Not connected: trying again";
}

// A view of the current position arrived (from a move, a socket message,
// a reload): it replaces what is shown unless it is older than that.
export function applyGame(v) {
  if (!v || v.id === undefined) return;
  if (String(v.id) !== String(app.gameId)) return;
  withLocalLists(v);
  const old = app.game;
  if (old && typeof v.version === "number" && typeof old.version === "number" && v.version < old.version) return;
  // The board shows a move ahead of the server (commands.js): the view
  // from before it is not shown again; the server's answer decides.
  if (old && old.pending && typeof v.version === "number" && v.version <= old.version) return;
  app.game = v;
  app.clockAt = performance.now();
  noteDeclined(old, v);
  const va = app.variation;
  if (va && (v.plies < va.base || prefixOf(v, va.base) !== va.prefix)) {
    app.variation = null;
    if (app.state && app.state.line) app.state = v;
  }
  const browsing = app.state && old && app.state.ply < old.plies && app.state.id === v.id;
  const keep = (browsing && old.plies === v.plies && app.state.ply <= v.plies) || (app.state && app.state.line && app.state.id === v.id);
  if (!keep) app.state = v;
  // A kept move (not sent in an outage) stays while it can still be
  // played as it was; else it was played after all (the server had it)
  // or the game went on: it is dropped.
  const u = app.unsent;
  if (u && (String(u.gameId) !== String(v.id) || v.plies !== u.ply || !(v.legal || []).some((m) => m.uci === u.move.uci))) {
    app.unsent = null;
  }
  if (app.seatSeen !== v.you) {
    app.seatSeen = v.you;
    app.board.flipped = v.you === "black";
  }
  if (v.rematch && old && !old.rematch && (v.you === "white" || v.you === "black")) {
    // The rematch was agreed: both players go to the new game.
    hooks.navigate(`/g/${v.rematch}`);
    return;
  }
  // The same version again (the socket's catch-up read): a move being
  // entered (a picked piece, the open picker) stays; else it starts over.
  const same = old && typeof v.version === "number" && v.version === old.version && v.you === old.you;
  // The server's view of the move shown ahead of it is that position with
  // those moves: a next move being entered there stays too.
  const agreed = old && old.pending && agrees(old, v);
  if (!same && !agreed) {
    app.input = new MoveInput(canMove() ? app.state.legal : []);
    closeChooser();
  }
  if (v.variant !== (old && old.variant)) showPicked(v.variant);
  document.title = `${v.title} - Springboard`;
  hooks.render();
  scheduleAnalysis();
  schedulePoll();
}

// A move the socket told of (`{"t":"move","v":V,"d":{...}}`): played on
// the view at version V-1 (the one shown, or the one a move shown ahead of
// the server was made from), else the game is read again.
export function applyMove(msg) {
  const g = app.game;
  if (!g || typeof g.version !== "number") {
    refresh();
    return;
  }
  // Already shown (the answer to a posted move came first).
  if (msg.v <= g.version) return;
  const base = g.pending ? g.base : g;
  const next = base && msg.v === base.version + 1 ? viewAfterMove(base, msg.d, msg.v) : null;
  if (next) applyGame(next);
  else refresh();
}

// Whether the server's view `v` is the position `mine` computed in the
// browser, with the same legal moves.
function agrees(mine, v) {
  if (v.fen !== mine.fen || v.plies !== mine.plies || v.you !== mine.you || !Array.isArray(v.legal)) return false;
  const ucis = new Set(mine.legal.map((m) => m.uci));
  return v.legal.length === ucis.size && v.legal.every((m) => ucis.has(m.uci));
}

// This player's draw or rematch offer is gone while the game goes on (or
// no rematch started): the opponent declined it (a move declines a draw
// offer). Said in the offers until the game changes again.
function noteDeclined(old, v) {
  if (!old || old.id !== v.id || typeof v.version !== "number" || v.version === old.version) return;
  const y = v.you;
  const was = old.offers || {};
  const now = v.offers || {};
  let text = null;
  if ((y === "white" || y === "black") && was.draw === y && !now.draw && v.status === "playing" && !ended(v)) {
    if (v.plies === old.plies) text = "Your opponent declined your draw offer.";
    else if (v.plies > old.plies) text = "Your opponent played on: your draw offer is declined.";
  }
  if ((y === "white" || y === "black") && was.rematch === y && !now.rematch && !v.rematch) {
    text = "Your opponent declined the rematch.";
  }
  if (text) app.declined = { text, version: v.version };
}

// Re-reads the game (after the socket said it changed, or to catch up).
let refreshing = null;

let refreshAgain = false;

export async function refresh() {
  if (!app.gameId) return;
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  const id = app.gameId;
  refreshing = (async () => {
    try {
      const v = await api.game(id);
      if (id === app.gameId) applyGame(v);
    } catch (err) {
      if (id === app.gameId && err.status) showError(err.message);
    }
  })();
  await refreshing;
  refreshing = null;
  if (refreshAgain) {
    refreshAgain = false;
    await refresh();
  }
}

// While the socket is down, the page still reads the game every 2 s.
export function schedulePoll() {
  clearTimeout(app.pollTimer);
  if (app.screen !== "game" || app.connection === "live") return;
  app.pollTimer = setTimeout(async () => {
    if (app.connection !== "live") await refresh();
    schedulePoll();
  }, 2000);
}

// The game's moves before a side line leaves it (the line is dropped when
// they change: a take-back).
export function prefixOf(g, base) {
  return g.history
    .slice(0, base)
    .map((h) => h.uci)
    .join(" ");
}
