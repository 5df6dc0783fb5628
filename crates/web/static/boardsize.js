// @ts-check
// The board's size: the CSS variables of what the game shows, and the
// zoom the player sets with the drag handle (kept for the next visit).

import { $, app } from "./state.js";

const ZOOM_KEY = "springboard.boardZoom";

const MIN_ZOOM = 0.3;

// The CSS of the board's size (style.css, :root) told what the game
// shows: the files and ranks drawn, reserve rows above and below, the
// evaluation bar.
export function sizeBoard() {
  const s = app.state;
  const { files, ranks } = app.board.lines(s);
  // Rows for the reserves: a game with trampolines (each starts off the
  // board), or one with men seen in reserve, keeps them once the trays
  // are empty, so the board keeps its size.
  if (s.reserves.length > 0) app.traysOf = app.gameId;
  const reserves = s.reserves.length > 0 || s.trampolines_in_play || app.traysOf === app.gameId;
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
export function wireResize() {
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
