// @ts-check
// The board, drawn from the server's view: 8x8 squares, those outside the
// variant's board (Jumping King's holes) left out, pieces, trampolines as
// checkers in their owner's colour, coordinates, last move, check (a ring
// on the king and the checking lines as arrows), Jumping King's weak
// squares, the marks of the move being entered, and arrows (the engine's
// best move, drawn through the trampolines it bounces off).

import { pieceSvg, trampolineSvg, roleName } from "./pieces.js";

const FILES = "abcdefgh";
const SVG_NS = "http://www.w3.org/2000/svg";

const COLOURS = { white: "White", black: "Black" };

// What a screen reader says of a square: its name, what stands on it (a
// man, a trampoline, or nothing), a weak square, and its part in the move
// being entered.
function squareLabel(name, sq, weakOwner, marks) {
  const parts = [name];
  if (sq.piece) {
    const colour = sq.piece === sq.piece.toUpperCase() ? "white" : "black";
    parts.push(`${colour} ${roleName(sq.piece.toLowerCase())}`);
  }
  if (sq.trampoline) parts.push(`${COLOURS[sq.trampoline]}'s trampoline`);
  if (!sq.piece && !sq.trampoline) parts.push("empty");
  if (weakOwner) parts.push(`${COLOURS[weakOwner]}'s weak square`);
  if (marks.selected === name) parts.push("picked");
  if (marks.finals && marks.finals.has(name)) parts.push(sq.piece ? "capture here" : "move here");
  if (marks.bounces && marks.bounces.has(name)) parts.push("bounce off here");
  if (marks.places && marks.places.has(name)) parts.push(marks.keep === name ? "keep the trampoline here" : "put the trampoline here");
  if (marks.turns && marks.turns.has(name)) parts.push("the Hoplit turns here");
  return parts.join(", ");
}

export class Board {
  constructor(root) {
    this.root = root;
    this.flipped = false;
    this.cells = new Map();
    this.focused = null; // the square the keyboard is on
    this.drawn = { files: [], ranks: [] };
  }

  // The files and ranks drawn, left to right and top to bottom: those
  // with a square of the board (Jumping King's board has no g and h
  // files, so its squares stand next to their rank numbers either way up).
  lines(state) {
    const existing = state.squares.filter((s) => s.exists).map((s) => s.name);
    const files = [...FILES].filter((f) => existing.some((n) => n[0] === f));
    const ranks = [8, 7, 6, 5, 4, 3, 2, 1].map(String).filter((r) => existing.some((n) => n[1] === r));
    return this.flipped ? { files: files.reverse(), ranks: ranks.reverse() } : { files, ranks };
  }

  // Square names in drawing order (top-left first).
  order(state) {
    const { files, ranks } = this.lines(state);
    return ranks.flatMap((r) => files.map((f) => f + r));
  }

  // marks: selected, path, finals, bounces, places, keep, turns (a picked
  // Hoplit's turning squares) (the move being entered); pieces: a Map square -> FEN letter or null that replaces what
  // the state shows (the half-made Hop Chess turn); arrows: [{points:
  // [square, ...], kind}] drawn over the board.
  render(state, marks) {
    marks = marks || {};
    const bySquare = new Map(state.squares.map((s) => [s.name, s]));
    if (marks.pieces) {
      for (const [name, piece] of marks.pieces) {
        const sq = bySquare.get(name);
        if (sq) bySquare.set(name, { ...sq, piece });
      }
    }
    const weak = new Map((state.weak_squares || []).map((w) => [w.square, w.owner]));
    const checkFrom = new Set();
    const checkVia = new Set();
    for (const line of state.check_lines || []) {
      checkFrom.add(line[0]);
      for (const v of line.slice(1, -1)) checkVia.add(v);
    }
    const last = state.last_move;
    const lastSquares = new Set();
    if (last) {
      if (last.from) lastSquares.add(last.from);
      if (last.to) lastSquares.add(last.to);
      for (const v of last.via) lastSquares.add(v);
      if (last.place) lastSquares.add(last.place);
      // A Hoplit drop: every square it changed (the pushed pawn's too).
      for (const c of last.changes || []) lastSquares.add(c.name);
    }
    const hadFocus = this.root.contains(document.activeElement);
    this.root.replaceChildren();
    this.cells.clear();
    const grid = document.createElement("div");
    grid.className = "grid";
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", "Board: the arrow keys move between squares, Enter or Space picks and plays");
    const { files, ranks } = this.lines(state);
    this.drawn = { files, ranks };
    const cols = files.length;
    const names = this.order(state);
    names.forEach((name, i) => {
      const row = Math.floor(i / cols);
      const col = i % cols;
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
      if (checkFrom.has(name)) cell.classList.add("checker");
      if (checkVia.has(name)) cell.classList.add("check-via");
      if (weak.has(name)) {
        cell.classList.add("weak", "weak-" + weak.get(name));
        const w = document.createElement("span");
        w.className = "weak-label";
        w.textContent = "weak";
        cell.append(w);
      }
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
      if (marks.turns && marks.turns.has(name)) {
        // A picked Hoplit's turning square: shown, not a target.
        const t = document.createElement("div");
        t.className = "mark turn";
        cell.append(t);
        cell.classList.add("turning");
      }
      if (weak.has(name)) cell.title = `${weak.get(name) === "white" ? "White" : "Black"}'s weak square`;
      cell.setAttribute("role", "button");
      cell.tabIndex = -1;
      cell.setAttribute("aria-label", squareLabel(name, sq, weak.get(name), marks));
      this.cells.set(name, cell);
      grid.append(cell);
    });
    // Coordinates outside the squares, so holes never hide them.
    ranks.forEach((rank, row) => {
      const label = document.createElement("div");
      label.className = "coord rank";
      label.style.gridRow = String(row + 1);
      label.style.gridColumn = "1";
      label.textContent = rank;
      grid.append(label);
    });
    files.forEach((file, col) => {
      const label = document.createElement("div");
      label.className = "coord file";
      label.style.gridRow = String(ranks.length + 1);
      label.style.gridColumn = String(col + 2);
      label.textContent = file;
      grid.append(label);
    });
    const arrows = [];
    for (const line of state.check_lines || []) arrows.push({ points: line, kind: "check" });
    for (const a of marks.arrows || []) arrows.push(a);
    if (arrows.length) grid.append(this.arrowLayer(arrows, names, cols, ranks.length));
    this.root.append(grid);
    // One square is in the page's tab order (the keyboard's, else the
    // picked one, else the last move's, else the lower left one); it keeps
    // the focus over a redraw.
    const lastTo = state.last_move && state.last_move.to;
    const home = [this.focused, marks.selected, lastTo].find((n) => n && this.cells.has(n)) || this.corner();
    const cell = this.cells.get(home);
    if (cell) {
      cell.tabIndex = 0;
      if (hadFocus) cell.focus({ preventScroll: true });
    }
  }

