// @ts-check
// The account's personal API tokens (docs/api.md), in a dialog opened from
// the header's "API" button when signed in: the list (description, when
// made, when last used) with Revoke, and a form that makes one; a new
// token is shown once, to copy.

import { api } from "./api.js";
import { $ } from "./state.js";

/** @param {number | null} ms */
function when(ms) {
  return ms ? new Date(ms).toLocaleDateString() : "never";
}

/** @param {string} text */
function showError(text) {
  const el = $("tokens-error");
  el.textContent = text;
  el.hidden = !text;
}

/** Reads and shows the account's tokens. */
async function loadTokens() {
  const list = $("tokens-list");
  let tokens = [];
  try {
    tokens = (await api.tokens()).tokens;
  } catch (e) {
    showError(e instanceof Error ? e.message : String(e));
    return;
  }
  list.replaceChildren(
    ...tokens.map((/** @type {any} */ t) => {
      const li = document.createElement("li");
      const text = document.createElement("span");
      text.textContent = `${t.description} (made ${when(t.created_at)}, used ${when(t.last_used)})`;
      const revoke = document.createElement("button");
      revoke.type = "button";
      revoke.textContent = "Revoke";
      revoke.addEventListener("click", async () => {
        showError("");
        try {
          await api.revokeToken(t.id);
        } catch (e) {
          showError(e instanceof Error ? e.message : String(e));
        }
        await loadTokens();
      });
      li.append(text, revoke);
      return li;
    }),
  );
  if (!tokens.length) {
    const li = document.createElement("li");
    li.className = "hint";
    li.textContent = "No tokens yet.";
    list.append(li);
  }
}

export function wireTokens() {
  const dialog = $("tokens-dialog", HTMLDialogElement);
  const form = $("tokens-form", HTMLFormElement);
  const description = $("tokens-description", HTMLInputElement);
  $("account-tokens-open").addEventListener("click", () => {
    showError("");
    $("tokens-new").hidden = true;
    $("tokens-value").textContent = "";
    description.value = "";
    dialog.showModal();
    loadTokens();
  });
  $("tokens-close").addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    try {
      const made = await api.createToken(description.value);
      $("tokens-value").textContent = made.token;
      $("tokens-new").hidden = false;
      description.value = "";
    } catch (e) {
      showError(e instanceof Error ? e.message : String(e));
    }
    await loadTokens();
  });
}
