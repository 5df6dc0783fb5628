// @ts-check
// The engine's analysis of the shown position: its score, depth and best
// line beside the board, the evaluation bar, and the best move's arrow.

import { api } from "./api.js";
import { $, app, viewingCurrent, ended, hooks } from "./state.js";

// Every position shown (after a move, a takeback, or stepping through the
// move list) is analysed by the server's engine. Only the answer to the
// latest request is shown: an older one (its position no longer shown)
// is dropped, and the server stops the older search itself.
const analysis = { seq: 0, timer: null, answer: null };

// The engine's best move as an arrow through its trampolines (with its
// Hop Chess placement), while the analysis of the shown position is shown.
export function bestArrow() {
  const a = analysis.answer;
  if (!a || !analysisMode() || !app.state || a.fen !== app.state.fen || !a.best) return null;
  const b = a.best;
  if (!b.from || !b.to) return null;
  return { points: [b.from, ...b.via, b.to], kind: "best", place: b.place };
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
  const score = $("analysis-score");
  score.textContent = fields.score || "";
  score.dataset.kind = fields.kind || "";
  $("analysis-depth").textContent = fields.depth ? `depth ${fields.depth}` : "";
  $("analysis-line").textContent = fields.line || "";
  $("analysis-status").textContent = fields.status || "";
  $("analysis").dataset.ply = fields.ply === undefined ? "" : String(fields.ply);
  renderEvalBar();
}

export function scheduleAnalysis() {
  clearTimeout(analysis.timer);
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
