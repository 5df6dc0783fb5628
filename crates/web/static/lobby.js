// @ts-check
// The lobby on the home page: the open challenges (and the personal ones
// to or from this player), live over the lobby socket (GET
// /api/lobby/socket: the whole list at connect, then additions and
// removals), a form to post one, Join / Cancel / Accept / Decline, and who
// is online. When a challenge of this player's is accepted, or this player
// accepts one, the page goes to the game at once. The socket stays open on
// every screen: a challenge is withdrawn a few seconds after its author's
// last lobby socket has gone.

import { api } from "./api.js";
import { CLOCKS, TIME_CONTROLS, timeControlFields } from "./clocks.js";
import { fillSelect } from "./picker.js";
import { openGame } from "./router.js";
import { $, app } from "./state.js";

/** @type {Map<string, any>} */
const challenges = new Map();
/** @type {WebSocket | null} */
let ws = null;
let backoff = 500;
/** @type {number | undefined} */
let retry;
/** The signed-in name, or null. @type {string | null} */
let me = null;

function title(variant) {
  const v = app.info && app.info.variants.find((x) => x.name === variant);
  return v ? v.title : variant;
}

function clockLabel(clock) {
  if (!clock) return "Unlimited";
  for (const [label, c] of CLOCKS) {
    if (c && typeof c === "object" && c.initial === clock.initial && c.increment === clock.increment) return String(label);
  }
  const minutes = clock.initial / 60;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)}+${clock.increment}`;
}

function authorLabel(c) {
  if (!c.author) return "Anonymous";
  return `${c.author.name} (${c.author.rating}${c.author.provisional ? "?" : ""})`;
}

function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

function showError(text) {
  $("lobby-error").textContent = text;
}

async function act(promise) {
  showError("");
  try {
    return await promise;
  } catch (err) {
    showError(err instanceof Error ? err.message : String(err));
    return null;
  }
}

async function goTo(game) {
  if (app.gameId === game) return;
  history.pushState(null, "", `/g/${game}`);
  await openGame(game);
}

function render() {
  const body = $("lobby-table").querySelector("tbody");
  if (!body) return;
  body.textContent = "";
  const list = [...challenges.values()].sort((a, b) => a.created_at - b.created_at);
  for (const c of list) {
    const tr = document.createElement("tr");
    tr.dataset.id = c.id;
    if (c.mine) tr.className = "mine";
    const cells = [
      title(c.variant),
      c.correspondence ? c.correspondence.label : clockLabel(c.clock),
      c.rated ? "Rated" : "Casual",
      authorLabel(c) + (c.to ? (c.mine ? ` to ${c.to}` : " to you") : ""),
    ];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    const td = document.createElement("td");
    td.className = "lobby-actions";
    if (c.mine) {
      td.append(button("Cancel", "", () => act(api.cancelChallenge(c.id))));
    } else if (c.to) {
      td.append(button("Accept", "primary", () => accept(c.id)));
      td.append(button("Decline", "", () => act(api.declineChallenge(c.id))));
    } else {
      td.append(button("Join", "primary", () => accept(c.id)));
    }
    tr.append(td);
    body.append(tr);
  }
  $("lobby-empty").hidden = list.length > 0;
}

async function accept(id) {
  const r = await act(api.acceptChallenge(id));
  if (r && r.game) await goTo(String(r.game));
}

function renderOnline(online) {
  const names = online.names.join(", ");
  $("lobby-online").textContent =
    online.count === 0
      ? "No signed-in player online"
      : `${online.count} online: ${names}${online.count > online.names.length ? ", ..." : ""}`;
}

function onMessage(msg) {
  // The "your turn" list (turn.js) reads itself again.
  document.dispatchEvent(new CustomEvent("lobby-change"));
  if (msg.t === "list") {
    challenges.clear();
    for (const c of msg.challenges) challenges.set(c.id, c);
    renderOnline(msg.online);
  } else if (msg.t === "add") {
    challenges.set(msg.challenge.id, msg.challenge);
  } else if (msg.t === "remove") {
    challenges.delete(msg.id);
  } else if (msg.t === "online") {
    renderOnline(msg.online);
    return;
  } else if (msg.t === "declined") {
    showError(`${msg.by} declined your challenge.`);
    return;
  } else if (msg.t === "start") {
    goTo(String(msg.game));
    return;
  } else {
    return;
  }
  render();
}

/** Opens (or opens again) the lobby socket. */
export function connectLobby() {
  clearTimeout(retry);
  if (ws) {
    const old = ws;
    ws = null;
    old.close();
  }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${proto}//${location.host}/api/lobby/socket`);
  ws = socket;
  socket.onopen = () => {
    backoff = 500;
  };
  socket.onmessage = (ev) => {
    if (ws !== socket) return;
    try {
      onMessage(JSON.parse(ev.data));
    } catch (_) {
      // Not a message of ours.
    }
  };
  socket.onclose = () => {
    if (ws !== socket) return;
    ws = null;
    retry = window.setTimeout(connectLobby, backoff);
    backoff = Math.min(backoff * 2, 8000);
  };
}

async function post() {
  const to = $("lobby-to", HTMLInputElement).value.trim();
  const rated = !$("lobby-rated-label").hidden && $("lobby-rated", HTMLInputElement).checked;
  const req = {
    variant: $("lobby-variant", HTMLSelectElement).value,
    ...timeControlFields(Number($("lobby-clock", HTMLSelectElement).value)),
    color: $("lobby-color", HTMLSelectElement).value,
    ...(rated ? { rated: true } : {}),
    ...(to ? { to } : {}),
  };
  const r = await act(api.postChallenge(req));
  if (r) {
    $("lobby-to", HTMLInputElement).value = "";
    challenges.set(r.id, r);
    render();
    // A first seat cookie may have come with the answer: the socket
    // holds the challenge from now on.
    connectLobby();
  }
}

export function wireLobby() {
  fillSelect($("lobby-variant"), app.info.variants.map((v) => [v.name, v.title]));
  fillSelect($("lobby-clock"), TIME_CONTROLS.map(([label], i) => [String(i), label]));
  $("lobby-clock", HTMLSelectElement).value = "2"; // 5+3
  $("lobby-post").addEventListener("click", post);
  document.addEventListener("account", (ev) => {
    const name = /** @type {CustomEvent} */ (ev).detail;
    if (name === me) return;
    me = name;
    // Rated challenges and challenges by name are for accounts.
    $("lobby-rated-label").hidden = !me;
    $("lobby-to-label").hidden = !me;
    connectLobby();
  });
  connectLobby();
}
