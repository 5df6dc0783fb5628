// @ts-check
// The game's chat panel (chat/ on the server): the players' room for the
// two players of a friend game, the spectators' room for everyone else
// (only signed-in accounts write there, as on lichess). The history comes
// with GET /api/game/{id}/chat, new lines over the chat socket
// (/api/game/{id}/chat/socket), and a line is sent with POST. Every line
// is set as text, never as HTML. The lines scroll inside their box, so
// the page never moves when one comes.

import { $ } from "./state.js";

/** The open chat: its game, socket, and the ids of the lines shown. */
const open = { id: "", ws: /** @type {WebSocket | null} */ (null), seen: new Set(), retry: 0, backoff: 1000, ping: 0 };

const url = (id) => `/api/game/${encodeURIComponent(id)}/chat`;

/**
 * @param {{id: number, name: string, user: string | null, text: string}} line
 */
function addLine(line) {
  if (open.seen.has(line.id)) return;
  open.seen.add(line.id);
  const list = $("chat-lines");
  const li = document.createElement("li");
  const who = document.createElement(line.user ? "a" : "strong");
  if (who instanceof HTMLAnchorElement) {
    who.href = `/@/${encodeURIComponent(line.name)}`;
    who.dataset.nav = "";
  }
  who.className = "chat-name";
  who.textContent = line.name;
  const text = document.createElement("span");
  text.className = "chat-text";
  text.textContent = line.text;
  li.append(who, " ", text);
  list.append(li);
  while (list.children.length > 200) list.firstElementChild?.remove();
  list.scrollTop = list.scrollHeight;
}

/** @param {string} text */
function showChatError(text) {
  $("chat-error").textContent = text;
}

function connect() {
  const id = open.id;
  if (!id) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try {
    ws = new WebSocket(`${proto}//${location.host}${url(id)}/socket`);
  } catch (_) {
    retry();
    return;
  }
  open.ws = ws;
  ws.onopen = () => {
    open.backoff = 1000;
    // Lines said while the socket was away.
    load(id, false);
  };
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (_) {
      return;
    }
    if (msg.t === "line" && msg.line && open.id === id) addLine(msg.line);
  };
  ws.onclose = () => {
    if (open.ws === ws) {
      open.ws = null;
      retry();
    }
  };
}

function retry() {
  clearTimeout(open.retry);
  if (!open.id) return;
  open.retry = window.setTimeout(connect, open.backoff);
  open.backoff = Math.min(open.backoff * 2, 16000);
}

/**
 * Reads the room; `first`: sets the panel up for it.
 * @param {string} id
 * @param {boolean} first
 */
async function load(id, first) {
  let room;
  try {
    const resp = await fetch(url(id), { credentials: "same-origin" });
    if (!resp.ok) {
      if (first && open.id === id) $("chat").hidden = true;
      return;
    }
    room = await resp.json();
  } catch (_) {
    return;
  }
  if (open.id !== id) return;
  // An answer that is not a room (a server without chat, a proxy's page):
  // no chat panel.
  if (!room || typeof room !== "object" || !Array.isArray(room.lines)) {
    if (first) $("chat").hidden = true;
    return;
  }
  if (first) {
    const players = room.room === "player";
    $("chat-title").textContent = players ? "Chat with your opponent" : "Spectators' chat";
    $("chat-form").hidden = !room.writable;
    $("chat-note").textContent = room.writable ? "" : "Sign in to write here.";
    $("chat").hidden = false;
  }
  for (const line of room.lines) addLine(line);
}

/** Opens the chat of game `id` (closing the one before). @param {string} id */
export function openChat(id) {
  closeChat();
  open.id = id;
  $("chat-lines").replaceChildren();
  showChatError("");
  load(id, true);
  connect();
  open.ping = window.setInterval(() => {
    if (open.ws && open.ws.readyState === WebSocket.OPEN) open.ws.send(JSON.stringify({ t: "ping" }));
  }, 20000);
}

export function closeChat() {
  open.id = "";
  open.seen = new Set();
  clearTimeout(open.retry);
  clearInterval(open.ping);
  open.backoff = 1000;
  if (open.ws) {
    const ws = open.ws;
    open.ws = null;
    ws.close();
  }
  $("chat").hidden = true;
}

export function wireChat() {
  const form = $("chat-form", HTMLFormElement);
  const input = $("chat-text", HTMLInputElement);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const id = open.id;
    const text = input.value.trim();
    if (!id || !text) return;
    showChatError("");
    try {
      const resp = await fetch(url(id), {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ text }),
      });
      const data = await resp.json().catch(() => null);
      if (!resp.ok) {
        showChatError(data && data.error ? data.error : `not sent (${resp.status})`);
        return;
      }
      input.value = "";
      if (open.id === id && data) addLine(data);
    } catch (_) {
      showChatError("The server cannot be reached: the line was not sent.");
    }
  });
  // Signing in or out changes the room and who may write: read it again.
  document.addEventListener("account", () => {
    if (open.id) openChat(open.id);
  });
}
