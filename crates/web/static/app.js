// Springboard's page: the creation screen, a game (played, watched or
// replayed, kept live through the game's socket), and the games list.
// The page holds no rules: what can move where comes from the server's
// legal move list, every move is checked again by the server, and the
// server keeps the seats, the clocks and the engine's moves.

import { api, LiveSocket } from "./api.js";
import { Board } from "./board.js";
import { MoveInput, sourceOf, pieceKey } from "./input.js";
import { pieceSvg, trampolineSvg, roleName } from "./pieces.js";
import { renderMarkdown } from "./markdown.js";

const $ = (id) => document.getElementById(id);

// The time controls offered at creation: [label, clock or null].
const CLOCKS = [
  ["1+0", { initial: 60, increment: 0 }],
  ["3+2", { initial: 180, increment: 2 }],
  ["5+3", { initial: 300, increment: 3 }],
  ["10+5", { initial: 600, increment: 5 }],
  ["15+10", { initial: 900, increment: 10 }],
  ["Unlimited", null],
];

// A clock at or under this many ms is shown as running low.
const LOW_TIME_MS = 20000;

const app = {
  info: null,
  screen: null,
  gameId: null,
  game: null, // the latest view of the current position (its version)
  state: null, // the view of the shown position (the current one, or older)
  clockAt: 0, // performance.now() when `game` (and its clock) arrived
  socket: null,
  connection: "none",
  crowd: null,
  variation: null, // the side line shown in the move list: {base, moves, history, prefix}
  input: new MoveInput([]),
  board: null,
  busy: false,
  seatSeen: undefined, // the seat the board was last oriented for
  flagAsked: null,
  pollTimer: null,
  hover: null, // the board square under the pointer (for the drop preview)
};

function showError(text) {
  $("error").textContent = text || "";
}

function viewingCurrent() {
  return (
    app.state && app.game && !app.state.line && app.state.ply === app.state.plies && app.state.plies === app.game.plies
  );
}

// Side lines (variations) are played on the page from any earlier position
// of a game at one screen or of a game that is over; the server checks
// each move and sends the position, but keeps the game's own moves as they
// are (its main line stays what the players played).
function variationsAllowed() {
  const g = app.game;
  return !!g && (g.mode === "local" || ended(g));
}

function sideName(color) {
  return color === "white" ? "White" : "Black";
}

function other(color) {
  return color === "white" ? "black" : "white";
}

function ended(g) {
  return !!(g && (g.status === "ended" || g.result || g.outcome));
}

// Which seat(s) this browser holds: "white", "black", "both" or null.
function you() {
  return app.game ? app.game.you || null : null;
}

function holds(color) {
  const y = you();
  return y === "both" || (y !== null && y === color);
}

// Whether this browser may enter a move now.
function canMove() {
  const g = app.game;
  if (app.state && app.state.line) return variationsAllowed() && app.state.legal.length > 0;
  if (!g || !viewingCurrent() || ended(g) || g.status === "waiting") return false;
  return holds(app.state.turn);
}

// ---- The result ----

const REASONS = {
  time: "on time",
  resignation: "by resignation",
  "draw agreed": "by agreement",
  "weak square": "by reaching the weak square",
  "game text": "as the loaded game text states",
};

function resultOf(g) {
  if (g.result) {
    const winner = g.result === "1-0" ? "white" : g.result === "0-1" ? "black" : null;
    return { result: g.result, winner, reason: g.reason || (g.outcome && g.outcome.reason) || "" };
  }
  if (g.outcome) return g.outcome;
  return null;
}

// The score as written under a game: 1-0, 0-1, or ½-½ for a draw.
function scoreText(result) {
  return result === "1/2-1/2" ? "\u00BD-\u00BD" : result;
}

function resultText(r) {
  if (r.winner) {
    const how = REASONS[r.reason] || (r.reason ? `by ${r.reason}` : "");
    return `${sideName(r.winner)} wins ${how}`.trim();
  }
  if (r.reason === "draw agreed") return "Draw by agreement";
  if (r.reason === "game text") return "Draw, as the loaded game text states";
  if (r.reason === "time vs insufficient material") return "Draw: time ran out, but the other side cannot mate";
  return r.reason ? `Draw by ${r.reason}` : "Draw";
}

// ---- Clocks ----

function clockMs(color) {
  const g = app.game;
  if (!g || !g.clock) return null;
  let ms = g.clock[color + "_ms"];
  if (g.clock.running === color && !ended(g)) ms -= performance.now() - app.clockAt;
  return Math.max(0, ms);
}

function formatClock(ms) {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  if (h > 0) return `${h}:${String(m).padStart(2, "0")}:${ss}`;
  if (ms < 10000) return `${m}:${ss}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${ss}`;
}

function renderClocks() {
  const g = app.game;
  for (const [box, color] of playerBoxes()) {
    const el = box.querySelector(".clock");
    if (!g || !g.clock) {
      el.hidden = true;
      continue;
    }
    const ms = clockMs(color);
    el.hidden = false;
    el.textContent = formatClock(ms);
    el.dataset.ms = String(Math.round(ms));
    el.classList.toggle("running", g.clock.running === color && !ended(g));
    el.classList.toggle("low", ms <= LOW_TIME_MS && !ended(g));
    el.classList.toggle("flagged", ms <= 0);
    // The server ends the game when a flag falls (and tells every tab);
    // a tab whose count reached zero asks once more in case it missed it.
    if (ms <= 0 && g.clock.running === color && !ended(g) && app.flagAsked !== g.version) {
      app.flagAsked = g.version;
      setTimeout(refresh, 600);
    }
  }
}

function playerBoxes() {
  const top = app.board && app.board.flipped ? "white" : "black";
  return [
    [$("player-top"), top],
    [$("player-bottom"), other(top)],
  ];
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
    marks.pieces = halfMade(app.input.placing[0]);
    const m = app.input.placing[0];
    if (m.to) marks.selected = m.to;
  }
  const dropped = dropPreview();
  if (dropped) marks.pieces = dropped;
  const best = bestArrow();
  if (best) marks.arrows = [best];
  return marks;
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
function hoverSquare(sq) {
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
}

// ---- The board's size ----

