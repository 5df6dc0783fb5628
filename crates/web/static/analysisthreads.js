// @ts-check
// The analysis on several Web Workers without shared memory: each worker
// (analysisworker.js) runs its own instance of the WebAssembly engine, with
// its own transposition table, on a share of the root moves (the engine's
// `searchmoves`), and the page merges their reports. The legal moves, in
// the rules core's order, are dealt round-robin: with 2 workers the 1st,
// 3rd, 5th ... to the first, the 2nd, 4th ... to the second. Each worker
// reports min(lines asked, its share) lines (MultiPV), so the best lines
// are found whichever share holds them. The merged view: every worker's
// lines of its latest iteration, sorted by score (each at its own depth),
// the first `multipv` of them; its depth, the smallest that every worker
// still searching has completed (a worker whose search ended, on a proven
// mate, no longer holds it back). A worker is stopped once the best line
// is a mate proven by a worker that ended at depth D and it has searched
// to D too: the single search ends there as well, a shorter mate would
// have been found by then.
//
// Root splitting costs nodes: each share is searched to full width (its
// own best line, its own refutations), none of them learns from the
// others' table, so the workers together search more nodes than one
// search of the whole position (docs/architecture.md has the figures).

/** The most workers an analysis uses. */
export const MAX_THREADS = 4;

/** A `localStorage` entry that sets the number of workers (1 to 4). */
export const THREADS_KEY = "springboard.analysisThreads";

/**
 * How many workers analyse a position with `legalCount` legal moves:
 * min(navigator.hardwareConcurrency, 4), or the count kept under
 * THREADS_KEY, never more than the legal moves, at least 1.
 * @param {number} legalCount
 */
export function threadCount(legalCount) {
  let n = Math.min(Number(navigator.hardwareConcurrency) || 1, MAX_THREADS);
  try {
    const kept = Number(localStorage.getItem(THREADS_KEY));
    if (Number.isInteger(kept) && kept >= 1 && kept <= MAX_THREADS) n = kept;
  } catch (_) {
    // no localStorage here: the hardware's count
  }
  return Math.max(1, Math.min(n, legalCount));
}

/**
 * The moves dealt round-robin into `n` shares.
 * @template T
 * @param {T[]} moves
 * @param {number} n
 * @returns {T[][]}
 */
export function dealMoves(moves, n) {
  /** @type {T[][]} */
  const shares = Array.from({ length: n }, () => []);
  moves.forEach((m, i) => shares[i % n].push(m));
  return shares;
}

const MATE = 1000000;

// A score (White's view: {cp} or {mate: moves, negative when Black
// mates}) as one number, larger when better for White: a mate beats
// every centipawn score, a shorter one more.
function whiteValue(score) {
  if (score.mate === undefined) return score.cp;
  return score.mate > 0 ? MATE - score.mate : -MATE - score.mate;
}

/**
 * @typedef {{ multipv: number, fen: string, score: { cp?: number, mate?: number }, depth: number, pv_uci: string[], share?: number, [k: string]: any }} Line
 * @typedef {{ worker: Worker, share: string[] | null, multipv: number, lines: Line[], next: Line[], depth: number, done: boolean }} Thread
 * @typedef {{ lines: Line[], depth: number, threads: number, nodes: number[], done: boolean, ready: boolean }} View
 */

/**
 * Starts the analysis of the position after `moves` from `start_fen` on
 * its workers. `onChange` hears every new iteration of a worker,
 * `onDone` the end of every worker's search, `onError` a failure (the
 * other workers are ended). `stop()` ends them all.
 * @param {{ rules: any, build: { js: string, module: WebAssembly.Module }, variant: string, start_fen: string,
 *   moves: string[], multipv: number, depth?: number, threads?: number,
 *   onChange: () => void, onDone: () => void, onError: (message: string) => void }} opts
 */
