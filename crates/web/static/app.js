// Springboard's page: state from the server, drawing, move input, modes.
// The page holds no rules: what can move where comes from the server's
// legal move list, and every move is checked again by the server.

import { api } from "./api.js";
import { Board } from "./board.js";
import { MoveInput, sourceOf } from "./input.js";
import { pieceSvg, trampolineSvg, roleName } from "./pieces.js";
import { renderMarkdown } from "./markdown.js";

const $ = (id) => document.getElementById(id);

const app = {
  info: null,
  state: null, // the view of the shown position
  input: new MoveInput([]),
  board: null,
  busy: false,
  engineThinking: false,
};

function showError(text) {
  $("error").textContent = text || "";
}

function viewingCurrent() {
  return app.state && app.state.ply === app.state.plies;
}

function sideName(color) {
  return color === "white" ? "White" : "Black";
}

// ---- Drawing ----

function currentMarks() {
  const marks = app.input.marks();
  const source = app.input.source;
  if (source && source.startsWith("sq:")) marks.selected = source.slice(3);
  if (source === "trampoline") {
    const own = app.state.trampolines.find((t) => t.owner === app.state.turn);
    if (own && own.square) marks.selected = own.square;
  }
  marks.path = app.input.path;
  if (app.input.placing) {
    const own = app.state.trampolines.find((t) => t.owner === app.state.turn);
    if (own && own.square && marks.places.has(own.square)) marks.keep = own.square;
  }
  return marks;
}

function reserveTokens(color) {
  const box = document.createElement("div");
  box.className = "reserve-inner";
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
  const mine = color === s.turn && viewingCurrent();
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
      const c = document.createElement("span");
      c.className = "count";
      c.textContent = String(t.count);
      b.append(c);
    }
    if (mine && app.input.hasSource(t.key)) {
      b.classList.add("active");
      b.addEventListener("pointerdown", (ev) => onSourcePointer(ev, t.key, t.svg));
    } else {
      b.disabled = true;
    }
    if (mine && app.input.source === t.key) b.classList.add("selected");
    return b;
  });
}

function render() {
  const s = app.state;
  if (!s) return;
  app.board.render(s, currentMarks());
  const top = app.board.flipped ? "white" : "black";
  const bottom = app.board.flipped ? "black" : "white";
  $("reserve-top").replaceChildren(...reserveTokens(top));
  $("reserve-bottom").replaceChildren(...reserveTokens(bottom));
  $("game-title").textContent = s.title;
  $("pass").hidden = !(viewingCurrent() && app.input.hasSource("pass"));
  $("keep").hidden = !currentMarks().keep;
  $("cancel").hidden = !(app.input.source || app.input.placing);
  renderStatus();
  renderMoves();
}

function renderStatus() {
  const s = app.state;
  const status = $("status");
  status.classList.remove("over");
  if (!viewingCurrent()) {
    status.textContent = `Viewing the position after ${s.ply} of ${s.plies} moves`;
    return;
  }
  if (s.outcome) {
    const o = s.outcome;
    status.classList.add("over");
    status.textContent = o.winner
      ? `Game over: ${sideName(o.winner)} wins by ${o.reason} (${o.result})`
      : `Game over: draw by ${o.reason} (${o.result})`;
    return;
  }
  let text = `${sideName(s.turn)} to move`;
  if (s.check) text += " (check)";
  if (engineBusy()) text += " - the engine is thinking...";
  else if (app.input.placing) text += ": choose the trampoline square";
  status.textContent = text;
}

