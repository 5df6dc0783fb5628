// @ts-check
// The rules core in the browser: the WebAssembly build of crates/wasm
// (scripts/wasm.sh), when the server has one (`/static/wasm.json` names
// its files). With it the page computes, with no request, the positions
// it reaches by itself: the board, SAN and next legal moves after a move
// the player makes (shown at once while the server checks it), the
// earlier positions of the game when stepping through its moves, the
// side lines, and the legal moves of a view that came without them. The
// server stays the referee: a view it sends replaces what was computed
// here, and its lists win where they are given. Without the build (a
// server built without it, a browser without WebAssembly) or where the
// rules core does not reach a view's position, the page asks the server
// as before. No rule is written here: every answer comes from the rules
// core.

/** @type {any} */
let rules = null;
/** @type {{ js: string, module: WebAssembly.Module } | null} */
let build = null;
/** @type {Promise<any> | null} */
let loading = null;

// Loads the build once; resolves to the module, or null without one.
// Never throws: any failure leaves the page on the server's answers.
export function loadRules() {
  if (!loading) {
    loading = load().then(
      (mod) => mod,
      (err) => {
        console.warn("the rules core in the browser did not load; the server answers:", err);
        return null;
      },
    );
    loading.then((mod) => {
      rules = mod;
      document.documentElement.dataset.rules = mod ? "wasm" : "server";
    });
  }
  return loading;
}

// The build named by wasm.json, initialised; null without one.
async function load() {
  if (typeof WebAssembly !== "object") return null;
  const resp = await fetch("/static/wasm.json", { credentials: "same-origin" });
  if (!resp.ok) return null;
  const names = await resp.json();
  const [mod, module] = await Promise.all([
    import(names.js),
    fetch(names.wasm).then(async (r) => {
      if (!r.ok) throw new Error(`${names.wasm}: ${r.status}`);
      return WebAssembly.compile(await r.arrayBuffer());
    }),
  ]);
  await mod.default({ module_or_path: module });
  build = { js: new URL(names.js, location.href).href, module };
  return mod;
}

// The build's script and compiled module (for the analysis worker), or
// null without it.
export function rulesBuild() {
  return build;
}

// A rules core game of the view `v`'s game after its first `ply` moves,
// or null where it cannot be built (no build, a view it does not read).
// The caller frees it.
function gameOf(v, ply) {
  if (!rules || !v || typeof v.variant !== "string" || typeof v.start_fen !== "string" || !Array.isArray(v.history)) return null;
  if (ply > v.history.length) return null;
  let g = null;
  try {
    g = new rules.Game(v.variant, v.start_fen);
    for (const h of v.history.slice(0, ply)) g.play(h.uci);
    return g;
  } catch (_) {
    if (g) g.free();
    return null;
  }
}

// Whether the rules core reaches the view's own position from its start
// and moves (a hand-made or unknown view is left to the server).
const checked = new Map();
function reaches(v) {
  const key = `${v.id}|${v.version}|${v.ply}|${v.fen}`;
  if (checked.has(key)) return checked.get(key);
  const g = gameOf(v, v.ply);
  const ok = !!g && g.fen() === v.fen;
  if (g) g.free();
  if (checked.size > 200) checked.clear();
  checked.set(key, ok);
  return ok;
}

// The position's fields of a view, from the rules core's view of `g`.
const BOARD_FIELDS = ["fen", "turn", "fullmove", "squares", "trampolines", "reserves", "check", "check_lines", "weak_squares", "stuck", "jumping", "last_move"];

function positionOf(g) {
  return JSON.parse(g.view());
}

function boardOf(p) {
  /** @type {any} */
  const out = {};
  for (const f of BOARD_FIELDS) out[f] = p[f];
  return out;
}

// The history entry of the move `m` ({uci, san}) played at position `p`.
function entry(p, m, ply) {
  return { ply, number: p.fullmove, color: p.turn, uci: m.uci, san: m.san };
}

// A view from the server without its legal moves (or half-steps): filled
// here when the rules core reaches its position, as the server fills them
// (the current position of a game being played, or a side line, never
// after the end). Lists the server gave are kept: they win.
export function withLocalLists(v) {
  if (!v || typeof v !== "object") return v;
  if (!Array.isArray(v.legal) || !Array.isArray(v.steps)) {
    const enters = !v.outcome && (v.line ? true : v.status === "playing" && v.ply === v.plies);
    if (Array.isArray(v.legal) && v.legal.length === 0) {
      v.steps = [];
    } else if (enters && reaches(v)) {
      const g = gameOf(v, v.ply);
      if (g) {
        const p = positionOf(g);
        g.free();
        if (!Array.isArray(v.legal)) v.legal = p.legal;
        if (!Array.isArray(v.steps)) v.steps = p.steps;
      }
    }
  }
  if (!Array.isArray(v.legal)) v.legal = [];
  if (!Array.isArray(v.steps)) v.steps = [];
  return v;
}

