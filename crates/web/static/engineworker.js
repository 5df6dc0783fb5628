// @ts-check
// The engine's move in a game kept in the browser (localgame.js), in a
// Web Worker: the WebAssembly build of crates/wasm searches at the game's
// level as the server's engine plays it (the level's strength and think
// time, `springboard_engine::Level`, through the `level` search limit),
// one search thread, then answers the move and ends.
//
// In: {js, module} once (the build's script and compiled module), then
// {variant, start_fen, moves, level}. Out: {type: "ready"}, then
// {type: "move", uci} or {type: "error", message}.

/** @type {any} */
let engineCore = null;

self.onmessage = async (ev) => {
  const msg = ev.data;
  try {
    if (msg.js) {
      const mod = await import(msg.js);
      await mod.default({ module_or_path: msg.module });
      engineCore = mod;
      self.postMessage({ type: "ready" });
      return;
    }
    const g = new engineCore.Game(msg.variant, msg.start_fen);
    const engine = new engineCore.Analyser(32);
    try {
      for (const uci of msg.moves) g.play(uci);
      const result = JSON.parse(engine.search(g, JSON.stringify({ level: msg.level }), () => false));
      if (result.best) self.postMessage({ type: "move", uci: result.best });
      else self.postMessage({ type: "error", message: "the engine has no move here" });
    } finally {
      engine.free();
      g.free();
    }
  } catch (err) {
    self.postMessage({ type: "error", message: String(err && err.message ? err.message : err) });
  }
};