export function startAnalysis(opts) {
  const g = new opts.rules.Game(opts.variant, opts.start_fen);
  let legal;
  let white;
  try {
    for (const uci of opts.moves) g.play(uci);
    const view = JSON.parse(g.view());
    legal = view.legal.map((m) => m.uci);
    white = view.turn === "white";
  } finally {
    g.free();
  }
  const n = opts.threads ? Math.max(1, Math.min(opts.threads, legal.length)) : threadCount(legal.length);
  // One worker searches every move (no `searchmoves`), as the engine
  // alone would.
  const shares = n === 1 ? [null] : dealMoves(legal, n);
  const sign = white ? 1 : -1;
  let ended = false;

  /** @type {Thread[]} */
  const threads = shares.map((share) => ({
    worker: new Worker(new URL("./analysisworker.js", import.meta.url), { type: "module" }),
    share,
    multipv: Math.max(1, Math.min(opts.multipv, share ? share.length : legal.length || 1)),
    lines: [],
    next: [],
    depth: 0,
    done: false,
  }));

  const stop = () => {
    ended = true;
    for (const t of threads) t.worker.terminate();
  };

  /** @returns {View} */
  const view = () => {
    const all = threads.flatMap((t, i) => t.lines.map((l) => ({ ...l, share: i })));
    // Best first for the side to move; a stable sort keeps equal scores
    // in the workers' order.
    all.sort((a, b) => sign * (whiteValue(b.score) - whiteValue(a.score)));
    const running = threads.filter((t) => !t.done);
    const depth = Math.min(...(running.length ? running : threads).map((t) => t.depth));
    return {
      lines: all.slice(0, opts.multipv),
      depth,
      threads: threads.length,
      // Each worker's nodes at its latest iteration.
      nodes: threads.map((t) => (t.lines.length ? t.lines[0].nodes : 0)),
      done: running.length === 0,
      // Every worker has reported (or ended): before, a share not heard
      // from may hold a better line than those shown.
      ready: threads.every((t) => t.lines.length > 0 || t.done),
    };
  };

  // A worker's lines of one iteration come one message each (ranks 1 to
  // its multipv): they replace its lines once all have come, or when the
  // next iteration (or the end) shows that no more will.
  const commit = (t) => {
    if (!t.next.length) return;
    t.lines = t.next;
    t.depth = t.next[0].depth;
    t.next = [];
  };

  // The mate rule above: the workers that have searched as deep as the
  // worker that proved the best line's mate are ended.
  const stopBeaten = () => {
    const best = view().lines[0];
    if (!best || best.score.mate === undefined || sign * best.score.mate <= 0) return;
    const owner = threads[best.share];
    if (!owner.done) return;
    for (const t of threads) {
      if (!t.done && t.depth >= owner.depth) {
        t.worker.terminate();
        t.done = true;
      }
    }
  };

  const finish = (t) => {
    commit(t);
    t.done = true;
    t.worker.terminate();
  };

  const fail = (message) => {
    if (ended) return;
    stop();
    opts.onError(message);
  };

  threads.forEach((t, i) => {
    t.worker.onmessage = (ev) => {
      if (ended) return;
      const msg = ev.data;
      if (msg.type === "line") {
        const line = msg.line;
        if (line.multipv === 1) commit(t);
        t.next.push(line);
        if (t.next.length < t.multipv) return;
        commit(t);
      } else if (msg.type === "done") {
        finish(t);
      } else if (msg.type === "error") {
        fail(msg.message);
        return;
      } else {
        return;
      }
      stopBeaten();
      opts.onChange();
      if (threads.every((x) => x.done)) {
        ended = true;
        opts.onDone();
      }
    };
    t.worker.onerror = (ev) => {
      ev.preventDefault();
      fail("the engine in the browser failed.");
    };
    t.worker.postMessage({ js: opts.build.js, module: opts.build.module });
    t.worker.postMessage({
      id: i,
      variant: opts.variant,
      start_fen: opts.start_fen,
      moves: opts.moves,
      multipv: t.multipv,
      searchmoves: t.share,
      depth: opts.depth,
    });
  });

  return { view, stop, threads: threads.length };
}