const ZOOM_KEY = "springboard.boardZoom";
const MIN_ZOOM = 0.3;

// The CSS of the board's size (style.css, :root) told what the game
// shows: the files and ranks drawn, reserve rows above and below, the
// evaluation bar.
function sizeBoard() {
  const s = app.state;
  const { files, ranks } = app.board.lines(s);
  // Rows for the reserves: men to drop or place, or a trampoline off the
  // board.
  const reserves = s.reserves.length > 0 || (s.trampolines_in_play && s.trampolines.some((t) => !t.square));
  const root = document.documentElement.style;
  root.setProperty("--cols", String(files.length));
  root.setProperty("--rows", String(ranks.length));
  root.setProperty("--res", reserves ? "1.6" : "0");
  root.setProperty("--eval-w", $("evalbar").hidden ? "0px" : "22px");
  $("play").classList.toggle("has-reserves", reserves);
}

function savedZoom() {
  const z = Number(localStorage.getItem(ZOOM_KEY));
  return z >= MIN_ZOOM && z <= 1 ? z : 1;
}

// The share (0.3-1) of the room the board takes; kept for the next visit
// when `save`.
function setZoom(z, save) {
  const zoom = Math.max(MIN_ZOOM, Math.min(1, z));
  document.documentElement.style.setProperty("--zoom", zoom.toFixed(4));
  const handle = $("board-resize");
  handle.setAttribute("aria-valuenow", String(Math.round(zoom * 100)));
  handle.setAttribute("aria-valuetext", `${Math.round(zoom * 100)}% of the room`);
  if (save) {
    try {
      localStorage.setItem(ZOOM_KEY, zoom.toFixed(4));
    } catch (_) {
      // storage refused (private mode): the size holds for this visit
    }
  }
  return zoom;
}

// The drag handle (as lichess has it): the board's corner follows the
// pointer; the arrow keys on the handle grow and shrink it by 5%.
function wireResize() {
  const handle = $("board-resize");
  let zoom = setZoom(savedZoom(), false);
  handle.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    ev.preventDefault();
    handle.setPointerCapture(ev.pointerId);
    handle.classList.add("dragging");
    // The squares' width (the coordinates stay as they are).
    const cell = $("board").querySelector(".sq");
    const cols = Number(document.documentElement.style.getPropertyValue("--cols")) || 8;
    const width = cell ? cell.getBoundingClientRect().width * cols : 400;
    const start = { x: ev.clientX, y: ev.clientY, zoom, width };
    const move = (e) => {
      const d = (e.clientX - start.x + e.clientY - start.y) / 2;
      zoom = setZoom((start.zoom * (start.width + d)) / start.width, false);
    };
    const up = () => {
      handle.classList.remove("dragging");
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
      handle.removeEventListener("pointercancel", up);
      zoom = setZoom(zoom, true);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
    handle.addEventListener("pointercancel", up);
  });
  handle.addEventListener("keydown", (ev) => {
    const d = { ArrowUp: 0.05, ArrowRight: 0.05, ArrowDown: -0.05, ArrowLeft: -0.05 }[ev.key];
    if (d === undefined) return;
    ev.preventDefault();
    ev.stopPropagation();
    zoom = setZoom(zoom + d, true);
  });
}

// A seat's label: the engine's name and level, the side for a player (the
// server knows no names), or that the seat is still free.
function seatName(color) {
  const g = app.game;
  const seat = g.seats && g.seats[color];
  if (seat && seat.kind === "engine") return seat.name || "Engine";
  if (seat && !seat.taken && g.mode !== "local") return `${sideName(color)}: waiting for a player`;
  return sideName(color);
}

function renderPlayers() {
  const g = app.game;
  const y = you();
  for (const [box, color] of playerBoxes()) {
    box.dataset.color = color;
    let name = seatName(color);
    if (y === color) name += " (you)";
    box.querySelector(".name").textContent = name;
    const seat = g.seats && g.seats[color];
    const dot = box.querySelector(".presence");
    const engine = seat && seat.kind === "engine";
    let online = null;
    if (engine) online = true;
    else if (app.crowd && g.mode !== "local") online = !!app.crowd[color];
    dot.hidden = online === null;
    dot.classList.toggle("on", online === true);
    dot.title = online ? "connected" : "not connected";
    box.classList.toggle("to-move", !ended(g) && g.status !== "waiting" && app.game.turn === color);
  }
}

function renderStatus() {
  const s = app.state;
  const g = app.game;
  const status = $("status");
  status.classList.remove("over");
  if (s.line && s.line.moves.length > 0) {
    const over = s.outcome ? `: ${resultText(s.outcome)}` : `: ${sideName(s.turn)} to move`;
    status.textContent = `Side line after move ${s.line.base} of the game${over}`;
    return;
  }
  if (!viewingCurrent()) {
    const more = variationsAllowed() ? " (a move here starts a side line)" : "";
    status.textContent = `Viewing the position after ${s.ply} of ${g.plies} moves${more}`;
    return;
  }
  const r = ended(g) ? resultOf(g) : null;
  if (r) {
    status.classList.add("over");
    status.textContent = `Game over: ${resultText(r)} (${scoreText(r.result)})`;
    return;
  }
  if (g.status === "waiting") {
    status.textContent = you() ? "Waiting for your friend to join" : "Waiting for a second player";
    return;
  }
  let text = `${sideName(s.turn)} to move`;
  if (s.check) text += " (check)";
  const onlyPass = s.legal.length > 0 && s.legal.every((m) => m.kind === "pass");
  if (g.engine_thinking) text += " - the engine is thinking...";
  else if (app.input.placing) text += ": choose the trampoline square";
  else if (onlyPass && stuckSide(s.turn)) {
    const jumper = (s.jumping || []).includes(other(s.turn)) ? `, while ${sideName(other(s.turn))}'s king still jumps` : "";
    text = `${sideName(s.turn)}'s king is stuck: ${sideName(s.turn)} must pass${jumper}`;
  }
  status.textContent = text;
  status.classList.toggle("thinking", !!g.engine_thinking);
}

// ---- Jumping King: stuck kings ----

function stuckSide(color) {
  return app.state && (app.state.stuck || []).find((x) => x.color === color);
}

