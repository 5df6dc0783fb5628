// @ts-check
// Notifications in the page's header (signed in only): a button with the
// unread count, a dialog with the list (each item links to its game or to
// the lobby), "Mark all read", the browser's Notification API for a new
// one while the tab is hidden (permission asked from a button, never on
// load), and the email settings (address, confirmation state, kinds; "off"
// when the server has no SMTP). The count and new items come live over
// GET /api/notify/socket.

import { api } from "./api.js";
import { $ } from "./state.js";

/** @type {WebSocket | null} */
let socket = null;
/** @type {ReturnType<typeof setTimeout> | null} */
let retry = null;
let signedIn = false;

/** @param {number} n */
function showCount(n) {
  const badge = $("notify-badge");
  badge.textContent = n > 0 ? String(n) : "";
  badge.hidden = !(n > 0);
  $("notify-open").setAttribute("aria-label", `Notifications (${n} unread)`);
}

/**
 * What a notification says, in words.
 * @param {any} n
 */
export function sentence(n) {
  switch (n.kind) {
    case "your_turn":
      return `Your turn against ${n.opponent} (${n.variant})` + (n.move ? `: they played ${n.move}` : "");
    case "challenge":
      return `${n.from} challenges you to ${n.variant}` + (n.rated ? " (rated)" : "");
    case "game_ended": {
      const how = n.outcome === "won" ? "You won" : n.outcome === "lost" ? "You lost" : n.outcome === "draw" ? "Draw" : "Aborted";
      return `${how} against ${n.opponent} (${n.variant}): ${n.result}, ${n.reason}`;
    }
    default:
      return String(n.kind);
  }
}

/** @param {any[]} items */
function showList(items) {
  const list = $("notify-list");
  list.replaceChildren();
  for (const n of items) {
    const li = document.createElement("li");
    li.className = n.read ? "read" : "unread";
    const a = document.createElement("a");
    a.href = n.url;
    a.textContent = sentence(n);
    a.addEventListener("click", () => {
      if (!n.read) api.notifyRead(n.id).catch(() => {});
    });
    const when = document.createElement("time");
    when.dateTime = new Date(n.created_at).toISOString();
    when.textContent = new Date(n.created_at).toLocaleString();
    li.append(a, " ", when);
    list.append(li);
  }
  $("notify-empty").hidden = items.length > 0;
}

async function loadList() {
  try {
    const l = await api.notifications();
    showCount(l.unread);
    showList(l.notifications);
  } catch (_) {
    // Signed out meanwhile: the account event hides the button.
  }
}

/** @param {any} n */
function alertBrowser(n) {
  if (!document.hidden || typeof Notification === "undefined") return;
  if (Notification.permission !== "granted") return;
  const shown = new Notification("Springboard", { body: sentence(n), tag: n.id });
  shown.onclick = () => {
    window.focus();
    location.href = n.url;
  };
}

function connect() {
  if (socket || !signedIn) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const s = new WebSocket(`${proto}//${location.host}/api/notify/socket`);
  socket = s;
  s.onmessage = (ev) => {
    let m;
    try {
      m = JSON.parse(ev.data);
    } catch (_) {
      return;
    }
    if (typeof m.unread === "number") showCount(m.unread);
    if (m.t === "notification") {
      if ($("notify-dialog", HTMLDialogElement).open) loadList();
      alertBrowser(m.notification);
    }
  };
  s.onclose = () => {
    if (socket === s) socket = null;
    if (signedIn && !retry) retry = setTimeout(() => { retry = null; connect(); }, 3000);
  };
}

function disconnect() {
  const s = socket;
  socket = null;
  if (s) s.close();
}

function showAlertsButton() {
  const b = $("notify-alerts", HTMLButtonElement);
  if (typeof Notification === "undefined") {
    b.hidden = true;
    return;
  }
  b.disabled = Notification.permission !== "default";
  b.textContent = Notification.permission === "granted"
    ? "Alerts on when this tab is hidden"
    : Notification.permission === "denied" ? "Alerts blocked by the browser" : "Alert me when this tab is hidden";
}

/** @param {any} e */
function showEmail(e) {
  $("notify-email-off").hidden = e.enabled;
  const form = $("notify-email-form", HTMLFormElement);
  form.hidden = !e.enabled;
  if (!e.enabled) return;
  const address = $("notify-email-address", HTMLInputElement);
  if (document.activeElement !== address) address.value = e.address || "";
  $("notify-email-remove").hidden = !e.address;
  $("notify-email-state").textContent = !e.address
    ? "Add an address: a link is sent to it to confirm it."
    : e.confirmed
      ? `${e.address} is confirmed. Every email has a link to stop it.`
      : `A link was sent to ${e.address}: open it to confirm the address. Nothing is sent until then.`;
  const kinds = $("notify-email-kinds");
  kinds.hidden = !e.address;
  for (const box of kinds.querySelectorAll("input")) {
    box.checked = e.kinds.includes(box.value);
  }
}

async function loadEmail() {
  try {
    showEmail(await api.notifyEmail());
  } catch (_) {
    $("notify-email-off").hidden = true;
  }
}

/** @param {unknown} e */
function emailError(e) {
  $("notify-email-state").textContent = e instanceof Error ? e.message : String(e);
}

export function wireNotify() {
  const dialog = $("notify-dialog", HTMLDialogElement);
  $("notify-open").addEventListener("click", () => {
    showAlertsButton();
    loadList();
    loadEmail();
    dialog.showModal();
  });
  $("notify-close").addEventListener("click", () => dialog.close());
  $("notify-list").addEventListener("click", (ev) => {
    if (ev.target instanceof HTMLAnchorElement) dialog.close();
  });
  $("notify-read-all").addEventListener("click", async () => {
    try {
      await api.notifyReadAll();
    } catch (_) {
      // The list shows what the server has.
    }
    loadList();
  });
  $("notify-alerts").addEventListener("click", async () => {
    if (typeof Notification === "undefined") return;
    await Notification.requestPermission();
    showAlertsButton();
  });
  $("notify-email-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      showEmail(await api.notifySetEmail($("notify-email-address", HTMLInputElement).value));
    } catch (e) {
      emailError(e);
    }
  });
  $("notify-email-remove").addEventListener("click", async () => {
    try {
      showEmail(await api.notifyRemoveEmail());
    } catch (e) {
      emailError(e);
    }
  });
  $("notify-email-kinds").addEventListener("change", async () => {
    const kinds = [...$("notify-email-kinds").querySelectorAll("input")]
      .filter((b) => b.checked)
      .map((b) => b.value);
    try {
      showEmail(await api.notifySetKinds(kinds));
    } catch (e) {
      emailError(e);
    }
  });
  // account.js tells who the page is signed in as.
  document.addEventListener("account", (ev) => {
    const name = /** @type {CustomEvent} */ (ev).detail;
    signedIn = !!name;
    $("notify-open").hidden = !signedIn;
    if (signedIn) {
      connect();
    } else {
      disconnect();
      showCount(0);
    }
  });
}
