// @ts-check
// The engine's analysis in a Web Worker (a module worker started by
// analysis.js): the WebAssembly build of crates/wasm searches the position
// with no depth limit, reporting every line of every iteration, until the
// page stops it by ending this worker (a search does not read messages
// while it runs). One search thread: the engine has no threads in
// WebAssembly. Every move, SAN and ending comes from the rules core.
//
// In: {js, module} once (the build's script and compiled module), then
// {id, variant, start_fen, moves, multipv}. Out: {type: "ready"},
// {type: "line", id, line} for each report, {type: "done", id, depth},
// {type: "error", id, message}.

/** @type {any} */
let rules = null;
/** @type {Promise<any> | null} */
let loading = null;

self.onmessage = async (ev) => {
  const msg = ev.data;
  if (msg.js) {
    loading = (async () => {
      const mod = await import(msg.js);
      await mod.default({ module_or_path: msg.module });
      rules = mod;
      return mod;
    })();
    try {
      await loading;
      self.postMessage({ type: "ready" });
    } catch (err) {
      self.postMessage({ type: "error", id: null, message: String(err && err.message ? err.message : err) });
    }
    return;
  }
  try {
    await loading;
    analyse(msg);
  } catch (err) {
    self.postMessage({ type: "error", id: msg.id, message: String(err && err.message ? err.message : err) });
  }
};

// The line `pv` (long notation) from the game `g`'s position, with its
// SAN, its text with move numbers (as the server writes it), its first
// move's squares and how it wins (when it ends the game).
function readLine(g, start, pv) {
  const line = g.clone();
  const sans = [];
  const parts = [];
  let turn = start.turn;
  let number = start.fullmove;
  let lastMover = null;
  for (const uci of pv) {
    let m;
    try {
      m = JSON.parse(line.play(uci));
    } catch (_) {
      break;
    }
    if (turn === "white") parts.push(`${number}. ${m.san}`);
    else if (lastMover !== "white") parts.push(`${number}... ${m.san}`);
    else parts.push(m.san);
    sans.push(m.san);
    lastMover = turn;
    if (turn === "black") number++;
    turn = turn === "white" ? "black" : "white";
  }
  const end = JSON.parse(line.view()).outcome;
  line.free();
  return { sans, text: parts.join(" "), end };
}

function analyse(req) {
  const g = new rules.Game(req.variant, req.start_fen);
  try {
    for (const uci of req.moves) g.play(uci);
    const start = JSON.parse(g.view());
    const legal = new Map(start.legal.map((m) => [m.uci, m]));
    const sign = start.turn === "white" ? 1 : -1;
    const engine = new rules.Analyser(32);
    const limits = JSON.stringify({ multipv: Math.max(1, Math.min(req.multipv || 1, legal.size || 1)) });
    const result = JSON.parse(
      engine.search(g, limits, (text) => {
        const info = JSON.parse(text);
        if (!info.pv.length || (info.bound && info.bound !== "exact")) return false;
        const { sans, text: pvText, end } = readLine(g, start, info.pv);
        const score = info.score.mate !== undefined ? { mate: sign * info.score.mate } : { cp: sign * info.score.cp };
        const win = info.score.mate !== undefined && end && end.winner ? (/weak square/.test(end.reason) ? "weak square" : end.reason === "checkmate" ? "checkmate" : null) : null;
        self.postMessage({
          type: "line",
          id: req.id,
          line: {
            multipv: info.multipv,
            fen: start.fen,
            pov: "white",
            score,
            win,
            depth: info.depth,
            nodes: info.nodes,
            best: legal.get(info.pv[0]) || null,
            pv_uci: info.pv,
            pv_san: sans,
            pv_text: pvText,
          },
        });
        return false;
      }),
    );
    engine.free();
    self.postMessage({ type: "done", id: req.id, depth: result.depth });
  } finally {
    g.free();
  }
}
