// @ts-check
// What the player does to the shown position: a move played (in the game
// or in a side line), a position of the move list or a side line shown
// (computed by the rules core in the browser when it loaded, else asked
// of the server), and `run`, which makes one server request at a time and
// shows its error.

import { scheduleAnalysis } from "./analysis.js";
import { api } from "./api.js";
import { closeChooser } from "./chooser.js";
import { MoveInput } from "./input.js";
import { applyGame, refresh, prefixOf } from "./live.js";
import { lineView, viewAfter, viewAt, withLocalLists } from "./localrules.js";
import { showError, showOutage, isOutage } from "./notices.js";
import { app, variationsAllowed, canMove, hooks } from "./state.js";

export async function run(action) {
  if (app.busy) return;
  app.busy = true;
  showError("");
  try {
    await action();
  } catch (err) {
    if (err.unsent) hooks.render();
    else if (isOutage(err)) showOutage();
    else showError(err.message);
    // The game may have changed under us (409): show what it is now.
    if (err.status === 409 || err.status === 403) refresh();
  } finally {
    app.busy = false;
  }
}

export async function view(ply) {
  if (!app.state || !app.game) return;
  const target = Math.max(0, Math.min(app.game.plies, ply));
  if (target === app.game.plies) {
    app.state = app.game;
    app.input = new MoveInput(canMove() ? app.state.legal : []);
    hooks.render();
    scheduleAnalysis();
    return;
  }
  // The earlier position from the rules core in the browser, else asked.
  const line = variationsAllowed();
  const local = line ? lineView(app.game, target, []) : viewAt(app.game, target);
  if (local) {
    if (line) local.line = { base: target, moves: [] };
    showState(local);
    return;
  }
  await run(async () => {
    const v = line ? await api.line(app.gameId, target, []) : await api.game(app.gameId, target);
    if (String(v.id) !== String(app.gameId)) return;
    if (line) v.line = { base: target, moves: [] };
    showState(v);
  });
}

// One move back or on: along the side line while one is shown (on from
// its first position goes into it), else along the game.
export function step(d) {
  const s = app.state;
  const v = app.variation;
  if (s && s.line && v && s.line.base === v.base) {
    showLine(s.line.moves.length + d);
    return;
  }
  view(s.ply + d);
}

export function play(move) {
  const g = app.game;
  const s = app.state;
  if (s.line) {
    // A move in a side line, kept on the page: its position from the rules
    // core in the browser, else from the server, which checks it.
    const moves = [...s.line.moves, move.uci];
    const showLine = (st) => {
      st.line = { base: s.line.base, moves };
      app.variation = { base: s.line.base, moves, history: st.history.slice(s.line.base), prefix: prefixOf(g, s.line.base) };
      showState(st);
    };
    const local = lineView(g, s.line.base, moves);
    if (local) showLine(local);
    else run(async () => showLine(await api.line(g.id, s.line.base, moves)));
    return;
  }
  if (g.pending) {
    // A move entered while the one before is still with the server: sent
    // once the server has played that one (else dropped: the server's
    // view of the game is shown, as it says).
    const plies = g.plies;
    const waiting = app.sending;
    if (waiting) {
      waiting.then(() => {
        if (app.game && !app.game.pending && app.game.plies === plies && app.game.legal.some((m) => m.uci === move.uci)) play(move);
      });
    }
    return;
  }
  // The board after the move at once, from the rules core in the browser;
  // the server checks it and its view replaces this one. If the server
  // refuses it, the board is put back as it was, the move being entered
  // with it (a half-made Hop Chess turn stays half-made).
  const input = app.input;
  const ahead = app.busy ? null : viewAfter(g, move.uci);
  if (ahead) {
    app.game = ahead;
    app.state = ahead;
    app.input = new MoveInput(canMove() ? ahead.legal : []);
    closeChooser();
    hooks.render();
  }
  const putBack = () => {
    if (ahead && app.game === ahead) {
      app.game = g;
      app.state = s;
      app.input = input;
      hooks.render();
    }
  };
  app.sending = run(async () => {
    try {
      app.unsent = null;
      // Over the game's socket when it is open (the move's own message,
      // played on the page, comes before its ack), else posted; the
      // server's view replaces the one shown ahead (live.js).
      const acked = app.socket ? app.socket.move(move.uci, g.plies) : null;
      if (acked) {
        const v = await acked;
        if (!app.game || String(app.game.id) !== String(g.id) || app.game.version < v) await refresh();
      } else {
        applyGame(await api.play(g.id, move.uci, g.plies));
      }
    } catch (err) {
      putBack();
      if (isOutage(err) || err.closed) {
        // The move never reached the server (or its answer never came
        // back): it is kept (shown on the board, with a button to send it
        // again; the server answers a resend of a move it has played with
        // the game), and said so.
        app.unsent = { move, gameId: g.id, ply: g.plies, back: false };
        app.input = new MoveInput(canMove() ? app.state.legal : []);
        closeChooser();
        err.unsent = true;
      }
      // The board was behind the game (a move made elsewhere): the page
      // reads the game again, and says why the move was not played.
      if (err.status === 409 && err.data && typeof err.data.version === "number") {
        err.message = "The game had changed meanwhile; this is where it stands now.";
      }
      // Refused over the socket: the game is read again, as after a 409.
      if (err.socket) refresh();
      throw err;
    }
  });
}

// Sends the kept move again (the server may have played it already: a
// resend of the same move at the same ply is answered with the game).
export function resend() {
  const u = app.unsent;
  if (!u || u.gameId !== app.gameId) return;
  play(u.move);
}

// Drops the kept move.
export function dropUnsent() {
  app.unsent = null;
  app.input = new MoveInput(canMove() ? app.state.legal : []);
  hooks.render();
}

// The position after the first `n` moves of the side line.
export async function showLine(n) {
  const v = app.variation;
  if (!v) return;
  const k = Math.max(0, Math.min(v.moves.length, n));
  if (k === 0) {
    view(v.base);
    return;
  }
  const local = lineView(app.game, v.base, v.moves.slice(0, k));
  if (local) {
    local.line = { base: v.base, moves: v.moves.slice(0, k) };
    showState(local);
    return;
  }
  await run(async () => {
    const st = await api.line(app.gameId, v.base, v.moves.slice(0, k));
    if (app.variation !== v) return;
    st.line = { base: v.base, moves: v.moves.slice(0, k) };
    showState(st);
  });
}

function showState(st) {
  app.state = withLocalLists(st);
  app.input = new MoveInput(canMove() ? st.legal : []);
  closeChooser();
  hooks.render();
  scheduleAnalysis();
}
