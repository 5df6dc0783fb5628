// @ts-check
// The page's one-line messages: errors, hints, the text box's notes.

import { $ } from "./state.js";

export function showError(text) {
  $("error").textContent = text || "";
}

export function showHint(text) {
  $("hint").textContent = text || "";
}

// The messages of the text box, shown right under it.
export function textMessage(note, error) {
  $("text-note").textContent = note || "";
  $("text-error").textContent = error || "";
}
