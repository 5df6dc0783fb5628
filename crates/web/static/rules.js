// @ts-check
// The rules dialog: a game's rules for players (Markdown from the server).

import { api } from "./api.js";
import { renderMarkdown } from "./markdown.js";
import { $, app } from "./state.js";

export async function showRules(which) {
  const variant = which || (app.state ? app.state.variant : $("variant", HTMLSelectElement).value);
  try {
    const r = await api.rules(variant);
    $("rules-text").innerHTML = renderMarkdown(r.text);
    const heading = $("rules-text").querySelector("h2");
    if (heading) heading.id = "rules-title";
    const dialog = $("rules", HTMLDialogElement);
    dialog.showModal();
    // The rules open at their top, whatever was read last time.
    dialog.scrollTop = 0;
    $("rules-text").focus({ preventScroll: true });
  } catch (err) {
    (app.screen === "game" ? $("error") : $("create-error")).textContent = err.message;
  }
}
