// @ts-check
// Piece glyphs as SVG. Chess men use the Unicode chess symbols (a filled
// silhouette, and for White the outline glyph over a white fill); the
// Hoplit, which has no symbol, is its own drawing: a round hoplite shield
// with its bent move (a diagonal leg, then an orthogonal one).

const SVG_NS = "http://www.w3.org/2000/svg";

const SOLID = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const OUTLINE = { k: "\u2654", q: "\u2655", r: "\u2656", b: "\u2657", n: "\u2658", p: "\u2659" };
const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn", h: "Hoplit" };

export function roleName(role) {
  return NAMES[role] || role;
}

function el(name, attrs) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function glyphText(ch, fill, stroke) {
  const t = el("text", {
    x: "50",
    y: "54",
    "text-anchor": "middle",
    "dominant-baseline": "central",
    "font-size": "84",
    fill,
  });
  if (stroke) {
    t.setAttribute("stroke", stroke);
    t.setAttribute("stroke-width", "1.5");
  }
  // U+FE0E asks for the text form, never an emoji.
  t.textContent = ch + "\uFE0E";
  return t;
}

function hoplit(svg, white) {
  const body = white ? "#fdfdfd" : "#222";
  const line = white ? "#111" : "#f2f2f2";
  // A spear behind the shield, its head up and to the right, all of it
  // well inside the square (a margin of 6 units).
  svg.append(el("path", { d: "M17 89 L74 22", stroke: "#111", "stroke-width": "6", "stroke-linecap": "round" }));
  svg.append(el("path", { d: "M84 10 L68 16 L78 26 Z", fill: "#111", stroke: "#111", "stroke-width": "3", "stroke-linejoin": "round" }));
  // The round hoplite shield (aspis) with a thick rim.
  svg.append(el("circle", { cx: "47", cy: "55", r: "33", fill: body, stroke: "#111", "stroke-width": "7" }));
  // On it, the Hoplit's bent move: a diagonal leg, then an orthogonal one,
  // its arrow inside the shield's rim.
  svg.append(el("path", {
    d: "M32 72 L47 57 L47 41",
    fill: "none",
    stroke: line,
    "stroke-width": "7",
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
  }));
  svg.append(el("path", { d: "M39 43 L47 31 L55 43 Z", fill: line, stroke: line, "stroke-width": "2", "stroke-linejoin": "round" }));
}

// An SVG element for a piece given by its FEN letter (uppercase White).
export function pieceSvg(letter) {
  const role = letter.toLowerCase();
  const white = letter !== role;
  const svg = el("svg", { viewBox: "0 0 100 100", class: "piece-svg", "aria-hidden": "true" });
  if (role === "h") {
    hoplit(svg, white);
  } else if (SOLID[role]) {
    if (white) {
      svg.append(glyphText(SOLID[role], "#fff", "#fff"));
      svg.append(glyphText(OUTLINE[role], "#111"));
    } else {
      svg.append(glyphText(SOLID[role], "#111", "#111"));
    }
  } else {
    const t = el("text", { x: "50", y: "60", "text-anchor": "middle", "font-size": "48", fill: white ? "#fff" : "#111" });
    t.textContent = letter;
    svg.append(t);
  }
  return svg;
}

// A trampoline: a round checker in its owner's colour.
export function trampolineSvg(owner) {
  const svg = el("svg", { viewBox: "0 0 100 100", class: "trampoline-svg", "aria-hidden": "true" });
  const white = owner === "white";
  svg.append(el("circle", { cx: "50", cy: "50", r: "40", fill: white ? "#f4f1e8" : "#2b2b2b", stroke: white ? "#555" : "#000", "stroke-width": "4" }));
  svg.append(el("circle", { cx: "50", cy: "50", r: "30", fill: "none", stroke: white ? "#999" : "#777", "stroke-width": "3" }));
  svg.append(el("circle", { cx: "50", cy: "50", r: "18", fill: "none", stroke: white ? "#bbb" : "#555", "stroke-width": "3" }));
  return svg;
}
