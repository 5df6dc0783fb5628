// @ts-check
// Typed moves: the move box under the board reads SAN or long notation
// through the server, and says why a move cannot be typed now.

import { api } from "./api.js";
import { closeChooser } from "./chooser.js";
import { play } from "./commands.js";
import { $, app, viewingCurrent, sideName, ended, you, holds, canMove } from "./state.js";

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

export function renderMoveEntry() {
  const form = $("move-entry");
  // Shown to a player while the game is on, and in a side line; gone
  // once the game is over.
  const over = ended(app.game);
  form.hidden = !((you() && !over) || (app.state && app.state.line));
  // An example from the moves this player may play now (none while the
  // opponent is to move).
  const example = canMove() ? typedExample() : "";
  $("move-text-help").textContent = example ? `Like ${example}` : "";
  $("move-text", HTMLInputElement).placeholder = example ? example.split(" or ")[0] : "";
  // The button stays enabled: a move typed when none can be played gets
  // the reason beside the box.
}

export function typedError(text) {
  $("move-text-error").textContent = text || "";
}

// The move box: the server reads the text with the rules core's notation
// reader (SAN or long notation, every game's forms) at the shown
// position; the move it names is played as a clicked one would be.
export async function onTypedMove(ev) {
  ev.preventDefault();
  const box = $("move-text", HTMLInputElement);
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
