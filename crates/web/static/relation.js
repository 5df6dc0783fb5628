// @ts-check
// Blocks on the player page (/@/{name}, relation/ on the server): signed
// in, another player's page has "Block" (or "Unblock"), and one's own page
// lists the players one blocks, each with "Unblock". A blocked player's
// chat lines are not shown, and neither challenges the other.

import { $ } from "./state.js";

/** Who the page is signed in as (the header's "account" event). */
let me = /** @type {string | null} */ (null);
/** The player page shown. */
let shownName = "";

/**
 * @param {string} method
 * @param {string} path
 */
async function call(method, path) {
  const resp = await fetch(path, { method, credentials: "same-origin" });
  const data = await resp.json().catch(() => null);
  if (!resp.ok) throw new Error(data && data.error ? data.error : `request failed (${resp.status})`);
  return data;
}

/** @returns {Promise<{id: string, name: string}[]>} */
async function blocking() {
  const data = await call("GET", "/api/rel/blocking");
  return data.blocking;
}

/**
 * Blocks or unblocks `name`, then shows the page's controls again.
 * @param {"block" | "unblock"} what
 * @param {string} name
 */
async function act(what, name) {
  $("player-rel-error").textContent = "";
  try {
    await call("POST", `/api/rel/${what}/${encodeURIComponent(name)}`);
  } catch (err) {
    $("player-rel-error").textContent = err.message;
  }
  await showRelation(shownName);
}

/** The block controls of the player page of `name`. @param {string} name */
export async function showRelation(name) {
  shownName = name;
  const rel = $("player-rel");
  const list = $("player-blocks");
  rel.hidden = true;
  list.hidden = true;
  $("player-rel-error").textContent = "";
  if (!me || !name) return;
  let blocked;
  try {
    blocked = await blocking();
  } catch (_) {
    return;
  }
  if (shownName !== name) return;
  if (name.toLowerCase() === me.toLowerCase()) {
    const ul = $("player-blocks-list");
    ul.replaceChildren(
      ...blocked.map((b) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = `/@/${encodeURIComponent(b.name)}`;
        a.dataset.nav = "";
        a.textContent = b.name;
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = "Unblock";
        button.addEventListener("click", () => act("unblock", b.name));
        li.append(a, " ", button);
        return li;
      }),
    );
    $("player-blocks-empty").hidden = blocked.length > 0;
    list.hidden = false;
    return;
  }
  const blocks = blocked.some((b) => b.id === name.toLowerCase());
  const button = $("player-block", HTMLButtonElement);
  button.textContent = blocks ? "Unblock" : "Block";
  button.dataset.action = blocks ? "unblock" : "block";
  $("player-rel-note").textContent = blocks ? "You block this player: no chat, no challenges between you." : "";
  rel.hidden = false;
}

export function wireRelation() {
  $("player-block").addEventListener("click", (event) => {
    const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
    act(button.dataset.action === "unblock" ? "unblock" : "block", shownName);
  });
  document.addEventListener("account", (event) => {
    me = /** @type {CustomEvent} */ (event).detail || null;
    if (shownName) showRelation(shownName);
  });
}