// "2 rooks, a bishop and 3 pawns"
function menText(men) {
  const parts = men.map((m) => {
    const name = roleName(m.role);
    return m.count === 1 ? `a ${name}` : `${m.count} ${name}s`;
  });
  if (parts.length <= 1) return parts.join("");
  return parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1];
}

function renderNotes() {
  const notes = [];
  for (const st of app.state.stuck || []) {
    const p = document.createElement("p");
    p.className = "stuck";
    p.dataset.color = st.color;
    const side = sideName(st.color);
    p.textContent = `${side}'s king is stuck: it can jump no more, so the men ${side} holds in reserve (${menText(st.men)}) will never enter the game.`;
    notes.push(p);
  }
  $("notes").replaceChildren(...notes);
}

function showHint(text) {
  $("hint").textContent = text || "";
}

function renderMoves() {
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
  if (current) current.scrollIntoView({ block: "nearest" });
  // The keyboard stays in the list (Home, End, arrows: onMovesKey).
  if (hadFocus) (current || list).focus({ preventScroll: true });
}

// The buttons under the board's move list, each enabled only when it
// leads to another position (back and start from the first position,
// forward and end from the last do nothing).
function renderNav() {
  const s = app.state;
  const v = app.variation;
  const inLine = !!(s.line && v && s.line.base === v.base);
  const lineAt = inLine ? s.line.moves.length : 0;
  const back = s.ply > 0 || lineAt > 0;
  const forward = inLine ? lineAt < v.moves.length : s.ply < app.game.plies;
  $("nav-start").disabled = !back;
  $("nav-back").disabled = !back;
  $("nav-forward").disabled = !forward;
  $("nav-end").disabled = viewingCurrent();
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

// The position after the first `n` moves of the side line.
async function showLine(n) {
  const v = app.variation;
  if (!v) return;
  const k = Math.max(0, Math.min(v.moves.length, n));
  if (k === 0) {
    view(v.base);
    return;
  }
  await run(async () => {
    const st = await api.line(app.gameId, v.base, v.moves.slice(0, k));
    if (app.variation !== v) return;
    st.line = { base: v.base, moves: v.moves.slice(0, k) };
    showState(st);
  });
}

function showState(st) {
  app.state = st;
  app.input = new MoveInput(canMove() ? st.legal : []);
  closeChooser();
  render();
  scheduleAnalysis();
}

// The game's buttons, each shown where it belongs and enabled only when
// it makes sense.
function renderControls() {
  const g = app.game;
  const y = you();
  const seat = y === "white" || y === "black";
  const playing = g.status === "playing" && !ended(g);
  const offers = g.offers || {};
  const takeback = $("takeback");
  if (y === "both") {
    takeback.hidden = false;
    takeback.textContent = "Take back";
    takeback.disabled = !(g.plies > 0 && viewingCurrent());
  } else if (seat && (g.mode === "friend" || g.mode === "engine") && !ended(g)) {
    takeback.hidden = false;
    const mine = g.history.some((h) => h.color === y);
    takeback.textContent = g.mode === "engine" ? "Take back" : offers.takeback === y ? "Take-back asked" : "Ask take-back";
    takeback.disabled = !(playing && mine && offers.takeback == null);
  } else {
    takeback.hidden = true;
  }
  const draw = $("draw");
  draw.hidden = !(seat && g.mode === "friend" && !ended(g));
  draw.textContent = offers.draw === y ? "Draw offered" : "Offer draw";
  draw.disabled = !(playing && offers.draw == null);
  const resign = $("resign");
  const confirming = !$("resign-box").hidden;
  resign.hidden = !(seat && g.mode !== "local" && !ended(g)) || confirming;
  resign.disabled = !playing;
  if (!playing) $("resign-box").hidden = true;
  const rematch = $("rematch");
  rematch.hidden = !(seat && g.mode !== "local" && ended(g) && !g.rematch);
  rematch.textContent =
    offers.rematch === y ? "Rematch offered" : offers.rematch ? "Accept rematch" : "Rematch";
  rematch.disabled = offers.rematch === y;
  renderOffers();
}

function offerRow(text, buttons) {
  const row = document.createElement("div");
  row.className = "offer";
  const t = document.createElement("span");
  t.textContent = text;
  row.append(t);
  for (const [id, label, action] of buttons) {
    const b = document.createElement("button");
    b.type = "button";
    b.id = id;
    b.textContent = label;
    b.addEventListener("click", () => run(action));
    row.append(b);
  }
  return row;
}

function renderOffers() {
  const g = app.game;
  const y = you();
  const seat = y === "white" || y === "black";
  const offers = g.offers || {};
  const rows = [];
  const open = g.status === "playing" && !ended(g);
  if (offers.draw && open) {
    if (seat && offers.draw !== y) {
      rows.push(
        offerRow("Your opponent offers a draw.", [
          ["draw-accept", "Accept draw", async () => applyGame(await api.draw(g.id, "accept"))],
          ["draw-decline", "Decline", async () => applyGame(await api.draw(g.id, "decline"))],
        ]),
      );
    } else if (seat) {
      rows.push(offerRow("You offered a draw.", []));
    } else rows.push(offerRow(`${sideName(offers.draw)} offers a draw.`, []));
  }
  if (offers.takeback && open) {
    if (seat && offers.takeback !== y) {
      rows.push(
        offerRow("Your opponent asks to take back a move.", [
          ["takeback-accept", "Grant", async () => applyGame(await api.takeback(g.id, "accept"))],
          ["takeback-decline", "Decline", async () => applyGame(await api.takeback(g.id, "decline"))],
        ]),
      );
    } else if (seat) {
      rows.push(offerRow("You asked to take back a move.", []));
    } else rows.push(offerRow(`${sideName(offers.takeback)} asks to take back a move.`, []));
  }
  if (offers.rematch && ended(g) && !g.rematch) {
    if (seat && offers.rematch !== y) rows.push(offerRow("Your opponent offers a rematch.", []));
    else if (seat) rows.push(offerRow("You offered a rematch.", []));
    else rows.push(offerRow(`${sideName(offers.rematch)} offers a rematch.`, []));
  }
  $("offers").replaceChildren(...rows);
  $("offers").hidden = rows.length === 0;
}

function renderSide() {
  const g = app.game;
  const y = you();
  const modes = { engine: "Against the engine", friend: "Game between friends", local: "Two players at one screen" };
  const parts = [modes[g.mode] || ""];
  parts.push(g.clock ? clockLabel(g.clock) : "no clock");
  $("game-info").textContent = parts.filter(Boolean).join(" - ");
  const waiting = g.status === "waiting";
  $("invite").hidden = !(waiting && y && g.mode === "friend");
  if (!$("invite").hidden) $("invite-link").value = `${location.origin}/g/${g.id}`;
  $("join-box").hidden = !(waiting && !y);
  const watch = $("watchers");
  const n = app.crowd ? app.crowd.spectators : null;
  const lines = [];
  if (!y && g.mode !== "local") lines.push("You are watching this game.");
  if (!y && g.mode === "local") lines.push("You are watching a game played at one screen.");
  if (n !== null && n !== undefined && g.mode !== "local") lines.push(`${n} watching`);
  watch.textContent = lines.join(" ");
  const link = $("rematch-link");
  link.hidden = !g.rematch;
  if (g.rematch) link.querySelector("a").href = `/g/${g.rematch}`;
  const canAnalyse = app.info && app.info.engine && (g.mode === "local" || ended(g));
  $("analysis-box").hidden = !canAnalyse;
  if (!canAnalyse) $("analysis-toggle").checked = false;
  $("download-pgn").href = api.pgnDownload(g.id);
}

function clockLabel(c) {
  if (!c) return "Unlimited";
  const initial = c.initial_ms !== undefined ? c.initial_ms / 1000 : c.initial;
  const inc = c.increment_ms !== undefined ? c.increment_ms / 1000 : c.increment;
  const min = initial / 60;
  const label = Number.isInteger(min) ? String(min) : min.toFixed(1);
  return `${label}+${inc}`;
}

function renderConnection() {
  const el = $("conn");
  el.hidden = app.screen !== "game";
  el.dataset.state = app.connection;
  el.textContent = { live: "Live", connecting: "Connecting...", offline: "Reconnecting...", none: "" }[app.connection] || "";
  el.title = app.connection === "live" ? "Connected: moves arrive as they are played" : "Not connected: trying again";
}

// ---- State changes ----

// A view of the current position arrived (from a move, a socket message,
// a reload): it replaces what is shown unless it is older than that.
function applyGame(v) {
  if (!v || v.id === undefined) return;
  if (String(v.id) !== String(app.gameId)) return;
  const old = app.game;
  if (old && typeof v.version === "number" && typeof old.version === "number" && v.version < old.version) return;
  app.game = v;
  app.clockAt = performance.now();
  const va = app.variation;
  if (va && (v.plies < va.base || prefixOf(v, va.base) !== va.prefix)) {
    app.variation = null;
    if (app.state && app.state.line) app.state = v;
  }
  const browsing = app.state && old && app.state.ply < old.plies && app.state.id === v.id;
  const keep = (browsing && old.plies === v.plies && app.state.ply <= v.plies) || (app.state && app.state.line && app.state.id === v.id);
  if (!keep) app.state = v;
  if (app.seatSeen !== v.you) {
    app.seatSeen = v.you;
    app.board.flipped = v.you === "black";
  }
  if (v.rematch && old && !old.rematch && (v.you === "white" || v.you === "black")) {
    // The rematch was agreed: both players go to the new game.
    navigate(`/g/${v.rematch}`);
    return;
  }
  // The same version again (the socket's catch-up read): a move being
  // entered (a picked piece, the open picker) stays; else it starts over.
  const same = old && typeof v.version === "number" && v.version === old.version && v.you === old.you;
  if (!same) {
    app.input = new MoveInput(canMove() ? app.state.legal : []);
    closeChooser();
  }
  if (v.variant !== (old && old.variant)) showPicked(v.variant);
  document.title = `${v.title} - Springboard`;
  render();
  scheduleAnalysis();
  schedulePoll();
}

// Re-reads the game (after the socket said it changed, or to catch up).
let refreshing = null;
let refreshAgain = false;
async function refresh() {
  if (!app.gameId) return;
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  const id = app.gameId;
  refreshing = (async () => {
    try {
      const v = await api.game(id);
      if (id === app.gameId) applyGame(v);
    } catch (err) {
      if (id === app.gameId && err.status) showError(err.message);
    }
  })();
  await refreshing;
  refreshing = null;
  if (refreshAgain) {
    refreshAgain = false;
    await refresh();
  }
}

// While the socket is down, the page still reads the game every 2 s.
function schedulePoll() {
  clearTimeout(app.pollTimer);
  if (app.screen !== "game" || app.connection === "live") return;
  app.pollTimer = setTimeout(async () => {
    if (app.connection !== "live") await refresh();
    schedulePoll();
  }, 2000);
}

async function run(action) {
  if (app.busy) return;
  app.busy = true;
  showError("");
  try {
    await action();
  } catch (err) {
    showError(err.message);
    // The game may have changed under us (409): show what it is now.
    if (err.status === 409 || err.status === 403) refresh();
  } finally {
    app.busy = false;
  }
}

async function view(ply) {
  if (!app.state || !app.game) return;
  const target = Math.max(0, Math.min(app.game.plies, ply));
  if (target === app.game.plies) {
    app.state = app.game;
    app.input = new MoveInput(canMove() ? app.state.legal : []);
    render();
    scheduleAnalysis();
    return;
  }
  await run(async () => {
    const line = variationsAllowed();
    const v = line ? await api.line(app.gameId, target, []) : await api.game(app.gameId, target);
    if (String(v.id) !== String(app.gameId)) return;
    if (line) v.line = { base: target, moves: [] };
    showState(v);
  });
}

// The game's moves before a side line leaves it (the line is dropped when
// they change: a take-back).
function prefixOf(g, base) {
  return g.history
    .slice(0, base)
    .map((h) => h.uci)
    .join(" ");
}

// One move back or on: along the side line while one is shown (on from
// its first position goes into it), else along the game.
function step(d) {
  const s = app.state;
  const v = app.variation;
  if (s && s.line && v && s.line.base === v.base) {
    showLine(s.line.moves.length + d);
    return;
  }
  view(s.ply + d);
}

function play(move) {
  const g = app.game;
  const s = app.state;
  if (s.line) {
    // A move in a side line: checked by the server, kept on the page.
    run(async () => {
      const moves = [...s.line.moves, move.uci];
      const st = await api.line(g.id, s.line.base, moves);
      st.line = { base: s.line.base, moves };
      app.variation = { base: s.line.base, moves, history: st.history.slice(s.line.base), prefix: prefixOf(g, s.line.base) };
      showState(st);
    });
    return;
  }
  run(async () => {
    try {
      applyGame(await api.play(g.id, move.uci, g.plies));
    } catch (err) {
      // The board was behind the game (a move made elsewhere): the page
      // reads the game again, and says why the move was not played.
      if (err.status === 409 && err.data && typeof err.data.version === "number") {
        err.message = "The game had changed meanwhile; this is where it stands now.";
      }
      throw err;
    }
  });
}

// ---- Screens and navigation ----

function showScreen(name) {
  app.screen = name;
  $("create-screen").hidden = name !== "create";
  $("games-screen").hidden = name !== "games";
  $("game-screen").hidden = name !== "game";
  renderConnection();
}

function navigate(path) {
  if (location.pathname + location.search + location.hash !== path) history.pushState(null, "", path);
  route();
}

function leaveGame() {
  if (app.socket) app.socket.close();
  $("variant-ask").hidden = true;
  textMessage("", "");
  app.socket = null;
  clearTimeout(app.pollTimer);
  app.gameId = null;
  app.game = null;
  app.state = null;
  app.crowd = null;
  app.seatSeen = undefined;
  app.connection = "none";
  app.variation = null;
  $("resign-box").hidden = true;
  closeChooser();
}

async function route() {
  const path = location.pathname;
  const m = /^\/g\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (m) {
    if (app.gameId !== m[1]) await openGame(m[1]);
    else scheduleAnalysis();
    return;
  }
  leaveGame();
  if (path === "/games" || path === "/games/") {
    showScreen("games");
    document.title = "Games - Springboard";
    const list = new URLSearchParams(location.search).get("list") || "ongoing";
    loadGames(list);
    return;
  }
  showScreen("create");
  document.title = "Springboard";
}

async function openGame(id, preloaded) {
  leaveGame();
  app.gameId = id;
  showScreen("game");
  showError("");
  $("analysis-toggle").checked = location.hash === "#analysis";
  let v = preloaded;
  if (!v) {
    try {
      v = await api.game(id);
    } catch (err) {
      if (app.gameId !== id) return;
      $("game-screen").hidden = true;
      showScreen("create");
      $("create-error").textContent = err.status === 404 ? `There is no game ${id}.` : `Cannot open game ${id}: ${err.message}`;
      return;
    }
  }
  if (app.gameId !== id) return;
  applyGame(v);
  connectSocket(id);
}

function connectSocket(id) {
  if (app.socket) app.socket.close();
  app.socket = new LiveSocket(id, {
    version: () => (app.game && typeof app.game.version === "number" ? app.game.version : null),
    onState: (v) => {
      if (!app.game || typeof app.game.version !== "number" || v > app.game.version) refresh();
    },
    onOpen: () => refresh(),
    onCrowd: (d) => {
      app.crowd = d;
      if (app.game) {
        renderPlayers();
        renderSide();
      }
    },
    onStatus: (s) => {
      app.connection = s;
      renderConnection();
      schedulePoll();
    },
  });
}

// ---- Creation ----

function clockOf(selectId) {
  const c = CLOCKS[Number($(selectId).value)];
  return c ? c[1] : null;
}

async function create(req, hash) {
  $("create-error").textContent = "";
  try {
    const v = await api.create({ variant: $("variant").value, ...req });
    history.pushState(null, "", `/g/${v.id}${hash || ""}`);
    await openGame(String(v.id), v);
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

// ---- The games list ----

function formatDate(t) {
  if (t === null || t === undefined) return "";
  let d;
  if (typeof t === "number") d = new Date(t < 1e12 ? t * 1000 : t);
  else d = new Date(t);
  if (Number.isNaN(d.getTime())) return String(t);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function playerName(p) {
  const name = p && p.name;
  if (!name || name === "waiting") return "(free seat)";
  return name;
}

let gamesSeq = 0;
async function loadGames(list) {
  const seq = ++gamesSeq;
  for (const b of document.querySelectorAll("#games-screen .tabs button")) {
    b.setAttribute("aria-selected", String(b.dataset.list === list));
  }
  $("games-error").textContent = "";
  let data;
  try {
    data = await api.list(list, 50);
  } catch (err) {
    if (seq === gamesSeq) $("games-error").textContent = err.message;
    return;
  }
  if (seq !== gamesSeq || app.screen !== "games") return;
  const titles = new Map((app.info ? app.info.variants : []).map((v) => [v.name, v.title]));
  const rows = data.games.map((game) => {
    const tr = document.createElement("tr");
    tr.dataset.id = game.id;
    const cell = (text, cls) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
      return td;
    };
    cell(game.title || titles.get(game.variant) || game.variant, "variant");
    cell(playerName(game.white), "white");
    cell(playerName(game.black), "black");
    cell(clockLabel(game.clock), "tc");
    let result = "";
    if (game.result) result = game.result + (game.reason ? ` (${game.reason})` : "");
    else if (game.status === "waiting") result = "waiting for a player";
    else result = "playing";
    cell(result, "result");
    cell(String(game.moves ?? ""), "count");
    cell(formatDate(game.created_at), "date");
    const links = cell("", "links");
    const a = document.createElement("a");
    a.href = `/g/${game.id}`;
    a.dataset.nav = "";
    a.textContent = game.status === "ended" || game.result ? "Replay" : "Watch";
    const pgn = document.createElement("a");
    pgn.href = api.pgnDownload(game.id);
    pgn.textContent = "PGN";
    pgn.setAttribute("download", "");
    links.append(a, " ", pgn);
    return tr;
  });
  document.querySelector("#games-table tbody").replaceChildren(...rows);
  $("games-table").hidden = rows.length === 0;
  $("games-empty").hidden = rows.length !== 0;
}

// ---- Analysis: the engine's evaluation and best line ----
// Every position shown (after a move, a takeback, or stepping through the
// move list) is analysed by the server's engine. Only the answer to the
// latest request is shown: an older one (its position no longer shown)
// is dropped, and the server stops the older search itself.

const analysis = { seq: 0, timer: null, answer: null };

// The engine's best move as an arrow through its trampolines (with its
// Hop Chess placement), while the analysis of the shown position is shown.
function bestArrow() {
  const a = analysis.answer;
  if (!a || !analysisMode() || !app.state || a.fen !== app.state.fen || !a.best) return null;
  const b = a.best;
  if (!b.from || !b.to) return null;
  return { points: [b.from, ...b.via, b.to], kind: "best", place: b.place };
}

// White's share of the bar: 50% at 0.00, towards 100% as White gains.
function renderEvalBar() {
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
  bar.querySelector(".white").style.height = `${(share * 100).toFixed(1)}%`;
  bar.classList.toggle("flipped", app.board.flipped);
  bar.dataset.share = share.toFixed(3);
  bar.title = `Evaluation: ${$("analysis-score").textContent}`;
}

function analysisMode() {
  return app.info && app.info.engine && app.screen === "game" && !$("analysis-box").hidden && $("analysis-toggle").checked;
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

function scheduleAnalysis() {
  clearTimeout(analysis.timer);
  const seq = ++analysis.seq;
  const panel = $("analysis");
  panel.hidden = !analysisMode();
  if (panel.hidden || !app.state) {
    analysis.answer = null;
    renderEvalBar();
    if (app.state && app.game) render();
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
  render();
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
  if (!canMove() || app.busy) return false;
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
  if (ev.button !== 0 || !canMove() || app.busy) return;
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

// ---- The keyboard ----

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

// ---- Typed moves ----

// A legal move in both notations, to show how a move is typed here.
function typedExample() {
  const legal = (app.state && app.state.legal) || [];
  const m = legal.find((x) => x.kind !== "pass") || legal[0];
  if (!m) return "";
  return m.san === m.uci ? m.san : `${m.san} or ${m.uci}`;
}

// Why no move can be typed now, or null.
function whyNoTypedMove() {
  const g = app.game;
  const s = app.state;
  if (!g || !s) return "No game is shown.";
  if (s.line) return s.legal.length ? null : "No move is left in this position of the side line.";
  if (!viewingCurrent()) return "This is an earlier position: press End (or the last move) to move in the game.";
  if (ended(g)) return "The game is over.";
  if (g.status === "waiting") return "The game starts when your opponent joins.";
  if (!you()) return "You are watching this game: only its players move.";
  if (!holds(s.turn)) return `It is not your turn: ${sideName(s.turn)} is to move.`;
  return s.legal.length ? null : "There is no legal move here.";
}

function renderMoveEntry() {
  const form = $("move-entry");
  form.hidden = !(you() || (app.state && app.state.line));
  // An example from the moves this player may play now (none while the
  // opponent is to move).
  const example = canMove() ? typedExample() : "";
  $("move-text-help").textContent = example ? `Like ${example}` : "";
  $("move-text").placeholder = example ? example.split(" or ")[0] : "";
  // The button stays enabled: a move typed when none can be played gets
  // the reason beside the box.
}

function typedError(text) {
  $("move-text-error").textContent = text || "";
}

// The move box: the server reads the text with the rules core's notation
// reader (SAN or long notation, every game's forms) at the shown
// position; the move it names is played as a clicked one would be.
async function onTypedMove(ev) {
  ev.preventDefault();
  const box = $("move-text");
  const text = box.value.trim();
  typedError("");
  if (!text) {
    typedError(`Type a move first${typedExample() ? `, like ${typedExample()}` : ""}.`);
    return;
  }
  const why = whyNoTypedMove();
  if (why) {
    typedError(why);
    return;
  }
  const s = app.state;
  let read;
  try {
    read = await api.read(app.gameId, text, s.line ? s.line.base : s.ply, s.line ? s.line.moves : []);
  } catch (err) {
    const hint = /^(malformed|illegal) move/.test(err.message) && typedExample() ? ` Type a move like ${typedExample()}.` : "";
    typedError(`${sentence(err.message)}${hint}`);
    return;
  }
  if (app.state !== s) {
    typedError("The position changed meanwhile: look at the board and type your move again.");
    return;
  }
  const move = s.legal.find((m) => m.uci === read.uci);
  if (!move) {
    typedError(`${read.san} is not a move you can play here.`);
    return;
  }
  box.value = "";
  app.input.reset();
  closeChooser();
  play(move);
}

// "illegal move 'x' in this position" -> "Illegal move 'x' in this position."
function sentence(text) {
  const t = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(t) ? t : t + ".";
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

// The messages of the text box, shown right under it.
function textMessage(note, error) {
  $("text-note").textContent = note || "";
  $("text-error").textContent = error || "";
}

function variantTitle(name) {
  const v = app.info && app.info.variants.find((x) => x.name === name);
  return v ? v.title : name;
}

// Copies the game's PGN (as the server writes it) to the clipboard; where
// the browser refuses, the text is put in the text box, selected.
async function copyPgn() {
  const note = $("pgn-note");
  note.textContent = "";
  let text;
  try {
    text = (await api.pgn(app.gameId)).text;
  } catch (err) {
    note.textContent = err.message;
    return;
  }
  try {
    await navigator.clipboard.writeText(text);
    note.textContent = "PGN copied";
  } catch {
    $("text").value = text;
    $("text").select();
    note.textContent = "Copying is blocked here: the PGN is in the text box below, selected";
  }
}

async function exportText(kind) {
  textMessage("", "");
  try {
    const r = kind === "fen" ? await api.fen(app.gameId) : await api.pgn(app.gameId);
    $("text").value = r.text;
  } catch (err) {
    textMessage("", err.message);
  }
}

// A loaded position or game text starts a new game at one screen, of the
// game the text belongs to: the server's readers say which games read it
// (the picked game if it is one of them, else the first); the picker
// follows, and the note says when that is not the game that was picked.
async function importText(kind) {
  const text = $("text").value;
  const what = kind === "fen" ? "a position (FEN)" : "a game (PGN)";
  textMessage("", "");
  if (!text.trim()) {
    textMessage("", `The text box is empty: paste ${what} into it, then load it.`);
    $("text").focus();
    return;
  }
  if (app.busy) return;
  app.busy = true;
  const picked = pickedVariant();
  const hash = $("analysis-toggle").checked ? "#analysis" : "";
  try {
    const found = await api.detect(text);
    const readable = found.variants.length > 0;
    const as = readable ? (found.kind === "position" ? "fen" : "pgn") : kind;
    const variant = found.variants.includes(picked) ? picked : readable ? found.variants[0] : picked;
    const v = await api.create({ variant, mode: "local", [as]: text });
    history.pushState(null, "", `/g/${v.id}${hash}`);
    await openGame(String(v.id), v);
    const thing = as === "fen" ? "position" : "game";
    let note = `Loaded: a ${variantTitle(variant)} ${thing}.`;
    if (variant !== picked) note += ` The text is ${variantTitle(variant)}, not ${variantTitle(picked)}: the game picker now shows ${variantTitle(variant)}.`;
    textMessage(note, "");
  } catch (err) {
    textMessage("", err.message);
  } finally {
    app.busy = false;
  }
}

// The game the picker shows: the open game's on the game screen, else the
// creation screen's choice.
function pickedVariant() {
  return app.screen === "game" && $("game-variant").value ? $("game-variant").value : $("variant").value;
}

// Both pickers show `name`, and the creation screen says what it will start.
function showPicked(name) {
  if (!name) return;
  $("variant").value = name;
  $("game-variant").value = name;
  const title = variantTitle(name);
  $("create-title").textContent = `New game of ${title}`;
  $("variant-hint").textContent = `Choose how to play ${title} below.`;
  showLevels(name);
  for (const b of document.querySelectorAll("#create-screen .card .primary")) b.title = `Start a game of ${title}`;
}

// A game picked on the game screen: a new game of it at one screen, at
// once when nothing is lost, else after asking; from a game played
// against the engine or a friend, the creation screen asks how to play it.
function onGamePicked() {
  const name = $("game-variant").value;
  const g = app.game;
  $("variant-ask").hidden = true;
  if (!g || name === g.variant) return;
  const title = variantTitle(name);
  if (g.mode !== "local") {
    showPicked(name);
    navigate("/");
    return;
  }
  if (g.plies > 0 && !ended(g)) {
    $("variant-ask-text").textContent = `Start a new game of ${title}? This game stays in your games.`;
    $("variant-ask").dataset.variant = name;
    $("variant-ask").hidden = false;
    return;
  }
  startPicked(name);
}

async function startPicked(name) {
  $("variant-ask").hidden = true;
  const hash = $("analysis-toggle").checked ? "#analysis" : "";
  const clock = app.game && app.game.clock ? { initial: app.game.clock.initial_ms / 1000, increment: app.game.clock.increment_ms / 1000 } : null;
  await run(async () => {
    const v = await api.create({ variant: name, mode: "local", clock });
    history.pushState(null, "", `/g/${v.id}${hash}`);
    await openGame(String(v.id), v);
  });
}

async function showRules(which) {
  const variant = which || (app.state ? app.state.variant : $("variant").value);
  try {
    const r = await api.rules(variant);
    $("rules-text").innerHTML = renderMarkdown(r.text);
    const heading = $("rules-text").querySelector("h2");
    if (heading) heading.id = "rules-title";
    const dialog = $("rules");
    dialog.showModal();
    // The rules open at their top, whatever was read last time.
    dialog.scrollTop = 0;
    $("rules-text").focus({ preventScroll: true });
  } catch (err) {
    (app.screen === "game" ? $("error") : $("create-error")).textContent = err.message;
  }
}

// ---- Start ----

function fillSelect(select, options) {
  for (const [value, label] of options) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    select.append(o);
  }
}

function wireGameButtons() {
  $("flip").addEventListener("click", () => {
    app.board.flipped = !app.board.flipped;
    render();
  });
  $("takeback").addEventListener("click", () =>
    run(async () => {
      const g = app.game;
      if (you() === "both") applyGame(await api.undo(g.id, 1));
      else applyGame(await api.takeback(g.id, "offer"));
    }),
  );
  $("draw").addEventListener("click", () => run(async () => applyGame(await api.draw(app.gameId, "offer"))));
  $("resign").addEventListener("click", () => {
    $("resign-box").hidden = false;
    $("resign").hidden = true;
  });
  $("resign-no").addEventListener("click", () => {
    $("resign-box").hidden = true;
    renderControls();
  });
  $("resign-yes").addEventListener("click", () => {
    $("resign-box").hidden = true;
    run(async () => applyGame(await api.resign(app.gameId)));
  });
  $("rematch").addEventListener("click", () =>
    run(async () => {
      const g = app.game;
      const action = g.offers && g.offers.rematch && g.offers.rematch !== you() ? "accept" : "offer";
      applyGame(await api.rematch(g.id, action));
    }),
  );
  $("join").addEventListener("click", () =>
    run(async () => {
      const v = await api.join(app.gameId);
      applyGame(v);
      // The socket learns the new seat from the cookie of a new upgrade.
      connectSocket(app.gameId);
    }),
  );
  $("invite-copy").addEventListener("click", async () => {
    const input = $("invite-link");
    let ok = false;
    try {
      await navigator.clipboard.writeText(input.value);
      ok = true;
    } catch (_) {
      input.select();
      ok = document.execCommand && document.execCommand("copy");
    }
    $("invite-copy").textContent = ok ? "Copied" : "Select and copy";
    setTimeout(() => ($("invite-copy").textContent = "Copy"), 2000);
  });
  $("analysis-toggle").addEventListener("change", () => {
    const hash = $("analysis-toggle").checked ? "#analysis" : "";
    history.replaceState(null, "", location.pathname + location.search + hash);
    scheduleAnalysis();
  });
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
  $("nav-back").addEventListener("click", () => step(-1));
  $("nav-forward").addEventListener("click", () => step(1));
  $("nav-end").addEventListener("click", () => view(app.game.plies));
  $("export-fen").addEventListener("click", () => exportText("fen"));
  $("export-pgn").addEventListener("click", () => exportText("pgn"));
  $("copy-pgn").addEventListener("click", copyPgn);
  $("import-fen").addEventListener("click", () => importText("fen"));
  $("import-pgn").addEventListener("click", () => importText("pgn"));
  $("game-variant").addEventListener("change", onGamePicked);
  $("variant-yes").addEventListener("click", () => startPicked($("variant-ask").dataset.variant));
  $("variant-no").addEventListener("click", () => {
    $("variant-ask").hidden = true;
    if (app.game) $("game-variant").value = app.game.variant;
  });
  $("board").addEventListener("pointerdown", onBoardPointerDown);
  $("board").addEventListener("keydown", onBoardKey);
  $("moves").addEventListener("keydown", onMovesKey);
  $("move-entry").addEventListener("submit", onTypedMove);
  $("move-text").addEventListener("input", () => typedError(""));
  $("board").addEventListener("pointermove", (ev) => {
    const cell = ev.target.closest ? ev.target.closest("[data-square]") : null;
    if (!drag) hoverSquare(cell ? cell.dataset.square : null);
  });
  $("board").addEventListener("pointerleave", () => {
    if (!drag) hoverSquare(null);
  });
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  document.addEventListener("keydown", (ev) => {
    if (app.screen !== "game" || !app.state) return;
    if (["TEXTAREA", "SELECT", "INPUT"].includes(ev.target.tagName)) return;
    if (ev.key === "ArrowLeft") step(-1);
    if (ev.key === "ArrowRight") step(1);
    if (ev.key === "Home" && !ev.target.closest(".board")) view(0);
    if (ev.key === "End" && !ev.target.closest(".board")) view(app.game.plies);
    if (ev.key === "Escape") {
      app.input.reset();
      closeChooser();
      render();
    }
  });
}

// The level picker of the engine card for a game: its levels' labels in
// that game (the level picked stays), and how they were measured.
function showLevels(variant) {
  const engine = app.info && app.info.engine;
  if (!engine) return;
  const picker = $("engine-level");
  const picked = picker.value;
  picker.replaceChildren();
  fillSelect(picker, levelOptions(engine, variant));
  if (picked) picker.value = picked;
  const hint = $("level-hint");
  hint.hidden = !((engine.levels || {})[variant] || []).some((l) => l.elo);
  hint.textContent =
    variant === "chess"
      ? "Level names and ratings are rough: measured at chess against Fairy-Stockfish at a fast time control."
      : `Level names and ratings are rough: measured in ${variantTitle(variant)} in matches between the ` +
        "levels at a fast time control, with level 1 rated 1000.";
}

// The level picker's entries in a game: each level with its name and the
// rough rating the engine measured for it in that game, when it gives them.
function levelOptions(engine, variant) {
  const labels = new Map(((engine.levels || {})[variant] || []).map((l) => [l.level, l]));
  const options = [];
  for (let i = 1; i <= engine.max_level; i++) {
    const l = labels.get(i);
    let text = String(i);
    if (l) text += `: ${l.name}` + (l.elo ? ` (${l.elo})` : "");
    options.push([String(i), text]);
  }
  return options;
}

function wireCreation() {
  const select = $("variant");
  fillSelect(select, app.info.variants.map((v) => [v.name, v.title]));
  fillSelect($("game-variant"), app.info.variants.map((v) => [v.name, v.title]));
  select.addEventListener("change", () => showPicked(select.value));
  showPicked(select.value);
  const clocks = CLOCKS.map(([label], i) => [String(i), label]);
  for (const sel of document.querySelectorAll(".clock-select")) fillSelect(sel, clocks);
  $("friend-clock").value = "2"; // 5+3
  $("engine-clock").value = String(CLOCKS.length - 1); // unlimited
  $("local-clock").value = String(CLOCKS.length - 1);
  if (app.info.engine) {
    $("card-engine").hidden = false;
    $("card-analysis").hidden = false;
    showLevels(select.value);
  }
  $("create-engine").addEventListener("click", () =>
    create({
      mode: "engine",
      color: $("engine-color").value,
      level: Number($("engine-level").value),
      clock: clockOf("engine-clock"),
    }),
  );
  $("create-friend").addEventListener("click", () =>
    create({ mode: "friend", color: $("friend-color").value, clock: clockOf("friend-clock") }),
  );
  $("create-local").addEventListener("click", () => create({ mode: "local", clock: clockOf("local-clock") }));
  $("create-analysis").addEventListener("click", () => create({ mode: "local", clock: null }, "#analysis"));
  for (const b of document.querySelectorAll("#games-screen .tabs button")) {
    b.addEventListener("click", () => navigate(`/games?list=${b.dataset.list}`));
  }
}

// The landing page's introduction: each game's rules link opens its rules;
// on a phone the list of games starts folded, so the cards stay in view.
function wireIntro() {
  for (const a of document.querySelectorAll("#intro a[data-rules]")) {
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      showRules(a.dataset.rules);
    });
  }
  if (window.matchMedia("(max-width: 600px)").matches) $("intro-games").open = false;
}

async function start() {
  app.board = new Board($("board"));
  try {
    app.info = await api.info();
  } catch (err) {
    showScreen("create");
    $("create-error").textContent = "The server does not answer: " + err.message;
    return;
  }
  wireCreation();
  wireGameButtons();
  wireResize();
  $("rules-button").addEventListener("click", () => showRules());
  wireIntro();
  // Links inside the page change the screen without loading the page.
  document.addEventListener("click", (ev) => {
    const a = ev.target.closest ? ev.target.closest("a[data-nav]") : null;
    if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    navigate(a.getAttribute("href"));
  });
  window.addEventListener("popstate", () => route());
  // A tab back in front (its timers may have slept) or a network back up:
  // reconnect at once and read the game again.
  const wake = () => {
    if (app.screen !== "game" || document.visibilityState === "hidden") return;
    if (app.socket) app.socket.wake();
    refresh();
  };
  document.addEventListener("visibilitychange", wake);
  window.addEventListener("online", wake);
  setInterval(() => {
    if (app.screen === "game" && app.game && app.game.clock) renderClocks();
  }, 100);
  await route();
}

start();
