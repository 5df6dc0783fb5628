// @ts-check
// The engine's analysis of the shown position: its score, depth and best
// line beside the board (with the next best lines), the evaluation bar,
// and the best moves' arrows. With the rules core in the browser
// (localrules.js) the engine runs there, in a Web Worker
// (analysisworker.js), with no depth limit: each iteration is shown as it
// ends, until the position changes or the analysis is switched off. One
// search thread. Without the build the server's analysis endpoint answers.

import { api } from "./api.js";
import { loadRules, rulesBuild } from "./localrules.js";
import { $, app, viewingCurrent, ended, hooks } from "./state.js";

// Every position shown (after a move, a takeback, or stepping through the
// move list) is analysed. Only the answer about the latest position is
// shown: an older one (its position no longer shown) is dropped; the
// server stops an older search itself, the worker's is ended here.
// `lines`: the worker's latest line of each rank (MultiPV).
const analysis = { seq: 0, timer: null, answer: null, lines: [], worker: null, drawTimer: null };

// How many lines the engine in the browser reports.
const MULTIPV = 3;

// The engine's best move as an arrow through its trampolines (with its
// Hop Chess placement), while the analysis of the shown position is shown.
export function bestArrow() {
  const a = analysis.answer;
  if (!a || !analysisMode() || !app.state || a.fen !== app.state.fen || !a.best) return null;
  const b = a.best;
  if (!b.from || !b.to) return null;
  return { points: [b.from, ...b.via, b.to], kind: "best", place: b.place };
}

// The first moves of the next best lines (MultiPV), as fainter arrows.
export function otherArrows() {
  const a = analysis.answer;
  if (!a || !analysisMode() || !app.state || a.fen !== app.state.fen) return [];
  return analysis.lines
    .slice(1)
    .filter((l) => l && l.fen === a.fen && l.best && l.best.from && l.best.to)
    .map((l) => ({ points: [l.best.from, ...l.best.via, l.best.to], kind: "alt", place: l.best.place }));
}

// White's share of the bar: 50% at 0.00, towards 100% as White gains.
export function renderEvalBar() {
  const bar = $("evalbar");
  const a = analysis.answer;
  // The bar stays while the engine thinks (at its last value, dimmed), so
  // the board does not move.
  bar.hidden = !analysisMode();
  const fresh = !bar.hidden && a && app.state && a.fen === app.state.fen;
  bar.classList.toggle("stale", !fresh);
  if (!fresh) return;
  let share;
  if (a.score.mate !== undefined) share = a.score.mate > 0 ? 1 : 0;
  else share = 1 / (1 + Math.exp(-a.score.cp / 250));
  /** @type {HTMLElement} */ (bar.querySelector(".white")).style.height = `${(share * 100).toFixed(1)}%`;
  bar.classList.toggle("flipped", app.board.flipped);
  bar.dataset.share = share.toFixed(3);
  bar.title = `Evaluation: ${$("analysis-score").textContent}`;
}

function analysisMode() {
  return app.info && app.info.engine && app.screen === "game" && !$("analysis-box").hidden && $("analysis-toggle", HTMLInputElement).checked;
}

// "+0.34", "-1.20", "0.00"; a won game by how the line ends (read by the
// server from the rules core): "White mates in 3", "Black wins by the
// weak square in 2", or "White wins in 4" when the line stops short.
function formatScore(score, win) {
  if (score.mate !== undefined) {
    const n = score.mate;
    const side = n > 0 ? "White" : "Black";
    const moves = Math.abs(n);
    if (win === "weak square") return `${side} wins by the weak square in ${moves}`;
    if (win === "checkmate") return `${side} mates in ${moves}`;
    return `${side} wins in ${moves}`;
  }
  const pawns = score.cp / 100;
  return (pawns > 0 ? "+" : "") + pawns.toFixed(2);
}

function showAnalysis(fields, answer) {
  analysis.answer = answer || null;
  if (!answer) analysis.lines = [];
  renderLines();
  const score = $("analysis-score");
  score.textContent = fields.score || "";
  score.dataset.kind = fields.kind || "";
  $("analysis-depth").textContent = fields.depth ? `depth ${fields.depth}` : "";
  $("analysis-line").textContent = fields.line || "";
  $("analysis-status").textContent = fields.status || "";
  $("analysis").dataset.ply = fields.ply === undefined ? "" : String(fields.ply);
  renderEvalBar();
}

// The next best lines under the best one.
function renderLines() {
  const list = $("analysis-lines");
  const a = analysis.answer;
  const rest = a ? analysis.lines.slice(1).filter((l) => l && l.fen === a.fen) : [];
  list.hidden = rest.length === 0;
  list.replaceChildren(
    ...rest.map((l) => {
      const li = document.createElement("li");
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = formatScore(l.score, l.win);
      li.append(score, " ", l.pv_text);
      return li;
    }),
  );
}