function renderMoves() {
  const s = app.state;
  const list = $("moves");
  list.replaceChildren();
  let row = null;
  for (const h of s.history) {
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
    if (h.ply === s.ply) b.classList.add("current");
    b.addEventListener("click", () => view(h.ply));
    row.append(b);
    if (h.color === "black") row = null;
  }
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

// ---- State changes ----

function setState(state) {
  app.state = state;
  app.input = new MoveInput(state.ply === state.plies ? state.legal : []);
  closeChooser();
  if (state.ply === state.plies) location.hash = `game=${state.id}`;
  render();
  maybeEngineMove();
  scheduleAnalysis();
}

async function run(action) {
  if (app.busy) return;
  app.busy = true;
  showError("");
  try {
    await action();
  } catch (err) {
    showError(err.message);
  } finally {
    app.busy = false;
  }
}

async function view(ply) {
  if (!app.state) return;
  const target = Math.max(0, Math.min(app.state.plies, ply));
  await run(async () => setState(await api.game(app.state.id, target)));
}

function play(move) {
  run(async () => setState(await api.play(app.state.id, move.uci)));
}

async function newGame(req) {
  await run(async () => setState(await api.create(req)));
}

// ---- Engine mode (offered only when the server has an engine) ----

function engineMode() {
  return app.info && app.info.engine && $("mode").value === "engine";
}

async function maybeEngineMove() {
  const s = app.state;
  if (!engineMode() || !viewingCurrent() || s.outcome || app.engineThinking) return;
  if (s.turn !== $("engine-side").value) return;
  app.engineThinking = true;
  app.engineGame = s.id;
  renderStatus();
  let next = null;
  try {
    next = await api.engine(s.id, Number($("engine-level").value));
  } catch (err) {
    // A takeback while it thought makes its answer stale (409).
    if (err.status !== 409) showError(err.message);
  }
  app.engineThinking = false;
  if (next && app.state && app.state.id === s.id && app.state.plies === s.plies) {
    setState(next);
  } else if (app.state) {
    // The game changed meanwhile (takeback, new game): start afresh.
    render();
    maybeEngineMove();
  }
}

// Whether the engine is thinking about the game on the board.
function engineBusy() {
  return app.engineThinking && app.state && app.engineGame === app.state.id;
}

// ---- Analysis mode: the engine's evaluation and best line ----
// Every position shown (after a move, a takeback, or stepping through the
// move list) is analysed by the server's engine. Only the answer to the
// latest request is shown: an older one (its position no longer shown)
// is dropped, and the server stops the older search itself.

const analysis = { seq: 0, timer: null };

function analysisMode() {
  return app.info && app.info.engine && $("mode").value === "analysis";
}

// "+0.34", "-1.20", "0.00"; mates as "White mates in 3".
function formatScore(score) {
  if (score.mate !== undefined) {
    const n = score.mate;
    return `${n > 0 ? "White" : "Black"} mates in ${Math.abs(n)}`;
  }
  const pawns = score.cp / 100;
  return (pawns > 0 ? "+" : "") + pawns.toFixed(2);
}

function showAnalysis(fields) {
  const score = $("analysis-score");
  score.textContent = fields.score || "";
  score.dataset.kind = fields.kind || "";
  $("analysis-depth").textContent = fields.depth ? `depth ${fields.depth}` : "";
  $("analysis-line").textContent = fields.line || "";
  $("analysis-status").textContent = fields.status || "";
  $("analysis").dataset.ply = fields.ply === undefined ? "" : String(fields.ply);
}

function scheduleAnalysis() {
  clearTimeout(analysis.timer);
  const seq = ++analysis.seq;
  const panel = $("analysis");
  panel.hidden = !analysisMode();
  if (panel.hidden || !app.state) return;
  const s = app.state;
  $("analysis-engine").textContent = `(${app.info.engine.name})`;
  if (viewingCurrent() && s.outcome) {
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
    answer = await api.analysis(s.id, s.ply);
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
    score: formatScore(answer.score),
    kind: answer.score.mate !== undefined ? "mate" : "cp",
    depth: answer.depth,
    line: answer.pv_text,
    ply: answer.ply,
  });
}

// ---- Move input ----

function pointToSquare(ev) {
  const node = document.elementFromPoint(ev.clientX, ev.clientY);
  const cell = node && node.closest ? node.closest("[data-square]") : null;
  return cell ? cell.dataset.square : null;
}

function follow(result) {
  switch (result.type) {
    case "play":
      play(result.move);
      break;
    case "choose":
      openChooser(result.groups);
      break;
    default:
      render();
  }
}

