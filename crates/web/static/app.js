// @ts-check
// Springboard's page: the creation screen, a game (played, watched or
// replayed, kept live through the game's socket), and the games list.
// The page writes no rules: what can move where comes from the rules core,
// in the browser when the server has its WebAssembly build (localrules.js)
// or else from the server's legal move lists; every move is checked again
// by the server, whose answer wins, and the server keeps the seats, the
// clocks and the engine's moves.
// This module starts the page: it wires the game's buttons and the
// modules' call-backs (state.js's hooks), then shows the screen of the URL.

import { wireAccount } from "./account.js";
import { scheduleAnalysis } from "./analysis.js";
import { api } from "./api.js";
import { Board } from "./board.js";
import { wireResize } from "./boardsize.js";
import { renderClocks } from "./clocks.js";
import { run, view, step } from "./commands.js";
import { wireCreation, wireIntro } from "./home.js";
import { wireLobby } from "./lobby.js";
import { wireConditional } from "./conditional.js";
import { wireTurns } from "./turn.js";
import { applyGame, refresh } from "./live.js";
import { registerWorker, serverInfo, startRules } from "./offline.js";
import { invitation, renderControls } from "./panel.js";
import { wireBoardInput } from "./boardinput.js";
import { openChat, wireChat } from "./chat.js";
import { wireRelation } from "./relation.js";
import { render } from "./render.js";
import { showScreen, navigate, route, connectSocket } from "./router.js";
import { showRules } from "./rules.js";
import { $, app, hooks, you } from "./state.js";
import { copyPgn, exportText, importText, onGamePicked, startPicked } from "./textio.js";
import { typedError, onTypedMove } from "./typed.js";
import { fillPlayerGames, wirePlayer } from "./player.js";
import { wireNotify } from "./notify.js";
import { wireLab } from "./lab.js";

function wireGameButtons() {
  $("flip").addEventListener("click", () => {
    app.board.flipped = !app.board.flipped;
    render();
  });
  $("takeback").addEventListener("click", () =>
    run(async () => {
      const g = app.game;
      if (you() === "both") applyGame(await api.undo(g.id, 1));
      else applyGame(await api.takeback(g.id, "offer"));
    }),
  );
  $("draw").addEventListener("click", () => run(async () => applyGame(await api.draw(app.gameId, "offer"))));
  $("abort").addEventListener("click", () => run(async () => applyGame(await api.abort(app.gameId))));
  $("resign").addEventListener("click", () => {
    $("resign-box").hidden = false;
    $("resign").hidden = true;
  });
  $("resign-no").addEventListener("click", () => {
    $("resign-box").hidden = true;
    renderControls();
  });
  $("resign-yes").addEventListener("click", () => {
    $("resign-box").hidden = true;
    run(async () => applyGame(await api.resign(app.gameId)));
  });
  $("rematch").addEventListener("click", () =>
    run(async () => {
      const g = app.game;
      const action = g.offers && g.offers.rematch && g.offers.rematch !== you() ? "accept" : "offer";
      applyGame(await api.rematch(g.id, action));
    }),
  );
  $("join").addEventListener("click", () =>
    run(async () => {
      const v = await api.join(app.gameId, invitation());
      // The seat is taken: the page's address is the game's, to watch.
      history.replaceState(null, "", location.pathname + location.hash);
      applyGame(v);
      // The socket learns the new seat from the cookie of a new upgrade.
      connectSocket(app.gameId);
      // A read the old socket started before the seat's cookie was kept
      // may answer the same version as a spectator after this view: read
      // the game again with the cookie (a read in flight is followed by
      // one more), so the seat's view is the last one shown.
      refresh();
      // So does the chat: the player is in the players' room now.
      openChat(app.gameId);
    }),
  );
  $("invite-copy").addEventListener("click", async () => {
    const input = $("invite-link", HTMLInputElement);
    let ok = false;
    try {
      await navigator.clipboard.writeText(input.value);
      ok = true;
    } catch (_) {
      input.select();
      ok = document.execCommand && document.execCommand("copy");
    }
    $("invite-copy").textContent = ok ? "Copied" : "Select and copy";
    setTimeout(() => ($("invite-copy").textContent = "Copy"), 2000);
  });
  $("analysis-toggle").addEventListener("change", () => {
    const hash = $("analysis-toggle", HTMLInputElement).checked ? "#analysis" : "";
    history.replaceState(null, "", location.pathname + location.search + hash);
    scheduleAnalysis();
  });
  $("nav-start").addEventListener("click", () => view(0));
  $("nav-back").addEventListener("click", () => step(-1));
  $("nav-forward").addEventListener("click", () => step(1));
  $("nav-end").addEventListener("click", () => view(app.game.plies));
  $("export-fen").addEventListener("click", () => exportText("fen"));
  $("export-pgn").addEventListener("click", () => exportText("pgn"));
  $("copy-pgn").addEventListener("click", copyPgn);
  $("import-fen").addEventListener("click", () => importText("fen"));
  $("import-pgn").addEventListener("click", () => importText("pgn"));
  $("game-variant").addEventListener("change", onGamePicked);
  $("variant-yes").addEventListener("click", () => startPicked($("variant-ask").dataset.variant));
  $("variant-no").addEventListener("click", () => {
    $("variant-ask").hidden = true;
    if (app.game) $("game-variant", HTMLSelectElement).value = app.game.variant;
  });
  $("move-entry").addEventListener("submit", onTypedMove);
  $("move-text").addEventListener("input", () => typedError(""));
  wireBoardInput();
}

async function start() {
  hooks.render = render;
  hooks.navigate = navigate;
  app.board = new Board($("board"));
  registerWorker();
  try {
    // Kept from the last visit when the server cannot be reached (offline.js).
    app.info = await serverInfo();
  } catch (err) {
    showScreen("create");
    $("create-error").textContent = "The server does not answer: " + err.message;
    return;
  }
  wireCreation();
  wireGameButtons();
  wireResize();
  $("rules-button").addEventListener("click", () => showRules());
  wireIntro();
  wireLobby();
  wireChat();
  wireRelation();
  wireNotify();
  wireTurns();
  wireConditional();
  wireAccount();
  fillPlayerGames();
  wirePlayer();
  wireLab();
  // Links inside the page change the screen without loading the page.
  document.addEventListener("click", (ev) => {
    const target = /** @type {Element} */ (ev.target);
    const a = target.closest ? target.closest("a[data-nav]") : null;
    if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    navigate(a.getAttribute("href"));
  });
  window.addEventListener("popstate", () => route());
  // A tab back in front (its timers may have slept) or a network back up:
  // reconnect at once and read the game again.
  const wake = () => {
    if (app.screen !== "game" || document.visibilityState === "hidden") return;
    if (app.socket) app.socket.wake();
    refresh();
  };
  document.addEventListener("visibilitychange", wake);
  window.addEventListener("online", wake);
  setInterval(() => {
    if (app.screen === "game" && app.game && app.game.clock) renderClocks();
  }, 100);
  await route();
  // The rules core in the browser loads once the first screen is drawn
  // and the browser is idle (its compiling then takes nothing from it);
  // until it has (or without it) the page asks the server.
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => startRules(), { timeout: 1000 });
  else setTimeout(startRules, 200);
}

start();
