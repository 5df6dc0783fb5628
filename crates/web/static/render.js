// @ts-check
// Drawing the game screen from the state: the board with its marks (the
// move being entered, the drop preview, the engine's best move), the
// reserves, and every panel around it.

import { bestArrow, otherArrows, renderEvalBar } from "./analysis.js";
import { sizeBoard } from "./boardsize.js";
import { renderClocks } from "./clocks.js";
import { renderConditional } from "./conditional.js";
import { pieceKey } from "./input.js";
import { renderMoves, renderNav } from "./notation.js";
import { showHint } from "./notices.js";
import { renderPlayers, renderStatus, renderNotes, renderControls, renderSide } from "./panel.js";
import { pieceSvg, trampolineSvg, roleName } from "./pieces.js";
import { $, app, sideName, other, canMove, stuckSide } from "./state.js";
import { renderMoveEntry } from "./typed.js";

export function currentMarks() {
  const marks = app.input.marks();
  const source = app.input.source;
  if (source && source.startsWith("sq:")) marks.selected = source.slice(3);
  marks.turns = hoplitTurns(marks.selected);
  if (source === "trampoline") {
    const own = app.state.trampolines.find((t) => t.owner === app.state.turn);
    if (own && own.square) marks.selected = own.square;
  }
  marks.path = app.input.path;
  if (app.input.placing) {
    const own = app.state.trampolines.find((t) => t.owner === app.state.turn);
    if (own && own.square && marks.places.has(own.square)) marks.keep = own.square;
    marks.pieces = halfMade(app.input.placing[0]);
    const m = app.input.placing[0];
    if (m.to) marks.selected = m.to;
  }
  const dropped = dropPreview();
  if (dropped) marks.pieces = dropped;
  const best = bestArrow();
  if (best) marks.arrows = [...otherArrows(), best];
  // The move kept in an outage, drawn on the board until it is sent.
  const u = app.unsent;
  if (u && !app.state.line && app.state.ply === u.ply && String(u.gameId) === String(app.state.id)) {
    const m = u.move;
    if (m.from && m.to) marks.arrows = [...(marks.arrows || []), { points: [m.from, ...m.via, m.to], kind: "unsent", place: m.place }];
    else if (m.to && !marks.selected) marks.selected = m.to;
  }
  return marks;
}

const FILES = "abcdefgh";

// Hoplit Chess: the turning squares of the picked Hoplit's moves (where
// its diagonal leg ends and its orthogonal one starts), found from each
// move's two squares alone: the diagonal leg is as long as the shorter
// side of the move, the orthogonal leg goes on along the longer one.
function hoplitTurns(from) {
  const turns = new Set();
  const cell = from && app.state.squares.find((s) => s.name === from);
  if (!cell || !cell.piece || cell.piece.toLowerCase() !== "h" || app.input.placing) return turns;
  for (const m of app.input.candidates()) {
    if (!m.to || m.via.length > 0) continue;
    const [f0, r0, f1, r1] = [FILES.indexOf(m.from[0]), Number(m.from[1]), FILES.indexOf(m.to[0]), Number(m.to[1])];
    const dx = f1 - f0;
    const dy = r1 - r0;
    if (dx === 0 || dy === 0 || Math.abs(dx) === Math.abs(dy)) continue;
    const k = Math.min(Math.abs(dx), Math.abs(dy));
    turns.add(FILES[f0 + Math.sign(dx) * k] + String(r0 + Math.sign(dy) * k));
  }
  return turns;
}

// Hoplit Chess: while a man from the reserve is picked and the pointer is
// on one of its drop squares, the board shows that drop as it will be
// (the pushed pawn), from the squares the server says the drop changes.
function dropPreview() {
  const source = app.input.source;
  if (!app.hover || !source || !source.startsWith("drop:")) return null;
  const m = app.input.candidates().find((x) => x.to === app.hover && x.changes);
  return m ? new Map(m.changes.map((c) => [c.name, c.piece])) : null;
}

// The square under the pointer changed (null: off the board).
export function hoverSquare(sq) {
  if (app.hover === sq) return;
  const before = dropPreview();
  app.hover = sq;
  if (before || dropPreview()) render();
}

// Hop Chess: the board after the chosen piece move and before its
// placement, from the server's half-steps (piece on its new square,
// capture removed); null when the server gave none.
function halfMade(move) {
  const key = pieceKey(move);
  const step = (app.state.steps || []).find((st) => pieceKey(st) === key);
  return step ? new Map(step.changes.map((c) => [c.name, c.piece])) : null;
}

function reserveTokens(color) {
  const s = app.state;
  const tokens = [];
  for (const r of s.reserves.filter((x) => x.color === color)) {
    const letter = color === "white" ? r.role.toUpperCase() : r.role;
    tokens.push({ key: "drop:" + r.role, svg: pieceSvg(letter), count: r.count, label: `${sideName(color)} ${roleName(r.role)} in reserve` });
  }
  const tramp = s.trampolines.find((t) => t.owner === color);
  if (s.trampolines_in_play && tramp && !tramp.square) {
    tokens.push({ key: "trampoline", svg: trampolineSvg(color), count: 1, label: `${sideName(color)} trampoline off the board` });
  }
  const mine = color === s.turn && canMove();
  return tokens.map((t) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "token";
    b.dataset.source = t.key;
    b.dataset.color = color;
    b.title = t.label;
    b.setAttribute("aria-label", t.label);
    b.append(t.svg);
    if (t.count > 1) {
      b.classList.add("counted");
      const c = document.createElement("span");
      c.className = "count";
      c.textContent = String(t.count);
      b.append(c);
    }
    // A press on an active token picks it (pointer.js, onReservePointer).
    if (mine && app.input.hasSource(t.key)) {
      b.classList.add("active");
    } else {
      b.disabled = true;
    }
    if (mine && app.input.source === t.key) b.classList.add("selected");
    return b;
  });
}

export function render() {
  const s = app.state;
  if (!s || !app.game) return;
  app.board.render(s, currentMarks());
  const top = app.board.flipped ? "white" : "black";
  $("reserve-top").replaceChildren(...reserveTokens(top));
  $("reserve-bottom").replaceChildren(...reserveTokens(other(top)));
  $("game-title").textContent = s.title;
  $("pass").hidden = !(canMove() && app.input.hasSource("pass"));
  $("pass").textContent = stuckSide(app.state.turn) ? "Pass (the king is stuck)" : "Pass";
  if (!app.input.placing) showHint("");
  $("keep").hidden = !currentMarks().keep;
  $("cancel").hidden = !(app.input.source || app.input.placing);
  renderPlayers();
  renderClocks();
  renderStatus();
  renderNotes();
  renderMoves();
  renderNav();
  renderControls();
  renderSide();
  renderEvalBar();
  sizeBoard();
  renderMoveEntry();
  renderConditional();
}