// The view of the game `g` (the server's latest, at its last move) after
// the move `uci`, to show at once while the server checks it: the board,
// the move's SAN in the history, the next legal moves. Marked `pending`;
// null without the build, where the rules core does not reach the view,
// or when the move ends the game (the server says how).
export function viewAfter(g, uci) {
  if (!rules || !g || g.line || g.ply !== g.plies || g.outcome || g.status !== "playing" || !reaches(g)) return null;
  const game = gameOf(g, g.plies);
  if (!game) return null;
  try {
    const m = JSON.parse(game.play(uci));
    const p = positionOf(game);
    if (p.outcome) return null;
    return {
      ...g,
      ...boardOf(p),
      plies: g.plies + 1,
      ply: g.ply + 1,
      history: [...g.history.slice(0, g.plies), entry(g, m, g.plies + 1)],
      legal: p.legal,
      steps: p.steps,
      pending: true,
      // The server's view it was computed from (a move told by the socket
      // applies to it).
      base: g,
    };
  } catch (_) {
    return null;
  } finally {
    game.free();
  }
}

// The view of the game `g` (the server's latest, at its last move) after
// the move the socket told of: `d` is the message's `{uci, san, ply,
// clock, status, result, reason, offers}` and `v` the version after it.
// The board, SAN, legal moves and end come from the rules core, the
// clocks and offers from the message. Null without the build, where the
// rules core does not reach `g`, or where it disagrees with the server
// (another SAN, another end), and when the move ends a rated game (its
// view says the rating changes): the page then re-reads the game.
export function viewAfterMove(g, d, v) {
  if (!rules || !g || !d || g.line || g.pending || g.ply !== g.plies || g.outcome || g.status !== "playing") return null;
  if (d.ply !== g.plies + 1 || typeof d.uci !== "string" || !!g.clock !== !!d.clock || !reaches(g)) return null;
  const game = gameOf(g, g.plies);
  if (!game) return null;
  try {
    const m = JSON.parse(game.play(d.uci));
    if (m.san !== d.san) return null;
    const p = positionOf(game);
    const o = p.outcome || null;
    const over = d.status === "ended";
    if (!!o !== over || (o && o.result !== d.result) || (over && g.rated)) return null;
    const clock = g.clock
      ? { ...g.clock, white_ms: d.clock.white_ms, black_ms: d.clock.black_ms, running: d.clock.running || null, deadline: d.clock.deadline }
      : null;
    if (clock && clock.deadline === undefined) delete clock.deadline;
    const offers = d.offers || {};
    return {
      ...g,
      ...boardOf(p),
      version: v,
      plies: g.plies + 1,
      ply: g.ply + 1,
      history: [...g.history.slice(0, g.plies), entry(g, m, g.plies + 1)],
      status: d.status,
      result: d.result || null,
      reason: d.reason || null,
      outcome: o,
      clock,
      offers: { ...g.offers, draw: offers.draw || null, takeback: offers.takeback || null },
      engine_thinking: !o && !!g.engine && g.engine.color === p.turn,
      legal: o ? [] : p.legal,
      steps: o ? [] : p.steps,
    };
  } catch (_) {
    return null;
  } finally {
    game.free();
  }
}

// The view of an earlier position of the game `g` (after `ply` of its
// moves), as the server's `?ply=` answers it: no moves to enter there.
export function viewAt(g, ply) {
  if (!rules || !g || ply < 0 || ply > g.plies || !reaches(g)) return null;
  const game = gameOf(g, ply);
  if (!game) return null;
  try {
    const p = positionOf(game);
    const current = ply === g.plies;
    return {
      ...g,
      ...boardOf(p),
      ply,
      outcome: current ? g.outcome : null,
      legal: current ? g.legal : [],
      steps: current ? g.steps : [],
    };
  } catch (_) {
    return null;
  } finally {
    game.free();
  }
}

// The view of a side line of the game `g`: its first `base` moves, then
// `moves` (long notation), as the server's `/line` answers it (the line's
// own end, no clock, no offers). Null where the rules core cannot build
// it (the server is asked then, and says why).
export function lineView(g, base, moves) {
  if (!rules || !g || base < 0 || base > g.plies || !reaches(g)) return null;
  const game = gameOf(g, base);
  if (!game) return null;
  try {
    const history = g.history.slice(0, base);
    let p = positionOf(game);
    for (const uci of moves) {
      if (p.outcome) return null;
      const m = JSON.parse(game.play(uci));
      history.push(entry(p, m, history.length + 1));
      p = positionOf(game);
    }
    const o = p.outcome;
    return {
      ...g,
      ...boardOf(p),
      plies: history.length,
      ply: history.length,
      history,
      status: o ? "ended" : "playing",
      result: o ? o.result : null,
      reason: o ? o.reason : null,
      outcome: o,
      clock: null,
      offers: { draw: null, takeback: null, rematch: null },
      rematch: null,
      engine_thinking: false,
      legal: p.legal,
      steps: p.steps,
    };
  } catch (_) {
    return null;
  } finally {
    game.free();
  }
}
