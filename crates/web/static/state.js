// @ts-check
// The page's state, shared by its modules (the game and the position
// shown, the connection, the move being entered), and the questions they
// all ask of it: whose turn, which seat this browser holds, is it over.

import { MoveInput } from "./input.js";

/**
 * The page's element with this `id`, checked to be a `kind` when given
 * (the page is index.html: a missing element is a bug, and says so).
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{ new (): T, name: string }} [kind]
 * @returns {T}
 */
export function $(id, kind) {
  const el = document.getElementById(id);
  if (!el || (kind && !(el instanceof kind))) throw new Error(`the page has no ${kind ? kind.name : "element"} #${id}`);
  return /** @type {T} */ (el);
}

/**
 * The page's HTML elements that match `selector`.
 * @param {string} selector
 * @returns {HTMLElement[]}
 */
export function $$(selector) {
  return [...document.querySelectorAll(selector)].filter((e) => e instanceof HTMLElement);
}

/**
 * What the lower modules call in the higher ones: the modules import one
 * another in one direction only (no circles), so the few calls that go
 * the other way go through here. app.js sets them before anything runs.
 */
export const hooks = {
  /** Draws the game screen again from the state. */
  /** @type {() => void} */
  render: () => {
    throw new Error("hooks.render called before app.js set it");
  },
  /** Goes to a path of the page (a game, the games list) without loading it. */
  /** @type {(path: string) => void} */
  navigate: (_path) => {
    throw new Error("hooks.navigate called before app.js set it");
  },
};

export const app = {
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
  sending: null, // the move being sent (a promise), while the board shows it ahead of the server
  seatSeen: undefined, // the seat the board was last oriented for
  flagAsked: null,
  pollTimer: null,
  hover: null, // the board square under the pointer (for the drop preview)
  // A move the server could not be reached to play: {move, gameId, ply}
  // (the game's moves before it), kept to send again.
  unsent: null,
  declined: null, // {text, version}: the opponent declined this player's offer (at that version)
  traysOf: null, // the game whose men were seen in reserve (its board keeps room for them)
};

export function viewingCurrent() {
  return (
    app.state && app.game && !app.state.line && app.state.ply === app.state.plies && app.state.plies === app.game.plies
  );
}

// Side lines (variations) are played on the page from any earlier position
// of a game at one screen or of a game that is over; the server checks
// each move and sends the position, but keeps the game's own moves as they
// are (its main line stays what the players played).
export function variationsAllowed() {
  const g = app.game;
  return !!g && (g.mode === "local" || ended(g));
}

export function sideName(color) {
  return color === "white" ? "White" : "Black";
}

export function other(color) {
  return color === "white" ? "black" : "white";
}

export function ended(g) {
  return !!(g && (g.status === "ended" || g.result || g.outcome));
}

// Which seat(s) this browser holds: "white", "black", "both" or null.
export function you() {
  return app.game ? app.game.you || null : null;
}

export function holds(color) {
  const y = you();
  return y === "both" || (y !== null && y === color);
}

// Whether this browser may enter a move now.
export function canMove() {
  const g = app.game;
  if (app.state && app.state.line) return variationsAllowed() && app.state.legal.length > 0;
  if (!g || !viewingCurrent() || ended(g) || g.status === "waiting") return false;
  return holds(app.state.turn);
}

export function stuckSide(color) {
  return app.state && (app.state.stuck || []).find((x) => x.color === color);
}
