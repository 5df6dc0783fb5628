// @ts-check
// The board's input: clicks, drags and keys on the squares and the
// reserves, the keys of the move list, and the buttons that finish or drop
// a move being entered. What the input means is input.js's MoveInput.

import { openChooser, closeChooser } from "./chooser.js";
import { view, step, play } from "./commands.js";
import { sourceOf } from "./input.js";
import { showHint } from "./notices.js";
import { roleName } from "./pieces.js";
import { currentMarks, hoverSquare, render } from "./render.js";
import { $, app, canMove } from "./state.js";

// A request is under way: no move is entered then, except on the board
// shown ahead of the server after a move (its next move waits for it).
function blocked() {
  return app.busy && !(app.game && app.game.pending);
}

function pointToSquare(ev) {
  const node = document.elementFromPoint(ev.clientX, ev.clientY);
  const cell = node && node.closest ? /** @type {HTMLElement | null} */ (node.closest("[data-square]")) : null;
  return cell ? cell.dataset.square : null;
}

function follow(result) {
  switch (result.type) {
    case "play":
      play(result.move);
      break;
    case "choose":
      openChooser(result.groups, (group) => follow(app.input.chooseGroup(group)));
      break;
    default:
      render();
  }
}

// A click (or the end of a drag) on a square.
function onSquare(sq) {
  if (!canMove() || blocked()) return false;
  const input = app.input;
  if (input.placing) {
    // The piece move stays chosen: only a marked square places the
    // trampoline; anything else gets a hint and changes nothing.
    const result = input.target(sq);
    if (result.type !== "none") {
      follow(result);
      return true;
    }
    showHint(`${sq} is not a square for your trampoline this turn: pick one of the marked squares, or Cancel to change the move.`);
    return false;
  }
  if (input.source) {
    const result = input.target(sq);
    if (result.type !== "none") {
      follow(result);
      return true;
    }
  }
  // Pick a new source: a piece, or the own trampoline on the board.
  const cell = app.state.squares.find((s) => s.name === sq);
  if (input.select("sq:" + sq)) {
    render();
    return true;
  }
  if (cell && cell.trampoline === app.state.turn && input.select("trampoline")) {
    render();
    return true;
  }
  input.reset();
  render();
  if (cell && cell.piece && colorOf(cell.piece) === app.state.turn) noMoveSign(sq, cell.piece);
  return false;
}

function colorOf(piece) {
  return piece === piece.toUpperCase() ? "white" : "black";
}

// A piece of the side to move that has no legal move was picked: the
// square shakes and the hint says why nothing happens.
function noMoveSign(sq, piece) {
  showHint(`The ${roleName(piece.toLowerCase())} on ${sq} has no legal move now.`);
  const el = app.board.cells.get(sq);
  if (el) el.classList.add("no-move");
}

let drag = null;

function startDrag(ev, svg, origin) {
  const ghost = document.createElement("div");
  ghost.className = "drag-ghost";
  ghost.append(svg.cloneNode(true));
  ghost.style.left = ev.clientX + "px";
  ghost.style.top = ev.clientY + "px";
  ghost.hidden = true;
  document.body.append(ghost);
  drag = { ghost, origin, x: ev.clientX, y: ev.clientY, moved: false };
}

function onSourcePointer(ev, key, svg) {
  if (ev.button !== 0 || !canMove() || blocked()) return;
  ev.preventDefault();
  if (app.input.source === key && !app.input.placing) {
    // Pressing the picked source again keeps it picked (a drag may follow).
  } else {
    app.input.select(key);
    render();
  }
  startDrag(ev, svg, key);
}

function onBoardPointerDown(ev) {
  if (ev.button !== 0) return;
  const cell = ev.target.closest("[data-square]");
  if (!cell || !canMove()) return;
  ev.preventDefault();
  const sq = cell.dataset.square;
  app.board.focused = sq;
  onSquare(sq);
  // A piece (or the own trampoline) just picked can be dragged.
  const picked = app.input.source;
  if (!app.input.placing && (picked === "sq:" + sq || picked === "trampoline")) {
    const svg = cell.querySelector(picked === "trampoline" ? "svg.trampoline" : "svg.piece");
    if (svg) startDrag(ev, svg, sq);
  }
}

