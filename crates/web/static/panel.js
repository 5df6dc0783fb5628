// @ts-check
// The game's panels around the board: the players (name, seat, presence),
// the status line, the Jumping King's notes, the game's buttons (take
// back, draw, resign, rematch) with the offers, and the side panel.

import { api } from "./api.js";
import { playerBoxes, clockLabel } from "./clocks.js";
import { run, resend, dropUnsent } from "./commands.js";
import { applyGame } from "./live.js";
import { roleName } from "./pieces.js";
import { resultOf, scoreText, resultText } from "./result.js";
import { $, app, viewingCurrent, variationsAllowed, sideName, other, ended, you, stuckSide } from "./state.js";

// A seat's label: the engine's name and level, the account's name and
// rating in a rated game (`1500?` while provisional, and the change once
// it has ended: `+12`), the player a loaded game names (its White or Black
// tag), the side for another player, or that the seat is still free.
function seatName(color) {
  const g = app.game;
  const seat = g.seats && g.seats[color];
  if (seat && seat.kind === "engine") return seat.name || "Engine";
  const r = seat && seat.rating;
  if (r) {
    const diff = r.diff == null ? "" : r.diff >= 0 ? ` +${r.diff}` : ` \u2212${-r.diff}`;
    return `${r.name} (${r.rating}${r.provisional ? "?" : ""}${diff})`;
  }
  const tagged = g.tags && g.tags[sideName(color)];
  if (tagged) return `${sideName(color)}: ${tagged}`;
  if (seat && !seat.taken && g.mode !== "local") return `${sideName(color)}: waiting for a player`;
  return sideName(color);
}

export function renderPlayers() {
  const g = app.game;
  const y = you();
  for (const [box, color] of playerBoxes()) {
    box.dataset.color = color;
    let name = seatName(color);
    if (y === color) name += " (you)";
    const seat = g.seats && g.seats[color];
    const label = box.querySelector(".name");
    // An account's name links to the player's page.
    const account = seat && seat.rating && seat.rating.name;
    if (account && name.startsWith(account)) {
      const a = document.createElement("a");
      a.href = `/@/${encodeURIComponent(account)}`;
      a.dataset.nav = "";
      a.className = "player-link";
      a.textContent = account;
      label.replaceChildren(a, name.slice(account.length));
    } else {
      label.textContent = name;
    }
    const dot = /** @type {HTMLElement} */ (box.querySelector(".presence"));
    const engine = seat && seat.kind === "engine";
    // Presence follows this page's socket: while it is down, nobody is
    // known to be connected.
    const lost = app.connection === "offline";
    let online = null;
    if (engine) online = !lost;
    else if (app.crowd && g.mode !== "local") online = !lost && !!app.crowd[color];
    dot.hidden = online === null;
    dot.classList.toggle("on", online === true);
    dot.title = lost ? "not known: this page has lost its connection" : online ? "connected" : "not connected";
    box.classList.toggle("to-move", !ended(g) && g.status !== "waiting" && app.game.turn === color);
  }
}

export function renderStatus() {
  const s = app.state;
  const g = app.game;
  const status = $("status");
  status.classList.remove("over");
  if (s.line && s.line.moves.length > 0) {
    const over = s.outcome ? `: ${resultText(s.outcome)}` : `: ${sideName(s.turn)} to move`;
    status.textContent = `Side line after move ${s.line.base} of the game${over}`;
    return;
  }
  if (!viewingCurrent()) {
    const more = variationsAllowed() ? " (a move here starts a side line)" : "";
    status.textContent = `Viewing the position after ${s.ply} of ${g.plies} moves${more}`;
    return;
  }
  const r = ended(g) ? resultOf(g) : null;
  if (r) {
    status.classList.add("over");
    status.textContent = `Game over: ${resultText(r)} (${scoreText(r.result)})`;
    return;
  }
  if (g.status === "waiting") {
    status.textContent = you() ? "Waiting for your friend to join" : "Waiting for a second player";
    return;
  }
  let text = `${sideName(s.turn)} to move`;
  if (s.check) text += " (check)";
  const onlyPass = s.legal.length > 0 && s.legal.every((m) => m.kind === "pass");
  if (g.engine_thinking) text += " - the engine is thinking...";
  else if (app.input.placing) text += ": choose the trampoline square";
  else if (onlyPass && stuckSide(s.turn)) {
    const jumper = (s.jumping || []).includes(other(s.turn)) ? `, while ${sideName(other(s.turn))}'s king still jumps` : "";
    text = `${sideName(s.turn)}'s king is stuck: ${sideName(s.turn)} must pass${jumper}`;
  }
  status.textContent = text;
  status.classList.toggle("thinking", !!g.engine_thinking);
}

