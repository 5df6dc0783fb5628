// The board, drawn from the server's view: 8x8 squares, those outside the
// variant's board (Jumping King's holes) left out, pieces, trampolines as
// checkers in their owner's colour, coordinates, last move, check, and the
// marks of the move being entered.

import { pieceSvg, trampolineSvg } from "./pieces.js";

const FILES = "abcdefgh";

export class Board {
  constructor(root) {
    this.root = root;
    this.flipped = false;
    this.cells = new Map();
  }

  // Square names in drawing order (top-left first).
  order() {
    const names = [];
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const rank = this.flipped ? row + 1 : 8 - row;
        const file = this.flipped ? FILES[7 - col] : FILES[col];
        names.push(file + rank);
      }
    }
    return names;
  }

  render(state, marks) {
    marks = marks || {};
    const bySquare = new Map(state.squares.map((s) => [s.name, s]));
    const last = state.last_move;
    const lastSquares = new Set();
    if (last) {
      if (last.from) lastSquares.add(last.from);
      if (last.to) lastSquares.add(last.to);
      for (const v of last.via) lastSquares.add(v);
      if (last.place) lastSquares.add(last.place);
    }
    this.root.replaceChildren();
    this.cells.clear();
    const grid = document.createElement("div");
    grid.className = "grid";
    const names = this.order();
    names.forEach((name, i) => {
      const row = Math.floor(i / 8);
      const col = i % 8;
      const sq = bySquare.get(name);
      const cell = document.createElement("div");
      cell.dataset.square = name;
      cell.style.gridRow = String(row + 1);
      cell.style.gridColumn = String(col + 2);
      const fileIdx = FILES.indexOf(name[0]);
      const rankIdx = Number(name[1]) - 1;
      const light = (fileIdx + rankIdx) % 2 === 1;
      cell.className = "sq " + (light ? "light" : "dark");
      if (!sq || !sq.exists) {
        cell.className = "sq hole";
        cell.setAttribute("aria-hidden", "true");
        grid.append(cell);
        return;
      }
      if (lastSquares.has(name)) cell.classList.add("last");
      if (state.check === name) cell.classList.add("check");
      if (marks.selected === name) cell.classList.add("selected");
      if (marks.path && marks.path.includes(name)) cell.classList.add("path");
      if (sq.trampoline) {
        cell.classList.add("has-trampoline");
        const t = trampolineSvg(sq.trampoline);
        t.classList.add("trampoline", "trampoline-" + sq.trampoline);
        cell.append(t);
      }
      if (sq.piece) {
        const p = pieceSvg(sq.piece);
        p.classList.add("piece");
        cell.dataset.piece = sq.piece;
        cell.append(p);
      }
      const mark = (cls) => {
        const m = document.createElement("div");
        m.className = "mark " + cls;
        cell.append(m);
        cell.classList.add("target");
      };
      if (marks.finals && marks.finals.has(name)) mark(sq.piece ? "capture" : "move");
      if (marks.bounces && marks.bounces.has(name)) mark("bounce");
      if (marks.places && marks.places.has(name)) mark(marks.keep === name ? "keep" : "place");
      cell.setAttribute("aria-label", name + (sq.piece ? " " + sq.piece : ""));
      this.cells.set(name, cell);
      grid.append(cell);
    });
    // Coordinates outside the squares, so holes never hide them; a file
    // or rank with no square of the board gets none.
    const existing = state.squares.filter((s) => s.exists).map((s) => s.name);
    for (let row = 0; row < 8; row++) {
      const label = document.createElement("div");
      label.className = "coord rank";
      label.style.gridRow = String(row + 1);
      label.style.gridColumn = "1";
      const rank = names[row * 8][1];
      label.textContent = existing.some((n) => n[1] === rank) ? rank : "";
      grid.append(label);
    }
    for (let col = 0; col < 8; col++) {
      const label = document.createElement("div");
      label.className = "coord file";
      label.style.gridRow = "9";
      label.style.gridColumn = String(col + 2);
      const file = names[col][0];
      label.textContent = existing.some((n) => n[0] === file) ? file : "";
      grid.append(label);
    }
    this.root.append(grid);
  }
}
