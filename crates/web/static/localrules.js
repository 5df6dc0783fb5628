// @ts-check
// The rules core in the browser: the WebAssembly build of crates/wasm
// (scripts/wasm.sh), when the server has one (`/static/wasm.json` names
// its files). With it the page computes, with no request, the legal moves
// of the shown position with their display data (so the moves a piece may
// make are highlighted at once), the Hop Chess half-steps, and the board,
// SAN and next legal moves after a move it sends. The server stays the
// referee: it checks every move, and its view replaces what was computed
// here. Without the build (a server built without it, a browser without
// WebAssembly) the page uses the lists of the server's views. No rule is
// written here: every answer comes from the rules core.

/** @type {any} */
let rules = null;
/** @type {Promise<any> | null} */
let loading = null;

// Loads the build once; resolves to the module, or null without one.
export function loadRules() {
  if (!loading) {
    loading = (async () => {
      try {
        const resp = await fetch("/static/wasm.json", { credentials: "same-origin" });
        if (!resp.ok) return null;
        const names = await resp.json();
        const mod = await import(names.js);
        await mod.default({ module_or_path: names.wasm });
        rules = mod;
      } catch (_) {
        rules = null;
      }
      return rules;
    })();
  }
  return loading;
}

export function hasLocalRules() {
  return rules !== null;
}

// Whether moves may be entered at the view's position, as the server
// decides it for its own list: a game being played at its last move, or
// a side line, and never after the end.
function entersMoves(v) {
  if (v.outcome) return false;
  if (v.line) return true;
  return v.status === "playing" && v.ply === v.plies;
}

// The rules core's game at the view's position (its start and the moves
// before it, for repetitions), or null if it does not reach the view's
// position (then the server's lists are kept).
function gameAt(v) {
  const g = new rules.Game(v.variant, v.start_fen);
  try {
    for (const h of (v.history || []).slice(0, v.ply)) g.play(h.uci);
  } catch (_) {
    g.free();
    return null;
  }
  if (g.fen() !== v.fen) {
    g.free();
    return null;
  }
  return g;
}

// Puts the rules core's legal moves and half-steps into the view `v`
// (in place) and returns it. Without the build, the server's are kept.
export function withLocalMoves(v) {
  if (!v || typeof v !== "object") return v;
  if (rules && typeof v.fen === "string" && typeof v.variant === "string") {
    if (!entersMoves(v)) {
      v.legal = [];
      v.steps = [];
    } else {
      const g = gameAt(v);
      if (g) {
        const p = JSON.parse(g.view());
        v.legal = p.legal;
        v.steps = p.steps;
        g.free();
      }
    }
  }
  v.legal = v.legal || [];
  v.steps = v.steps || [];
  return v;
}

// The fields of a game view that the position after a move changes.
const BOARD_FIELDS = ["fen", "turn", "fullmove", "squares", "trampolines", "reserves", "check", "check_lines", "weak_squares", "stuck", "jumping", "last_move", "legal", "steps"];

// The view of the game `v` after the move `uci`, computed here to show
// at once while the server checks it; null without the build, or when the
// move ends the game (the server's view says how).
export function viewAfter(v, uci) {
  if (!rules || !v || !entersMoves(v) || v.line) return null;
  const g = gameAt(v);
  if (!g) return null;
  try {
    const m = JSON.parse(g.play(uci));
    const p = JSON.parse(g.view());
    if (p.outcome) return null;
    /** @type {any} */
    const next = { ...v, plies: v.plies + 1, ply: v.ply + 1 };
    for (const f of BOARD_FIELDS) next[f] = p[f];
    next.history = [...v.history.slice(0, v.ply), { ply: v.ply + 1, number: v.fullmove, color: v.turn, uci: m.uci, san: m.san }];
    return next;
  } catch (_) {
    return null;
  } finally {
    g.free();
  }
}
