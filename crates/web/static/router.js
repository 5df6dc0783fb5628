// @ts-check
// The screens and the URL: which screen a path shows, opening a game
// (its view and its socket) and leaving it.

import { scheduleAnalysis } from "./analysis.js";
import { api, LiveSocket } from "./api.js";
import { closeChooser } from "./chooser.js";
import { openChat, closeChat } from "./chat.js";
import { loadGames } from "./games.js";
import { loadLeaders } from "./leaders.js";
import { renderConnection, applyGame, applyMove, refresh, schedulePoll } from "./live.js";
import { isLocalId, watchLocal } from "./localgame.js";
import { renderLocalGames } from "./offline.js";
import { showError, textMessage, clearOutage } from "./notices.js";
import { renderPlayers, renderSide } from "./panel.js";
import { loadPlayer } from "./player.js";
import { showRelation } from "./relation.js";
import { resizeChart } from "./chart.js";
import { showLab } from "./lab.js";
import { resizeLabCharts } from "./labchart.js";
import { showEmailLink } from "./email.js";
import { $, app, hooks } from "./state.js";

export function showScreen(name) {
  app.screen = name;
  $("create-screen").hidden = name !== "create";
  $("games-screen").hidden = name !== "games";
  $("game-screen").hidden = name !== "game";
  $("player-screen").hidden = name !== "player";
  $("leaders-screen").hidden = name !== "leaders";
  $("lab-screen").hidden = name !== "lab";
  $("email-screen").hidden = name !== "email";
  renderConnection();
}

export function navigate(path) {
  if (location.pathname + location.search + location.hash !== path) history.pushState(null, "", path);
  route();
}

function leaveGame() {
  if (app.socket) app.socket.close();
  closeChat();
  $("variant-ask").hidden = true;
  textMessage("", "");
  app.socket = null;
  clearTimeout(app.pollTimer);
  app.gameId = null;
  app.game = null;
  app.state = null;
  app.crowd = null;
  app.seatSeen = undefined;
  app.connection = "none";
  app.variation = null;
  app.unsent = null;
  app.declined = null;
  $("resign-box").hidden = true;
  closeChooser();
}

export async function route() {
  const path = location.pathname;
  const m = /^\/g\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (m) {
    if (app.gameId !== m[1]) await openGame(m[1]);
    else scheduleAnalysis();
    return;
  }
  leaveGame();
  if (path === "/games" || path === "/games/") {
    showScreen("games");
    document.title = "Games - Springboard";
    const list = new URLSearchParams(location.search).get("list") || "ongoing";
    loadGames(list);
    return;
  }
  const p = /^\/@\/([^/]+)\/?$/.exec(path);
  if (p) {
    let name = p[1];
    try {
      name = decodeURIComponent(name);
    } catch (_) {
      // A malformed escape: the name as it came (no such player).
    }
    showScreen("player");
    document.title = `${name} - Springboard`;
    loadPlayer(name);
    showRelation(name);
    return;
  }
  if (path === "/player" || path === "/player/") {
    showScreen("leaders");
    document.title = "Leaderboards - Springboard";
    loadLeaders();
    return;
  }
  if (path === "/lab" || path === "/lab/") {
    showScreen("lab");
    document.title = "Lab - Springboard";
    showLab();
    return;
  }
  const e = /^\/email\/(confirm|unsubscribe)\/([^/]+)\/?$/.exec(path);
  if (e) {
    showScreen("email");
    showEmailLink(/** @type {"confirm" | "unsubscribe"} */ (e[1]), e[2]);
    return;
  }
  showScreen("create");
  document.title = "Springboard";
  if (app.info) renderLocalGames();
}

window.addEventListener("resize", () => {
  if (app.screen === "player") resizeChart();
  if (app.screen === "lab") resizeLabCharts();
});

export async function openGame(id, preloaded) {
  leaveGame();
  app.gameId = id;
  showScreen("game");
  showError("");
  $("analysis-toggle", HTMLInputElement).checked = location.hash === "#analysis";
  let v = preloaded;
  if (!v) {
    try {
      v = await api.game(id);
    } catch (err) {
      if (app.gameId !== id) return;
      $("game-screen").hidden = true;
      showScreen("create");
      $("create-error").textContent = err.status === 404 ? `There is no game ${id}.` : `Cannot open game ${id}: ${err.message}`;
      return;
    }
  }
  if (app.gameId !== id) return;
  applyGame(v);
  // A game opens with its board in view, not at the scroll of the page
  // it was opened from (a phone's home page is scrolled down to its
  // buttons).
  window.scrollTo(0, 0);
  // A game kept in the browser has no socket and no chat: it changes here
  // (the engine's move in its worker), and is read again then.
  if (isLocalId(id)) {
    watchLocal(id, () => refresh());
    return;
  }
  connectSocket(id);
  openChat(id);
}

export function connectSocket(id) {
  if (app.socket) app.socket.close();
  app.socket = new LiveSocket(id, {
    version: () => (app.game && typeof app.game.version === "number" ? app.game.version : null),
    onState: (v) => {
      if (!app.game || typeof app.game.version !== "number" || v > app.game.version) refresh();
    },
    // A move: played on the page; the server says "state" on connecting
    // when the version shown is behind (a reconnect catches up).
    onMove: (msg) => applyMove(msg),
    onCrowd: (d) => {
      app.crowd = d;
      if (app.game) {
        renderPlayers();
        renderSide();
      }
    },
    onStatus: (s) => {
      app.connection = s;
      renderConnection();
      // Back online: an outage's message is no longer true, and a kept
      // move may be sent now. The presence dots follow the connection.
      if (s === "live") clearOutage();
      if (app.unsent) app.unsent.back = s === "live";
      if (app.game && app.state) hooks.render();
      schedulePoll();
    },
  });
}
