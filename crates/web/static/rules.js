// @ts-check
// The rules dialog: a game's rules for players (Markdown from the server),
// and a link to what the Lab measured in that game.

import { api } from "./api.js";
import { renderMarkdown } from "./markdown.js";
import { $, app } from "./state.js";

/**
 * The link to the Lab's questions about `variant` (the page's filter by
 * game), which closes the rules as it opens them.
 * @param {string} variant
 * @param {HTMLDialogElement} dialog
 */
function labLink(variant, dialog) {
  const p = document.createElement("p");
  p.className = "rules-lab";
  const a = document.createElement("a");
  a.href = `/lab?game=${encodeURIComponent(variant)}`;
  a.dataset.nav = "";
  a.textContent = "What the Lab measured in this game";
  a.addEventListener("click", () => dialog.close());
  p.append("Measured answers to this game's open questions: ", a, ".");
  return p;
}

export async function showRules(which) {
  const variant = which || (app.state ? app.state.variant : $("variant", HTMLSelectElement).value);
  try {
    const r = await api.rules(variant);
    $("rules-text").innerHTML = renderMarkdown(r.text);
    const heading = $("rules-text").querySelector("h2");
    if (heading) heading.id = "rules-title";
    const dialog = $("rules", HTMLDialogElement);
    $("rules-text").append(labLink(variant, dialog));
    dialog.showModal();
    // The rules open at their top, whatever was read last time.
    dialog.scrollTop = 0;
    $("rules-text").focus({ preventScroll: true });
  } catch (err) {
    (app.screen === "game" ? $("error") : $("create-error")).textContent = err.message;
  }
}