  // The lower left square of the board as drawn.
  corner() {
    const { files, ranks } = this.drawn;
    for (const r of [...ranks].reverse()) {
      for (const f of files) if (this.cells.has(f + r)) return f + r;
    }
    return null;
  }

  // The next square of the board from `name` in a direction on the screen
  // (holes skipped), or null at the edge.
  neighbour(name, dx, dy) {
    const { files, ranks } = this.drawn;
    let col = files.indexOf(name[0]);
    let row = ranks.indexOf(name[1]);
    for (;;) {
      col += dx;
      row += dy;
      if (col < 0 || row < 0 || col >= files.length || row >= ranks.length) return null;
      const next = files[col] + ranks[row];
      if (this.cells.has(next)) return next;
    }
  }

  // Puts the keyboard on a square.
  focus(name) {
    const cell = this.cells.get(name);
    if (!cell) return;
    for (const c of this.cells.values()) c.tabIndex = -1;
    cell.tabIndex = 0;
    this.focused = name;
    cell.focus();
  }

  // An SVG over the squares (100 units a square) with one arrow per
  // entry: a line through the squares' centres (a bounce turns on its
  // trampoline, marked by a ring), its head on the last square.
  arrowLayer(arrows, names, cols, rows) {
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${cols * 100} ${rows * 100}`);
    svg.setAttribute("class", "arrows");
    svg.setAttribute("aria-hidden", "true");
    svg.style.gridRow = `1 / ${rows + 1}`;
    svg.style.gridColumn = `2 / ${cols + 2}`;
    const defs = document.createElementNS(SVG_NS, "defs");
    for (const kind of ["check", "best", "unsent"]) {
      const marker = document.createElementNS(SVG_NS, "marker");
      marker.setAttribute("id", "head-" + kind);
      marker.setAttribute("viewBox", "0 0 10 10");
      marker.setAttribute("refX", "5");
      marker.setAttribute("refY", "5");
      marker.setAttribute("markerWidth", "3");
      marker.setAttribute("markerHeight", "3");
      marker.setAttribute("orient", "auto-start-reverse");
      const head = document.createElementNS(SVG_NS, "path");
      head.setAttribute("d", "M0 0 L10 5 L0 10 z");
      head.setAttribute("class", "head " + kind);
      marker.append(head);
      defs.append(marker);
    }
    svg.append(defs);
    const centre = (sq) => {
      const i = names.indexOf(sq);
      return [(i % cols) * 100 + 50, Math.floor(i / cols) * 100 + 50];
    };
    for (const a of arrows) {
      const pts = a.points.filter((p) => names.includes(p)).map(centre);
      if (pts.length < 2) continue;
      const g = document.createElementNS(SVG_NS, "g");
      g.setAttribute("class", "arrow " + a.kind);
      g.dataset.points = a.points.join(" ");
      // The line stops short of the last centre, so the head sits on it.
      const [x1, y1] = pts[pts.length - 2];
      const [x2, y2] = pts[pts.length - 1];
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const end = [x2 - ((x2 - x1) * 22) / len, y2 - ((y2 - y1) * 22) / len];
      const line = document.createElementNS(SVG_NS, "polyline");
      line.setAttribute("points", [...pts.slice(0, -1), end].map((p) => p.join(",")).join(" "));
      line.setAttribute("marker-end", `url(#head-${a.kind})`);
      g.append(line);
      for (const p of pts.slice(1, -1)) {
        const ring = document.createElementNS(SVG_NS, "circle");
        ring.setAttribute("cx", String(p[0]));
        ring.setAttribute("cy", String(p[1]));
        ring.setAttribute("r", "20");
        ring.setAttribute("class", "turn");
        g.append(ring);
      }
      if (a.place && names.includes(a.place)) {
        const [px, py] = centre(a.place);
        const box = document.createElementNS(SVG_NS, "rect");
        box.setAttribute("x", String(px - 16));
        box.setAttribute("y", String(py - 16));
        box.setAttribute("width", "32");
        box.setAttribute("height", "32");
        box.setAttribute("rx", "6");
        box.setAttribute("class", "place");
        g.append(box);
      }
      svg.append(g);
    }
    return svg;
  }
}