// Ends the worker's search (a search reads no message while it runs).
function stopWorker() {
  clearTimeout(analysis.drawTimer);
  analysis.drawTimer = null;
  if (analysis.worker) analysis.worker.terminate();
  analysis.worker = null;
}

export function scheduleAnalysis() {
  clearTimeout(analysis.timer);
  stopWorker();
  const seq = ++analysis.seq;
  const panel = $("analysis");
  panel.hidden = !analysisMode();
  if (panel.hidden || !app.state) {
    analysis.answer = null;
    renderEvalBar();
    if (app.state && app.game) hooks.render();
    return;
  }
  const s = app.state;
  $("analysis-engine").textContent = `(${app.info.engine.name})`;
  if (viewingCurrent() && ended(app.game)) {
    showAnalysis({ status: "The game is over: nothing to analyse." });
    return;
  }
  showAnalysis({ status: "The engine is thinking..." });
  // A short pause, so stepping quickly through the moves asks only for
  // the position where the player stops.
  analysis.timer = setTimeout(() => analyse(seq, s), 120);
}

async function analyse(seq, s) {
  await loadRules();
  if (seq !== analysis.seq) return;
  const build = rulesBuild();
  if (build && typeof Worker === "function") {
    analyseHere(seq, s, build);
    return;
  }
  let answer = null;
  let error = null;
  try {
    answer = s.line
      ? await api.analysis(s.id, s.line.base, { line: s.line.moves })
      : await api.analysis(s.id, s.ply);
  } catch (err) {
    error = err;
  }
  const cur = app.state;
  // An old answer never overwrites the view of a newer position.
  if (seq !== analysis.seq || !cur || cur.id !== s.id || cur.ply !== s.ply || cur.fen !== s.fen) return;
  if (error) {
    showAnalysis({ status: "No analysis: " + error.message });
    return;
  }
  if (answer.fen !== s.fen) return;
  showAnalysis({
    score: formatScore(answer.score, answer.win),
    kind: answer.score.mate !== undefined ? "mate" : "cp",
    depth: answer.depth,
    line: answer.pv_text,
    ply: answer.ply,
  }, answer);
  hooks.render();
}

// The position `s` analysed in the browser: a worker with the build, its
// lines shown as they come (at most every 100 ms), the best one as the
// answer, until the next position ends it.
function analyseHere(seq, s, build) {
  const worker = new Worker(new URL("./analysisworker.js", import.meta.url), { type: "module" });
  analysis.worker = worker;
  analysis.lines = [];
  const current = () => {
    const cur = app.state;
    return seq === analysis.seq && analysis.worker === worker && cur && cur.id === s.id && cur.ply === s.ply && cur.fen === s.fen;
  };
  const draw = () => {
    analysis.drawTimer = null;
    if (!current()) return;
    const best = analysis.lines[0];
    if (!best) return;
    showAnalysis(
      {
        score: formatScore(best.score, best.win),
        kind: best.score.mate !== undefined ? "mate" : "cp",
        depth: best.depth,
        line: best.pv_text,
        ply: s.ply,
      },
      { ...best, ply: s.ply },
    );
    hooks.render();
  };
  worker.onmessage = (ev) => {
    const msg = ev.data;
    if (!current()) return;
    if (msg.type === "line") {
      if (msg.line.fen !== s.fen) return;
      analysis.lines[msg.line.multipv - 1] = msg.line;
      // At most every 100 ms (the first too: the shallow iterations of a
      // quick search are not worth drawing).
      if (analysis.drawTimer === null) analysis.drawTimer = setTimeout(draw, 100);
    } else if (msg.type === "done") {
      clearTimeout(analysis.drawTimer);
      draw();
      if (!analysis.lines.length) showAnalysis({ status: "No analysis: there is no legal move here." });
      else $("analysis-status").textContent = `The engine searched to depth ${msg.depth}.`;
      worker.terminate();
      if (analysis.worker === worker) analysis.worker = null;
    } else if (msg.type === "error") {
      showAnalysis({ status: "No analysis: " + msg.message });
      stopWorker();
    }
  };
  worker.onerror = (ev) => {
    if (!current()) return;
    ev.preventDefault();
    showAnalysis({ status: "No analysis: the engine in the browser failed." });
    stopWorker();
  };
  worker.postMessage({ js: build.js, module: build.module });
  worker.postMessage({
    id: seq,
    variant: s.variant,
    start_fen: s.start_fen,
    moves: s.history.slice(0, s.ply).map((h) => h.uci),
    multipv: MULTIPV,
  });
}