function onPointerMove(ev) {
  if (!drag) return;
  if (!drag.moved && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) > 4) {
    drag.moved = true;
    drag.ghost.hidden = false;
    const from = app.board.cells.get(drag.origin);
    if (from) from.classList.add("dragging-from");
  }
  drag.ghost.style.left = ev.clientX + "px";
  drag.ghost.style.top = ev.clientY + "px";
  if (drag.moved) hoverSquare(pointToSquare(ev));
}

function onPointerUp(ev) {
  if (!drag) return;
  const d = drag;
  drag = null;
  d.ghost.remove();
  const from = app.board.cells.get(d.origin);
  if (from) from.classList.remove("dragging-from");
  if (!d.moved) return;
  const sq = pointToSquare(ev);
  if (sq && sq !== d.origin) onSquare(sq);
  else render();
}

// On a square: the arrow keys go to the next square on the screen,
// Enter or Space do what a click does.
function onBoardKey(ev) {
  const cell = ev.target.closest && ev.target.closest("[data-square]");
  if (!cell || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const dir = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[ev.key];
  if (dir) {
    ev.preventDefault();
    ev.stopPropagation();
    const next = app.board.neighbour(cell.dataset.square, dir[0], dir[1]);
    if (next) app.board.focus(next);
    return;
  }
  if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    ev.stopPropagation();
    app.board.focused = cell.dataset.square;
    onSquare(cell.dataset.square);
  }
}

// In the move list: Home and End go to the start and the current
// position, the arrow keys a move back or on.
function onMovesKey(ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || !app.game) return;
  const keys = {
    Home: () => view(0),
    End: () => view(app.game.plies),
    ArrowLeft: () => step(-1),
    ArrowUp: () => step(-1),
    ArrowRight: () => step(1),
    ArrowDown: () => step(1),
  };
  const act = keys[ev.key];
  if (!act) return;
  ev.preventDefault();
  ev.stopPropagation();
  act();
}

// A press on a reserve's active token (a man to drop or place, the
// trampoline off the board) picks it; a drag may follow.
function onReservePointer(ev) {
  const b = ev.target.closest ? ev.target.closest("button.token.active") : null;
  if (!b) return;
  onSourcePointer(ev, b.dataset.source, b.querySelector("svg"));
}

// The board's, the reserves', the move list's and the move buttons'
// listeners, and the page's keys of a game.
export function wireBoardInput() {
  $("pass").addEventListener("click", () => {
    const m = app.state.legal.find((x) => sourceOf(x) === "pass");
    if (m) play(m);
  });
  $("keep").addEventListener("click", () => {
    const keep = currentMarks().keep;
    if (keep) follow(app.input.target(keep));
  });
  $("cancel").addEventListener("click", () => {
    app.input.reset();
    render();
  });
  $("chooser-cancel").addEventListener("click", () => {
    closeChooser();
    app.input.reset();
    render();
  });
  $("board").addEventListener("pointerdown", onBoardPointerDown);
  $("board").addEventListener("keydown", onBoardKey);
  $("moves").addEventListener("keydown", onMovesKey);
  $("reserve-top").addEventListener("pointerdown", onReservePointer);
  $("reserve-bottom").addEventListener("pointerdown", onReservePointer);
  $("board").addEventListener("pointermove", (ev) => {
    const target = /** @type {Element} */ (ev.target);
    const cell = target.closest ? /** @type {HTMLElement | null} */ (target.closest("[data-square]")) : null;
    if (!drag) hoverSquare(cell ? cell.dataset.square : null);
  });
  $("board").addEventListener("pointerleave", () => {
    if (!drag) hoverSquare(null);
  });
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  document.addEventListener("keydown", (ev) => {
    if (app.screen !== "game" || !app.state) return;
    const target = /** @type {Element} */ (ev.target);
    if (["TEXTAREA", "SELECT", "INPUT"].includes(target.tagName)) return;
    if (ev.key === "ArrowLeft") step(-1);
    if (ev.key === "ArrowRight") step(1);
    if (ev.key === "Home" && !target.closest(".board")) view(0);
    if (ev.key === "End" && !target.closest(".board")) view(app.game.plies);
    if (ev.key === "Escape") {
      app.input.reset();
      closeChooser();
      render();
    }
  });
}