// "2 rooks, a bishop and 3 pawns"
function menText(men) {
  const parts = men.map((m) => {
    const name = roleName(m.role);
    return m.count === 1 ? `a ${name}` : `${m.count} ${name}s`;
  });
  if (parts.length <= 1) return parts.join("");
  return parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1];
}

export function renderNotes() {
  const notes = [];
  for (const st of app.state.stuck || []) {
    const p = document.createElement("p");
    p.className = "stuck";
    p.dataset.color = st.color;
    const side = sideName(st.color);
    p.textContent = `${side}'s king is stuck: it can jump no more, so the men ${side} holds in reserve (${menText(st.men)}) will never enter the game.`;
    notes.push(p);
  }
  $("notes").replaceChildren(...notes);
}

// The game's buttons, each shown where it belongs and enabled only when
// it makes sense.
export function renderControls() {
  const g = app.game;
  const y = you();
  const seat = y === "white" || y === "black";
  const playing = g.status === "playing" && !ended(g);
  const offers = g.offers || {};
  const takeback = $("takeback", HTMLButtonElement);
  if (y === "both") {
    takeback.hidden = false;
    takeback.textContent = "Take back";
    takeback.disabled = !(g.plies > 0 && viewingCurrent());
  } else if (seat && (g.mode === "friend" || g.mode === "engine") && !ended(g)) {
    takeback.hidden = false;
    const mine = g.history.some((h) => h.color === y);
    takeback.textContent = g.mode === "engine" ? "Take back" : offers.takeback === y ? "Take-back asked" : "Ask take-back";
    takeback.disabled = !(playing && mine && offers.takeback == null);
  } else {
    takeback.hidden = true;
  }
  const draw = $("draw", HTMLButtonElement);
  draw.hidden = !(seat && g.mode === "friend" && !ended(g));
  draw.textContent = offers.draw === y ? "Draw offered" : "Offer draw";
  draw.disabled = !(playing && offers.draw == null);
  // Before both sides have moved a player may abort (no result; a rated
  // game is aborted by the server too when a side does not move).
  $("abort").hidden = !(seat && g.mode !== "local" && !ended(g) && g.plies < 2);
  const resign = $("resign", HTMLButtonElement);
  const confirming = !$("resign-box").hidden;
  resign.hidden = !(seat && g.mode !== "local" && !ended(g)) || confirming;
  resign.disabled = !playing;
  if (!playing) $("resign-box").hidden = true;
  const rematch = $("rematch", HTMLButtonElement);
  rematch.hidden = !(seat && g.mode !== "local" && ended(g) && !g.rematch);
  rematch.textContent =
    offers.rematch === y ? "Rematch offered" : offers.rematch ? "Accept rematch" : "Rematch";
  rematch.disabled = offers.rematch === y;
  renderOffers();
}

// A row of the offers: its text and buttons [id, label, action]; each
// action runs as a request (`run`), or directly when `direct`.
function offerRow(text, buttons, direct = false) {
  const row = document.createElement("div");
  row.className = "offer";
  const t = document.createElement("span");
  t.textContent = text;
  row.append(t);
  for (const [id, label, action] of buttons) {
    const b = document.createElement("button");
    b.type = "button";
    b.id = id;
    b.textContent = label;
    b.addEventListener("click", () => (direct ? action() : run(action)));
    row.append(b);
  }
  return row;
}

