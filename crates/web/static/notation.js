// @ts-check
// The move list (notation): the game's moves in SAN, a side line under
// the move it leaves the game after, the result, and the buttons that
// step through them. The list scrolls inside itself, never the page.

import { view, showLine } from "./commands.js";
import { resultOf, scoreText, resultText } from "./result.js";
import { $, app, viewingCurrent, ended } from "./state.js";

export function renderMoves() {
  const s = app.state;
  const g = app.game;
  const list = $("moves");
  const hadFocus = list.contains(document.activeElement);
  list.replaceChildren();
  let row = null;
  const history = s.line || g.history.length >= s.history.length ? g.history : s.history;
  const v = app.variation;
  for (const h of history) {
    if (!row || h.color === "white") {
      row = document.createElement("li");
      const num = document.createElement("span");
      num.textContent = h.color === "black" ? `${h.number}...` : `${h.number}.`;
      row.append(num);
      if (h.color === "black") row.append(document.createElement("span"));
      list.append(row);
    }
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = h.san;
    b.title = h.uci;
    b.dataset.ply = String(h.ply);
    if (h.ply === s.ply && !(s.line && s.line.moves.length > 0)) b.classList.add("current");
    b.addEventListener("click", () => view(h.ply));
    row.append(b);
    if (h.color === "black") row = null;
    if (v && v.base === h.ply) {
      list.append(variationRow(v));
      row = null;
    }
  }
  if (v && v.base === 0) list.prepend(variationRow(v));
  const r = ended(g) ? resultOf(g) : null;
  if (r) {
    const li = document.createElement("li");
    li.className = "result";
    const score = document.createElement("strong");
    score.textContent = scoreText(r.result);
    li.append(score, ` ${resultText(r)}`);
    list.append(li);
  }
  const current = list.querySelector(".current");
  if (current) scrollIntoList(list, current);
  // The keyboard stays in the list (Home, End, arrows: onMovesKey).
  if (hadFocus) (/** @type {HTMLElement | null} */ (current) || list).focus({ preventScroll: true });
}

// Scrolls the list (not the page: scrollIntoView would scroll every
// scrolling box around it too, the page on a phone) just enough to show
// `item` whole.
function scrollIntoList(list, item) {
  const top = list.getBoundingClientRect().top + list.clientTop;
  const bottom = top + list.clientHeight;
  const it = item.getBoundingClientRect();
  if (it.top < top) list.scrollTop -= top - it.top;
  else if (it.bottom > bottom) list.scrollTop += Math.min(it.bottom - bottom, it.top - top);
}

// The buttons under the board's move list, each enabled only when it
// leads to another position (back and start from the first position,
// forward and end from the last do nothing).
export function renderNav() {
  const s = app.state;
  const v = app.variation;
  const inLine = !!(s.line && v && s.line.base === v.base);
  const lineAt = inLine ? s.line.moves.length : 0;
  const back = s.ply > 0 || lineAt > 0;
  const forward = inLine ? lineAt < v.moves.length : s.ply < app.game.plies;
  $("nav-start", HTMLButtonElement).disabled = !back;
  $("nav-back", HTMLButtonElement).disabled = !back;
  $("nav-forward", HTMLButtonElement).disabled = !forward;
  $("nav-end", HTMLButtonElement).disabled = viewingCurrent();
}

// The side line under the move it leaves the game after: its moves in
// SAN with move numbers, each a button showing its position.
function variationRow(v) {
  const li = document.createElement("li");
  li.className = "variation";
  const s = app.state;
  const shown = s && s.line && s.line.base === v.base ? s.line.moves.length : -1;
  v.history.forEach((h, i) => {
    if (h.color === "white" || i === 0) {
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = h.color === "white" ? `${h.number}.` : `${h.number}...`;
      li.append(num);
    }
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = h.san;
    b.title = h.uci;
    b.dataset.line = String(i + 1);
    if (shown === i + 1) b.classList.add("current");
    b.addEventListener("click", () => showLine(i + 1));
    li.append(b);
  });
  const close = document.createElement("button");
  close.type = "button";
  close.className = "close";
  close.title = "Forget this side line";
  close.textContent = "\u00D7";
  close.addEventListener("click", () => {
    const base = v.base;
    app.variation = null;
    view(base);
  });
  li.append(close);
  return li;
}
