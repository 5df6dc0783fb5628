// @ts-check
// The page's one-line messages: errors, hints, the text box's notes.

import { $ } from "./state.js";

// Whether the error shown is the one of an outage (cleared when the page
// is connected again).
let outage = false;

export function showError(text) {
  $("error").textContent = text || "";
  outage = false;
}

// A request that never reached the server (the network or the server is
// down): said in plain words, instead of the browser's "Failed to fetch".
export const OUTAGE_TEXT = "The server cannot be reached, so this was not done: try again when the connection is back.";

export function showOutage(text) {
  showError(text || OUTAGE_TEXT);
  outage = true;
}

// The connection is back: an outage's message is no longer true.
export function clearOutage() {
  if (outage) showError("");
}

// Whether `err` is a request that got no answer from the server (fetch's
// TypeError), rather than one the server refused.
export function isOutage(err) {
  return !!err && err.status === undefined && err instanceof TypeError;
}

export function showHint(text) {
  $("hint").textContent = text || "";
}

// The messages of the text box, shown right under it.
export function textMessage(note, error) {
  $("text-note").textContent = note || "";
  $("text-error").textContent = error || "";
}