function renderOffers() {
  const g = app.game;
  const y = you();
  const seat = y === "white" || y === "black";
  const offers = g.offers || {};
  const rows = [];
  const u = app.unsent;
  if (u && String(u.gameId) === String(g.id)) {
    const why = u.back
      ? "The connection is back: send it now, or drop it."
      : "The server could not be reached. It is kept here: send it again when the connection is back.";
    const row = offerRow(
      `Your move ${u.move.san} was not sent. ${why}`,
      [
        ["unsent-send", "Send again", resend],
        ["unsent-drop", "Drop it", dropUnsent],
      ],
      true,
    );
    row.id = "unsent";
    row.classList.add("unsent");
    rows.push(row);
  }
  const open = g.status === "playing" && !ended(g);
  if (offers.draw && open) {
    if (seat && offers.draw !== y) {
      rows.push(
        offerRow("Your opponent offers a draw.", [
          ["draw-accept", "Accept draw", async () => applyGame(await api.draw(g.id, "accept"))],
          ["draw-decline", "Decline", async () => applyGame(await api.draw(g.id, "decline"))],
        ]),
      );
    } else if (seat) {
      rows.push(offerRow("You offered a draw.", []));
    } else rows.push(offerRow(`${sideName(offers.draw)} offers a draw.`, []));
  }
  if (offers.takeback && open) {
    if (seat && offers.takeback !== y) {
      rows.push(
        offerRow("Your opponent asks to take back a move.", [
          ["takeback-accept", "Grant", async () => applyGame(await api.takeback(g.id, "accept"))],
          ["takeback-decline", "Decline", async () => applyGame(await api.takeback(g.id, "decline"))],
        ]),
      );
    } else if (seat) {
      rows.push(offerRow("You asked to take back a move.", []));
    } else rows.push(offerRow(`${sideName(offers.takeback)} asks to take back a move.`, []));
  }
  if (offers.rematch && ended(g) && !g.rematch) {
    if (seat && offers.rematch !== y) {
      rows.push(
        offerRow("Your opponent offers a rematch.", [
          ["rematch-decline", "Decline", async () => applyGame(await api.rematch(g.id, "decline"))],
        ]),
      );
    } else if (seat) rows.push(offerRow("You offered a rematch.", []));
    else rows.push(offerRow(`${sideName(offers.rematch)} offers a rematch.`, []));
  }
  const d = app.declined;
  if (d && d.version === g.version && seat) {
    const row = offerRow(d.text, []);
    row.id = "declined";
    rows.push(row);
  }
  $("offers").replaceChildren(...rows);
  $("offers").hidden = rows.length === 0;
}

// The invitation's token in the page's address (`/g/{id}?invite=...`).
export function invitation() {
  return new URLSearchParams(location.search).get("invite");
}

export function renderSide() {
  const g = app.game;
  const y = you();
  const modes = { engine: "Against the engine", friend: "Game between friends", local: "Two players at one screen" };
  const parts = [g.origin === "imported" ? "A loaded game" : modes[g.mode] || ""];
  parts.push(g.clock ? clockLabel(g.clock) : "no clock");
  // A loaded PGN's event, place and date.
  const tags = g.tags || {};
  for (const name of ["Event", "Site", "Date", "Round"]) {
    if (tags[name]) parts.push(name === "Round" ? `round ${tags[name]}` : tags[name]);
  }
  $("game-info").textContent = parts.filter(Boolean).join(" - ");
  const waiting = g.status === "waiting";
  $("invite").hidden = !(waiting && y && g.mode === "friend" && g.invite);
  if (!$("invite").hidden) $("invite-link", HTMLInputElement).value = `${location.origin}/g/${g.id}?invite=${encodeURIComponent(g.invite)}`;
  // The free seat of a friend game is the invited friend's: only the
  // invitation link offers it.
  const invited = Boolean(invitation());
  $("join-box").hidden = !(waiting && !y);
  $("join").hidden = !invited;
  $("join-text").textContent = invited ? "A seat is free in this game." : "This game waits for the friend who was sent its invitation link.";
  const watch = $("watchers");
  const n = app.crowd ? app.crowd.spectators : null;
  const lines = [];
  if (!y && g.mode !== "local") lines.push("You are watching this game.");
  if (!y && g.mode === "local") lines.push("You are watching a game played at one screen.");
  if (n !== null && n !== undefined && g.mode !== "local") lines.push(`${n} watching`);
  watch.textContent = lines.join(" ");
  const link = $("rematch-link");
  link.hidden = !g.rematch;
  if (g.rematch) link.querySelector("a").href = `/g/${g.rematch}`;
  const canAnalyse = app.info && app.info.engine && (g.mode === "local" || ended(g));
  $("analysis-box").hidden = !canAnalyse;
  if (!canAnalyse) $("analysis-toggle", HTMLInputElement).checked = false;
  $("download-pgn", HTMLAnchorElement).href = api.pgnDownload(g.id);
}