// A click (or the end of a drag) on a square.
function onSquare(sq) {
  if (!viewingCurrent() || app.busy || engineBusy()) return false;
  const input = app.input;
  if (input.source || input.placing) {
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
  return false;
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
  if (ev.button !== 0 || !viewingCurrent() || app.busy || engineBusy()) return;
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
  if (!cell || !viewingCurrent()) return;
  ev.preventDefault();
  const sq = cell.dataset.square;
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

// ---- The chooser: promotion, placed man, or which of two moves ----

function describe(m, turn) {
  const parts = [];
  if (m.kind === "double_step") parts.push("double step");
  if (m.kind === "en_passant") parts.push("en passant");
  if (m.via.length) parts.push("bounce via " + m.via.join(", "));
  if (m.kind === "jump") parts.push(m.role ? `place a ${roleName(m.role)}` : "place nothing");
  else if (m.role) parts.push(roleName(m.role));
  else if (m.kind === "normal" && !m.via.length) parts.push(turn ? "no promotion" : "");
  return parts.filter(Boolean).join(", ") || m.san;
}

function openChooser(groups) {
  const box = $("chooser-options");
  box.replaceChildren();
  const roles = groups.some((g) => g[0].role);
  $("chooser-title").textContent = groups.every((g) => g[0].kind === "jump")
    ? "Which man does the king leave behind?"
    : roles
      ? "Promote to:"
      : "Which move?";
  for (const group of groups) {
    const m = group[0];
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.uci = m.uci;
    b.dataset.role = m.role || "";
    if (m.role) {
      const letter = app.state.turn === "white" ? m.role.toUpperCase() : m.role;
      b.append(pieceSvg(letter));
    }
    const label = document.createElement("span");
    label.textContent = describe(m, roles);
    b.append(label);
    b.addEventListener("click", () => {
      closeChooser();
      follow(app.input.chooseGroup(group));
    });
    box.append(b);
  }
  $("chooser").hidden = false;
}

function closeChooser() {
  $("chooser").hidden = true;
}

// ---- Import, export, rules ----

async function exportText(kind) {
  await run(async () => {
    const r = kind === "fen" ? await api.fen(app.state.id) : await api.pgn(app.state.id);
    $("text").value = r.text;
  });
}

async function importText(kind) {
  const text = $("text").value;
  const req = { variant: $("variant").value };
  req[kind] = text;
  await newGame(req);
}

async function showRules() {
  await run(async () => {
    const variant = app.state ? app.state.variant : $("variant").value;
    const r = await api.rules(variant);
    $("rules-text").innerHTML = renderMarkdown(r.text);
    $("rules").showModal();
  });
}

// ---- Start ----

async function start() {
  app.board = new Board($("board"));
  try {
    app.info = await api.info();
  } catch (err) {
    showError("The server does not answer: " + err.message);
    return;
  }
  const select = $("variant");
  for (const v of app.info.variants) {
    const o = document.createElement("option");
    o.value = v.name;
    o.textContent = v.title;
    select.append(o);
  }
  if (app.info.engine) {
    $("mode-box").hidden = false;
    const level = $("engine-level");
    for (let i = 1; i <= app.info.engine.max_level; i++) {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = String(i);
      level.append(o);
    }
    $("mode").addEventListener("change", () => {
      $("engine-options").hidden = $("mode").value !== "engine";
      maybeEngineMove();
      scheduleAnalysis();
    });
    $("engine-side").addEventListener("change", () => {
      // Sit on the side of the board the player plays.
      app.board.flipped = $("engine-side").value === "white";
      render();
      maybeEngineMove();
    });
  }
  $("new-game").addEventListener("click", () => newGame({ variant: select.value }));
  $("flip").addEventListener("click", () => {
    app.board.flipped = !app.board.flipped;
    render();
  });
  $("takeback").addEventListener("click", () =>
    run(async () => {
      const s = app.state;
      // Against the engine, take back the engine's reply too.
      const plies = engineMode() && s.turn !== $("engine-side").value ? 2 : 1;
      setState(await api.undo(s.id, Math.min(plies, Math.max(1, s.plies))));
    }),
  );
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
  $("nav-start").addEventListener("click", () => view(0));
  $("nav-back").addEventListener("click", () => view(app.state.ply - 1));
  $("nav-forward").addEventListener("click", () => view(app.state.ply + 1));
  $("nav-end").addEventListener("click", () => view(app.state.plies));
  $("export-fen").addEventListener("click", () => exportText("fen"));
  $("export-pgn").addEventListener("click", () => exportText("pgn"));
  $("import-fen").addEventListener("click", () => importText("fen"));
  $("import-pgn").addEventListener("click", () => importText("pgn"));
  $("rules-button").addEventListener("click", showRules);
  $("board").addEventListener("pointerdown", onBoardPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "TEXTAREA" || ev.target.tagName === "SELECT") return;
    if (ev.key === "ArrowLeft") view(app.state.ply - 1);
    if (ev.key === "ArrowRight") view(app.state.ply + 1);
    if (ev.key === "Escape") {
      app.input.reset();
      closeChooser();
      render();
    }
  });

  const m = /game=(\d+)/.exec(location.hash);
  if (m) {
    try {
      const s = await api.game(m[1]);
      select.value = s.variant;
      setState(s);
      return;
    } catch (_) {
      // The game is gone (server restarted): start a new one.
    }
  }
  await newGame({ variant: select.value });
}

start();
